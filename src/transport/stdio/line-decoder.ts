import { joinBytes } from "../bytes.js";

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** What the decoder found in a chunk: a complete line's text, or a line that could not be taken. */
export type LineEvent = { readonly kind: "line"; readonly text: string } | { readonly kind: "rejected"; readonly reason: string };

/**
 * Splits a byte stream into newline-delimited frames. Pieces of the current frame are kept as
 * they arrived and joined once when its newline comes, so buffering stays linear in the bytes
 * received; a frame is decoded as a whole, so a UTF-8 character split across chunks is intact.
 */
export class LineDecoder {
  readonly #decoder = new TextDecoder("utf-8", { fatal: true });
  #pieces: Uint8Array[] = [];
  #buffered = 0;
  /** Set while skipping the rest of a frame that grew past the limit. */
  #discarding = false;

  constructor(private readonly maxFrameBytes: number) {}

  /** Feeds one chunk; returns the lines (and rejections) it completed, in order. */
  push(chunk: Uint8Array): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      this.#take(chunk.subarray(start, newline), events);
      const event = this.#finishLine();
      if (event) events.push(event);
      start = newline + 1;
    }
    if (start < chunk.length) this.#take(chunk.subarray(start), events);
    return events;
  }

  /** The end of the stream: a last line without a newline still counts. */
  end(): LineEvent[] {
    const event = this.#finishLine();
    return event ? [event] : [];
  }

  #take(piece: Uint8Array, events: LineEvent[]): void {
    if (this.#discarding || piece.length === 0) return;
    this.#buffered += piece.length;
    if (this.#buffered > this.maxFrameBytes) {
      events.push({ kind: "rejected", reason: `Parse error: a frame is longer than the limit of ${this.maxFrameBytes} bytes` });
      this.#pieces = [];
      this.#buffered = 0;
      this.#discarding = true;
      return;
    }
    // Chunks may be reused by their producer: keep a copy only of what stays buffered.
    this.#pieces.push(piece.slice());
  }

  #finishLine(): LineEvent | undefined {
    if (this.#discarding) {
      this.#discarding = false;
      return undefined;
    }
    const bytes = joinBytes(this.#pieces, this.#buffered);
    this.#pieces = [];
    this.#buffered = 0;
    const length = bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
    if (length === 0) return undefined;
    try {
      return { kind: "line", text: this.#decoder.decode(bytes.subarray(0, length)) };
    } catch {
      return { kind: "rejected", reason: "Parse error: a frame is not valid UTF-8" };
    }
  }
}

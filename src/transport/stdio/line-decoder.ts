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
      const piece = chunk.subarray(start, newline);
      // A frame wholly inside this chunk is decoded where it lies: nothing to keep, nothing to copy.
      const event = this.#pieces.length === 0 && !this.#discarding ? this.#whole(piece) : this.#last(piece, events);
      if (event) events.push(event);
      start = newline + 1;
    }
    this.#take(chunk, start, events);
    return events;
  }

  /** The end of the stream: a last line without a newline still counts. */
  end(): LineEvent[] {
    const event = this.#finishLine();
    return event ? [event] : [];
  }

  #whole(bytes: Uint8Array): LineEvent | undefined {
    return bytes.length > this.maxFrameBytes ? this.#tooLong() : this.#decode(bytes);
  }

  #last(piece: Uint8Array, events: LineEvent[]): LineEvent | undefined {
    this.#take(piece, 0, events);
    return this.#finishLine();
  }

  #tooLong(): LineEvent {
    return { kind: "rejected", reason: `Parse error: a frame is longer than the limit of ${this.maxFrameBytes} bytes` };
  }

  /** Keeps `chunk` from `from` on: the start of a frame whose newline has not come yet (nothing, when the chunk ended with its newline). */
  #take(chunk: Uint8Array, from: number, events: LineEvent[]): void {
    if (this.#discarding || from === chunk.length) return;
    this.#buffered += chunk.length - from;
    if (this.#buffered > this.maxFrameBytes) {
      events.push(this.#tooLong());
      this.#pieces = [];
      this.#buffered = 0;
      this.#discarding = true;
      return;
    }
    // Chunks may be reused by their producer: keep a copy only of what stays buffered.
    this.#pieces.push(chunk.slice(from));
  }

  #finishLine(): LineEvent | undefined {
    if (this.#discarding) {
      this.#discarding = false;
      return undefined;
    }
    const bytes = joinBytes(this.#pieces, this.#buffered);
    this.#pieces = [];
    this.#buffered = 0;
    return this.#decode(bytes);
  }

  /** One frame's bytes (a trailing CR dropped) as text; a blank frame is nothing. */
  #decode(bytes: Uint8Array): LineEvent | undefined {
    // An empty frame has no last byte (undefined), so it keeps its length of 0.
    const length = bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
    if (length === 0) return undefined;
    try {
      return { kind: "line", text: this.#decoder.decode(bytes.subarray(0, length)) };
    } catch {
      return { kind: "rejected", reason: "Parse error: a frame is not valid UTF-8" };
    }
  }
}

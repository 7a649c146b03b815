import { joinBytes } from "../bytes.js";

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const DIGITS_ONLY = /^\d+$/;

/** The default bound on one event: the bytes of the line being read plus the data already gathered. */
export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;

/** A dispatched event, as the WHATWG event-stream interpretation defines it. */
export interface SseEvent {
  /** The `event` field, or "message" when none was given. */
  readonly type: string;
  /** The `data` lines joined with "\n". */
  readonly data: string;
  /** The event's own `id` field, when it had one. */
  readonly id: string | undefined;
  /** The last event id in force when the event was dispatched ("" when none). */
  readonly lastEventId: string;
}

/** What a chunk completed: an event, or an event dropped because it outgrew the bound. */
export type SseItem = { readonly kind: "event"; readonly event: SseEvent } | { readonly kind: "oversized"; readonly limit: number };

/**
 * An incremental `text/event-stream` parser. Lines are split on bytes (CR, LF and CRLF, even when
 * a CRLF straddles two chunks) and decoded whole, so a UTF-8 character split across chunks stays
 * intact; a leading BOM is dropped. Invalid UTF-8 becomes U+FFFD; no input makes it throw.
 */
export class SseParser {
  readonly #decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  readonly #maxEventBytes: number;
  #pieces: Uint8Array[] = [];
  #lineBytes = 0;
  #afterCarriageReturn = false;
  #atStreamStart = true;
  /** Set while dropping the rest of an event that outgrew the bound, until its blank line. */
  #skipping = false;
  #data: string[] = [];
  #dataBytes = 0;
  #eventType = "";
  #idBuffer = "";
  #ownId: string | undefined;
  #lastEventId = "";
  #retryMs: number | undefined;

  constructor(maxEventBytes: number = DEFAULT_MAX_EVENT_BYTES) {
    this.#maxEventBytes = maxEventBytes;
  }

  /** The id of the last dispatched event block ("" before any): what `Last-Event-ID` resumes from. */
  get lastEventId(): string {
    return this.#lastEventId;
  }

  /** The reconnection time the server asked for with `retry`, if it did. */
  get retryMs(): number | undefined {
    return this.#retryMs;
  }

  /** Feeds one chunk; returns what it completed, in order. An unfinished event waits for more. */
  push(chunk: Uint8Array): SseItem[] {
    const items: SseItem[] = [];
    let start = 0;
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index];
      if (this.#afterCarriageReturn) {
        this.#afterCarriageReturn = false;
        // The LF of a CRLF: the line already ended at the CR.
        if (byte === LINE_FEED) {
          start = index + 1;
          continue;
        }
      }
      if (byte !== LINE_FEED && byte !== CARRIAGE_RETURN) continue;
      this.#take(chunk.subarray(start, index));
      this.#endLine(items);
      this.#afterCarriageReturn = byte === CARRIAGE_RETURN;
      start = index + 1;
    }
    // Chunks may be reused by their producer: keep a copy of what stays buffered.
    if (start < chunk.length) this.#take(chunk.slice(start));
    return items;
  }

  #take(piece: Uint8Array): void {
    if (piece.length === 0) return;
    this.#lineBytes += piece.length;
    if (this.#skipping) return;
    if (this.#lineBytes + this.#dataBytes > this.#maxEventBytes) {
      this.#skipping = true;
      this.#pieces = [];
      this.#resetEvent();
      return;
    }
    this.#pieces.push(piece);
  }

  #endLine(items: SseItem[]): void {
    const lineBytes = this.#lineBytes;
    this.#lineBytes = 0;
    if (this.#skipping) {
      if (lineBytes > 0) return;
      this.#skipping = false;
      items.push({ kind: "oversized", limit: this.#maxEventBytes });
      return;
    }
    const bytes = joinBytes(this.#pieces, lineBytes);
    this.#pieces = [];
    let line = this.#decoder.decode(bytes);
    if (this.#atStreamStart) {
      this.#atStreamStart = false;
      if (line.startsWith("\uFEFF")) line = line.slice(1);
    }
    if (line === "") this.#dispatch(items);
    else this.#field(line, bytes.length);
  }

  #field(line: string, lineBytes: number): void {
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (name) {
      case "data":
        this.#data.push(value);
        this.#dataBytes += lineBytes;
        return;
      case "event":
        this.#eventType = value;
        return;
      case "id":
        if (value.includes("\u0000")) return;
        this.#idBuffer = value;
        this.#ownId = value;
        return;
      case "retry":
        if (DIGITS_ONLY.test(value)) this.#retryMs = Number(value);
    }
    // Any other field is ignored, as the standard says.
  }

  #dispatch(items: SseItem[]): void {
    this.#lastEventId = this.#idBuffer;
    if (this.#data.length > 0) {
      items.push({
        kind: "event",
        event: { type: this.#eventType || "message", data: this.#data.join("\n"), id: this.#ownId, lastEventId: this.#lastEventId },
      });
    }
    this.#resetEvent();
  }

  #resetEvent(): void {
    this.#data = [];
    this.#dataBytes = 0;
    this.#eventType = "";
    this.#ownId = undefined;
  }
}

import { sseFrame, type SseEvent } from "../encode.js";
import type { EventSink, EventStreamBody } from "./http-server.types.js";

/** How many bytes a connection holds for a client that does not read before it gives up on that client. */
export const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

export interface SseConnectionOptions {
  /** Interval of `: keep-alive` comments; 0 (or not finite) for none. */
  readonly keepAliveMs: number;
  /** Bytes written but not yet read by the client beyond which the connection is ended (default 16 MiB). */
  readonly maxBufferedBytes?: number;
  /** The client went away before reading everything (the response body was cancelled). */
  readonly onClientGone: () => void;
}

type ConnectionState = "open" | "closed" | "failed" | "gone";

/**
 * The body of one SSE response: events are written as they come, keep-alive comments keep idle
 * proxies from cutting it, and every timer stops the moment either end closes it. A client that
 * stops reading while more than `maxBufferedBytes` wait for it is treated as gone: the response is
 * aborted and `onClientGone` runs, so memory stays bounded (with an event store, the client resumes
 * with `Last-Event-ID` and loses nothing). What is written before the reply is sent waits for it.
 */
export class SseConnection implements EventStreamBody {
  readonly #options: SseConnectionOptions;
  readonly #maxBufferedBytes: number;
  #sink: EventSink | undefined;
  /** What was written before the reply was sent (undefined once it is). */
  #early: string[] | undefined = [];
  #earlyLength = 0;
  #state: ConnectionState = "open";
  #keepAlive: ReturnType<typeof setTimeout> | undefined;

  constructor(options: SseConnectionOptions) {
    this.#options = options;
    this.#maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.#armKeepAlive();
  }

  open(sink: EventSink): () => void {
    // A reply's body is opened once, by whoever sends the reply.
    const early = this.#early as string[];
    this.#early = undefined;
    this.#sink = sink;
    for (const text of early) sink.write(text);
    if (this.#state === "failed") sink.abort(stalled());
    else if (this.#state !== "open") sink.end();
    return () => this.#clientGone();
  }

  /** Queues one event; `replay` (what a resumed client missed, written before it can read) is exempt from the bound. */
  write(event: SseEvent, replay = false): void {
    if (this.#state !== "open") return;
    this.#send(sseFrame(event), replay);
  }

  /** Ends the response (the server's choice). */
  close(): void {
    if (this.#state !== "open") return;
    this.#stop("closed");
    this.#sink?.end();
  }

  #send(text: string, exempt: boolean): void {
    const held = this.#sink ? this.#sink.write(text) : this.#hold(text);
    if (exempt || held <= this.#maxBufferedBytes) return;
    // The client is not reading: end its connection rather than hold everything for it.
    this.#stop("failed");
    if (this.#sink) this.#sink.abort(stalled());
    else this.#early = [];
    this.#options.onClientGone();
  }

  #hold(text: string): number {
    (this.#early as string[]).push(text);
    return (this.#earlyLength += text.length);
  }

  #clientGone(): void {
    if (this.#state === "failed" || this.#state === "gone") return;
    this.#stop("gone");
    this.#options.onClientGone();
  }

  #stop(state: ConnectionState): void {
    this.#state = state;
    clearTimeout(this.#keepAlive);
  }

  #armKeepAlive(): void {
    const interval = this.#options.keepAliveMs;
    if (!(interval > 0 && Number.isFinite(interval))) return;
    this.#keepAlive = setTimeout(() => {
      this.#send(": keep-alive\n\n", false);
      if (this.#state === "open") this.#armKeepAlive();
    }, interval);
  }
}

function stalled(): Error {
  return new Error("The client stopped reading this event stream");
}

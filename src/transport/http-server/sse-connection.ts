/** One Server-Sent Event: fields as the SSE standard names them. */
export interface SseEvent {
  readonly event?: string | undefined;
  readonly id?: string | undefined;
  readonly retry?: number | undefined;
  readonly data?: string | undefined;
}

/** The wire form of an event; `data` spanning lines becomes one `data:` field per line. */
export function formatSseEvent(event: SseEvent): string {
  let text = "";
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.retry !== undefined) text += `retry: ${event.retry}\n`;
  if (event.data !== undefined) for (const line of event.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}

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

/**
 * The body of one SSE response: events are written as they come, keep-alive comments keep idle
 * proxies from cutting it, and every timer stops the moment either end closes it. A client that
 * stops reading while more than `maxBufferedBytes` wait for it is treated as gone: the body errors
 * and `onClientGone` runs, so memory stays bounded (with an event store, the client resumes with
 * `Last-Event-ID` and loses nothing).
 */
export class SseConnection {
  readonly body: ReadableStream<Uint8Array>;
  readonly #encoder = new TextEncoder();
  readonly #options: SseConnectionOptions;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #open = true;
  #keepAlive: ReturnType<typeof setTimeout> | undefined;

  constructor(options: SseConnectionOptions) {
    this.#options = options;
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        cancel: () => {
          this.#stop();
          options.onClientGone();
        },
      },
      { highWaterMark: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES, size: (chunk) => chunk.byteLength },
    );
    this.#armKeepAlive();
  }

  /** Queues one event; `replay` (what a resumed client missed, written before it can read) is exempt from the bound. */
  write(event: SseEvent, replay = false): void {
    if (!this.#open) return;
    this.#enqueue(this.#encoder.encode(formatSseEvent(event)), replay);
  }

  #enqueue(bytes: Uint8Array, exempt: boolean): void {
    this.#controller.enqueue(bytes);
    if (exempt || (this.#controller.desiredSize as number) >= 0) return;
    // The client is not reading: end its connection rather than hold everything for it.
    this.#stop();
    this.#controller.error(new Error("The client stopped reading this event stream"));
    this.#options.onClientGone();
  }

  /** Ends the response (the server's choice). */
  close(): void {
    if (!this.#open) return;
    this.#stop();
    this.#controller.close();
  }

  #stop(): void {
    this.#open = false;
    clearTimeout(this.#keepAlive);
  }

  #armKeepAlive(): void {
    const interval = this.#options.keepAliveMs;
    if (!(interval > 0 && Number.isFinite(interval))) return;
    this.#keepAlive = setTimeout(() => {
      this.#enqueue(this.#encoder.encode(": keep-alive\n\n"), false);
      if (this.#open) this.#armKeepAlive();
    }, interval);
  }
}

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

export interface SseConnectionOptions {
  /** Interval of `: keep-alive` comments; 0 (or not finite) for none. */
  readonly keepAliveMs: number;
  /** The client went away before reading everything (the response body was cancelled). */
  readonly onClientGone: () => void;
}

/**
 * The body of one SSE response: events are written as they come, keep-alive comments keep idle
 * proxies from cutting it, and every timer stops the moment either end closes it.
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
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => {
        this.#stop();
        options.onClientGone();
      },
    });
    this.#armKeepAlive();
  }

  write(event: SseEvent): void {
    if (!this.#open) return;
    this.#controller.enqueue(this.#encoder.encode(formatSseEvent(event)));
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
      this.#controller.enqueue(this.#encoder.encode(": keep-alive\n\n"));
      this.#armKeepAlive();
    }, interval);
  }
}

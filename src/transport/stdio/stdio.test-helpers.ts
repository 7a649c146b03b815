import type { MCPError } from "../../error-codes/mcp-error.js";
import type { TransportReceiver } from "../transport/transport.types.js";
import type { StdioChunkSink, StdioChunkSource, StdioWritable } from "./stdio.js";

/** A receiver that records what the transport tells it. */
export function recorder() {
  const messages: unknown[] = [];
  const malformed: string[] = [];
  const closes: Array<MCPError | undefined> = [];
  const receiver: TransportReceiver = {
    onMessage: (message) => messages.push(message),
    onMalformed: (error) => malformed.push(error.message),
    onClose: (error) => closes.push(error),
  };
  return { messages, malformed, closes, receiver };
}

/** How a send ended: "written", or the error it was rejected with. */
export const outcome = (sent: Promise<void>): Promise<"written" | MCPError> =>
  sent.then(
    () => "written" as const,
    (error: unknown) => error as MCPError,
  );

/** A byte source the test feeds by hand: chunks, the end, or a failure. */
export class ChunkSource implements AsyncIterable<Uint8Array> {
  #queue: Array<IteratorResult<Uint8Array> | Error> = [];
  #waiting: ((item: IteratorResult<Uint8Array> | Error) => void) | undefined;
  returned = false;

  push(chunk: Uint8Array | string): void {
    this.#offer({ done: false, value: typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk });
  }

  end(): void {
    this.#offer({ done: true, value: undefined });
  }

  fail(error: Error): void {
    this.#offer(error);
  }

  #offer(item: IteratorResult<Uint8Array> | Error): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting) waiting(item);
    else this.#queue.push(item);
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return {
      next: async () => {
        const item = this.#queue.shift() ?? (await new Promise<IteratorResult<Uint8Array> | Error>((resolve) => (this.#waiting = resolve)));
        if (item instanceof Error) throw item;
        return item;
      },
      return: async () => {
        this.returned = true;
        this.#waiting?.({ done: true, value: undefined });
        return { done: true, value: undefined };
      },
    };
  }
}

/** A writable that records what it was given; writes can be held back or made to fail. */
export class RecordingWritable implements StdioWritable {
  readonly chunks: Uint8Array[] = [];
  closed = false;
  failWith: Error | undefined;
  failClose = false;
  #gate: Promise<void> | undefined;
  #open: (() => void) | undefined;

  hold(): void {
    this.#gate = new Promise((resolve) => (this.#open = resolve));
  }

  release(): void {
    this.#open?.();
    this.#gate = undefined;
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (this.#gate) await this.#gate;
    if (this.failWith) throw this.failWith;
    this.chunks.push(chunk);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.failClose) throw new Error("close failed");
  }

  text(): string {
    return this.chunks.map((chunk) => new TextDecoder().decode(chunk)).join("");
  }

  messages(): unknown[] {
    return this.text()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown);
  }
}

/** A push source the test drives: what a Node stream's 'data' events look like to the transport. */
export class PushSource implements StdioChunkSource {
  sink: StdioChunkSink | undefined;
  stopped = 0;

  subscribe(sink: StdioChunkSink): () => void {
    this.sink = sink;
    return () => {
      this.stopped += 1;
    };
  }
}

/** A text writable (like Node's): takes text at once until `full`, then hands out a promise to wait on. */
export class TextWritable implements StdioWritable {
  readonly texts: string[] = [];
  full = false;
  failWith: Error | undefined;
  #waiting: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];

  write(): Promise<void> {
    return Promise.reject(new Error("a text writable is given text"));
  }

  writeText(text: string): Promise<void> | undefined {
    if (this.failWith) throw this.failWith;
    this.texts.push(text);
    if (!this.full) return undefined;
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }

  /** The buffer drained (or, with an error, the stream failed). */
  drain(error?: Error): void {
    this.full = false;
    for (const waiter of this.#waiting.splice(0)) {
      if (error) waiter.reject(error);
      else waiter.resolve();
    }
  }

  async close(): Promise<void> {}
}

import type { StdioWritable } from "./stdio.js";

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
    return this.text().split("\n").filter(Boolean).map((line) => JSON.parse(line) as unknown);
  }
}

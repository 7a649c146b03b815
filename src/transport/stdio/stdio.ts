import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, describeThrown } from "../../error-codes/mcp-error.js";
import { encodeMessage, lineFrame } from "../encode.js";
import type { Transport, TransportReceiver } from "../transport/transport.types.js";
import { LineDecoder, type LineEvent } from "./line-decoder.js";

/** Where a stdio transport writes: each write resolves once the bytes are accepted (backpressure). */
export interface StdioWritable {
  write(chunk: Uint8Array): Promise<void>;
  /**
   * Optional text fast path (a Node stream encodes in native code): `undefined` when the text was
   * taken at once, a promise when the caller should wait (the stream's buffer is full).
   */
  writeText?(text: string): Promise<void> | undefined;
  close(): Promise<void>;
}

/** Receives what a `StdioChunkSource` pushes. */
export interface StdioChunkSink {
  chunk(bytes: Uint8Array): void;
  end(): void;
  fail(error: unknown): void;
}

/** A source that pushes chunks (a Node stream's 'data' events): no promise per chunk, unlike an async iterator. */
export interface StdioChunkSource {
  /** Starts the flow into `sink`; the function returned stops it and releases the source. */
  subscribe(sink: StdioChunkSink): () => void;
}

export interface StdioTransportOptions {
  /** The bytes from the peer: Node's stdin (or `Readable.toWeb` of it), `Bun.stdin.stream()`, a child's stdout… or a push source. */
  readonly readable: AsyncIterable<Uint8Array> | StdioChunkSource;
  readonly writable: StdioWritable;
  /** The longest frame accepted, in bytes (default 16 MiB); a longer one is answered -32700 and skipped. */
  readonly maxFrameBytes?: number;
  /**
   * Frames sent but not yet taken by the writable (default 16 MiB, counted in UTF-16 units: a lower
   * bound on the bytes); past it the peer is deemed not reading and the transport closes.
   */
  readonly maxQueuedBytes?: number;
}

export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_QUEUED_BYTES = 16 * 1024 * 1024;

/** Frames waiting together are joined into one write up to this size; a frame past it starts the next write. */
const MAX_BATCH_SIZE = 64 * 1024;

const WRITTEN: Promise<void> = /* @__PURE__ */ Promise.resolve();

function isChunkSource(readable: StdioTransportOptions["readable"]): readable is StdioChunkSource {
  return typeof (readable as Partial<StdioChunkSource>).subscribe === "function";
}

/**
 * Newline-delimited JSON-RPC over a pair of byte streams, as the MCP stdio transport defines it.
 * Platform streams are injected, so the same code runs on Node, Bun, Deno and in a browser worker.
 */
export class StdioTransport implements Transport {
  /** Messages alone, whatever their era. */
  readonly carriesStatelessEra = true;
  readonly #encoder = new TextEncoder();
  readonly #readable: AsyncIterable<Uint8Array> | StdioChunkSource;
  readonly #writable: StdioWritable;
  readonly #maxFrameBytes: number;
  readonly #maxQueuedBytes: number;
  /** Size of the frames handed to a write still under way, or waiting behind it (not kept up once closed: nothing sends then). */
  #queuedBytes = 0;
  #receiver: TransportReceiver | undefined;
  /** Batches waiting for the write under way, in order; frames sent meanwhile join the last one. */
  readonly #queue: WriteBatch[] = [];
  /** Settles when the write under way and everything queued behind it are done (undefined when idle). */
  #drained: Deferred | undefined;
  #stopSource: (() => void) | undefined;
  #iterator: AsyncIterator<Uint8Array> | undefined;
  #closed = false;
  /** The first write failure: frames queued behind it are not attempted. */
  #writeFailure: MCPError | undefined;

  constructor(options: StdioTransportOptions) {
    this.#readable = options.readable;
    this.#writable = options.writable;
    this.#maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.#maxQueuedBytes = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
  }

  /** True once closed by either end (or by a failed read or write). */
  get closed(): boolean {
    return this.#closed;
  }

  async start(receiver: TransportReceiver): Promise<void> {
    if (this.#receiver) throw new MCPError(MCP_CODES.ALREADY_CONNECTED, "This stdio transport is already started");
    if (this.#closed) throw new MCPError(MCP_CODES.TRANSPORT_CLOSED, "This stdio transport is closed");
    this.#receiver = receiver;
    const readable = this.#readable;
    if (isChunkSource(readable)) {
      this.#stopSource = readable.subscribe(this.#sinkFor(receiver));
      return;
    }
    this.#iterator = readable[Symbol.asyncIterator]();
    void this.#readLoop(this.#iterator, receiver);
  }

  /** Queues one frame behind the previous writes; resolves when the writable took it. */
  send(message: unknown): Promise<void> {
    if (this.#closed) return Promise.reject(new MCPError(MCP_CODES.TRANSPORT_CLOSED, "Cannot send: the stdio transport is closed"));
    let frame: string;
    try {
      frame = lineFrame(encodeMessage(message));
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.#queuedBytes + frame.length > this.#maxQueuedBytes) return Promise.reject(this.#peerNotReading());
    // Nothing under way: straight to the writable, and with a text writable that takes it at once, no promise of our own.
    if (!this.#drained) {
      const pending = this.#startWrite(frame);
      if (!pending) return WRITTEN;
      this.#drained = new Deferred();
      return pending;
    }
    // Frames sent while a write is under way go out together when their turn comes: one system call
    // for a burst of answers, order unchanged.
    this.#queuedBytes += frame.length;
    const last = this.#queue.at(-1);
    if (last && last.size + frame.length <= MAX_BATCH_SIZE) return last.add(frame);
    const batch = new WriteBatch(frame);
    this.#queue.push(batch);
    return batch.written;
  }

  /** Hands `text` to the writable; undefined when it was taken at once, else the promise of its write. */
  #startWrite(text: string): Promise<void> | undefined {
    const pending = this.#hand(text);
    if (!pending) return undefined;
    this.#queuedBytes += text.length;
    // The queue moves on in a later microtask, so this write's callers hear of it before the next ones.
    return pending.then(
      () => {
        this.#queuedBytes -= text.length;
        queueMicrotask(() => this.#writeQueued());
      },
      (error: unknown) => {
        const failure = this.#failed(error);
        queueMicrotask(() => this.#writeQueued());
        throw failure;
      },
    );
  }

  #hand(text: string): Promise<void> | undefined {
    try {
      const writable = this.#writable;
      return writable.writeText ? writable.writeText(text) : writable.write(this.#encoder.encode(text));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The write under way finished: the queued batches go out in order, then the transport is idle again. */
  #writeQueued(): void {
    for (let next = this.#queue.shift(); next; next = this.#queue.shift()) {
      this.#queuedBytes -= next.size;
      if (this.#writeFailure) {
        next.reject(this.#writeFailure);
        continue;
      }
      const pending = this.#startWrite(next.frames.join(""));
      if (!pending) {
        next.resolve();
        continue;
      }
      pending.then(next.resolve, next.reject);
      return;
    }
    // Stryker disable next-line OptionalChaining: only a write started with #drained set queues this, so it is never undefined here
    this.#drained?.resolve();
    this.#drained = undefined;
  }

  /** A write failed: the transport closes, and frames queued behind it are not attempted. */
  #failed(error: unknown): MCPError {
    this.#writeFailure ??= new MCPError(MCP_CODES.TRANSPORT_ERROR, `Write failed: ${describeThrown(error)}`, { cause: error });
    this.#shutDown(this.#writeFailure);
    void this.#stopReading();
    return this.#writeFailure;
  }

  /** A peer that stopped reading would make the queue grow without end: close with a clear error instead. */
  #peerNotReading(): MCPError {
    const error = new MCPError(
      MCP_CODES.TRANSPORT_ERROR,
      `The peer is not reading: ${this.#queuedBytes} bytes are waiting to be written (limit ${this.#maxQueuedBytes})`,
    );
    this.#writeFailure ??= error;
    for (const batch of this.#queue.splice(0)) batch.reject(error);
    this.#shutDown(error);
    void this.#stopReading();
    return error;
  }

  /** Flushes what was sent before it, closes the writable and stops reading. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#drained?.promise;
    // A writable that fails to close is a peer already gone; there is nothing left to tell it.
    await this.#writable.close().catch(() => undefined);
    await this.#stopReading();
    this.#receiver?.onClose();
  }

  #sinkFor(receiver: TransportReceiver): StdioChunkSink {
    const decoder = new LineDecoder(this.#maxFrameBytes);
    return {
      chunk: (bytes) => {
        if (!this.#closed) this.#deliver(decoder.push(bytes), receiver);
      },
      end: () => {
        if (!this.#closed) this.#deliver(decoder.end(), receiver);
        this.#shutDown(undefined);
      },
      fail: (error) =>
        this.#shutDown(new MCPError(MCP_CODES.TRANSPORT_ERROR, `Reading failed: ${describeThrown(error)}`, { cause: error })),
    };
  }

  async #readLoop(iterator: AsyncIterator<Uint8Array>, receiver: TransportReceiver): Promise<void> {
    const decoder = new LineDecoder(this.#maxFrameBytes);
    try {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        if (this.#closed) return;
        this.#deliver(decoder.push(next.value), receiver);
      }
      if (!this.#closed) this.#deliver(decoder.end(), receiver);
      this.#shutDown(undefined);
    } catch (error) {
      this.#shutDown(new MCPError(MCP_CODES.TRANSPORT_ERROR, `Reading failed: ${describeThrown(error)}`, { cause: error }));
    }
  }

  #deliver(events: readonly LineEvent[], receiver: TransportReceiver): void {
    for (const event of events) {
      if (event.kind === "rejected") {
        receiver.onMalformed(new MCPError(MCP_CODES.PROTOCOL_INVALID, event.reason));
        continue;
      }
      let message: unknown;
      try {
        message = JSON.parse(event.text);
      } catch (error) {
        receiver.onMalformed(new MCPError(MCP_CODES.PROTOCOL_INVALID, `Parse error: ${describeThrown(error)}`));
        continue;
      }
      receiver.onMessage(message);
    }
  }

  /** The peer went away (end of input, read or write failure): close without waiting on it. */
  #shutDown(error: MCPError | undefined): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#writable.close().catch(() => undefined);
    this.#receiver?.onClose(error);
  }

  async #stopReading(): Promise<void> {
    const stop = this.#stopSource;
    this.#stopSource = undefined;
    stop?.();
    try {
      // Stryker disable next-line OptionalChaining: calling a missing iterator or return() throws a TypeError, which the catch swallows the
      // same way
      await this.#iterator?.return?.();
    } catch {
      // The source is already gone; nothing left to release.
    }
  }
}

/** A promise with its settlers. */
class Deferred {
  readonly promise: Promise<void>;
  resolve!: () => void;

  constructor() {
    this.promise = new Promise<void>((resolve) => (this.resolve = resolve));
  }
}

/** Frames that go to the writable in one write; `written` settles when that write does. */
class WriteBatch {
  readonly frames: string[];
  size: number;
  readonly written: Promise<void>;
  resolve!: () => void;
  reject!: (error: unknown) => void;

  constructor(frame: string) {
    this.frames = [frame];
    this.size = frame.length;
    this.written = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  add(frame: string): Promise<void> {
    this.frames.push(frame);
    this.size += frame.length;
    return this.written;
  }
}

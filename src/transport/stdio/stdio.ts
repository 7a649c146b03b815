import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, describeThrown } from "../../error-codes/mcp-error.js";
import { joinBytes } from "../bytes.js";
import type { Transport, TransportReceiver } from "../transport/transport.types.js";
import { LineDecoder, type LineEvent } from "./line-decoder.js";

/** Where a stdio transport writes: each write resolves once the bytes are accepted (backpressure). */
export interface StdioWritable {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

export interface StdioTransportOptions {
  /** The bytes from the peer: Node's stdin (or `Readable.toWeb` of it), `Bun.stdin.stream()`, a child's stdout… */
  readonly readable: AsyncIterable<Uint8Array>;
  readonly writable: StdioWritable;
  /** The longest frame accepted, in bytes (default 16 MiB); a longer one is answered -32700 and skipped. */
  readonly maxFrameBytes?: number;
  /** Bytes sent but not yet taken by the writable (default 16 MiB); past it the peer is deemed not reading and the transport closes. */
  readonly maxQueuedBytes?: number;
}

export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_QUEUED_BYTES = 16 * 1024 * 1024;

/** Frames waiting together are joined into one write up to this size; a frame past it starts the next write. */
const MAX_BATCH_BYTES = 64 * 1024;

/**
 * Newline-delimited JSON-RPC over a pair of byte streams, as the MCP stdio transport defines it.
 * Platform streams are injected, so the same code runs on Node, Bun, Deno and in a browser worker.
 */
export class StdioTransport implements Transport {
  readonly #encoder = new TextEncoder();
  readonly #readable: AsyncIterable<Uint8Array>;
  readonly #writable: StdioWritable;
  readonly #maxFrameBytes: number;
  readonly #maxQueuedBytes: number;
  /** Bytes of frames sent whose write has not completed yet. */
  #queuedBytes = 0;
  #receiver: TransportReceiver | undefined;
  #writes: Promise<void> = Promise.resolve();
  /** The batch new frames join: frames waiting for the writes before them, taken as one chunk when their turn comes. */
  #batch: WriteBatch | undefined;
  /** Batches not yet handed to the writable (given up at once when the peer stops reading). */
  readonly #waiting = new Set<WriteBatch>();
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
    this.#iterator = this.#readable[Symbol.asyncIterator]();
    void this.#readLoop(this.#iterator, receiver);
  }

  /** Queues one frame behind the previous writes; resolves when the writable took it. */
  send(message: unknown): Promise<void> {
    if (this.#closed) return Promise.reject(new MCPError(MCP_CODES.TRANSPORT_CLOSED, "Cannot send: the stdio transport is closed"));
    let text: string | undefined;
    try {
      text = JSON.stringify(message);
    } catch (error) {
      return Promise.reject(new MCPError(MCP_CODES.TRANSPORT_ERROR, `Cannot send: the message is not serialisable as JSON (${describeThrown(error)})`, { cause: error }));
    }
    if (text === undefined) return Promise.reject(new MCPError(MCP_CODES.TRANSPORT_ERROR, "Cannot send: the message has no JSON form"));
    const frame = this.#encoder.encode(`${text}\n`);
    if (this.#queuedBytes + frame.length > this.#maxQueuedBytes) return Promise.reject(this.#peerNotReading());
    this.#queuedBytes += frame.length;
    const pending = this.#batch;
    if (pending && pending.bytes + frame.length <= MAX_BATCH_BYTES) {
      pending.frames.push(frame);
      pending.bytes += frame.length;
      return pending.written;
    }
    // Frames sent while earlier writes are still under way (or in the same tick) go out together in
    // one write when their turn comes: one system call for a burst of answers, order unchanged.
    const batch = new WriteBatch(frame);
    this.#batch = batch;
    this.#waiting.add(batch);
    this.#writes = this.#writes.then(() => this.#flush(batch));
    return batch.written;
  }

  /** Hands a batch to the writable when its turn comes; never rejects (the batch's own promise does). */
  async #flush(batch: WriteBatch): Promise<void> {
    if (!this.#waiting.delete(batch)) return;
    if (this.#batch === batch) this.#batch = undefined;
    try {
      await this.#write(joinBytes(batch.frames, batch.bytes));
      batch.resolve();
    } catch (error) {
      batch.reject(error);
    } finally {
      this.#queuedBytes -= batch.bytes;
    }
  }

  /** A peer that stopped reading would make the queue grow without end: close with a clear error instead. */
  #peerNotReading(): MCPError {
    const error = new MCPError(MCP_CODES.TRANSPORT_ERROR, `The peer is not reading: ${this.#queuedBytes} bytes are waiting to be written (limit ${this.#maxQueuedBytes})`);
    this.#writeFailure ??= error;
    for (const batch of this.#waiting) {
      batch.reject(error);
      this.#queuedBytes -= batch.bytes;
    }
    this.#waiting.clear();
    this.#batch = undefined;
    this.#shutDown(error);
    void this.#stopReading();
    return error;
  }

  async #write(bytes: Uint8Array): Promise<void> {
    if (this.#writeFailure) throw this.#writeFailure;
    try {
      await this.#writable.write(bytes);
    } catch (error) {
      this.#writeFailure = new MCPError(MCP_CODES.TRANSPORT_ERROR, `Write failed: ${describeThrown(error)}`, { cause: error });
      this.#shutDown(this.#writeFailure);
      void this.#stopReading();
      throw this.#writeFailure;
    }
  }

  /** Flushes what was sent before it, closes the writable and stops reading. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#writes;
    // A writable that fails to close is a peer already gone; there is nothing left to tell it.
    await this.#writable.close().catch(() => undefined);
    await this.#stopReading();
    this.#receiver?.onClose();
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
    try {
      await this.#iterator?.return?.();
    } catch {
      // The source is already gone; nothing left to release.
    }
  }
}

/** Frames that go to the writable in one write; `written` settles when that write does. */
class WriteBatch {
  readonly frames: Uint8Array[];
  bytes: number;
  readonly written: Promise<void>;
  resolve!: () => void;
  reject!: (error: unknown) => void;

  constructor(frame: Uint8Array) {
    this.frames = [frame];
    this.bytes = frame.length;
    this.written = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }
}

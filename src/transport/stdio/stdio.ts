import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, describeThrown } from "../../error-codes/mcp-error.js";
import type { Transport, TransportReceiver } from "../transport/transport.types.js";
import { LineDecoder, type LineEvent } from "./line-decoder.js";

/** Where a stdio transport writes: each write resolves once the bytes are accepted (backpressure). */
export interface StdioWritable {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

export interface StdioTransportOptions {
  /** The bytes from the peer: `Readable.toWeb(process.stdin)`, `Bun.stdin.stream()`, a child's stdout… */
  readonly readable: AsyncIterable<Uint8Array>;
  readonly writable: StdioWritable;
  /** The longest frame accepted, in bytes (default 16 MiB); a longer one is answered -32700 and skipped. */
  readonly maxFrameBytes?: number;
}

export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

/**
 * Newline-delimited JSON-RPC over a pair of byte streams, as the MCP stdio transport defines it.
 * Platform streams are injected, so the same code runs on Node, Bun, Deno and in a browser worker.
 */
export class StdioTransport implements Transport {
  readonly #encoder = new TextEncoder();
  readonly #readable: AsyncIterable<Uint8Array>;
  readonly #writable: StdioWritable;
  readonly #maxFrameBytes: number;
  #receiver: TransportReceiver | undefined;
  #writes: Promise<void> = Promise.resolve();
  #iterator: AsyncIterator<Uint8Array> | undefined;
  #closed = false;
  /** The first write failure: frames queued behind it are not attempted. */
  #writeFailure: MCPError | undefined;

  constructor(options: StdioTransportOptions) {
    this.#readable = options.readable;
    this.#writable = options.writable;
    this.#maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
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
    const bytes = this.#encoder.encode(`${text}\n`);
    const written = this.#writes.then(() => this.#write(bytes));
    this.#writes = written.catch(() => undefined);
    return written;
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

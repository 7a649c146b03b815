import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { encodeMessage } from "../encode.js";
import type { Transport, TransportReceiver } from "../transport/transport.types.js";

/**
 * One end of an in-process connection. Messages cross as JSON text, like on a real wire, so the
 * receiver never shares an object with the sender and unserialisable values fail at `send`.
 */
export class InMemoryTransport implements Transport {
  /** Messages alone, whatever their era. */
  readonly carriesStatelessEra = true;
  // Set by pair() right after construction; an end never exists without its peer.
  #peer!: InMemoryTransport;
  #receiver: TransportReceiver | undefined;
  /** What arrived before `start`, made with the first such message (an end is usually started before its peer sends). */
  #early: string[] | undefined;
  #closed = false;

  /** Two connected ends: what one sends, the other receives. */
  static pair(): [InMemoryTransport, InMemoryTransport] {
    const a = new InMemoryTransport();
    const b = new InMemoryTransport();
    a.#peer = b;
    b.#peer = a;
    return [a, b];
  }

  private constructor() {}

  async start(receiver: TransportReceiver): Promise<void> {
    if (this.#receiver) throw new MCPError(MCP_CODES.ALREADY_CONNECTED, "This transport is already started");
    if (this.#closed) throw new MCPError(MCP_CODES.TRANSPORT_CLOSED, "This transport is closed");
    this.#receiver = receiver;
    const early = this.#early;
    this.#early = undefined;
    if (early) for (const text of early) this.#schedule(text);
  }

  async send(message: unknown): Promise<void> {
    if (this.#closed) throw new MCPError(MCP_CODES.TRANSPORT_CLOSED, "Cannot send: the transport is closed");
    this.#peer.#accept(encodeMessage(message));
  }

  async close(): Promise<void> {
    this.#shutDown();
  }

  #accept(text: string): void {
    if (this.#receiver) this.#schedule(text);
    else (this.#early ??= []).push(text);
  }

  #schedule(text: string): void {
    queueMicrotask(() => {
      if (!this.#closed) this.#receiver?.onMessage(JSON.parse(text));
    });
  }

  #shutDown(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#early = undefined;
    const peer = this.#peer;
    // Queued behind the deliveries already scheduled, so what was sent before close still arrives.
    queueMicrotask(() => peer.#shutDown());
    this.#receiver?.onClose();
  }
}

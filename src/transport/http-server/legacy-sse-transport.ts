import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { WireMessage } from "../../jsonrpc/dispatcher/classify.js";
import { encodeMessage } from "../encode.js";
import type { InboundContext, Transport, TransportReceiver } from "../transport/transport.types.js";
import type { EventStreamBody } from "./http-server.types.js";
import { SseConnection } from "./sse-connection.js";

/**
 * The `Transport` of one legacy HTTP+SSE session (2024-11-05): everything the server sends goes on
 * the one SSE stream the client opened; the session lasts as long as that stream.
 */
export class LegacySseTransport implements Transport {
  readonly #connection: SseConnection;
  #receiver: TransportReceiver | undefined;
  #closed = false;

  constructor(
    readonly sessionId: string,
    keepAliveMs: number,
  ) {
    this.#connection = new SseConnection({ keepAliveMs, onClientGone: () => void this.close() });
  }

  get body(): EventStreamBody {
    return this.#connection;
  }

  async start(receiver: TransportReceiver): Promise<void> {
    if (this.#receiver) throw new MCPError(MCP_CODES.ALREADY_CONNECTED, "This SSE transport is already started");
    this.#receiver = receiver;
  }

  /** The first event of the stream: where the client POSTs its messages. */
  announceEndpoint(url: string): void {
    this.#connection.write({ event: "endpoint", data: url });
  }

  async send(message: unknown): Promise<void> {
    if (this.#closed) throw new MCPError(MCP_CODES.TRANSPORT_CLOSED, "Cannot send: the SSE stream is closed");
    this.#connection.write({ event: "message", data: encodeMessage(message) });
  }

  deliver(message: WireMessage, inbound: InboundContext): void {
    this.#receiver?.onMessage(message, inbound);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#connection.close();
    this.#receiver?.onClose();
  }
}

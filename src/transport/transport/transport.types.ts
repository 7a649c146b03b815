import type { MCPError } from "../../error-codes/mcp-error.js";
import type { JsonRpcId } from "../../types/types.js";
import type { HeaderParam } from "../../protocol/header-params.js";

/** What a transport knows about where an incoming message came from (HTTP headers, auth). */
export interface InboundContext {
  /** Whatever the transport's authentication established (a verified token, a principal). */
  readonly authInfo?: unknown;
  /** Request headers, lower-cased names, for transports that have them. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** How a transport hands what it receives to its dispatcher. Call them as its methods (the receiver may be the dispatcher itself). */
export interface TransportReceiver {
  /** A parsed JSON value: one message or a batch. The dispatcher validates it. */
  onMessage(message: unknown, context?: InboundContext): void;
  /** A frame that could not be parsed; the dispatcher answers it with -32700 and id null. */
  onMalformed(error: MCPError): void;
  /** The transport is closed for good (by either end); `error` says why when it was not asked for. */
  onClose(error?: MCPError): void;
}

/** What a message being sent is; "response" covers error responses too (a batch sent as one is all of that kind). */
export type SentKind = "request" | "notification" | "response";

export interface SendOptions {
  /** The incoming request this message belongs to (lets HTTP route it onto that request's stream). */
  readonly relatedRequestId?: JsonRpcId;
  /**
   * What the message is, from the sender that built it (the dispatcher always says): a transport that routes by kind reads it
   * instead of classifying the message again. When given, it must be true; without it, transports classify.
   */
  readonly kind?: SentKind;
}

/**
 * A connection to one peer. `send` takes JSON-serialisable messages (a batch is an array);
 * it rejects with `MCP.TRANSPORT_CLOSED` after close and `MCP.TRANSPORT_ERROR` when the
 * underlying channel fails. `close` is idempotent and calls the receiver's `onClose` once.
 */
export interface Transport {
  start(receiver: TransportReceiver): Promise<void>;
  send(message: unknown, options?: SendOptions): Promise<void>;
  close(): Promise<void>;
  /** The session id, for transports that have sessions (Streamable HTTP). */
  readonly sessionId?: string | undefined;
  /** Told the negotiated revision once the handshake is done (Streamable HTTP sends it as a header). */
  setProtocolVersion?(version: string): void;
  /**
   * Whether it carries the stateless era (2026-07-28) as well as the session era: a transport of
   * messages alone (in memory, stdio) does; one whose wire rules differ per era says so once it
   * follows the stateless era's. Without it, a client speaks the session era.
   */
  readonly carriesStatelessEra?: boolean;
  /**
   * Stateless era over HTTP: where a tools/call's `Mcp-Param-*` headers come from (the annotations of the tool as the client listed it).
   */
  setToolHeaderParams?(lookup: (tool: string) => readonly HeaderParam[] | undefined): void;
}

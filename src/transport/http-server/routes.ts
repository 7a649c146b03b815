import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { JsonRpcId } from "../../types/types.js";

/**
 * Where the messages belonging to one POSTed request go: its SSE stream or its JSON answer. Messages
 * arrive serialised (`data`), so what the sender does with its object afterwards changes nothing.
 */
export interface RequestRoute {
  /** A message a handler sends while working on the request (progress, a server-to-client request). */
  forward(data: string, isRequest: boolean): Promise<void>;
  /** The request's response: the route is done with `id`. */
  respond(id: JsonRpcId, data: string): Promise<void>;
  /** The client cancelled `id`: no response is due. */
  retire(id: JsonRpcId): void;
  /** The session ended. */
  close(): void;
}

/**
 * A message with nowhere to go: a request fails at once (rather than waiting for its timeout); a
 * notification or response is dropped, as nobody can receive it.
 */
export function undeliverable(isRequest: boolean, why: string): Promise<void> {
  return isRequest ? Promise.reject(new MCPError(MCP_CODES.TRANSPORT_ERROR, `Cannot send the request: ${why}`)) : Promise.resolve();
}

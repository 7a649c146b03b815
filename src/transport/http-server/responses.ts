import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { withFields } from "../../types/objects.js";
import type { JsonRpcId } from "../../types/types.js";
import type { HttpReply } from "./http-server.types.js";

/** The HTTP headers MCP defines, lower-cased as `Headers` reports them. */
export const MCP_HEADERS = {
  sessionId: "mcp-session-id",
  protocolVersion: "mcp-protocol-version",
  lastEventId: "last-event-id",
} as const;

/** The JSON-RPC code of transport-level refusals (implementation-defined server error range). */
export const TRANSPORT_ERROR_CODE = -32000;

/** A reply with no body. */
export function emptyReply(status: number, headers: Record<string, string> = {}): HttpReply {
  return { status, headers };
}

/**
 * An HTTP error whose body is a JSON-RPC error response: for the request `id` when it is known, else without one (null), as the spec
 * allows.
 */
export function errorReply(
  status: number,
  message: string,
  options: { code?: number; headers?: Record<string, string> | undefined; id?: JsonRpcId | null } = {},
): HttpReply {
  const body = JSON.stringify({ jsonrpc: "2.0", id: options.id ?? null, error: { code: options.code ?? TRANSPORT_ERROR_CODE, message } });
  return { status, headers: withFields(options.headers, { "content-type": "application/json" }), body };
}

export function parseErrorReply(detail: string): HttpReply {
  return errorReply(400, `Parse error: ${detail}`, { code: JSONRPC_ERROR_CODES.PARSE_ERROR });
}

/** A 400 for a message that is not a valid JSON-RPC request, answering `id` when the message has a usable one. */
export function invalidRequestReply(detail: string, id: JsonRpcId | null = null): HttpReply {
  return errorReply(400, `Invalid Request: ${detail}`, { code: JSONRPC_ERROR_CODES.INVALID_REQUEST, id });
}

export function methodNotAllowed(allow: string): HttpReply {
  return errorReply(405, "Method Not Allowed", { headers: { allow } });
}

const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" } as const;

/** The headers of a response that streams Server-Sent Events. */
export function sseHeaders(extra: Record<string, string>): Record<string, string> {
  return withFields(extra, SSE_HEADERS);
}

/** A reply with more headers (CORS); the same reply when there are none to add. */
export function withHeaders(reply: HttpReply, headers: Record<string, string> | undefined): HttpReply {
  return headers === undefined ? reply : withFields(reply, { headers: withFields(reply.headers, headers) });
}

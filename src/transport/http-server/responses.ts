import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";

/** The HTTP headers MCP defines, lower-cased as `Headers` reports them. */
export const MCP_HEADERS = {
  sessionId: "mcp-session-id",
  protocolVersion: "mcp-protocol-version",
  lastEventId: "last-event-id",
} as const;

/** The JSON-RPC code of transport-level refusals (implementation-defined server error range). */
export const TRANSPORT_ERROR_CODE = -32000;

/** An HTTP error whose body is a JSON-RPC error response without id, as the spec allows. */
export function errorResponse(status: number, message: string, options: { code?: number; headers?: Record<string, string> } = {}): Response {
  const body = { jsonrpc: "2.0", id: null, error: { code: options.code ?? TRANSPORT_ERROR_CODE, message } };
  return Response.json(body, { status, headers: { ...options.headers, "content-type": "application/json" } });
}

export function parseErrorResponse(detail: string): Response {
  return errorResponse(400, `Parse error: ${detail}`, { code: JSONRPC_ERROR_CODES.PARSE_ERROR });
}

export function invalidRequestResponse(detail: string): Response {
  return errorResponse(400, `Invalid Request: ${detail}`, { code: JSONRPC_ERROR_CODES.INVALID_REQUEST });
}

export function methodNotAllowed(allow: string): Response {
  return errorResponse(405, "Method Not Allowed", { headers: { allow } });
}

/** The headers of a response that streams Server-Sent Events. */
export function sseHeaders(extra: Record<string, string>): Record<string, string> {
  return { ...extra, "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" };
}

/** Adds headers (CORS, session id) to a response this module built. */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

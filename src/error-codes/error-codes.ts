/**
 * The library's own error codes: the `code` of every `MCPError`. Local outcomes (cancel, timeout,
 * transport) never travel on the wire; the rest map to the spec's numbers in `WIRE_CODE_OF`.
 */
export const MCP_CODES = {
  /** A frame or message is not valid JSON / JSON-RPC (also: a peer's -32700 / -32600). */
  PROTOCOL_INVALID: "MCP.PROTOCOL_INVALID",
  /** The peer has no handler for the method (-32601). */
  METHOD_NOT_FOUND: "MCP.METHOD_NOT_FOUND",
  /** Params did not match the method's schema (-32602). */
  INVALID_PARAMS: "MCP.INVALID_PARAMS",
  /** The peer failed for a reason of its own (-32603). */
  INTERNAL_ERROR: "MCP.INTERNAL_ERROR",
  /** The `authorize` hook refused the request (HTTP 401/403, -32001 on streams). */
  UNAUTHORIZED: "MCP.UNAUTHORIZED",
  /** The caller's AbortSignal fired, or the peer cancelled; no response is sent. */
  REQUEST_CANCELLED: "MCP.REQUEST_CANCELLED",
  /** No response within the request's timeout (or its total cap). */
  TIMEOUT: "MCP.TIMEOUT",
  /** The transport is closed: send after close, or pending when it closed. */
  TRANSPORT_CLOSED: "MCP.TRANSPORT_CLOSED",
  /** The underlying transport failed (write error, unserialisable message, child exit). */
  TRANSPORT_ERROR: "MCP.TRANSPORT_ERROR",
  /** A request other than ping arrived before the initialize handshake finished. */
  NOT_INITIALIZED: "MCP.NOT_INITIALIZED",
  /** connect()/start() was called on something already connected. */
  ALREADY_CONNECTED: "MCP.ALREADY_CONNECTED",
  /** A tool, resource, prompt or method handler with that name is already registered. */
  DUPLICATE_REGISTRATION: "MCP.DUPLICATE_REGISTRATION",
  /** A lookup missed: tool, resource, prompt or root (-32002 for resources). */
  NOT_FOUND: "MCP.NOT_FOUND",
  /** initialize could not agree on a revision both ends speak. */
  PROTOCOL_VERSION_MISMATCH: "MCP.PROTOCOL_VERSION_MISMATCH",
  /** A handler raised something that is not an MCP error (the cause is kept). */
  HANDLER_FAILED: "MCP.HANDLER_FAILED",
  /** A stateless-era call asked for input more rounds than the client allows (`maxInputRounds`). */
  INPUT_ROUNDS_EXCEEDED: "MCP.INPUT_ROUNDS_EXCEEDED",
  /** A server's `rateLimit` layer refused the request: `data.retryAfterMs` says when a token is back. */
  RATE_LIMITED: "MCP.RATE_LIMITED",
} as const;

export type MCPCode = (typeof MCP_CODES)[keyof typeof MCP_CODES];

/** Numeric error codes of JSON-RPC 2.0 and of the MCP specification. */
export const JSONRPC_ERROR_CODES = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** Implementation-defined range: refused by `authorize` on a stream transport. */
  UNAUTHORIZED: -32001,
  /** Resource not found, up to revision 2025-11-25. */
  RESOURCE_NOT_FOUND: -32002,
  /** 2025-11-25: the request needs a URL-mode elicitation first. */
  URL_ELICITATION_REQUIRED: -32042,
  /** 2026-07-28: an HTTP header disagrees with the body (or a required one is missing). */
  HEADER_MISMATCH: -32020,
  /** 2026-07-28: serving the request needs a client capability the request did not declare. */
  MISSING_REQUIRED_CLIENT_CAPABILITY: -32021,
  /** 2026-07-28: the request's protocol version is not one the server speaks. */
  UNSUPPORTED_PROTOCOL_VERSION: -32022,
  /** Implementation-defined range: refused by a server's `rateLimit` layer (MCP has no code of its own for it). */
  RATE_LIMITED: -32029,
} as const;

/** The number an `MCPError` of each code carries on the wire when nothing more precise is given. */
// Numbers and names as literals (JSONRPC_ERROR_CODES, MCP_CODES): reads of them at the top level stay in every app.
export const WIRE_CODE_OF: Readonly<Record<MCPCode, number>> = {
  "MCP.PROTOCOL_INVALID": -32600 /* INVALID_REQUEST */,
  "MCP.METHOD_NOT_FOUND": -32601 /* METHOD_NOT_FOUND */,
  "MCP.INVALID_PARAMS": -32602 /* INVALID_PARAMS */,
  "MCP.INTERNAL_ERROR": -32603 /* INTERNAL_ERROR */,
  "MCP.UNAUTHORIZED": -32001 /* UNAUTHORIZED */,
  "MCP.REQUEST_CANCELLED": -32603 /* INTERNAL_ERROR */,
  "MCP.TIMEOUT": -32603 /* INTERNAL_ERROR */,
  "MCP.TRANSPORT_CLOSED": -32603 /* INTERNAL_ERROR */,
  "MCP.TRANSPORT_ERROR": -32603 /* INTERNAL_ERROR */,
  "MCP.NOT_INITIALIZED": -32600 /* INVALID_REQUEST */,
  "MCP.ALREADY_CONNECTED": -32603 /* INTERNAL_ERROR */,
  "MCP.DUPLICATE_REGISTRATION": -32603 /* INTERNAL_ERROR */,
  "MCP.NOT_FOUND": -32002 /* RESOURCE_NOT_FOUND */,
  "MCP.PROTOCOL_VERSION_MISMATCH": -32602 /* INVALID_PARAMS */,
  "MCP.HANDLER_FAILED": -32603 /* INTERNAL_ERROR */,
  "MCP.INPUT_ROUNDS_EXCEEDED": -32603 /* INTERNAL_ERROR */,
  "MCP.RATE_LIMITED": -32029 /* RATE_LIMITED */,
};

/** The code a received wire error becomes locally; numbers not listed become `MCP.HANDLER_FAILED`. */
const MCP_CODE_OF_WIRE: ReadonlyMap<number, MCPCode> = new Map<number, MCPCode>([
  [-32700 /* PARSE_ERROR */, "MCP.PROTOCOL_INVALID"],
  [-32600 /* INVALID_REQUEST */, "MCP.PROTOCOL_INVALID"],
  [-32601 /* METHOD_NOT_FOUND */, "MCP.METHOD_NOT_FOUND"],
  [-32602 /* INVALID_PARAMS */, "MCP.INVALID_PARAMS"],
  [-32603 /* INTERNAL_ERROR */, "MCP.INTERNAL_ERROR"],
  [-32001 /* UNAUTHORIZED */, "MCP.UNAUTHORIZED"],
  [-32002 /* RESOURCE_NOT_FOUND */, "MCP.NOT_FOUND"],
  [-32022 /* UNSUPPORTED_PROTOCOL_VERSION */, "MCP.PROTOCOL_VERSION_MISMATCH"],
  [-32029 /* RATE_LIMITED */, "MCP.RATE_LIMITED"],
]);

export function mcpCodeOfWire(wireCode: number): MCPCode {
  return MCP_CODE_OF_WIRE.get(wireCode) ?? MCP_CODES.HANDLER_FAILED;
}

// What the HTTP client transports need to know about the messages they carry: which are requests
// (they get an answer on the POST), which responses answer them, and the few methods that change
// the transport's own state. Everything else passes through untouched.
import { METHODS, NOTIFICATIONS } from "../../constants/index.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, describeThrown } from "../../error-codes/mcp-error.js";
import { classify, isJsonRpcId } from "../../jsonrpc/dispatcher/classify.js";
import type { JsonRpcId } from "../../types/types.js";

function asList(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [value];
}

function field(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/** The ids of the requests in a message or a batch. */
export function requestIdsOf(message: unknown): JsonRpcId[] {
  return asList(message)
    .filter((one) => classify(one) === "request")
    .map((one) => field(one, "id") as JsonRpcId);
}

/** The ids a received value (one message or a batch) answers, with a result or an error. */
export function answeredIdsOf(value: unknown): JsonRpcId[] {
  const ids: JsonRpcId[] = [];
  for (const one of asList(value)) {
    const kind = classify(one);
    const id = field(one, "id");
    if ((kind === "response" || kind === "error-response") && isJsonRpcId(id)) ids.push(id);
  }
  return ids;
}

/** True for the `notifications/initialized` notification. */
export function isInitializedNotification(message: unknown): boolean {
  return classify(message) === "notification" && field(message, "method") === NOTIFICATIONS.initialized;
}

/** The id of an `initialize` request, if `message` is one. */
export function initializeRequestId(message: unknown): JsonRpcId | undefined {
  return classify(message) === "request" && field(message, "method") === METHODS.initialize
    ? (field(message, "id") as JsonRpcId)
    : undefined;
}

/** The request a `notifications/cancelled` gives up on, if `message` is one. */
export function cancelledRequestId(message: unknown): JsonRpcId | undefined {
  if (classify(message) !== "notification" || field(message, "method") !== NOTIFICATIONS.cancelled) return undefined;
  const requestId = field(field(message, "params"), "requestId");
  return isJsonRpcId(requestId) ? requestId : undefined;
}

/** The protocol version an initialize result in `value` announces for request `id`. */
export function negotiatedVersionIn(value: unknown, id: JsonRpcId): string | undefined {
  for (const one of asList(value)) {
    if (classify(one) !== "response" || field(one, "id") !== id) continue;
    const version = field(field(one, "result"), "protocolVersion");
    if (typeof version === "string") return version;
  }
  return undefined;
}

/** Parses one frame's JSON: the value, or the -32700-worthy error for `onMalformed`. */
export function parseFrame(text: string): { readonly value: unknown } | { readonly error: MCPError } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: new MCPError(MCP_CODES.PROTOCOL_INVALID, `Parse error: ${describeThrown(error)}`) };
  }
}

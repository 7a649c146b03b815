// What the HTTP client transports need to know about the messages they carry: which are requests
// (they get an answer on the POST), which responses answer them, and the few methods that change
// the transport's own state. Everything else passes through untouched.
import { METHODS, NOTIFICATIONS } from "../../constants/index.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, describeThrown } from "../../error-codes/mcp-error.js";
import { classify, isJsonRpcId } from "../../jsonrpc/dispatcher/classify.js";
import type { JsonRpcId } from "../../types/types.js";
import type { SentKind } from "../transport/transport.types.js";

function asList(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [value];
}

function field(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/** What a client transport needs of a message it sends, read in one pass. */
export interface Outgoing {
  /** The ids of the requests in it (one message or a batch). */
  readonly requestIds: readonly JsonRpcId[];
  /** The id of an `initialize` request. */
  readonly initializeId: JsonRpcId | undefined;
  /** The request a `notifications/cancelled` gives up on. */
  readonly cancelledId: JsonRpcId | undefined;
  /** Whether it is `notifications/initialized`. */
  readonly initialized: boolean;
}

function noted(requestIds: readonly JsonRpcId[], initializeId?: JsonRpcId, cancelledId?: JsonRpcId, initialized = false): Outgoing {
  return { requestIds, initializeId, cancelledId, initialized };
}

const NOTHING_TO_NOTE = noted([]);

/** Reads `message` once; `kind` is what its sender says it is (`SendOptions.kind`), classified here when not given. */
export function outgoingOf(message: unknown, kind?: SentKind): Outgoing {
  if (Array.isArray(message)) {
    const requestIds = message.filter((one) => classify(one) === "request").map((one) => field(one, "id") as JsonRpcId);
    return requestIds.length === 0 ? NOTHING_TO_NOTE : noted(requestIds);
  }
  const what = kind ?? classify(message);
  const method = field(message, "method");
  if (what === "request") {
    const id = field(message, "id") as JsonRpcId;
    return noted([id], method === METHODS.initialize ? id : undefined);
  }
  if (what !== "notification") return NOTHING_TO_NOTE;
  if (method === NOTIFICATIONS.initialized) return noted([], undefined, undefined, true);
  if (method !== NOTIFICATIONS.cancelled) return NOTHING_TO_NOTE;
  const requestId = field(field(message, "params"), "requestId");
  return isJsonRpcId(requestId) ? noted([], undefined, requestId) : NOTHING_TO_NOTE;
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

/** The id of an `initialize` request, if `message` is one. */
export function initializeRequestId(message: unknown): JsonRpcId | undefined {
  return classify(message) === "request" && field(message, "method") === METHODS.initialize
    ? (field(message, "id") as JsonRpcId)
    : undefined;
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

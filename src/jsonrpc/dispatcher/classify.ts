import { isJsonObject } from "../../types/objects.js";
import type { JsonRpcId } from "../../types/types.js";

/** What an incoming JSON value is, as JSON-RPC 2.0 and MCP define messages. */
export type MessageKind = "request" | "notification" | "response" | "error-response" | "invalid";

/** A message that passed `classify`: fields may be read without further checks. */
export interface WireMessage {
  readonly jsonrpc: "2.0";
  readonly id?: JsonRpcId | null;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || Number.isInteger(value);
}

function isErrorObject(value: unknown): boolean {
  return isJsonObject(value) && Number.isInteger(value["code"]) && typeof value["message"] === "string";
}

/** Checks the envelope on the hot path without allocating; `describeInvalid` explains a rejection. */
export function classify(value: unknown): MessageKind {
  if (!isJsonObject(value) || value["jsonrpc"] !== "2.0") return "invalid";
  const id = value["id"];
  if ("method" in value) {
    if (typeof value["method"] !== "string") return "invalid";
    if (value["params"] !== undefined && !isJsonObject(value["params"])) return "invalid";
    if (id === undefined) return "notification";
    return isJsonRpcId(id) ? "request" : "invalid";
  }
  if ("result" in value) return isJsonRpcId(id) && isJsonObject(value["result"]) ? "response" : "invalid";
  // Anything else must be an error response (a missing "error" is no error object).
  return (isJsonRpcId(id) || id === null) && isErrorObject(value["error"]) ? "error-response" : "invalid";
}

/** Why `classify` said "invalid" (only called on that path). */
export function describeInvalid(value: unknown): string {
  if (!isJsonObject(value)) return "a JSON-RPC message must be an object";
  if (value["jsonrpc"] !== "2.0") return 'the "jsonrpc" member must be exactly "2.0"';
  if ("method" in value) {
    if (typeof value["method"] !== "string") return 'the "method" member must be a string';
    if (value["params"] !== undefined && !isJsonObject(value["params"])) return 'the "params" member must be an object';
    return 'a request "id" must be a string or an integer';
  }
  if ("result" in value) {
    return isJsonRpcId(value["id"]) ? 'the "result" member must be an object' : 'a response "id" must be a string or an integer';
  }
  if ("error" in value) return 'an error response needs an "error" with an integer "code" and a string "message", and an id';
  return 'a JSON-RPC message needs a "method", a "result" or an "error"';
}

/** The id to echo in an error answer to an invalid message: its own when usable, else null. */
export function idOfInvalid(value: unknown): JsonRpcId | null {
  return isJsonObject(value) && isJsonRpcId(value["id"]) ? value["id"] : null;
}

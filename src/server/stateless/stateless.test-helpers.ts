// Test support for the stateless era: requests as a 2026-07-28 client sends them, over HTTP (with
// the revision's headers) or as bare JSON-RPC messages (stdio, in memory).
import { META_KEYS } from "../../constants/index.js";
import { STATELESS_HEADERS, encodeHeaderValue, expectedMcpName } from "../../protocol/mcp-headers.js";
import type { JsonRpcId } from "../../types/types.js";

export const STATELESS_VERSION = "2026-07-28";
export const URL_2026 = "http://127.0.0.1/mcp";

export interface MetaParts {
  readonly version?: string;
  readonly capabilities?: Record<string, unknown>;
  readonly clientInfo?: Record<string, unknown>;
  readonly logLevel?: string;
  readonly extra?: Record<string, unknown>;
}

/** A request's `_meta` as a 2026-07-28 client writes it. */
export function meta(parts: MetaParts = {}): Record<string, unknown> {
  const written: Record<string, unknown> = {
    [META_KEYS.protocolVersion]: parts.version ?? STATELESS_VERSION,
    [META_KEYS.clientCapabilities]: parts.capabilities ?? {},
    [META_KEYS.clientInfo]: parts.clientInfo ?? { name: "test-client", version: "1.0.0" },
    ...parts.extra,
  };
  if (parts.logLevel !== undefined) written[META_KEYS.logLevel] = parts.logLevel;
  return written;
}

/** A JSON-RPC request of the stateless era: params with `_meta`. */
export function modernMessage(
  id: JsonRpcId,
  method: string,
  params: Record<string, unknown> = {},
  parts: MetaParts = {},
): Record<string, unknown> {
  return { jsonrpc: "2.0", id, method, params: { ...params, _meta: meta(parts) } };
}

export interface ModernRequestParts extends MetaParts {
  /** Headers to add or (with null) to leave out. */
  readonly headers?: Record<string, string | null>;
  readonly signal?: AbortSignal;
}

/** A 2026-07-28 POST: `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` as a client sends them. */
export function modernRequest(
  id: JsonRpcId,
  method: string,
  params: Record<string, unknown> = {},
  parts: ModernRequestParts = {},
): Request {
  const message = modernMessage(id, method, params, parts);
  return postOf(message, parts);
}

/** POSTs any body with the standard headers derived from it (when it is a request). */
export function postOf(message: Record<string, unknown>, parts: ModernRequestParts = {}): Request {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    [STATELESS_HEADERS.protocolVersion]: parts.version ?? STATELESS_VERSION,
  };
  if (typeof message["method"] === "string") headers[STATELESS_HEADERS.method] = message["method"];
  const name =
    typeof message["method"] === "string"
      ? expectedMcpName(message["method"], message["params"] as Record<string, unknown> | undefined)
      : undefined;
  if (name !== undefined) headers[STATELESS_HEADERS.name] = encodeHeaderValue(name);
  for (const [header, value] of Object.entries(parts.headers ?? {})) {
    if (value === null) delete headers[header];
    else headers[header] = value;
  }
  return new Request(URL_2026, {
    method: "POST",
    headers,
    body: JSON.stringify(message),
    ...(parts.signal ? { signal: parts.signal } : {}),
  });
}

/** The JSON-RPC messages of a response: its JSON body, or each SSE event's data. */
export async function messagesIn(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream"))
    return text === "" ? [] : [JSON.parse(text) as Record<string, unknown>];
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice("data: ".length)) as Record<string, unknown>);
}

/** The last message of a response: its answer. */
export async function answerOf(response: Response): Promise<Record<string, unknown>> {
  const messages = await messagesIn(response);
  return messages[messages.length - 1] as Record<string, unknown>;
}

import { METHODS, NOTIFICATIONS } from "../../constants/index.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { JsonRpcId } from "../../types/types.js";
import { discardBody, mediaTypeOf, readText } from "./body.js";
import { pump } from "./event-stream.js";
import { httpError } from "./http-error.js";
import { ACCEPT_BOTH, EVENT_STREAM, unexpectedType, type HttpSession } from "./http-session.js";
import { answeredIdsOf, negotiatedVersionIn, parseFrame } from "./messages.js";
import { SseParser } from "./sse-parser.js";
import type { FetchBody, FetchResponse } from "./http-options.js";

/** The client's own initialize request, as it was sent. */
export interface KeptInitialize {
  readonly body: string;
  readonly id: JsonRpcId;
}

/**
 * Starts a new session in place of a lost one: the client's initialize again (its answer stays
 * here; the client already has one), a check that the server still speaks the same version, then
 * `notifications/initialized`. The new session id lands in `http`.
 */
export async function renewSession(http: HttpSession, initialize: KeptInitialize, signal: AbortSignal, maxBytes: number): Promise<void> {
  const spoken = http.protocolVersion;
  http.sessionId = undefined;
  const response = await http.request("POST", { accept: ACCEPT_BOTH, body: initialize.body, signal });
  if (!response.ok) throw await httpError(response, "POST", http.url);
  const version = negotiatedVersionIn(await answerOf(response, initialize.id, http.url, maxBytes, signal), initialize.id);
  if (version === undefined)
    throw new MCPError(
      MCP_CODES.PROTOCOL_INVALID,
      `The server's answer to ${METHODS.initialize} for a new session has no protocol version`,
    );
  if (spoken !== undefined && version !== spoken) {
    throw new MCPError(MCP_CODES.PROTOCOL_VERSION_MISMATCH, `The new session speaks protocol version ${version}, the lost one ${spoken}`, {
      data: { lost: spoken, answered: version },
    });
  }
  const accepted = await http.request("POST", {
    accept: ACCEPT_BOTH,
    body: JSON.stringify({ jsonrpc: "2.0", method: NOTIFICATIONS.initialized }),
    signal,
  });
  if (!accepted.ok) throw await httpError(accepted, "POST", http.url);
  discardBody(accepted);
}

async function answerOf(response: FetchResponse, id: JsonRpcId, url: string, maxBytes: number, signal: AbortSignal): Promise<unknown> {
  const type = mediaTypeOf(response);
  if (type === "application/json") {
    const frame = parseFrame((await readText(response, maxBytes)).text);
    return "value" in frame ? frame.value : undefined;
  }
  if (type === EVENT_STREAM && response.body) return answerOnStream(response.body, id, maxBytes, signal);
  discardBody(response);
  throw unexpectedType(response, "POST", url, type);
}

/** Reads an SSE answer up to the response to `id` (undefined when the stream ends without one). */
async function answerOnStream(body: FetchBody, id: JsonRpcId, maxBytes: number, signal: AbortSignal): Promise<unknown> {
  const found = new AbortController();
  let answer: unknown;
  const onItem = (item: ReturnType<SseParser["push"]>[number]): void => {
    const frame = item.kind === "event" ? parseFrame(item.event.data) : undefined;
    if (frame && "value" in frame && answeredIdsOf(frame.value).includes(id)) {
      answer = frame.value;
      found.abort();
    }
  };
  await pump(body, new SseParser(maxBytes), AbortSignal.any([signal, found.signal]), onItem, () => undefined);
  return answer;
}

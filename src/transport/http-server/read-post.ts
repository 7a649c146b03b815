import type { HttpExchange } from "./http-server.types.js";
import { accepts, isJsonContentType } from "./media-types.js";
import { checkPostedMessages, type PostedMessagesCheck } from "./messages.js";
import { readJsonBody } from "./request-body.js";
import { errorReply } from "./responses.js";

/**
 * The checks of a POST before its messages reach a session: what the client accepts (406, when
 * `acceptBoth` — Streamable HTTP clients must take JSON and SSE), the Content-Type (415), the body
 * size (413), JSON (400, -32700) and JSON-RPC envelopes (400, -32600).
 */
export async function readPostedMessages(exchange: HttpExchange, maxBodyBytes: number, acceptBoth: boolean): Promise<PostedMessagesCheck> {
  const accept = exchange.header("accept");
  if (acceptBoth && !(accepts(accept, "application/json") && accepts(accept, "text/event-stream"))) {
    return { ok: false, reply: errorReply(406, "Not Acceptable: the client must accept both application/json and text/event-stream") };
  }
  if (!isJsonContentType(exchange.header("content-type"))) {
    return { ok: false, reply: errorReply(415, "Unsupported Media Type: Content-Type must be application/json") };
  }
  const body = await readJsonBody(exchange, maxBodyBytes);
  return body.ok ? checkPostedMessages(body.value) : body;
}

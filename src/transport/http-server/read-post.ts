import { accepts, isJsonContentType } from "./media-types.js";
import { checkPostedMessages, type PostedMessagesCheck } from "./messages.js";
import { readJsonBody } from "./request-body.js";
import { errorResponse } from "./responses.js";

/**
 * The checks of a POST before its messages reach a session: what the client accepts (406, when
 * `acceptBoth` — Streamable HTTP clients must take JSON and SSE), the Content-Type (415), the body
 * size (413), JSON (400, -32700) and JSON-RPC envelopes (400, -32600).
 */
export async function readPostedMessages(request: Request, maxBodyBytes: number, acceptBoth: boolean): Promise<PostedMessagesCheck> {
  const accept = request.headers.get("accept");
  if (acceptBoth && !(accepts(accept, "application/json") && accepts(accept, "text/event-stream"))) {
    return { ok: false, response: errorResponse(406, "Not Acceptable: the client must accept both application/json and text/event-stream") };
  }
  if (!isJsonContentType(request.headers.get("content-type"))) {
    return { ok: false, response: errorResponse(415, "Unsupported Media Type: Content-Type must be application/json") };
  }
  const body = await readJsonBody(request, maxBodyBytes);
  return body.ok ? checkPostedMessages(body.value) : body;
}

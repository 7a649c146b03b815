import type { HttpAuthorization, HttpExchange } from "./http-server.types.js";
import type { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { InboundContext } from "../transport/transport.types.js";
import { accepts, isJsonContentType } from "./media-types.js";
import { checkPostedMessages, type PostedMessagesCheck } from "./messages.js";
import { readJsonBody } from "./request-body.js";
import { errorReply } from "./responses.js";

/** The endpoint a POST came to: its `authorization` decides whether the caller holds the scopes the POST's requests need on its server. */
export interface PostEndpoint {
  readonly options: { readonly authorization?: HttpAuthorization | undefined };
  readonly server: MCPServer;
}

/**
 * The checks of a POST before its messages reach a session: what the client accepts (406, when
 * `acceptBoth` — Streamable HTTP clients must take JSON and SSE), the Content-Type (415), the body
 * size (413), JSON (400, -32700), JSON-RPC envelopes (400, -32600), and with `authorization` the
 * scopes its requests need (403) — decided from the body, before any other check of the request.
 */
export async function readPostedMessages(
  exchange: HttpExchange,
  maxBodyBytes: number,
  acceptBoth: boolean,
  inbound: InboundContext,
  endpoint: PostEndpoint,
): Promise<PostedMessagesCheck> {
  const accept = exchange.header("accept");
  if (acceptBoth && !(accepts(accept, "application/json") && accepts(accept, "text/event-stream"))) {
    return { ok: false, reply: errorReply(406, "Not Acceptable: the client must accept both application/json and text/event-stream") };
  }
  if (!isJsonContentType(exchange.header("content-type"))) {
    return { ok: false, reply: errorReply(415, "Unsupported Media Type: Content-Type must be application/json") };
  }
  const body = await readJsonBody(exchange, maxBodyBytes);
  const checked = body.ok ? checkPostedMessages(body.value) : body;
  return endpoint.options.authorization?.admit(endpoint, inbound, checked) ?? checked;
}

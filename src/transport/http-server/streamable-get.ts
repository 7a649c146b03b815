import type { InboundContext } from "../transport/transport.types.js";
import type { HttpExchange, HttpReply } from "./http-server.types.js";
import { accepts } from "./media-types.js";
import { MCP_HEADERS, emptyReply, errorReply, sseHeaders } from "./responses.js";
import type { StreamableEndpoint } from "./streamable-endpoint.js";

/**
 * GET: with `Last-Event-ID` (and an event store), resumes the stream that id belongs to — in this
 * session only — replaying what followed it (204, the SSE signal to stop reconnecting, when that
 * stream is over and nothing is left); otherwise opens the session's own SSE stream, one at a time
 * (409 for a second).
 */
export async function streamableGet(endpoint: StreamableEndpoint, exchange: HttpExchange, inbound: InboundContext): Promise<HttpReply> {
  if (!accepts(exchange.header("accept"), "text/event-stream"))
    return errorReply(406, "Not Acceptable: the client must accept text/event-stream");
  const found = await endpoint.findSession(exchange, inbound);
  if (!found.ok) return found.reply;
  const { session } = found;
  const headers = sseHeaders({ [MCP_HEADERS.sessionId]: session.id });
  const lastEventId = exchange.header(MCP_HEADERS.lastEventId);
  if (lastEventId !== null && endpoint.store) {
    const resumed = await session.transport.resumeStream(lastEventId);
    if (resumed === undefined) return errorReply(400, `Bad Request: Last-Event-ID "${lastEventId}" is unknown or expired in this session`);
    return resumed === "ended" ? emptyReply(204, { [MCP_HEADERS.sessionId]: session.id }) : { status: 200, headers, body: resumed };
  }
  const body = session.transport.openStandaloneStream(endpoint.primes(session));
  return body ? { status: 200, headers, body } : errorReply(409, "Conflict: this session's GET stream is already open");
}

/** DELETE: the client ends its session; later requests naming it get 404. */
export async function streamableDelete(endpoint: StreamableEndpoint, exchange: HttpExchange, inbound: InboundContext): Promise<HttpReply> {
  const found = await endpoint.findSession(exchange, inbound);
  if (!found.ok) return found.reply;
  await found.session.close();
  return emptyReply(204);
}

import type { InboundContext } from "../transport/transport.types.js";
import { accepts } from "./media-types.js";
import { MCP_HEADERS, errorResponse, sseHeaders } from "./responses.js";
import type { StreamableEndpoint } from "./streamable-endpoint.js";

/**
 * GET: with `Last-Event-ID` (and an event store), resumes the stream that id belongs to — in this
 * session only — replaying what followed it (204, the SSE signal to stop reconnecting, when that
 * stream is over and nothing is left); otherwise opens the session's own SSE stream, one at a time
 * (409 for a second).
 */
export async function streamableGet(endpoint: StreamableEndpoint, request: Request, inbound: InboundContext): Promise<Response> {
  if (!accepts(request.headers.get("accept"), "text/event-stream")) return errorResponse(406, "Not Acceptable: the client must accept text/event-stream");
  const found = endpoint.findSession(request, inbound);
  if (!found.ok) return found.response;
  const { session } = found;
  const headers = sseHeaders({ [MCP_HEADERS.sessionId]: session.id });
  const lastEventId = request.headers.get(MCP_HEADERS.lastEventId);
  if (lastEventId !== null && endpoint.store) {
    const resumed = await session.transport.resumeStream(lastEventId);
    if (resumed === undefined) return errorResponse(400, `Bad Request: Last-Event-ID "${lastEventId}" is unknown or expired in this session`);
    return resumed === "ended" ? new Response(null, { status: 204, headers: { [MCP_HEADERS.sessionId]: session.id } }) : new Response(resumed, { headers });
  }
  const body = session.transport.openStandaloneStream(endpoint.primes(session));
  return body ? new Response(body, { headers }) : errorResponse(409, "Conflict: this session's GET stream is already open");
}

/** DELETE: the client ends its session; later requests naming it get 404. */
export async function streamableDelete(endpoint: StreamableEndpoint, request: Request, inbound: InboundContext): Promise<Response> {
  const found = endpoint.findSession(request, inbound);
  if (!found.ok) return found.response;
  await found.session.close();
  return new Response(null, { status: 204 });
}

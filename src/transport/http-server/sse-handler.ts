import type { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { InboundContext } from "../transport/transport.types.js";
import { FrontDoor } from "./front-door.js";
import type { HttpHandler, SseHttpOptions } from "./http-server.types.js";
import { LegacySseTransport } from "./legacy-sse-transport.js";
import { accepts } from "./media-types.js";
import { HTTP_REVISION_RULES, headerVersion } from "./protocol-version.js";
import { readPostedMessages } from "./read-post.js";
import { errorResponse, invalidRequestResponse, sseHeaders } from "./responses.js";
import { newSessionId } from "./session-id.js";
import { SessionRegistry, type HttpSession } from "./session-registry.js";
import { HTTP_DEFAULTS } from "./defaults.js";

/** The query parameter naming the session in the legacy transport's POST URL. */
const SESSION_PARAMETER = "sessionId";

type LegacySession = HttpSession<LegacySseTransport>;

/**
 * Serves `server` over the legacy HTTP+SSE transport (2024-11-05): a GET opens the SSE stream, whose
 * first event (`endpoint`) is the URL to POST messages to; each POST is acknowledged with 202 and
 * answered on the stream. The session ends with its stream.
 */
export function sseHttpHandler(server: MCPServer, options: SseHttpOptions = {}): HttpHandler {
  const registry = new SessionRegistry<LegacySseTransport>(server, { maxSessions: options.maxSessions ?? HTTP_DEFAULTS.maxSessions, idleTimeoutMs: Infinity });
  let closed = false;
  const paths = options.path === undefined ? undefined : [options.path, ...(options.endpoint === undefined ? [] : [options.endpoint])];
  const door = new FrontDoor(options, {
    paths,
    methods: { GET: (request, inbound) => openStream(registry, options, request, inbound), POST: (request, inbound) => receive(registry, options, request, inbound) },
    closed: () => closed,
  });
  return {
    fetch: (request) => door.handle(request),
    async close() {
      closed = true;
      await registry.closeAll();
    },
    get sessionCount() {
      return registry.size;
    },
  };
}

async function openStream(registry: SessionRegistry<LegacySseTransport>, options: SseHttpOptions, request: Request, inbound: InboundContext): Promise<Response> {
  if (!accepts(request.headers.get("accept"), "text/event-stream")) return errorResponse(406, "Not Acceptable: the client must accept text/event-stream");
  const id = newSessionId();
  const transport = new LegacySseTransport(id, options.keepAliveMs ?? HTTP_DEFAULTS.keepAliveMs);
  const session = await registry.open(id, transport, options.sessionOwner?.(inbound.authInfo));
  if (!session) return errorResponse(503, "Service Unavailable: too many sessions are open");
  const endpoint = new URL(options.endpoint ?? new URL(request.url).pathname, request.url);
  endpoint.searchParams.set(SESSION_PARAMETER, id);
  transport.announceEndpoint(`${endpoint.pathname}${endpoint.search}`);
  return new Response(transport.body, { headers: sseHeaders({}) });
}

async function receive(registry: SessionRegistry<LegacySseTransport>, options: SseHttpOptions, request: Request, inbound: InboundContext): Promise<Response> {
  const found = findSession(registry, options, request, inbound);
  if (!found.ok) return found.response;
  const read = await readPostedMessages(request, options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes, false);
  if (!read.ok) return read.response;
  const version = found.session.server.client?.protocolVersion ?? "2024-11-05";
  if (read.posted.batch && !HTTP_REVISION_RULES[version].batching) return invalidRequestResponse(`JSON-RPC batches are not allowed in protocol revision ${version}`);
  for (const message of read.posted.messages) found.session.transport.deliver(message, inbound);
  return new Response("Accepted", { status: 202, headers: { "content-type": "text/plain" } });
}

function findSession(registry: SessionRegistry<LegacySseTransport>, options: SseHttpOptions, request: Request, inbound: InboundContext): { ok: true; session: LegacySession } | { ok: false; response: Response } {
  const id = new URL(request.url).searchParams.get(SESSION_PARAMETER);
  if (id === null) return { ok: false, response: errorResponse(400, `Bad Request: the ${SESSION_PARAMETER} query parameter is required`) };
  const session = registry.find(id);
  if (!session || session.owner !== options.sessionOwner?.(inbound.authInfo)) return { ok: false, response: errorResponse(404, "Session not found") };
  const version = headerVersion(request);
  return version.ok ? { ok: true, session } : version;
}

import type { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { InboundContext } from "../transport/transport.types.js";
import { FrontDoor } from "./front-door.js";
import { exchangeOf, toResponse } from "./fetch-exchange.js";
import type { HttpExchange, HttpHandler, HttpReply, SseHttpOptions } from "./http-server.types.js";
import { LegacySseTransport } from "./legacy-sse-transport.js";
import { accepts } from "./media-types.js";
import { PROFILES } from "../../protocol/profiles.js";
import { headerVersion } from "./protocol-version.js";
import { readPostedMessages } from "./read-post.js";
import { errorReply, invalidRequestReply, sseHeaders } from "./responses.js";
import { newSessionId } from "./session-id.js";
import { SessionRegistry, type RegisteredSession } from "./session-registry.js";
import { HTTP_DEFAULTS } from "./defaults.js";

/** The query parameter naming the session in the legacy transport's POST URL. */
const SESSION_PARAMETER = "sessionId";

type LegacySession = RegisteredSession<LegacySseTransport>;

/**
 * Serves `server` over the legacy HTTP+SSE transport (2024-11-05): a GET opens the SSE stream, whose
 * first event (`endpoint`) is the URL to POST messages to; each POST is acknowledged with 202 and
 * answered on the stream. The session ends with its stream.
 */
export function sseHttpHandler(server: MCPServer, options: SseHttpOptions = {}): HttpHandler {
  const registry = new SessionRegistry<LegacySseTransport>(server, {
    maxSessions: options.maxSessions ?? HTTP_DEFAULTS.maxSessions,
    idleTimeoutMs: Infinity,
  });
  let closed = false;
  const paths = options.path === undefined ? undefined : [options.path, ...(options.endpoint === undefined ? [] : [options.endpoint])];
  const door = new FrontDoor(options, {
    paths,
    methods: {
      GET: (exchange, inbound) => openStream(registry, options, exchange, inbound),
      POST: (exchange, inbound) => receive(registry, { options, server }, exchange, inbound),
    },
    closed: () => closed,
  });
  // `authorization` answers its metadata before the door, and sees every reply.
  const handle = (exchange: HttpExchange): Promise<HttpReply> => options.authorization?.serve(exchange, door) ?? door.handle(exchange);
  return {
    fetch: async (request) => toResponse(await handle(exchangeOf(request))),
    handle,
    async close() {
      closed = true;
      await registry.closeAll();
    },
    // oxlint-disable-next-line suave/no-object-accessor -- made once per handler, not per message
    get sessionCount() {
      return registry.size;
    },
  };
}

async function openStream(
  registry: SessionRegistry<LegacySseTransport>,
  options: SseHttpOptions,
  exchange: HttpExchange,
  inbound: InboundContext,
): Promise<HttpReply> {
  if (!accepts(exchange.header("accept"), "text/event-stream"))
    return errorReply(406, "Not Acceptable: the client must accept text/event-stream");
  const id = newSessionId();
  const transport = new LegacySseTransport(id, options.keepAliveMs ?? HTTP_DEFAULTS.keepAliveMs);
  const session = await registry.open(id, transport, options.sessionOwner?.(inbound.authInfo));
  if (!session) return errorReply(503, "Service Unavailable: too many sessions are open");
  const endpoint = new URL(options.endpoint ?? exchange.url.pathname, exchange.url);
  endpoint.searchParams.set(SESSION_PARAMETER, id);
  transport.announceEndpoint(`${endpoint.pathname}${endpoint.search}`);
  return { status: 200, headers: sseHeaders({}), body: transport.body };
}

async function receive(
  registry: SessionRegistry<LegacySseTransport>,
  endpoint: { readonly options: SseHttpOptions; readonly server: MCPServer },
  exchange: HttpExchange,
  inbound: InboundContext,
): Promise<HttpReply> {
  const options = endpoint.options;
  const found = findSession(registry, options, exchange, inbound);
  if (!found.ok) return found.reply;
  const read = await readPostedMessages(exchange, options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes, false, inbound, endpoint);
  if (!read.ok) return read.reply;
  const version = found.session.server.client?.protocolVersion ?? "2024-11-05";
  if (read.posted.batch && !PROFILES[version].batching)
    return invalidRequestReply(`JSON-RPC batches are not allowed in protocol revision ${version}`);
  for (const message of read.posted.messages) found.session.transport.deliver(message, inbound);
  return { status: 202, headers: { "content-type": "text/plain" }, body: "Accepted" };
}

function findSession(
  registry: SessionRegistry<LegacySseTransport>,
  options: SseHttpOptions,
  exchange: HttpExchange,
  inbound: InboundContext,
): { ok: true; session: LegacySession } | { ok: false; reply: HttpReply } {
  const id = exchange.url.searchParams.get(SESSION_PARAMETER);
  if (id === null) return { ok: false, reply: errorReply(400, `Bad Request: the ${SESSION_PARAMETER} query parameter is required`) };
  const session = registry.find(id);
  if (!session || session.owner !== options.sessionOwner?.(inbound.authInfo))
    return { ok: false, reply: errorReply(404, "Session not found") };
  const version = headerVersion(exchange);
  return version.ok ? { ok: true, session } : version;
}

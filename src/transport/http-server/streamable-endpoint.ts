import type { ProtocolVersion } from "../../constants/index.js";
import type { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { InboundContext } from "../transport/transport.types.js";
import { InMemoryEventStore, type EventStore } from "./event-store.js";
import type { HttpExchange, HttpReply, StreamableHttpOptions } from "./http-server.types.js";
import { PROFILES, type RevisionProfile } from "../../protocol/profiles.js";
import { ASSUMED_PROTOCOL_VERSION, headerVersion } from "./protocol-version.js";
import { HTTP_DEFAULTS } from "./defaults.js";
import { MCP_HEADERS, errorReply } from "./responses.js";
import { SessionRegistry, type HttpSession } from "./session-registry.js";
import { HttpSessionTransport } from "./session-transport.js";

export type StreamableSession = HttpSession<HttpSessionTransport>;

export type FoundSession = { readonly ok: true; readonly session: StreamableSession } | { readonly ok: false; readonly reply: HttpReply };

/** The state and settings one `streamableHttpHandler` shares between its methods. */
export class StreamableEndpoint {
  readonly registry: SessionRegistry<HttpSessionTransport>;
  readonly stateless: boolean;
  readonly json: boolean;
  readonly maxBodyBytes: number;
  readonly store: EventStore | undefined;
  closed = false;

  constructor(
    readonly server: MCPServer,
    readonly options: StreamableHttpOptions,
  ) {
    this.stateless = options.sessions === "stateless";
    this.json = options.enableJsonResponse ?? false;
    this.maxBodyBytes = options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes;
    this.store = this.stateless || options.eventStore === false ? undefined : (options.eventStore ?? new InMemoryEventStore());
    const idleTimeoutMs = this.stateless ? Infinity : (options.sessionIdleTimeoutMs ?? HTTP_DEFAULTS.sessionIdleTimeoutMs);
    this.registry = new SessionRegistry(server, { maxSessions: options.maxSessions ?? HTTP_DEFAULTS.maxSessions, idleTimeoutMs });
  }

  /** A transport for a new session (`sessionId` undefined in stateless mode: no id, no event store). */
  newTransport(key: string, sessionId: string | undefined): HttpSessionTransport {
    const store = this.store;
    return new HttpSessionTransport(sessionId, {
      events: store && sessionId !== undefined ? { store, sessionId } : undefined,
      keepAliveMs: this.options.keepAliveMs ?? HTTP_DEFAULTS.keepAliveMs,
      retryMs: this.options.retryMs ?? HTTP_DEFAULTS.retryMs,
      maxConnectionMs: this.options.maxSseConnectionMs,
      onActivity: () => void this.registry.find(key),
    });
  }

  ownerOf(inbound: InboundContext): string | undefined {
    return this.options.sessionOwner?.(inbound.authInfo);
  }

  /** The session a request names in `Mcp-Session-Id`: 400 without one, 404 unknown (or someone else's), 400 for a bad protocol version. */
  findSession(exchange: HttpExchange, inbound: InboundContext): FoundSession {
    const id = exchange.header(MCP_HEADERS.sessionId);
    if (id === null) return { ok: false, reply: errorReply(400, "Bad Request: the Mcp-Session-Id header is required") };
    const session = this.registry.find(id);
    if (!session || session.owner !== this.ownerOf(inbound)) return { ok: false, reply: errorReply(404, "Session not found") };
    const version = headerVersion(exchange);
    return version.ok ? { ok: true, session } : version;
  }

  /** Whether a new SSE stream of `session` starts with a priming event: with an event store, for clients of a revision that expects one. */
  primes(session: StreamableSession): boolean {
    return this.store !== undefined && rulesOf(session).primingEvent;
  }
}

export function negotiatedVersion(session: StreamableSession): ProtocolVersion | undefined {
  return session.server.client?.protocolVersion;
}

/** The HTTP rules for a session: its negotiated revision's, or those of the revision the spec assumes. */
export function rulesOf(session: StreamableSession): RevisionProfile {
  return PROFILES[negotiatedVersion(session) ?? ASSUMED_PROTOCOL_VERSION];
}

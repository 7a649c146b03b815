import type { ProtocolVersion } from "../../constants/index.js";
import type { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { InboundContext } from "../transport/transport.types.js";
import type { HttpCluster } from "./cluster-seam.js";
import { InMemoryEventStore, type EventStore } from "./event-store.js";
import type { HttpExchange, HttpReply, StreamableHttpOptions } from "./http-server.types.js";
import { PROFILES, type RevisionProfile } from "../../protocol/profiles.js";
import { ASSUMED_PROTOCOL_VERSION, headerVersion } from "./protocol-version.js";
import { HTTP_DEFAULTS } from "./defaults.js";
import { MCP_HEADERS, errorReply } from "./responses.js";
import { SessionRegistry, type RegisteredSession } from "./session-registry.js";
import { HttpSessionTransport } from "./session-transport.js";

export type StreamableSession = RegisteredSession<HttpSessionTransport>;

export type FoundSession = { readonly ok: true; readonly session: StreamableSession } | { readonly ok: false; readonly reply: HttpReply };

/** The state and settings one `streamableHttpHandler` shares between its methods. */
export class StreamableEndpoint {
  readonly registry: SessionRegistry<HttpSessionTransport>;
  /** Sessions shared with the other instances of a deployment (stateful sessions only). */
  readonly cluster: HttpCluster | undefined;
  /** The endpoint behind its front door, set by the handler: what the cluster serves here. */
  serveHere!: (exchange: HttpExchange) => Promise<HttpReply>;
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
    const maxSessions = options.maxSessions ?? HTTP_DEFAULTS.maxSessions;
    this.registry = new SessionRegistry(server, { maxSessions, idleTimeoutMs });
    this.cluster = this.stateless || !server.servesSessions ? undefined : options.cluster;
    this.cluster?.attach({
      registry: this.registry,
      maxBodyBytes: this.maxBodyBytes,
      idleTimeoutMs,
      maxSessions,
      newTransport: (sessionId, adopting) => this.newTransport(sessionId, sessionId, adopting),
      serve: (exchange) => this.serveHere(exchange),
    });
  }

  /**
   * A transport for a new session (`sessionId` undefined in stateless mode: no id, no event store); `adopting` when it was taken over from
   * another instance.
   */
  newTransport(key: string, sessionId: string | undefined, adopting = false): HttpSessionTransport {
    const store = this.store;
    return new HttpSessionTransport(sessionId, {
      events: store && sessionId !== undefined ? { store, sessionId } : undefined,
      opening: this.cluster !== undefined,
      adopting,
      keepAliveMs: this.options.keepAliveMs ?? HTTP_DEFAULTS.keepAliveMs,
      retryMs: this.options.retryMs ?? HTTP_DEFAULTS.retryMs,
      maxConnectionMs: this.options.maxSseConnectionMs,
      onActivity: () => void this.registry.find(key),
    });
  }

  ownerOf(inbound: InboundContext): string | undefined {
    return this.options.sessionOwner?.(inbound.authInfo);
  }

  /**
   * The session a request names in `Mcp-Session-Id`: 400 without one, 404 unknown (or someone
   * else's), 400 for a bad protocol version. With a cluster, a session not open here is one it may
   * take over.
   */
  findSession(exchange: HttpExchange, inbound: InboundContext): FoundSession | Promise<FoundSession> {
    const id = exchange.header(MCP_HEADERS.sessionId);
    if (id === null) return { ok: false, reply: errorReply(400, "Bad Request: the Mcp-Session-Id header is required") };
    const session = this.registry.find(id);
    if (session === undefined && this.cluster) return this.#adopted(this.cluster, id, exchange, inbound);
    return this.#checked(session, exchange, inbound);
  }

  async #adopted(cluster: HttpCluster, id: string, exchange: HttpExchange, inbound: InboundContext): Promise<FoundSession> {
    const adopted = await cluster.adopt(id, this.ownerOf(inbound), exchange);
    return adopted !== undefined && "status" in adopted ? { ok: false, reply: adopted } : this.#checked(adopted, exchange, inbound);
  }

  #checked(session: StreamableSession | undefined, exchange: HttpExchange, inbound: InboundContext): FoundSession {
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

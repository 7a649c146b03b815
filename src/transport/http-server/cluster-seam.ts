import type { HttpExchange, HttpReply } from "./http-server.types.js";
import type { SessionRegistry } from "./session-registry.js";
import type { HttpSessionTransport } from "./session-transport.js";
import type { StreamableSession } from "./streamable-endpoint.js";

/** What a cluster needs of the Streamable HTTP endpoint it serves. */
export interface ClusterHost {
  readonly registry: SessionRegistry<HttpSessionTransport>;
  readonly maxBodyBytes: number;
  readonly idleTimeoutMs: number;
  readonly maxSessions: number;
  /** A transport for a session (`adopting`: taken over from another instance). */
  newTransport(sessionId: string, adopting: boolean): HttpSessionTransport;
  /** Serves a request here (the endpoint behind its front door). */
  serve(exchange: HttpExchange): Promise<HttpReply>;
}

/**
 * How a Streamable HTTP endpoint serves session-era sessions with other instances of a deployment
 * (`sessionCluster(...)` builds one; an endpoint without it carries none of its code). The endpoint
 * calls it at these points only.
 */
export interface HttpCluster {
  /** Once, by the endpoint it is given to; the cluster starts (lease, relay) in the background. */
  attach(host: ClusterHost): void;
  /** Resolves once it serves; rejects when it cannot start (the endpoint then refuses session requests). */
  readonly ready: Promise<void>;
  newSessionId(): string;
  /**
   * Before the front door: the reply of the instance serving the request's session, when that is another one; undefined to serve it here.
   */
  route(exchange: HttpExchange): Promise<HttpReply> | undefined;
  /**
   * A session opened here: recorded in the directory (with the principal that opened it) before its id is given out; false when it cannot
   * be.
   */
  opened(session: StreamableSession): Promise<boolean>;
  /**
   * A session not open here: taken over when its instance is gone (or was this one); a reply when it cannot be served here now; undefined
   * when unknown.
   */
  adopt(id: string, principal: string | undefined, exchange: HttpExchange): Promise<StreamableSession | HttpReply | undefined>;
  /** The handler closes: sessions open here are handed over (kept for other instances), the lease let go. */
  close(): Promise<void>;
}

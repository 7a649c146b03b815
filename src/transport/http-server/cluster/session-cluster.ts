import { MCP_CODES } from "../../../error-codes/error-codes.js";
import { MCPError } from "../../../error-codes/mcp-error.js";
import { randomHex } from "../../../protocol/bytes-text.js";
import type { InstanceBus } from "../../../stores/instance-bus.js";
import type { SessionDirectory } from "../../../stores/session-directory.js";
import type { ClusterHost, HttpCluster } from "../cluster-seam.js";
import type { HttpExchange, HttpReply } from "../http-server.types.js";
import { unreadBodyReply } from "../request-body.js";
import { MCP_HEADERS, errorReply } from "../responses.js";
import type { StreamableSession } from "../streamable-endpoint.js";
import { InstanceLease } from "./instance-lease.js";
import { InstanceWatch } from "./instance-watch.js";
import { orphanedReply } from "../orphaned.js";
import { isRelayed, withBody } from "./relayed-exchange.js";
import { Relay } from "./relay.js";
import { SessionHolds } from "./session-holds.js";

export interface SessionClusterOptions {
  /** Who serves each session, and which instances are alive: shared by every instance. */
  readonly directory: SessionDirectory;
  /** How instances relay requests to each other. */
  readonly bus: InstanceBus;
  /**
   * This process's name in the deployment, unique, 1 to 32 of A-Z a-z 0-9 _ -: every session id opened here starts with it and a dot (a
   * load balancer may route by it). Default: 8 random hex digits.
   */
  readonly instance?: string;
  /**
   * The instance lease (default 10 s): a process that stops renewing it for this long is taken for dead, and its sessions are taken over.
   */
  readonly leaseMs?: number;
}

const INSTANCE_NAME = /^[A-Za-z0-9_-]{1,32}$/;
/** A record's life without an idle timeout: touched while the session is used. */
const RECORD_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Session-era sessions shared by the instances of a deployment (the `cluster` option of
 * `streamableHttpHandler`): each session is served by one instance, recorded in the directory; a
 * request for it landing on another instance is relayed there; when its instance is gone (its
 * lease ran out), the next request takes the session over at the next epoch, restored from its
 * record, with its stored events.
 */
export function sessionCluster(options: SessionClusterOptions): HttpCluster {
  const instance = options.instance ?? randomHex(4);
  if (!INSTANCE_NAME.test(instance))
    throw new MCPError(MCP_CODES.INVALID_PARAMS, "sessionCluster: instance must be 1 to 32 of A-Z a-z 0-9 _ -");
  const leaseMs = options.leaseMs ?? 10_000;
  if (!(leaseMs >= 100 && Number.isFinite(leaseMs)))
    throw new MCPError(MCP_CODES.INVALID_PARAMS, "sessionCluster: leaseMs must be a number of milliseconds, at least 100");
  return new SessionCluster(options.directory, options.bus, instance, leaseMs);
}

class SessionCluster implements HttpCluster {
  readonly ready: Promise<void>;
  #host!: ClusterHost;
  #started!: () => void;
  #failed!: (error: unknown) => void;
  readonly #lease: InstanceLease;
  readonly #watch: InstanceWatch;
  readonly #relay: Relay;
  #holds!: SessionHolds;

  constructor(
    private readonly directory: SessionDirectory,
    bus: InstanceBus,
    private readonly instance: string,
    private readonly leaseMs: number,
  ) {
    this.ready = new Promise((resolve, reject) => ((this.#started = resolve), (this.#failed = reject)));
    this.ready.catch(() => undefined);
    this.#lease = new InstanceLease({
      directory,
      instance,
      leaseMs,
      onRegained: () => void this.#holds.reconcile(instance),
      onLost: () => void this.#holds.handOverAll(),
      onRenewed: () => void this.#holds.touchAll(),
    });
    this.#watch = new InstanceWatch(directory, leaseMs / 2);
    this.#relay = new Relay({
      instance,
      bus,
      watch: this.#watch,
      ackTimeoutMs: 2 * leaseMs,
      serve: (exchange) => this.#host.serve(exchange),
    });
  }

  attach(host: ClusterHost): void {
    this.#host = host;
    const ttlMs = Number.isFinite(host.idleTimeoutMs) ? host.idleTimeoutMs + 2 * this.leaseMs : RECORD_TTL_MS;
    this.#holds = new SessionHolds(this.directory, host.registry, ttlMs, host.maxSessions);
    Promise.all([this.#relay.start(), this.#lease.start()]).then(this.#started, this.#failed);
  }

  newSessionId(): string {
    return `${this.instance}.${randomHex(32)}`;
  }

  route(exchange: HttpExchange): Promise<HttpReply> | undefined {
    const id = exchange.header(MCP_HEADERS.sessionId);
    if (id === null || isRelayed(exchange) || this.#host.registry.has(id)) return undefined;
    return this.#routeElsewhere(id, exchange);
  }

  async opened(session: StreamableSession): Promise<boolean> {
    return (
      (await this.ready.then(
        () => true,
        () => false,
      )) && this.#holds.create(session, this.instance)
    );
  }

  async adopt(id: string, principal: string | undefined, exchange: HttpExchange): Promise<StreamableSession | HttpReply | undefined> {
    try {
      await this.ready;
      if (!this.#lease.fresh) return unavailable("this instance cannot renew its lease in the session directory");
      const record = await this.directory.get(id);
      if (record === undefined || record.state === undefined || record.principal !== principal || this.#holds.ended(id)) return undefined;
      // A relayed request is never relayed again: the instance it was meant for answers, or it is retried.
      if (record.instance !== this.instance && (isRelayed(exchange) || (await this.directory.alive(record.instance))))
        return unavailable("the session moved to another instance; retry");
      return (
        (await this.#holds.takeOver(record, this.instance, (adopting) => this.#host.newTransport(id, adopting))) ??
        unavailable("another instance took the session over first; retry")
      );
    } catch {
      return unavailable("the session directory cannot be reached");
    }
  }

  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.#holds.handOverAll();
    await this.#relay.close();
    this.#watch.close();
    await this.#lease.stop();
  }

  async #routeElsewhere(id: string, exchange: HttpExchange): Promise<HttpReply> {
    let target: string | undefined;
    try {
      await this.ready;
      const record = await this.directory.get(id);
      if (record !== undefined && record.instance !== this.instance && (await this.directory.alive(record.instance)))
        target = record.instance;
    } catch {
      return unavailable("the session directory cannot be reached");
    }
    // Unknown, this instance's, or its instance is gone: served here (404, or taken over).
    if (target === undefined) return this.#host.serve(exchange);
    let body: string | undefined;
    if (exchange.method === "POST") {
      const text = await exchange.text(this.#host.maxBodyBytes);
      if (!text.ok) return unreadBodyReply(text, this.#host.maxBodyBytes);
      body = text.text;
    }
    // Gone before answering: a POST it took gets errors, as its requests may have run; anything else is served here (the session taken
    // over).
    return this.#relay.relay(target, exchange, body, (taken) =>
      taken && body !== undefined ? Promise.resolve(orphanedReply(id, body)) : this.#host.serve(withBody(exchange, body)),
    );
  }
}

function unavailable(why: string): HttpReply {
  return errorReply(503, `Service Unavailable: ${why}`, { headers: { "retry-after": "1" } });
}

import type { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { ServerSession } from "../../server/mcp-server/session.js";
import type { Transport } from "../transport/transport.types.js";

/** What the registry needs of a session's transport. */
export interface SessionTransport extends Transport {
  /** True while the client is evidently around: such a session is not idle (a transport without it never is busy). */
  readonly busy?: boolean;
}

/** A session the registry holds (one per HTTP session id): its transport, the server's session on it, who opened it, its idle timer. */
export class RegisteredSession<T extends SessionTransport> {
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #touchedAt = 0;

  readonly #idleTimeoutMs: number;

  constructor(
    readonly id: string,
    readonly transport: T,
    readonly server: ServerSession,
    readonly owner: string | undefined,
    idleTimeoutMs: number,
  ) {
    this.#idleTimeoutMs = idleTimeoutMs;
    this.touch();
  }

  /** When a request last touched the session (`Date.now()`). */
  get touchedAt(): number {
    return this.#touchedAt;
  }

  /** Restarts the idle countdown. Every request touches: the timer is not reset, it looks at the time when it fires. */
  touch(): void {
    this.#touchedAt = Date.now();
    if (this.#idleTimer === undefined && Number.isFinite(this.#idleTimeoutMs)) this.#arm(this.#idleTimeoutMs);
  }

  close(): Promise<void> {
    return this.server.close();
  }

  /** Called once the session is gone, however it ended. */
  released(): void {
    clearTimeout(this.#idleTimer);
  }

  #arm(delayMs: number): void {
    this.#idleTimer = setTimeout(() => this.#expire(), delayMs);
  }

  #expire(): void {
    this.#idleTimer = undefined;
    const idleForMs = Date.now() - this.#touchedAt;
    if (idleForMs < this.#idleTimeoutMs) this.#arm(this.#idleTimeoutMs - idleForMs);
    else if (this.transport.busy) this.touch();
    else void this.close();
  }
}

export interface RegistryLimits {
  readonly maxSessions: number;
  readonly idleTimeoutMs: number;
}

/**
 * The sessions of one HTTP handler: bounded in number, looked up by id, expired when idle, and
 * forgotten the moment their connection closes — whichever end closed it.
 */
export class SessionRegistry<T extends SessionTransport> {
  readonly #sessions = new Map<string, RegisteredSession<T>>();
  #opening = 0;
  #closed = false;

  readonly #server: Pick<MCPServer, "start">;
  readonly #limits: RegistryLimits;

  constructor(server: Pick<MCPServer, "start">, limits: RegistryLimits) {
    this.#server = server;
    this.#limits = limits;
  }

  /** Sessions open, and being opened. */
  get size(): number {
    return this.#sessions.size + this.#opening;
  }

  /** Starts a session of the server on `transport`; undefined when the limit is reached or the registry closed. */
  async open(id: string, transport: T, owner: string | undefined): Promise<RegisteredSession<T> | undefined> {
    if (this.#closed || this.size >= this.#limits.maxSessions) return undefined;
    this.#opening++;
    let started: ServerSession;
    try {
      started = await this.#server.start(transport);
    } finally {
      this.#opening--;
    }
    const session = new RegisteredSession(id, transport, started, owner, this.#limits.idleTimeoutMs);
    this.#sessions.set(id, session);
    void started.finished.then(() => {
      session.released();
      this.#sessions.delete(id);
    });
    if (this.#closed) await session.close();
    return this.#closed ? undefined : session;
  }

  /** Whether a session with this id is open here (its idle countdown goes on). */
  has(id: string): boolean {
    return this.#sessions.has(id);
  }

  /** The sessions open now. */
  sessions(): IterableIterator<RegisteredSession<T>> {
    return this.#sessions.values();
  }

  /** The session with this id (its idle countdown restarts), if it is open. */
  find(id: string): RegisteredSession<T> | undefined {
    const session = this.#sessions.get(id);
    session?.touch();
    return session;
  }

  async closeAll(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#sessions.values()].map((session) => session.close()));
  }
}

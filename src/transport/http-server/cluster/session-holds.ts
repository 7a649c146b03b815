import type { SessionDirectory, SessionRecord, SessionState } from "../../../stores/session-directory.js";
import type { SessionRegistry } from "../session-registry.js";
import type { HttpSessionTransport } from "../session-transport.js";
import type { StreamableSession } from "../streamable-endpoint.js";

/** This instance's hold on one session: the epoch it serves it at, and its state writes in order. */
interface Hold {
  readonly session: StreamableSession;
  readonly epoch: number;
  saving: Promise<unknown>;
  /** A state write is queued: later changes ride on it. */
  queued: boolean;
  handedOver: boolean;
}

/**
 * The sessions this instance serves, as the directory knows them: each recorded before its id is
 * given out, its state written after each change (in order, the latest each time), its record kept
 * alive while it is used, and removed when the session ends here — but not when this instance
 * hands it over (the handler closes, the lease lapsed, or another instance took it: a write at an
 * old epoch is refused), since another instance goes on with it.
 */
export class SessionHolds {
  readonly #holds = new Map<string, Hold>();
  /** Sessions that ended here (DELETE, idle, a failed initialize) whose records the directory has not removed yet: never taken back. */
  readonly #ended = new Map<string, number>();
  #touchedUntil = 0;
  /** Takeovers under way, so two requests of one session take it over once. */
  readonly #adopting = new Map<string, Promise<StreamableSession | undefined>>();

  constructor(
    private readonly directory: SessionDirectory,
    private readonly registry: SessionRegistry<HttpSessionTransport>,
    private readonly ttlMs: number,
    private readonly maxEnded: number,
  ) {}

  async create(session: StreamableSession, instance: string): Promise<boolean> {
    if (!(await this.directory.create(recordOf(session, instance, 0, undefined), this.ttlMs).catch(() => undefined))) return false;
    this.#hold(session, 0);
    return true;
  }

  /** Serves `record`'s session here from now on, restored from its state; undefined when another instance moved it first. */
  takeOver(
    record: SessionRecord,
    instance: string,
    newTransport: (adopting: boolean) => HttpSessionTransport,
  ): Promise<StreamableSession | undefined> {
    let adopting = this.#adopting.get(record.id);
    if (adopting === undefined) {
      adopting = this.#takeOver(record, instance, newTransport).finally(() => this.#adopting.delete(record.id));
      this.#adopting.set(record.id, adopting);
    }
    return adopting;
  }

  /** Closes every session held here, keeping its record and events for the instance that takes it over. */
  async handOverAll(): Promise<void> {
    await Promise.all([...this.#holds.values()].map((hold) => this.#handOver(hold)));
  }

  /**
   * After this instance's lease lapsed: each session it serves is checked against the directory.
   * Still its own at its epoch: kept. Its record gone (Redis lost it): written again. Moved to a later
   * epoch or another instance (taken over meanwhile): handed over.
   */
  async reconcile(instance: string): Promise<void> {
    for (const hold of this.#holds.values()) {
      try {
        const record = await this.directory.get(hold.session.id);
        if (record === undefined)
          await this.directory.create(recordOf(hold.session, instance, hold.epoch, hold.session.server.state), this.ttlMs);
        else if (record.instance !== instance || record.epoch !== hold.epoch) await this.#handOver(hold);
      } catch {
        // The directory failed: the session stays as it is until the next check.
      }
    }
  }

  /** Keeps alive the records of the sessions used since the last time (records of idle ones run out with their idle timeout). */
  async touchAll(): Promise<void> {
    const since = this.#touchedUntil;
    this.#touchedUntil = Date.now();
    const used = [...this.registry.sessions()].filter((session) => session.touchedAt >= since).map((session) => session.id);
    if (used.length > 0) await this.directory.touch(used, this.ttlMs).catch(() => undefined);
    for (const [id, epoch] of this.#ended) await this.#remove(id, epoch);
  }

  /** Whether the session ended here and its record is not removed yet: it is not taken back. */
  ended(id: string): boolean {
    return this.#ended.has(id);
  }

  /** Removes an ended session's record; one the directory fails to remove is tried again at each renewal. */
  async #remove(id: string, epoch: number): Promise<void> {
    try {
      await this.directory.remove(id, epoch);
      this.#ended.delete(id);
    } catch {
      // Kept in #ended, as many as the instance holds sessions: past that the oldest are left to run out with their ttl.
      for (const oldest of this.#ended.keys()) if (this.#ended.size > this.maxEnded) this.#ended.delete(oldest);
    }
  }

  async #takeOver(
    record: SessionRecord,
    instance: string,
    newTransport: (adopting: boolean) => HttpSessionTransport,
  ): Promise<StreamableSession | undefined> {
    // Room here first: a session taken over that this instance cannot hold would be lost to every instance until its next takeover.
    const session = await this.registry.open(record.id, newTransport(true), record.principal);
    if (session === undefined) return undefined;
    const taken = await this.directory.takeOver(record.id, record.epoch, instance).catch(async (error: unknown) => {
      await session.transport.handOver();
      throw error;
    });
    if (taken?.state === undefined) {
      await session.transport.handOver();
      return undefined;
    }
    session.server.restore(taken.state);
    this.#hold(session, taken.epoch);
    return session;
  }

  #hold(session: StreamableSession, epoch: number): void {
    const hold: Hold = { session, epoch, saving: Promise.resolve(), queued: false, handedOver: false };
    this.#holds.set(session.id, hold);
    session.server.onStateChange = () => this.#save(hold);
    void session.server.finished.then(async () => {
      this.#holds.delete(session.id);
      if (hold.handedOver) return;
      this.#ended.set(session.id, epoch);
      await this.#remove(session.id, epoch);
    });
  }

  #save(hold: Hold): void {
    const { session } = hold;
    if (hold.queued) return;
    hold.queued = true;
    hold.saving = hold.saving.then(async () => {
      hold.queued = false;
      const state = session.server.state;
      const saved = state === undefined || (await this.directory.saveState(session.id, hold.epoch, state).catch(() => true));
      // Refused: another instance serves the session at a later epoch; this one lets it go.
      if (!saved) await this.#handOver(hold);
    });
  }

  #handOver(hold: Hold): Promise<void> {
    hold.handedOver = true;
    return hold.session.transport.handOver();
  }
}

/** A session's record as this instance writes it: the principal that opened it, its state once known. */
function recordOf(session: StreamableSession, instance: string, epoch: number, state: SessionState | undefined): SessionRecord {
  const { id, owner } = session;
  return { id, instance, epoch, ...(owner === undefined ? {} : { principal: owner }), ...(state === undefined ? {} : { state }) };
}

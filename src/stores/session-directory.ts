import type { JsonObject } from "../types/types.js";

/** What a session negotiated and changed since: enough for another instance to go on serving it. */
export interface SessionState {
  readonly protocolVersion: string;
  readonly clientInfo: JsonObject;
  readonly clientCapabilities: JsonObject;
  /** The level the client set with `logging/setLevel`; absent until it does. */
  readonly logLevel?: string;
  /** The resources the client subscribed to. */
  readonly subscriptions: readonly string[];
}

/** One session-era session of a deployment, as its directory keeps it. */
export interface SessionRecord {
  readonly id: string;
  /** The instance (server process) serving the session now: the only one holding it live. */
  readonly instance: string;
  /**
   * Raised by every takeover: a write naming an older epoch is refused, so an instance the session was taken from can no longer change it.
   */
  readonly epoch: number;
  /** Who opened the session (the endpoint's `sessionOwner`); absent when sessions are not bound to a principal. */
  readonly principal?: string;
  /** Absent until `initialize` was answered. */
  readonly state?: SessionState;
}

/**
 * What `renewLease` found: the lease held and extended, taken afresh (it had lapsed, or was never held), or held by another process under
 * the same instance name.
 */
export type LeaseRenewal = "renewed" | "acquired" | "conflict";

/**
 * Where the instances of a deployment find each other's sessions: who serves each one, at which
 * epoch, for whom, and what it negotiated; and which instances are alive (a lease each, renewed
 * while the process runs). Every record and lease expires unless renewed.
 */
export interface SessionDirectory {
  /** Adds a session; false when the id is taken. It lives `ttlMs` unless touched. */
  create(record: SessionRecord, ttlMs: number): Promise<boolean>;
  get(id: string): Promise<SessionRecord | undefined>;
  /** Writes the session's state if its epoch is still `epoch`; false when it was taken over or is gone. */
  saveState(id: string, epoch: number, state: SessionState): Promise<boolean>;
  /**
   * Makes `instance` serve the session at the next epoch, if its epoch is still `epoch`: the new record, or undefined when another instance
   * moved it first or it is gone.
   */
  takeOver(id: string, epoch: number, instance: string): Promise<SessionRecord | undefined>;
  /** Extends the lives of these sessions to `ttlMs` from now (an id that is gone is skipped). */
  touch(ids: readonly string[], ttlMs: number): Promise<void>;
  /** Removes the session if its epoch is still `epoch`: an instance a session was taken from never ends it for its new one. */
  remove(id: string, epoch: number): Promise<void>;
  /** Holds `instance`'s lease for `ttlMs` more under `token` (the process's own, random). */
  renewLease(instance: string, token: string, ttlMs: number): Promise<LeaseRenewal>;
  /** Lets the lease go at once if `token` still holds it (a clean shutdown: its sessions may be taken over without waiting). */
  releaseLease(instance: string, token: string): Promise<void>;
  /** Whether some process holds `instance`'s lease now. */
  alive(instance: string): Promise<boolean>;
}

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/**
 * The directory of one process, for several endpoints in it (tests, or instances sharing a process).
 * `now` is its clock; expired entries are invisible and dropped when met.
 */
export class InMemorySessionDirectory implements SessionDirectory {
  readonly #records = new Map<string, Entry<SessionRecord>>();
  readonly #leases = new Map<string, Entry<string>>();
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** Sessions held now. */
  get size(): number {
    for (const id of this.#records.keys()) this.#live(this.#records, id);
    return this.#records.size;
  }

  create(record: SessionRecord, ttlMs: number): Promise<boolean> {
    if (this.#live(this.#records, record.id)) return Promise.resolve(false);
    this.#records.set(record.id, { value: copy(record), expiresAt: this.#now() + ttlMs });
    return Promise.resolve(true);
  }

  get(id: string): Promise<SessionRecord | undefined> {
    const entry = this.#live(this.#records, id);
    return Promise.resolve(entry && copy(entry.value));
  }

  saveState(id: string, epoch: number, state: SessionState): Promise<boolean> {
    const entry = this.#live(this.#records, id);
    if (entry?.value.epoch !== epoch) return Promise.resolve(false);
    entry.value = copy({ ...entry.value, state });
    return Promise.resolve(true);
  }

  takeOver(id: string, epoch: number, instance: string): Promise<SessionRecord | undefined> {
    const entry = this.#live(this.#records, id);
    if (entry?.value.epoch !== epoch) return Promise.resolve(undefined);
    entry.value = { ...entry.value, instance, epoch: epoch + 1 };
    return Promise.resolve(copy(entry.value));
  }

  touch(ids: readonly string[], ttlMs: number): Promise<void> {
    for (const id of ids) {
      const entry = this.#live(this.#records, id);
      if (entry) entry.expiresAt = this.#now() + ttlMs;
    }
    return Promise.resolve();
  }

  remove(id: string, epoch: number): Promise<void> {
    if (this.#live(this.#records, id)?.value.epoch === epoch) this.#records.delete(id);
    return Promise.resolve();
  }

  renewLease(instance: string, token: string, ttlMs: number): Promise<LeaseRenewal> {
    const held = this.#live(this.#leases, instance);
    if (held && held.value !== token) return Promise.resolve("conflict");
    this.#leases.set(instance, { value: token, expiresAt: this.#now() + ttlMs });
    return Promise.resolve(held ? "renewed" : "acquired");
  }

  releaseLease(instance: string, token: string): Promise<void> {
    if (this.#live(this.#leases, instance)?.value === token) this.#leases.delete(instance);
    return Promise.resolve();
  }

  alive(instance: string): Promise<boolean> {
    return Promise.resolve(this.#live(this.#leases, instance) !== undefined);
  }

  #live<T>(entries: Map<string, Entry<T>>, key: string): Entry<T> | undefined {
    const entry = entries.get(key);
    if (entry === undefined || entry.expiresAt > this.#now()) return entry;
    entries.delete(key);
    return undefined;
  }
}

/**
 * Records leave and enter the directory as copies: what a caller holds never changes under it (a directory elsewhere would serialise them).
 */
function copy(record: SessionRecord): SessionRecord {
  return JSON.parse(JSON.stringify(record)) as SessionRecord;
}

import type { JsonRpcId } from "../../types/types.js";

/** One stream of one session: what events are kept under. */
export interface StreamRef {
  readonly sessionId: string;
  readonly streamId: string;
}

/** An SSE event as it was sent: its id and its `data` text ("" for a priming event). */
export interface StoredEvent {
  readonly id: string;
  readonly data: string;
  /**
   * On the first event kept of a stream a POST opened: the ids of the requests it carries. Another
   * instance taking the session over answers those it finds unanswered with an error.
   */
  readonly requests?: readonly JsonRpcId[];
}

type Awaitable<T> = T | Promise<T>;

/**
 * Where the Streamable HTTP handler keeps the events it sends, so a client that lost a stream can
 * resume it with `Last-Event-ID`. Ids are assigned by the handler and unique within a session; a
 * store only has to keep events in order, per session and stream.
 */
export interface EventStore {
  append(stream: StreamRef, event: StoredEvent): Awaitable<void>;
  /** Optional: several events of one stream at once, in order (a store that can keeps them in one round trip). */
  appendAll?(stream: StreamRef, events: readonly StoredEvent[]): Awaitable<void>;
  /**
   * The events of `stream` after `eventId`, oldest first; undefined when `eventId` is not (or no
   * longer) there — replaying from it could skip events, so the handler refuses to.
   */
  eventsAfter(stream: StreamRef, eventId: string): Awaitable<readonly StoredEvent[] | undefined>;
  /** Forgets everything of a session (it ended). */
  dropSession(sessionId: string): Awaitable<void>;
  /**
   * The `requests` the first event kept of `stream` named, while any event of it is kept: an array
   * for a POST's stream, null for a stream opened without requests (the GET stream), undefined when
   * the stream is unknown. Optional: without it, a session taken over by another instance cannot
   * answer the requests that were in flight on its old instance.
   */
  streamRequests?(stream: StreamRef): Awaitable<readonly JsonRpcId[] | null | undefined>;
}

export interface InMemoryEventStoreOptions {
  /** Events kept in all (default 10 000); the oldest go first. */
  readonly maxEvents?: number;
  /** Characters of event data kept in all (default 16 Mi); the oldest events go first. */
  readonly maxDataLength?: number;
}

/** The events of one stream still kept, oldest first. */
interface StreamLog {
  readonly sessionId: string;
  readonly streamId: string;
  /** What the stream's first event named (null: none). */
  readonly requests: readonly JsonRpcId[] | null;
  readonly events: StoredEvent[];
  /** Its session ended: its entries in the order are skipped when reached. */
  dropped: boolean;
}

/** Entries of the order below which it is not worth compacting. */
const COMPACT_AFTER = 1024;

/**
 * A bounded `EventStore` in memory: one log per stream, and one order of all events (the log each
 * is in) so the oldest event overall is evicted first. Because eviction is oldest-first, an event
 * still present means every later event of its stream is too, so a replay from it is complete.
 */
export class InMemoryEventStore implements EventStore {
  readonly #maxEvents: number;
  readonly #maxDataLength: number;
  readonly #sessions = new Map<string, Map<string, StreamLog>>();
  /** Oldest first from `#head`: for each event appended, its log (an event of a dropped log is stale). */
  #order: StreamLog[] = [];
  #head = 0;
  #stale = 0;
  #size = 0;
  #dataLength = 0;

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.#maxEvents = Math.max(1, options.maxEvents ?? 10_000);
    this.#maxDataLength = options.maxDataLength ?? 16 * 1024 * 1024;
  }

  /** Events kept now. */
  get size(): number {
    return this.#size;
  }

  append(ref: StreamRef, event: StoredEvent): void {
    const log = this.#logOf(ref, event.requests);
    log.events.push(event);
    this.#order.push(log);
    this.#size++;
    this.#dataLength += event.data.length;
    while (this.#size > this.#maxEvents || (this.#dataLength > this.#maxDataLength && this.#size > 1)) this.#evictOldest();
    this.#compact();
  }

  eventsAfter(ref: StreamRef, eventId: string): readonly StoredEvent[] | undefined {
    const events = this.#sessions.get(ref.sessionId)?.get(ref.streamId)?.events ?? [];
    const at = events.findIndex((event) => event.id === eventId);
    return at < 0 ? undefined : events.slice(at + 1);
  }

  streamRequests(ref: StreamRef): readonly JsonRpcId[] | null | undefined {
    return this.#sessions.get(ref.sessionId)?.get(ref.streamId)?.requests;
  }

  dropSession(sessionId: string): void {
    for (const log of this.#sessions.get(sessionId)?.values() ?? []) {
      log.dropped = true;
      this.#size -= log.events.length;
      this.#stale += log.events.length;
      for (const event of log.events) this.#dataLength -= event.data.length;
      log.events.length = 0;
    }
    this.#sessions.delete(sessionId);
    this.#compact();
  }

  #logOf(ref: StreamRef, requests: readonly JsonRpcId[] | undefined): StreamLog {
    let streams = this.#sessions.get(ref.sessionId);
    if (streams === undefined) {
      streams = new Map();
      this.#sessions.set(ref.sessionId, streams);
    }
    let log = streams.get(ref.streamId);
    if (log === undefined) {
      log = { sessionId: ref.sessionId, streamId: ref.streamId, requests: requests ?? null, events: [], dropped: false };
      streams.set(ref.streamId, log);
    }
    return log;
  }

  #evictOldest(): void {
    let log = this.#order[this.#head++] as StreamLog;
    while (log.dropped) {
      this.#stale--;
      log = this.#order[this.#head++] as StreamLog;
    }
    const oldest = log.events.shift() as StoredEvent;
    this.#size--;
    this.#dataLength -= oldest.data.length;
    if (log.events.length > 0) return;
    const streams = this.#sessions.get(log.sessionId) as Map<string, StreamLog>;
    streams.delete(log.streamId);
    if (streams.size === 0) this.#sessions.delete(log.sessionId);
  }

  /** Drops the order's spent head and, when they are most of it, the stale entries of ended sessions. */
  #compact(): void {
    if (this.#head > COMPACT_AFTER && this.#head * 2 > this.#order.length) {
      this.#order = this.#order.slice(this.#head);
      this.#head = 0;
    }
    if (this.#stale > COMPACT_AFTER && this.#stale > this.#size) {
      this.#order = this.#order.slice(this.#head).filter((log) => !log.dropped);
      this.#head = 0;
      this.#stale = 0;
    }
  }
}

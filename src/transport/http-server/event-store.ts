/** One stream of one session: what events are kept under. */
export interface StreamRef {
  readonly sessionId: string;
  readonly streamId: string;
}

/** An SSE event as it was sent: its id and its `data` text ("" for a priming event). */
export interface StoredEvent {
  readonly id: string;
  readonly data: string;
}

type Awaitable<T> = T | Promise<T>;

/**
 * Where the Streamable HTTP handler keeps the events it sends, so a client that lost a stream can
 * resume it with `Last-Event-ID`. Ids are assigned by the handler and unique within a session; a
 * store only has to keep events in order, per session and stream.
 */
export interface EventStore {
  append(stream: StreamRef, event: StoredEvent): Awaitable<void>;
  /**
   * The events of `stream` after `eventId`, oldest first; undefined when `eventId` is not (or no
   * longer) there — replaying from it could skip events, so the handler refuses to.
   */
  eventsAfter(stream: StreamRef, eventId: string): Awaitable<readonly StoredEvent[] | undefined>;
  /** Forgets everything of a session (it ended). */
  dropSession(sessionId: string): Awaitable<void>;
}

export interface InMemoryEventStoreOptions {
  /** Events kept in all (default 10 000); the oldest go first. */
  readonly maxEvents?: number;
  /** Characters of event data kept in all (default 16 Mi); the oldest events go first. */
  readonly maxDataLength?: number;
}

interface Kept {
  readonly event: StoredEvent;
  readonly order: number;
}

type StreamLog = Map<string, Kept>;
type SessionLogs = Map<string, StreamLog>;

interface Placed {
  readonly sessionId: string;
  readonly streamId: string;
  readonly streams: SessionLogs;
  readonly log: StreamLog;
  readonly id: string;
  readonly length: number;
}

/**
 * A bounded `EventStore` in memory: one insertion-ordered log per stream, and one global order so the
 * oldest event overall is evicted first. Because eviction is oldest-first, an event still present
 * means every later event of its stream is too, so a replay from it is complete.
 */
export class InMemoryEventStore implements EventStore {
  readonly #maxEvents: number;
  readonly #maxDataLength: number;
  readonly #sessions = new Map<string, SessionLogs>();
  readonly #oldestFirst = new Map<number, Placed>();
  #nextOrder = 0;
  #dataLength = 0;

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.#maxEvents = Math.max(1, options.maxEvents ?? 10_000);
    this.#maxDataLength = options.maxDataLength ?? 16 * 1024 * 1024;
  }

  /** Events kept now. */
  get size(): number {
    return this.#oldestFirst.size;
  }

  append(ref: StreamRef, event: StoredEvent): void {
    const streams = this.#sessions.get(ref.sessionId) ?? new Map<string, StreamLog>();
    this.#sessions.set(ref.sessionId, streams);
    const log = streams.get(ref.streamId) ?? new Map<string, Kept>();
    streams.set(ref.streamId, log);
    const order = this.#nextOrder++;
    log.set(event.id, { event, order });
    this.#oldestFirst.set(order, { sessionId: ref.sessionId, streamId: ref.streamId, streams, log, id: event.id, length: event.data.length });
    this.#dataLength += event.data.length;
    while (this.#oldestFirst.size > this.#maxEvents || (this.#dataLength > this.#maxDataLength && this.#oldestFirst.size > 1)) this.#evictOldest();
  }

  eventsAfter(ref: StreamRef, eventId: string): readonly StoredEvent[] | undefined {
    const log = this.#sessions.get(ref.sessionId)?.get(ref.streamId);
    if (!log?.has(eventId)) return undefined;
    const after: StoredEvent[] = [];
    let found = false;
    for (const [id, kept] of log) {
      if (found) after.push(kept.event);
      found ||= id === eventId;
    }
    return after;
  }

  dropSession(sessionId: string): void {
    for (const log of this.#sessions.get(sessionId)?.values() ?? []) {
      for (const kept of log.values()) this.#forget(kept.order);
    }
    this.#sessions.delete(sessionId);
  }

  #evictOldest(): void {
    const [order, oldest] = this.#oldestFirst.entries().next().value as [number, Placed];
    this.#forget(order);
    oldest.log.delete(oldest.id);
    if (oldest.log.size === 0) oldest.streams.delete(oldest.streamId);
    if (oldest.streams.size === 0) this.#sessions.delete(oldest.sessionId);
  }

  #forget(order: number): void {
    this.#dataLength -= (this.#oldestFirst.get(order) as Placed).length;
    this.#oldestFirst.delete(order);
  }
}

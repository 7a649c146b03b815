import type { JsonRpcId } from "../../types/types.js";
import type { EventStore, StoredEvent, StreamRef } from "./event-store.js";
import type { EventStreamBody } from "./http-server.types.js";
import { undeliverable, type RequestRoute } from "./routes.js";
import type { SseEvent } from "../encode.js";
import { SseConnection } from "./sse-connection.js";

/** How the streams of one session behave: shared by all of them. */
export interface StreamSettings {
  /** Where events are kept for resumption (stateful sessions with a store); undefined: no event ids. */
  readonly events: { readonly store: EventStore; readonly sessionId: string } | undefined;
  readonly keepAliveMs: number;
  readonly retryMs: number;
  /** SEP-1699: end a connection after this long once the client holds an event id. */
  readonly maxConnectionMs: number | undefined;
  /**
   * Keep an opening event (no data) first in every stream, naming its requests, also for clients sent
   * no priming event: an instance that takes the session over reads what the stream carried from it.
   */
  readonly opening?: boolean;
}

/** Events a stream sends ahead of its store before a send waits for it. */
const MAX_UNKEPT_EVENTS = 64;

/** The number of an event of a stream (`<stream>_<n>`); NaN when it is not one. */
function numberOf(eventId: string): number {
  return Number(eventId.slice(eventId.lastIndexOf("_") + 1));
}

/**
 * What a stream tells its session: "answered" — every request of it was answered and the last event
 * written (never for the GET stream); "client-gone" — a client connection left before reading all.
 */
export type StreamEvent = "answered" | "client-gone";

/** The id of the stream an event id belongs to (`<stream>_<n>`). */
export function streamIdOf(eventId: string): string | undefined {
  const separator = eventId.lastIndexOf("_");
  return separator > 0 ? eventId.slice(0, separator) : undefined;
}

/**
 * One logical SSE stream of a session: a POST's (it ends once each of its requests is answered) or
 * the GET stream (`pending` undefined; it lasts as long as the session). It outlives its HTTP
 * connections: with an event store every event gets an id and is kept, so a client that lost the
 * connection — or was asked to poll (SEP-1699) — resumes with `Last-Event-ID`, missing nothing and
 * seeing nothing twice. Everything that touches the connection or the store runs in one queue, so
 * events keep their order and a replay cannot interleave with a live write.
 */
export class OutboundStream implements RequestRoute {
  /** The requests the stream was opened for (undefined: the GET stream), named by its first event kept. */
  readonly #requests: readonly JsonRpcId[] | undefined;
  readonly #pending: Set<JsonRpcId> | undefined;
  #connection: SseConnection | undefined;
  /**
   * Whether the attached connection may be ended for polling: its client got a priming event (it
   * speaks SEP-1699) or came back with Last-Event-ID. Older clients need not reconnect a POST stream.
   */
  #pollable = false;
  /** Whether a client was ever given an event id of this stream (a priming event, an event, a replay): only then can it resume it. */
  #idGiven = false;
  #pollTimer: ReturnType<typeof setTimeout> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #nextEvent = 0;
  /** Events sent but not yet kept (an opening held back), and the turn they are kept on if nothing comes first. */
  readonly #unkept: StoredEvent[] = [];
  #keepTimer: ReturnType<typeof setTimeout> | undefined;
  /** The appends in flight: events are sent without waiting for them, kept in order behind them. */
  #keeping: Promise<void> | undefined;
  /** The session closed: what is held back is kept (it moves to another instance) or dropped (it ended). */
  #closed: "keep" | "drop" | undefined;

  readonly #settings: StreamSettings;
  readonly #onEvent: (stream: OutboundStream, event: StreamEvent) => void;

  constructor(
    readonly id: string,
    settings: StreamSettings,
    pending: readonly JsonRpcId[] | undefined,
    onEvent: (stream: OutboundStream, event: StreamEvent) => void,
  ) {
    this.#settings = settings;
    this.#onEvent = onEvent;
    this.#requests = pending;
    this.#pending = pending && new Set(pending);
  }

  get connected(): boolean {
    return this.#connection !== undefined;
  }

  get #answered(): boolean {
    return this.#pending?.size === 0;
  }

  /** A new connection for this stream, replacing any other; `prime` starts it with an id and no data (SEP-1699). */
  connect(prime: boolean): EventStreamBody {
    const connection = this.#newConnection();
    this.#attach(connection, prime);
    if (this.#settings.events && (prime || (this.#settings.opening === true && this.#nextEvent === 0))) {
      void this.#enqueue(() => {
        const opening = this.#numbered("");
        if (prime) {
          connection.write({ id: opening.id, retry: this.#settings.retryMs, data: "" });
          this.#idGiven = true;
        }
        this.#keepLater(opening);
      });
    }
    return connection;
  }

  /**
   * A connection that first replays what followed `lastEventId`; "ended" when the stream is over and
   * the client saw all of it (its requests were cancelled: no response will come); undefined when
   * the store cannot replay from there.
   */
  resume(lastEventId: string): Promise<EventStreamBody | "ended" | undefined> {
    const { store, sessionId } = this.#settings.events as NonNullable<StreamSettings["events"]>;
    return this.#enqueue(async () => {
      await this.#kept();
      const missed = follows(lastEventId, await store.eventsAfter(this.#ref(sessionId), lastEventId));
      if (!missed) return undefined;
      if (this.#answered && missed.length === 0) return "ended";
      return this.#replay(missed);
    });
  }

  /**
   * Resumes a stream another instance served before this one took its session over: replays what
   * followed `lastEventId`, numbers new events after the last one kept, and answers each of its
   * requests that no kept event answered with `orphaned(id)` — the instance running it is gone.
   */
  adopt(lastEventId: string, orphaned: (id: JsonRpcId) => string): Promise<EventStreamBody | undefined> {
    const { store, sessionId } = this.#settings.events as NonNullable<StreamSettings["events"]>;
    return this.#enqueue(async () => {
      const missed = follows(lastEventId, await store.eventsAfter(this.#ref(sessionId), lastEventId));
      if (!missed) return undefined;
      // Every event from the opening on, when the store still holds them: a request answered before the client's last id was answered too.
      const seen = [...((await store.eventsAfter(this.#ref(sessionId), `${this.id}_0`)) ?? []), ...missed];
      for (const event of seen) this.#pending?.delete(answeredId(event.data) as JsonRpcId);
      this.#nextEvent = 1 + Math.max(numberOf(lastEventId), ...seen.map((event) => numberOf(event.id)));
      const connection = this.#replay(missed);
      for (const id of this.#pending ?? []) await this.#answer(id, orphaned(id));
      return connection;
    });
  }

  forward(data: string, isRequest: boolean): Promise<void> {
    return this.#enqueue(() => this.#send(data, isRequest));
  }

  respond(id: JsonRpcId, data: string): Promise<void> {
    return this.#enqueue(() => this.#answer(id, data));
  }

  retire(id: JsonRpcId): void {
    this.#pending?.delete(id);
    this.#endIfAnswered();
  }

  /** Ends the current connection if its client will poll it back (SEP-1699); the stream goes on. */
  disconnect(): Promise<boolean> {
    return this.#enqueue(() => {
      if (!(this.#pollable && this.#connection)) return false;
      this.#connection.write({ retry: this.#settings.retryMs });
      this.#detach();
      return true;
    });
  }

  /** The session closed (`keep`: it moves to another instance, so what is not kept yet is kept now). */
  close(keep = false): void {
    this.#detach();
    this.#closed = keep ? "keep" : "drop";
    clearTimeout(this.#keepTimer);
    // In the queue, after whatever is still to be held back.
    if (keep) void this.#enqueue(() => this.#startKeeping());
    else this.#unkept.length = 0;
  }

  async #send(data: string, isRequest: boolean, last = false): Promise<void> {
    // The stream's last event, to a client holding none of its ids: nobody can ever ask for it again, so it gets no id and is not
    // kept (it costs what a JSON answer costs).
    const id = last && !this.#idGiven ? undefined : this.#record(data);
    if (this.#connection) {
      this.#connection.write({ event: "message", id, data });
      this.#idGiven ||= id !== undefined;
    } else if (id === undefined) await undeliverable(isRequest, "the client's stream for it is gone");
    // A sender far ahead of the store waits for it (in the queue, so the next send does too): the store paces a flood, as a slow client's
    // connection would.
    if (this.#unkept.length >= MAX_UNKEPT_EVENTS) await this.#keeping;
  }

  /** In the queue: sends a request's response; the stream ends once every request has one. */
  async #answer(id: JsonRpcId, data: string): Promise<void> {
    this.#pending?.delete(id);
    try {
      await this.#send(data, false, this.#answered);
    } finally {
      if (this.#answered) await this.#end();
    }
  }

  /**
   * Every request answered: the connection ends at once; the stream is let go once all it sent is kept, for a client that polls it back.
   */
  async #end(): Promise<void> {
    this.#detach();
    await this.#kept();
    this.#onEvent(this, "answered");
  }

  /** A connection that first carries `missed`; it ends after them when the stream is answered. */
  #replay(missed: readonly StoredEvent[]): SseConnection {
    const connection = this.#newConnection();
    // Its client came back with an id of this stream.
    this.#idGiven = true;
    for (const event of missed) connection.write(toSseEvent(event), true);
    if (this.#answered) connection.close();
    else this.#attach(connection, true);
    return connection;
  }

  #endIfAnswered(): void {
    if (!this.#answered) return;
    void this.#enqueue(() => this.#end());
  }

  #newConnection(): SseConnection {
    const connection: SseConnection = new SseConnection({
      keepAliveMs: this.#settings.keepAliveMs,
      onClientGone: () => {
        // A replaced connection can be cancelled too (its client never read to its end): leave its successor alone.
        if (this.#connection === connection) this.#detach();
        this.#onEvent(this, "client-gone");
      },
    });
    return connection;
  }

  #attach(connection: SseConnection, pollable: boolean): void {
    this.#detach();
    this.#connection = connection;
    this.#pollable = pollable;
    const limit = this.#settings.maxConnectionMs;
    if (limit !== undefined && pollable) this.#pollTimer = setTimeout(() => void this.disconnect(), limit);
  }

  #detach(): void {
    clearTimeout(this.#pollTimer);
    this.#connection?.close();
    this.#connection = undefined;
  }

  /** The next event of the stream, numbered (the first one naming the stream's requests). */
  #numbered(data: string): StoredEvent {
    const number = this.#nextEvent++;
    const id = `${this.id}_${number}`;
    const requests = number === 0 ? this.#requests : undefined;
    return requests === undefined ? { id, data } : { id, data, requests };
  }

  /** Keeps the event (when there is a store), with any held back before it, and returns its id: the next number, kept or not. */
  #record(data: string): string | undefined {
    if (!this.#settings.events) return undefined;
    const event = this.#numbered(data);
    this.#unkept.push(event);
    this.#startKeeping();
    return event.id;
  }

  /**
   * An opening (priming) event is sent at once but kept on a later turn, with the stream's next
   * event when one comes by then (a quick answer): one append to the store instead of two.
   */
  #keepLater(event: StoredEvent): void {
    if (this.#closed === "drop") return;
    this.#unkept.push(event);
    if (this.#closed === undefined) this.#keepTimer ??= setTimeout(() => this.#startKeeping(), 0);
  }

  /**
   * Appends what is not kept yet, in order, without holding up what is sent: one append at a time,
   * each taking every event that came meanwhile (so a busy stream needs fewer round trips). A store
   * that fails leaves a hole: the events went out with their ids, and a resume from before them is
   * refused (the numbers skip them), never served with a gap.
   */
  #startKeeping(): void {
    clearTimeout(this.#keepTimer);
    this.#keepTimer = undefined;
    if (this.#keeping === undefined && this.#unkept.length > 0) this.#keeping = this.#keepAll();
  }

  async #keepAll(): Promise<void> {
    const { store, sessionId } = this.#settings.events as NonNullable<StreamSettings["events"]>;
    for (let batch = this.#unkept.splice(0); batch.length > 0; batch = this.#unkept.splice(0)) {
      try {
        if (store.appendAll) await store.appendAll(this.#ref(sessionId), batch);
        else for (const event of batch) await store.append(this.#ref(sessionId), event);
      } catch {
        // The store is down: see #startKeeping.
      }
    }
    this.#keeping = undefined;
  }

  /** Resolves once every event numbered so far is kept (or failed to be). */
  async #kept(): Promise<void> {
    this.#startKeeping();
    while (this.#keeping !== undefined) await this.#keeping;
  }

  #ref(sessionId: string): StreamRef {
    return { sessionId, streamId: this.id };
  }

  #enqueue<T>(operation: () => T | Promise<T>): Promise<T> {
    const run = this.#queue.then(operation);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

/**
 * `events` when they are exactly those that followed `lastEventId` (numbered on from it, none missing); undefined otherwise — a replay with
 * a gap is refused.
 */
function follows(lastEventId: string, events: readonly StoredEvent[] | undefined): readonly StoredEvent[] | undefined {
  const first = numberOf(lastEventId) + 1;
  return events?.every((event, index) => numberOf(event.id) === first + index) ? events : undefined;
}

/**
 * The id a response in an event's data answers; undefined for any other message. A POST stream's events after its opening are all messages
 * (no priming event but the first).
 */
function answeredId(data: string): JsonRpcId | undefined {
  const message = JSON.parse(data) as { id?: JsonRpcId; method?: unknown };
  return message.method === undefined ? message.id : undefined;
}

function toSseEvent(event: StoredEvent): SseEvent {
  return event.data === "" ? { id: event.id, data: "" } : { event: "message", id: event.id, data: event.data };
}

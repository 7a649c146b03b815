import type { JsonRpcId } from "../../types/types.js";
import type { EventStore, StoredEvent, StreamRef } from "./event-store.js";
import type { EventStreamBody } from "./http-server.types.js";
import { undeliverable, type RequestRoute } from "./routes.js";
import { SseConnection, type SseEvent } from "./sse-connection.js";

/** How the streams of one session behave: shared by all of them. */
export interface StreamSettings {
  /** Where events are kept for resumption (stateful sessions with a store); undefined: no event ids. */
  readonly events: { readonly store: EventStore; readonly sessionId: string } | undefined;
  readonly keepAliveMs: number;
  readonly retryMs: number;
  /** SEP-1699: end a connection after this long once the client holds an event id. */
  readonly maxConnectionMs: number | undefined;
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
  readonly #pending: Set<JsonRpcId> | undefined;
  #connection: SseConnection | undefined;
  /**
   * Whether the attached connection may be ended for polling: its client got a priming event (it
   * speaks SEP-1699) or came back with Last-Event-ID. Older clients need not reconnect a POST stream.
   */
  #pollable = false;
  #pollTimer: ReturnType<typeof setTimeout> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #nextEvent = 0;

  constructor(
    readonly id: string,
    private readonly settings: StreamSettings,
    pending: readonly JsonRpcId[] | undefined,
    private readonly onEvent: (stream: OutboundStream, event: StreamEvent) => void,
  ) {
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
    if (prime) this.#enqueue(async () => connection.write({ id: await this.#record(""), retry: this.settings.retryMs, data: "" })).catch(() => this.#detach());
    return connection;
  }

  /**
   * A connection that first replays what followed `lastEventId`; "ended" when the stream is over and
   * the client saw all of it (its requests were cancelled: no response will come); undefined when
   * the store cannot replay from there.
   */
  resume(lastEventId: string): Promise<EventStreamBody | "ended" | undefined> {
    const { store, sessionId } = this.settings.events as NonNullable<StreamSettings["events"]>;
    return this.#enqueue(async () => {
      const missed = await store.eventsAfter(this.#ref(sessionId), lastEventId);
      if (!missed) return undefined;
      if (this.#answered && missed.length === 0) return "ended";
      const connection = this.#newConnection();
      for (const event of missed) connection.write(toSseEvent(event), true);
      if (this.#answered) connection.close();
      else this.#attach(connection, true);
      return connection;
    });
  }

  forward(data: string, isRequest: boolean): Promise<void> {
    return this.#enqueue(async () => {
      const id = await this.#record(data);
      if (this.#connection) this.#connection.write({ event: "message", id, data });
      else if (id === undefined) await undeliverable(isRequest, "the client's stream for it is gone");
    });
  }

  respond(id: JsonRpcId, data: string): Promise<void> {
    const written = this.forward(data, false);
    this.#pending?.delete(id);
    this.#endIfAnswered();
    return written;
  }

  retire(id: JsonRpcId): void {
    this.#pending?.delete(id);
    this.#endIfAnswered();
  }

  /** Ends the current connection if its client will poll it back (SEP-1699); the stream goes on. */
  disconnect(): Promise<boolean> {
    return this.#enqueue(() => {
      if (!(this.#pollable && this.#connection)) return false;
      this.#connection.write({ retry: this.settings.retryMs });
      this.#detach();
      return true;
    });
  }

  close(): void {
    this.#detach();
  }

  #endIfAnswered(): void {
    if (!this.#answered) return;
    void this.#enqueue(() => {
      this.#detach();
      this.onEvent(this, "answered");
    });
  }

  #newConnection(): SseConnection {
    const connection: SseConnection = new SseConnection({
      keepAliveMs: this.settings.keepAliveMs,
      onClientGone: () => {
        // A replaced connection can be cancelled too (its client never read to its end): leave its successor alone.
        if (this.#connection === connection) this.#detach();
        this.onEvent(this, "client-gone");
      },
    });
    return connection;
  }

  #attach(connection: SseConnection, pollable: boolean): void {
    this.#detach();
    this.#connection = connection;
    this.#pollable = pollable;
    const limit = this.settings.maxConnectionMs;
    if (limit !== undefined && pollable) this.#pollTimer = setTimeout(() => void this.disconnect(), limit);
  }

  #detach(): void {
    clearTimeout(this.#pollTimer);
    this.#connection?.close();
    this.#connection = undefined;
  }

  /** Keeps the event (when there is a store) and returns its id. */
  async #record(data: string): Promise<string | undefined> {
    const events = this.settings.events;
    if (!events) return undefined;
    const id = `${this.id}_${this.#nextEvent++}`;
    await events.store.append(this.#ref(events.sessionId), { id, data });
    return id;
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

function toSseEvent(event: StoredEvent): SseEvent {
  return event.data === "" ? { id: event.id, data: "" } : { event: "message", id: event.id, data: event.data };
}

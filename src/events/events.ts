import type { JsonRpcId, Side } from "../types/types.js";

/** How a request ended, as `request:completed` and the metrics report it. */
export type RequestOutcome = "success" | "error" | "cancelled";

/** The events a dispatcher publishes, by name, with the payload each one carries. */
export interface MCPEventMap {
  "connection:opened": { readonly side: Side; readonly dispatcherId: string };
  "connection:closed": { readonly side: Side; readonly dispatcherId: string; readonly reason?: string | undefined };
  "request:received": { readonly side: Side; readonly method: string; readonly id: JsonRpcId };
  "request:completed": {
    readonly side: Side;
    readonly method: string;
    readonly id: JsonRpcId;
    readonly durationMs: number;
    readonly outcome: RequestOutcome;
  };
  "notification:emitted": { readonly side: Side; readonly method: string; readonly params: unknown };
  /**
   * A legal JSON Schema this side cannot check (`$dynamicRef`, a `$ref` to a document not given in
   * the `jsonSchema.schemas` option): the values it describes pass unchecked. `subject` names the
   * schema (`the input schema of tool "search"`), `reason` says what could not be compiled.
   */
  "schema:unchecked": { readonly side: Side; readonly subject: string; readonly reason: string };
}

/** A function called with the payload of one event type. */
export type EventListener<Payload> = (payload: Payload) => void;

/** Receives what a listener threw, so one broken listener cannot break the emitter. */
export type ListenerErrorHandler<M extends object> = (error: unknown, type: keyof M) => void;

export interface EventBusOptions<M extends object> {
  /** Where listener exceptions go; without it they are re-thrown in a microtask. */
  onListenerError?: ListenerErrorHandler<M> | undefined;
}

interface Registration {
  readonly listener: EventListener<never>;
  readonly once: boolean;
  /** Set when a `once` registration has fired, so a re-entrant emit cannot fire it twice. */
  spent: boolean;
}

/**
 * A typed, synchronous publish/subscribe hub. Each event type keeps an immutable array of
 * registrations, replaced on every change, so an emit walks the snapshot it started with.
 */
export class EventBus<M extends object> {
  readonly #registrations = new Map<keyof M, readonly Registration[]>();
  readonly #onListenerError: ListenerErrorHandler<M> | undefined;

  constructor(options: EventBusOptions<M> = {}) {
    this.#onListenerError = options.onListenerError;
  }

  /** Calls `listener` on every `type` event until the returned function is called. */
  on<K extends keyof M>(type: K, listener: EventListener<M[K]>): () => void {
    return this.#add(type, { listener, once: false, spent: false });
  }

  /** Calls `listener` on the next `type` event only. */
  once<K extends keyof M>(type: K, listener: EventListener<M[K]>): () => void {
    return this.#add(type, { listener, once: true, spent: false });
  }

  /** Removes every registration of `listener` for `type`. */
  off<K extends keyof M>(type: K, listener: EventListener<M[K]>): void {
    this.#remove(type, (registration) => registration.listener === listener);
  }

  /** True when at least one listener waits for `type`; cheap enough to guard payload building. */
  hasListeners(type: keyof M): boolean {
    return this.#registrations.has(type);
  }

  /** Calls the listeners of `type` registered when the emit starts, in registration order. */
  emit<K extends keyof M>(type: K, payload: M[K]): void {
    const registrations = this.#registrations.get(type);
    if (registrations === undefined) return;
    for (const registration of registrations) {
      if (registration.once) {
        if (registration.spent) continue;
        registration.spent = true;
        this.#remove(type, (candidate) => candidate === registration);
      }
      this.#call(registration, type, payload);
    }
  }

  #call<K extends keyof M>(registration: Registration, type: K, payload: M[K]): void {
    try {
      (registration.listener as EventListener<M[K]>)(payload);
    } catch (error) {
      this.#reportListenerError(error, type);
    }
  }

  #reportListenerError(error: unknown, type: keyof M): void {
    const onListenerError = this.#onListenerError;
    if (onListenerError === undefined) return rethrowLater(error);
    try {
      onListenerError(error, type);
    } catch (handlerError) {
      rethrowLater(handlerError);
    }
  }

  #add(type: keyof M, registration: Registration): () => void {
    this.#registrations.set(type, [...(this.#registrations.get(type) ?? []), registration]);
    return () => this.#remove(type, (candidate) => candidate === registration);
  }

  #remove(type: keyof M, matches: (registration: Registration) => boolean): void {
    const registrations = this.#registrations.get(type);
    if (registrations === undefined) return;
    const kept = registrations.filter((registration) => !matches(registration));
    // An empty type leaves the map so that hasListeners stays a single lookup.
    if (kept.length === 0) this.#registrations.delete(type);
    else if (kept.length !== registrations.length) this.#registrations.set(type, kept);
  }
}

/** Reports an error the way EventTarget reports a listener exception: uncaught, but later. */
function rethrowLater(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}

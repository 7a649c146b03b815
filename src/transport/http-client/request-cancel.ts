import type { FetchLike } from "./http-options.js";

/**
 * What the transports read of a signal: whether it aborted, why, and abort listeners. An
 * `AbortSignal` is one, and so is a `RequestCancel`.
 */
export interface CancelSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
  throwIfAborted(): void;
}

/**
 * Marks a `FetchLike` that takes any `CancelSignal` as `init.signal` (it reads only the members
 * above, and lets go of its listener when the request is done): `nodeFetch()` is one.
 */
export const TAKES_CANCEL_SIGNALS: unique symbol = Symbol("takes cancel signals");

/**
 * The abort of one request, as an `AbortController` and its signal would do it, in one plain
 * object. On Node 20 an `AbortController` made and listened to per POST cost the client about a
 * fifth of its CPU per call (bench/README.md); a fetch that needs a real `AbortSignal` still gets
 * one (`signalFor`). Listeners run once, in the order added; one added after the abort never runs.
 */
export class RequestCancel implements CancelSignal {
  #aborted = false;
  #reason: unknown;
  #listeners: Array<() => void> = [];

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  addEventListener(_type: "abort", listener: () => void): void {
    // Stryker disable next-line ConditionalExpression: a listener added after the abort never runs either way (abort runs once); the check
    // only keeps it from being held
    if (!this.#aborted) this.#listeners.push(listener);
  }

  removeEventListener(_type: "abort", listener: () => void): void {
    const at = this.#listeners.indexOf(listener);
    if (at !== -1) this.#listeners.splice(at, 1);
  }

  throwIfAborted(): void {
    if (this.#aborted) throw this.#reason;
  }

  /** Aborts, with an `AbortError` unless a reason is given; a second abort changes nothing. */
  abort(reason: unknown = new DOMException("This operation was aborted", "AbortError")): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    const listeners = this.#listeners;
    // Stryker disable next-line ArrayDeclaration: the list is never run again after the abort; emptying it only lets go of the listeners
    this.#listeners = [];
    for (const listener of listeners) listener();
  }
}

/** What stops one request of the transports: a signal of the platform's, or a request's own cancel. */
export type RequestSignal = AbortSignal | RequestCancel;

/**
 * The signal to hand `fetchImpl` for a request stopped by `signal`: a `RequestCancel` itself when
 * the fetch takes one, else an `AbortSignal` that aborts with it; an `AbortSignal` as it is.
 */
export function signalFor(fetchImpl: FetchLike, signal: RequestSignal): AbortSignal {
  if (!(signal instanceof RequestCancel)) return signal;
  // The mark promises the fetch reads only what a CancelSignal has.
  if ((fetchImpl as { readonly [TAKES_CANCEL_SIGNALS]?: true })[TAKES_CANCEL_SIGNALS] === true) return signal as unknown as AbortSignal;
  const follower = new AbortController();
  if (signal.aborted) follower.abort(signal.reason);
  else {
    // Stryker disable next-line StringLiteral: a RequestCancel has only the abort event and ignores the type it is given
    signal.addEventListener("abort", () => follower.abort(signal.reason));
  }
  return follower.signal;
}

import { MCP_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError, MCPError, describeThrown, toMCPError } from "../../error-codes/mcp-error.js";
import type { RequestOutcome } from "../../events/events.js";
import type { RequestRecord } from "../../telemetry/telemetry.js";
import type { JsonRpcId } from "../../types/types.js";
import type { ProgressUpdate, RequestOptions } from "./dispatcher.types.js";

export const DEFAULT_TIMEOUT_MS = 60_000;

/** The timeouts a dispatcher applies where a request gives none of its own. */
export interface Timeouts {
  readonly timeoutMs: number;
  readonly resetTimeoutOnProgress: boolean;
  readonly maxTotalTimeoutMs: number | undefined;
}

/** What few requests need: a caller's abort listener, a telemetry record, the start for a total cap. */
interface RareParts {
  abortListener?: () => void;
  record?: RequestRecord;
  /** When it was sent, for the total cap. */
  startedAt?: number;
}

const NONE: RareParts = Object.freeze({});

/** One request this end sent and still waits for (kept small: a host may hold thousands). */
export class PendingRequest {
  /** `performance.now()` past which it times out (the shared timer reads it). */
  deadline = 0;
  rare: RareParts = NONE;

  constructor(
    readonly id: JsonRpcId,
    readonly method: string,
    readonly resolve: (result: unknown) => void,
    readonly reject: (error: MCPError) => void,
    /** The call's own timeouts, where it gives any (read with the dispatcher's defaults: see `OutgoingRequests`). */
    readonly options: RequestOptions,
    /** What the method's result check needs of the request (see `JsonRpcDispatcher.setResultCheck`). */
    readonly checkKey: unknown,
  ) {}
}

/** Never written: `add` replaces it with a map of the dispatcher's own, and the last request to settle puts it back. */
const NO_PENDING = new Map<JsonRpcId, PendingRequest>();

/** Tells the peer a request is abandoned (`notifications/cancelled`). */
export type CancelSender = (id: JsonRpcId, reason: string) => void;

/**
 * The pending map of a dispatcher: timeouts (reset by progress, capped in total), caller aborts and
 * settlement. Every exit goes through `#finish`, so no timer, listener or entry outlives its request.
 */
export class OutgoingRequests {
  // Most connections are idle most of the time: while nothing is pending, they all read one shared empty map.
  #pending: Map<JsonRpcId, PendingRequest> = NO_PENDING;
  // One timer for every pending request, armed for the earliest deadline it knows of; a deadline
  // that moves later is found when it fires. Once nothing is pending it stays armed for the next
  // request (setting and clearing a timer around every call cost 13-16 % of an in-process call)
  // but no longer keeps the process alive; where it cannot let go of the process (a browser's or
  // Deno's numeric timer), it goes.
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  /**
   * Whether the timer keeps the process alive. Only a timer that was let go is held again: a numeric timer (browsers, Deno) has no `ref`.
   */
  // Stryker disable next-line BooleanLiteral: the flag is first read after the first request scheduled the timer, which sets it
  #timerHeld = false;
  /**
   * How many pending requests have no deadline (they never hold the process: a listen stream may stay open for as long as the connection).
   */
  #endless = 0;

  readonly #defaults: Timeouts;
  readonly #sendCancel: CancelSender;

  constructor(defaults: Timeouts, sendCancel: CancelSender) {
    this.#defaults = defaults;
    this.#sendCancel = sendCancel;
  }

  get size(): number {
    return this.#pending.size;
  }

  get(id: JsonRpcId): PendingRequest | undefined {
    return this.#pending.get(id);
  }

  /** Registers a request; the promise settles on response, error, timeout, abort or close. */
  add(id: JsonRpcId, method: string, checkKey: unknown, options: RequestOptions, record: RequestRecord | undefined): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const pending = new PendingRequest(id, method, resolve, reject, options, checkKey);
      pending.rare = record ? { record } : NONE;
      // Stryker disable next-line ConditionalExpression: only a capped request reads its start, so setting it always would only allocate
      // (never setting it fails the cap tests)
      if (this.#maxTotalTimeoutMs(pending) !== undefined) this.#rareOf(pending).startedAt = performance.now();
      if (this.#pending === NO_PENDING) this.#pending = new Map();
      this.#pending.set(id, pending);
      this.#arm(pending);
      if (pending.deadline === Number.POSITIVE_INFINITY) this.#endless++;
      const signal = options.signal;
      if (signal) {
        const abortListener = (): void => this.#abandon(pending, this.#cancelled(signal.reason), describeThrown(signal.reason));
        this.#rareOf(pending).abortListener = abortListener;
        signal.addEventListener("abort", abortListener);
      }
    });
  }

  resolve(pending: PendingRequest, result: unknown): void {
    this.#finish(pending, "success");
    pending.resolve(result);
  }

  /**
   * Answered on the wire; the caller's promise follows `outcome` (a result check that had to wait: its failure is `MCP.PROTOCOL_INVALID`
   * unless it says otherwise).
   */
  resolveLater(pending: PendingRequest, outcome: Promise<unknown>): void {
    this.#finish(pending, "success");
    outcome.then(pending.resolve, (error: unknown) => pending.reject(toMCPError(error, MCP_CODES.PROTOCOL_INVALID)));
  }

  reject(pending: PendingRequest, error: MCPError, outcome: RequestOutcome = "error"): void {
    this.#finish(pending, outcome, error);
    pending.reject(error);
  }

  /** A progress notification for one of ours: delivered, and the timeout restarted when asked. */
  progress(update: ProgressUpdate): boolean {
    const pending = this.#pending.get(update.progressToken);
    if (!pending?.options.onProgress) return false;
    if (pending.options.resetTimeoutOnProgress ?? this.#defaults.resetTimeoutOnProgress) this.#arm(pending);
    pending.options.onProgress(update);
    return true;
  }

  /** The end (the connection closed): every request fails with `reason()`, and no timer is left. */
  rejectAll(reason: () => MCPError): void {
    for (const pending of this.#pending.values()) this.reject(pending, reason());
    this.#unschedule();
  }

  #rareOf(pending: PendingRequest): RareParts {
    if (pending.rare === NONE) pending.rare = {};
    return pending.rare;
  }

  // A call's own timeouts are read where they are needed, the defaults in their place: a request holds no merged copy.
  #timeoutMs(pending: PendingRequest): number {
    return pending.options.timeoutMs ?? this.#defaults.timeoutMs;
  }

  #maxTotalTimeoutMs(pending: PendingRequest): number | undefined {
    return pending.options.maxTotalTimeoutMs ?? this.#defaults.maxTotalTimeoutMs;
  }

  // The total cap bounds every (re-)arming, so a progress past the cap times out at once.
  #arm(pending: PendingRequest): void {
    const timeoutMs = this.#timeoutMs(pending);
    const maxTotalTimeoutMs = this.#maxTotalTimeoutMs(pending);
    const now = performance.now();
    const delay =
      maxTotalTimeoutMs === undefined ? timeoutMs : Math.min(timeoutMs, maxTotalTimeoutMs - (now - (pending.rare.startedAt as number)));
    // Whole milliseconds: a small integer is stored in the request itself, a fraction would take a heap number.
    pending.deadline = Math.ceil(now + Math.max(0, delay));
    if (pending.deadline < this.#timerAt) this.#schedule(pending.deadline, now);
    // A request without a deadline (timeoutMs: Infinity, e.g. a subscriptions/listen stream) neither arms nor holds the timer.
    else if (!this.#timerHeld && pending.deadline !== Number.POSITIVE_INFINITY) this.#hold();
  }

  /** A timer kept armed while nothing was pending holds the process again. */
  #hold(): void {
    (this.#timer as unknown as { ref(): void }).ref();
    // Stryker disable next-line BooleanLiteral: ref() again on a Node timer that holds is a no-op, and a numeric timer never gets here (it
    // is cleared when let go)
    this.#timerHeld = true;
  }

  /** Nothing pending: the timer stays armed but lets the process end, or goes where it cannot. */
  #release(): void {
    const timer = this.#timer as unknown as { unref?: () => void };
    if (typeof timer.unref !== "function") return this.#unschedule();
    timer.unref();
    this.#timerHeld = false;
  }

  #schedule(at: number, now: number): void {
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#expire(), Math.max(0, Math.ceil(at - now)));
    this.#timerHeld = true;
  }

  #unschedule(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
  }

  /** The shared timer fired: time out what is due, then wait for the next deadline. */
  #expire(): void {
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const pending of this.#pending.values()) {
      if (pending.deadline <= now) this.#timedOut(pending);
      else next = Math.min(next, pending.deadline);
    }
    // Nothing pending leaves the timer unarmed (next and #timerAt both infinite).
    if (next < this.#timerAt) this.#schedule(next, now);
  }

  /**
   * Whether the total cap ran out. Only a capped request has a start: for any other both sides are undefined and the comparison is false.
   */
  #overTotal(pending: PendingRequest, maxTotalTimeoutMs: number | undefined): boolean {
    return performance.now() - (pending.rare.startedAt as number) >= (maxTotalTimeoutMs as number);
  }

  #timedOut(pending: PendingRequest): void {
    const timeoutMs = this.#timeoutMs(pending);
    const maxTotalTimeoutMs = this.#maxTotalTimeoutMs(pending);
    const total = this.#overTotal(pending, maxTotalTimeoutMs);
    const message = total
      ? `Request ${pending.method} exceeded its total timeout of ${maxTotalTimeoutMs} ms`
      : `Request ${pending.method} timed out after ${timeoutMs} ms`;
    const error = new MCPError(MCP_CODES.TIMEOUT, message, { data: { timeoutMs, maxTotalTimeoutMs } });
    this.#abandon(pending, error, message);
  }

  #cancelled(reason: unknown): MCPError {
    return new MCPError(MCP_CODES.REQUEST_CANCELLED, `Request cancelled: ${describeThrown(reason)}`, { cause: reason });
  }

  /** Gives up on a request the peer may still be working on: reject it, then tell the peer. */
  #abandon(pending: PendingRequest, error: MCPError, reason: string): void {
    this.reject(pending, error, error.code === MCP_CODES.REQUEST_CANCELLED ? "cancelled" : "error");
    this.#sendCancel(pending.id, reason);
  }

  #finish(pending: PendingRequest, outcome: RequestOutcome, error?: MCPError): void {
    this.#pending.delete(pending.id);
    if (this.#pending.size === 0) this.#pending = NO_PENDING;
    if (pending.deadline === Number.POSITIVE_INFINITY) this.#endless--;
    else if (this.#pending.size === this.#endless && this.#timer !== undefined) this.#release();
    const { abortListener, record } = pending.rare;
    // A listener was added only to the call's signal.
    if (abortListener) (pending.options.signal as AbortSignal).removeEventListener("abort", abortListener);
    // A peer's error is typed by its JSON-RPC number, a local one (timeout, cancel) by its MCP code.
    record?.end(
      outcome,
      error && { type: error.cause instanceof JsonRpcError ? String(error.wireCode) : error.code, code: error.wireCode },
    );
  }
}

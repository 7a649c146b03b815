import { MCP_CODES } from "../../error-codes/error-codes.js";
import { describeThrown, MCPError } from "../../error-codes/mcp-error.js";
import type { TaskWaitOptions } from "./tasks.types.js";

/**
 * One wait for a task's end, and what ends it early: the caller's signal, its timeout, the client's
 * close. Every timer and listener it made goes at `end()`, whatever ended it.
 */
export class TaskWait {
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #detach: () => void;

  constructor(what: string, options: TaskWaitOptions | undefined, closed: AbortSignal) {
    const signal = options?.signal;
    const timeoutMs = options?.timeoutMs;
    const cancelled = (): void =>
      this.#stop(
        new MCPError(MCP_CODES.REQUEST_CANCELLED, `The wait for ${what} was cancelled: ${describeThrown(signal?.reason)}`, {
          cause: signal?.reason,
        }),
      );
    const gone = (): void => this.#stop(new MCPError(MCP_CODES.TRANSPORT_CLOSED, `The connection closed while waiting for ${what}`));
    signal?.addEventListener("abort", cancelled);
    closed.addEventListener("abort", gone);
    if (timeoutMs !== undefined)
      this.#timer = setTimeout(
        () => this.#stop(new MCPError(MCP_CODES.TIMEOUT, `${what} did not end within ${timeoutMs} ms`, { data: { timeoutMs } })),
        timeoutMs,
      );
    this.#detach = () => {
      signal?.removeEventListener("abort", cancelled);
      closed.removeEventListener("abort", gone);
    };
    if (signal?.aborted) cancelled();
    if (closed.aborted) gone();
  }

  /** Aborted, with the MCPError that ended the wait as its reason. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Resolves after `ms`, or rejects at once when the wait ends early (its timer cleared). */
  sleep(ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return this.race(new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))).finally(() => clearTimeout(timer));
  }

  /** What `promise` settles with, unless the wait ends first (a request raced is not cancelled: its answer is dropped). */
  race<T>(promise: Promise<T>): Promise<T> {
    const signal = this.signal;
    return new Promise<T>((resolve, reject) => {
      const stopped = (): void => reject(signal.reason);
      if (signal.aborted) stopped();
      signal.addEventListener("abort", stopped, { once: true });
      promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", stopped));
    });
  }

  /** The wait is over: its timer and listeners go. */
  end(): void {
    clearTimeout(this.#timer);
    this.#detach();
  }

  #stop(reason: MCPError): void {
    this.#controller.abort(reason);
    this.end();
  }
}

import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { CancelSignal } from "./request-cancel.js";

/** How a broken or server-closed SSE stream is reconnected. */
export interface ReconnectionOptions {
  /** The wait before the first attempt when the server gave no `retry` (default 1000 ms). */
  readonly initialDelayMs?: number;
  /** The longest wait between attempts (default 30 000 ms); a longer server `retry` is still honoured. */
  readonly maxDelayMs?: number;
  /** How much the wait grows after each failed attempt (default 1.5). */
  readonly growFactor?: number;
  /** Failed attempts in a row before giving up (default 5); a successful reconnection starts the count again. */
  readonly maxAttempts?: number;
}

export type ResolvedReconnection = Required<ReconnectionOptions>;

export const DEFAULT_RECONNECTION: ResolvedReconnection = { initialDelayMs: 1000, maxDelayMs: 30_000, growFactor: 1.5, maxAttempts: 5 };

/** The longest server `retry` honoured: a bigger one is treated as this (timers cannot wait for ever). */
export const MAX_SERVER_RETRY_MS = 10 * 60 * 1000;

export function resolveReconnection(options: ReconnectionOptions | undefined): ResolvedReconnection {
  return { ...DEFAULT_RECONNECTION, ...options };
}

/**
 * The wait before reconnection attempt `attempt` (0 for the first): the server's `retry` when it
 * gave one, else the initial delay, growing by `growFactor` after each failure up to `maxDelayMs`.
 */
export function reconnectionDelay(attempt: number, serverRetryMs: number | undefined, options: ResolvedReconnection): number {
  const base = serverRetryMs === undefined ? options.initialDelayMs : Math.min(serverRetryMs, MAX_SERVER_RETRY_MS);
  return Math.max(base, Math.min(base * options.growFactor ** attempt, options.maxDelayMs));
}

/** Resolves after `ms`, or rejects with `MCP.TRANSPORT_CLOSED` as soon as `signal` aborts. */
export function sleep(ms: number, signal: CancelSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const closed = (): void => {
      clearTimeout(timer);
      reject(new MCPError(MCP_CODES.TRANSPORT_CLOSED, "The transport closed while waiting to reconnect"));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", closed);
      resolve();
    }, ms);
    if (signal.aborted) closed();
    else signal.addEventListener("abort", closed, { once: true });
  });
}

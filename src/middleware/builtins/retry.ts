// A client layer that sends an idempotent request again when it failed for a reason that may pass
// (the transport, a timeout), with a backoff that doubles. Requests that change something on the
// server are never sent twice unless the host names them: a tool only in `tools`. A request a server's
// rate limit refused (MCP.RATE_LIMITED) was never run, so any request goes again, after the wait the
// server named.
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { ClientMethod, ClientMiddleware } from "../client-middleware.js";

export interface RetryOptions {
  /** Sends in all, the first included (default 3). */
  readonly attempts?: number;
  /** The wait before the second send; each later one doubles it, up to `maxDelayMs` (default 100). */
  readonly delayMs?: number;
  /** The longest wait (default 2 000); a rate limit that asks for longer fails the call at once. */
  readonly maxDelayMs?: number;
  /** The tools whose calls may be sent again (idempotent ones; default none). */
  readonly tools?: readonly string[];
  /** Whether a failure may pass on another try (default: `MCP.TRANSPORT_ERROR` and `MCP.TIMEOUT`). */
  readonly retryable?: (error: unknown) => boolean;
}

/** The requests that change nothing on the server, and so may be sent again. */
function idempotent(): ReadonlySet<string> {
  return new Set<ClientMethod>([
    "tools/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "ping",
    "server/discover",
  ]);
}

/** A failure that may pass on another try: the transport's, or a timeout. */
function passing(error: unknown): boolean {
  return error instanceof MCPError && (error.code === MCP_CODES.TRANSPORT_ERROR || error.code === MCP_CODES.TIMEOUT);
}

/** The retry layer: `client.use(retry({ tools: ["get_weather"] }))`. */
export function retry(options: RetryOptions = {}): ClientMiddleware {
  const attempts = options.attempts ?? 3;
  if (!Number.isInteger(attempts) || attempts < 1)
    throw new MCPError(MCP_CODES.INVALID_PARAMS, `retry: attempts must be a whole number of at least 1, not ${String(attempts)}`);
  const tools = new Set(options.tools);
  const safe = idempotent();
  const retryable = options.retryable ?? passing;
  const maxDelay = options.maxDelayMs ?? 2_000;
  return (next) => async (request, context) => {
    const again = request.method === "tools/call" ? tools.has(request.params.name) : safe.has(request.method);
    let delay = options.delayMs ?? 100;
    for (let attempt = 1; ; attempt++) {
      try {
        return await next(request, context);
      } catch (error) {
        const signal = context.options?.signal;
        const limited = rateLimitWait(error);
        const goes = limited === undefined ? again && retryable(error) : limited <= maxDelay;
        if (!goes || attempt >= attempts || signal?.aborted === true) throw error;
        await pause(limited ?? delay, signal);
        delay = Math.min(delay * 2, maxDelay);
      }
    }
  };
}

/** The wait a server's rate limit asked for, when that is why the request failed. */
function rateLimitWait(error: unknown): number | undefined {
  if (!(error instanceof MCPError) || error.code !== MCP_CODES.RATE_LIMITED) return undefined;
  const wait = (error.data as { readonly retryAfterMs?: unknown } | undefined)?.retryAfterMs;
  return typeof wait === "number" && wait >= 0 ? wait : 0;
}

/** Waits `ms`, or until `signal` fires (the next send then fails at once with the cancellation). */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}

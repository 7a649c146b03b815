// Layers that watch requests without changing them, on either side (a client's `use`, a server's `use`): a structured log line per request,
// and the
// time each took. What they report names the request (its method, and the tool, prompt or resource
// it is for) and its outcome; never its arguments or its result, which may carry what must not be
// logged.
import { mcpCodeOfWire } from "../../error-codes/error-codes.js";
import { JsonRpcError, MCPError } from "../../error-codes/mcp-error.js";
import type { MiddlewareRequest } from "../chain.js";
import { withFields } from "../../types/objects.js";

/**
 * A layer that fits both sides' `use`: it needs of a request its method and params, and of the
 * context only the era, so it takes the types of the chain it is put in.
 */
export type WatchingMiddleware = <Q extends MiddlewareRequest, C extends { readonly era: "session" | "stateless" }, R>(
  next: (request: Q, context: C) => R | Promise<R>,
) => (request: Q, context: C) => Promise<R>;

/** One request as `callLog` reports it. */
export interface CallLogEntry {
  readonly method: string;
  /** The tool or prompt name, or the resource URI, when the request is for one. */
  readonly target?: string;
  readonly era: "session" | "stateless";
  readonly durationMs: number;
  readonly outcome: "ok" | "error";
  /**
   * A failed request's `MCP.*` code (a wire error's as its client sees it; the error's name when it is neither); its message is left out.
   */
  readonly error?: string;
}

/** What a request is for: the tool, prompt or resource it names. */
function targetOf(request: MiddlewareRequest): string | undefined {
  const params = request.params as { readonly name?: unknown; readonly uri?: unknown } | undefined;
  const target = params?.name ?? params?.uri;
  return typeof target === "string" ? target : undefined;
}

function codeOf(error: unknown): string {
  if (error instanceof MCPError) return error.code;
  // A server's handlers may throw a wire error: logged as the code its client will see.
  if (error instanceof JsonRpcError) return mcpCodeOfWire(error.code);
  return error instanceof Error ? error.name : typeof error;
}

/**
 * A structured log entry per request, given to `sink` once the request settled (`(entry) => logger.info(entry)`, or a JSON line to stderr).
 */
export function callLog(sink: (entry: CallLogEntry) => void): WatchingMiddleware {
  return (next) => async (request, context) => {
    const started = performance.now();
    const target = targetOf(request);
    const base = { method: request.method, ...(target === undefined ? {} : { target }), era: context.era };
    try {
      const result = await next(request, context);
      sink(withFields(base, { durationMs: performance.now() - started, outcome: "ok" }));
      return result;
    } catch (error) {
      sink(withFields(base, { durationMs: performance.now() - started, outcome: "error", error: codeOf(error) }));
      throw error;
    }
  };
}

/** The time each request took, in milliseconds, whatever its outcome. */
export function timing(record: (method: string, durationMs: number, target: string | undefined) => void): WatchingMiddleware {
  return (next) => async (request, context) => {
    const started = performance.now();
    try {
      return await next(request, context);
    } finally {
      record(request.method, performance.now() - started, targetOf(request));
    }
  };
}

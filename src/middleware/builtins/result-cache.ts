// A server layer that keeps results its server declares cacheable: the lists and resources/read,
// each for the `ttlMs` of its caching hint (the same hint the stateless era sends its clients), per
// caller when the hint's `cacheScope` is "private". What the server changes is dropped at once: a
// list when it changes, a resource's reads when it is updated.
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { HandlerContext } from "../../server/mcp-server/mcp-server.types.js";
import type { Change } from "../../stores/change-feed.js";
import type { ServerMiddleware } from "../server-middleware.js";
import { callerKey } from "./caller.js";

export interface ResultCacheOptions {
  /** The most results kept (default 1 000): past it, the oldest goes. */
  readonly maxEntries?: number;
  /** The caller's key for "private" results (default as `rateLimit`'s); a private result of a caller without one is not kept. */
  readonly callerOf?: (context: HandlerContext) => string | undefined;
  /** The clock, in milliseconds (default `performance.now`). */
  readonly now?: () => number;
}

interface Kept {
  readonly method: string;
  readonly target: string;
  readonly result: unknown;
  readonly until: number;
}

/** What of a cacheable request tells its results apart: the list and its page, or the URI read. */
function cacheable(): Readonly<Record<string, string>> {
  return {
    "tools/list": "cursor",
    "prompts/list": "cursor",
    "resources/list": "cursor",
    "resources/templates/list": "cursor",
    "resources/read": "uri",
  };
}

/** The caching layer: `server.use(resultCache(server))`; cached results are shared, so layers outside it must not change them in place. */
export function resultCache(server: MCPServer, options: ResultCacheOptions = {}): ServerMiddleware {
  const { maxEntries = 1000, callerOf = callerKey, now = () => performance.now() } = options;
  if (!(maxEntries >= 1 && Number.isSafeInteger(maxEntries)))
    throw new MCPError(MCP_CODES.INVALID_PARAMS, `resultCache: maxEntries must be a whole number of at least 1, not ${maxEntries}`);
  const keys = cacheable();
  const kept = new Map<string, Kept>();
  server.changes.subscribe((change) => dropChanged(kept, change));
  return (next) => async (request, context) => {
    const field = Object.hasOwn(keys, request.method) ? keys[request.method] : undefined;
    if (field === undefined) return next(request, context);
    const params = request.params;
    const hint = server.cacheHintFor(request.method, params);
    const caller = hint.cacheScope === "private" ? callerOf(context) : "";
    if (hint.ttlMs <= 0 || caller === undefined) return next(request, context);
    const value: unknown = params?.[field];
    const target = typeof value === "string" ? value : "";
    // As JSON: a URI or a caller's key holds any character, so no separator could keep two keys apart.
    const key = JSON.stringify([request.method, target, caller]);
    const hit = kept.get(key);
    if (hit !== undefined && hit.until > now()) return hit.result as never;
    const result = await next(request, context);
    kept.delete(key);
    kept.set(key, { method: request.method, target, result, until: now() + hint.ttlMs });
    if (kept.size > maxEntries) kept.delete(kept.keys().next().value as string);
    return result;
  };
}

/** Drops what a change makes stale: a list's pages (every resources method's, when the resources changed), or one resource's reads. */
function dropChanged(kept: Map<string, Kept>, change: Change): void {
  if (change.kind === "task") return;
  for (const [key, { method, target }] of kept) {
    if (change.kind === "resource" ? method === "resources/read" && target === change.uri : method.startsWith(`${change.list}/`))
      kept.delete(key);
  }
}

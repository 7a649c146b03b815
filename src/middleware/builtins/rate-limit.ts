// A server layer that limits how often each caller may call: token buckets, one per caller over every
// request the layer sees, and one per caller and tool for tools/call. A refused request gets
// MCP.RATE_LIMITED (wire -32029) with the wait until its token is back, and its handler never runs.
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { HandlerContext } from "../../server/mcp-server/mcp-server.types.js";
import type { ServerMiddleware } from "../server-middleware.js";
import { callerKey } from "./caller.js";

/** A token bucket: `capacity` requests at once, refilled at `refillPerSecond`. */
export interface Bucket {
  readonly capacity: number;
  readonly refillPerSecond: number;
}

export interface RateLimitOptions {
  /** One bucket per caller, over every request the layer sees. */
  readonly perCaller?: Bucket;
  /** One bucket per caller and tool (tools/call): the same size for every tool, or per tool name (a tool not named is not limited). */
  readonly perTool?: Bucket | Readonly<Record<string, Bucket>>;
  /**
   * The caller's key (default: the principal's subject, else its client, else the principal as JSON); anonymous callers share one bucket.
   */
  readonly callerOf?: (context: HandlerContext) => string | undefined;
  /** The most buckets kept (default 10 000): past it, full ones are dropped first, then the least recently made. */
  readonly maxBuckets?: number;
  /** The clock, in milliseconds (default `performance.now`). */
  readonly now?: () => number;
}

interface Tokens {
  tokens: number;
  at: number;
}

/** The rate-limit layer: `server.use(rateLimit({ perCaller: { capacity: 20, refillPerSecond: 5 } }))`. */
export function rateLimit(options: RateLimitOptions): ServerMiddleware {
  const { perCaller, perTool, callerOf = callerKey, maxBuckets = 10_000, now = () => performance.now() } = options;
  const all = [perCaller, ...bucketsOf(perTool)].filter((bucket) => bucket !== undefined);
  if (all.length === 0) throw new MCPError(MCP_CODES.INVALID_PARAMS, "rateLimit: give perCaller, perTool, or both");
  for (const bucket of all) checkBucket(bucket);
  // After this long untouched, any bucket is full again: it holds nothing worth keeping.
  const refillMs = Math.max(...all.map((bucket) => (bucket.capacity / bucket.refillPerSecond) * 1000));
  const buckets = new Map<string, Tokens>();
  return (next) => (request, context) => {
    const caller = callerOf(context) ?? "";
    const at = now();
    const tool = request.method === "tools/call" ? request.params.name : undefined;
    const toolBucket = tool === undefined || perTool === undefined ? undefined : isBucket(perTool) ? perTool : ownBucket(perTool, tool);
    // Both buckets are looked at before either is taken from: a refusal costs the caller nothing.
    const checks: [string, Bucket, string][] = [];
    if (perCaller) checks.push([`${caller}\n`, perCaller, "this caller's requests"]);
    if (toolBucket) checks.push([`${caller}\n${String(tool)}`, toolBucket, `this caller's calls of ${JSON.stringify(tool)}`]);
    for (const [key, bucket, what] of checks) {
      const waitMs = waitFor(refilled(buckets, key, bucket, at), bucket);
      if (waitMs > 0)
        throw new MCPError(
          MCP_CODES.RATE_LIMITED,
          `Rate limit: ${what} are limited to ${bucket.capacity} at once and ${bucket.refillPerSecond} per second; retry in ${waitMs} ms`,
          { data: { retryAfterMs: waitMs } },
        );
    }
    for (const [key] of checks) (buckets.get(key) as Tokens).tokens -= 1;
    if (buckets.size > maxBuckets) prune(buckets, maxBuckets, at - refillMs);
    return next(request, context);
  };
}

function isBucket(value: Bucket | Readonly<Record<string, Bucket>>): value is Bucket {
  return typeof value.capacity === "number" && typeof value.refillPerSecond === "number";
}

/** A tool's own bucket: the name comes from the wire, so `__proto__` or `constructor` must find nothing. */
function ownBucket(perTool: Readonly<Record<string, Bucket>>, tool: string): Bucket | undefined {
  return Object.hasOwn(perTool, tool) ? perTool[tool] : undefined;
}

function bucketsOf(perTool: RateLimitOptions["perTool"]): Bucket[] {
  if (perTool === undefined) return [];
  return isBucket(perTool) ? [perTool] : Object.values(perTool);
}

function checkBucket({ capacity, refillPerSecond }: Bucket): void {
  if (!(capacity >= 1 && refillPerSecond > 0 && Number.isFinite(capacity) && Number.isFinite(refillPerSecond))) {
    throw new MCPError(
      MCP_CODES.INVALID_PARAMS,
      `rateLimit: a bucket needs a capacity of at least 1 and a positive, finite refillPerSecond, not ${capacity} and ${refillPerSecond}`,
    );
  }
}

/** The caller's tokens in `bucket` at `at`: what was left, plus what came back since, up to the capacity. */
function refilled(buckets: Map<string, Tokens>, key: string, bucket: Bucket, at: number): Tokens {
  let tokens = buckets.get(key);
  if (tokens === undefined) {
    tokens = { tokens: bucket.capacity, at };
    buckets.set(key, tokens);
  }
  tokens.tokens = Math.min(bucket.capacity, tokens.tokens + ((at - tokens.at) * bucket.refillPerSecond) / 1000);
  tokens.at = at;
  return tokens;
}

/** Milliseconds until the bucket has a whole token; 0 when it has one now. */
function waitFor(tokens: Tokens, bucket: Bucket): number {
  return tokens.tokens >= 1 ? 0 : Math.ceil(((1 - tokens.tokens) * 1000) / bucket.refillPerSecond);
}

/** Memory stays bounded however many callers come: full buckets go first (untouched since `fullBefore`), then the oldest. */
function prune(buckets: Map<string, Tokens>, maxBuckets: number, fullBefore: number): void {
  for (const [key, tokens] of buckets) if (tokens.at <= fullBefore) buckets.delete(key);
  for (const key of buckets.keys()) {
    if (buckets.size <= maxBuckets) break;
    buckets.delete(key);
  }
}

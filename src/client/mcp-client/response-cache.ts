import { METHODS, NOTIFICATIONS, type RequestMethod } from "../../constants/index.js";
import type { JsonObject } from "../../types/types.js";

/** The methods whose complete results may carry caching hints (`ttlMs`, `cacheScope`), 2026-07-28. */
// Literals (typed as METHODS' values), not reads of METHODS: a read at the top level stays in every app that imports the package.
const CACHEABLE: ReadonlySet<string> = /* @__PURE__ */ new Set<RequestMethod>([
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);

/** The cached lists a change notification makes stale. */
const STALE_AFTER: Readonly<Record<string, readonly string[]>> = /* @__PURE__ */ staleAfter();

function staleAfter(): Record<string, readonly string[]> {
  return {
    [NOTIFICATIONS.toolsListChanged]: [METHODS.toolsList],
    [NOTIFICATIONS.promptsListChanged]: [METHODS.promptsList],
    [NOTIFICATIONS.resourcesListChanged]: [METHODS.resourcesList, METHODS.resourcesTemplatesList],
  };
}

/** The default bound on how many results one cache keeps. */
const DEFAULT_MAX_ENTRIES = 1000;

/**
 * Results kept as long as their server said they stay fresh (`ttlMs`), oldest dropped first past
 * `maxEntries`. Several clients may share one: each names the server and the principal it speaks
 * for, a `"public"` result serves every client of that server, a `"private"` one only the same
 * principal (a different access token, a different cache).
 */
export class ResponseCache {
  readonly #entries = new Map<string, { readonly result: unknown; readonly freshUntil: number }>();

  constructor(readonly maxEntries = DEFAULT_MAX_ENTRIES) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The fresh result under `key`; a stale one is dropped. */
  get(key: string): unknown {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (performance.now() < entry.freshUntil) return entry.result;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: string, result: unknown, ttlMs: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { result, freshUntil: performance.now() + ttlMs });
    if (this.#entries.size > this.maxEntries) this.#entries.delete(this.#entries.keys().next().value as string);
  }

  /** Drops every entry whose key starts with `prefix`. */
  forget(prefix: string): void {
    for (const key of this.#entries.keys()) if (key.startsWith(prefix)) this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** Who a client's cached results belong to in a shared `ResponseCache`. */
export interface ResponseCacheOptions {
  readonly cache: ResponseCache;
  /** Names the server: clients that name the same one share its public results. */
  readonly server: string;
  /** Names who the client speaks for (e.g. the user behind its token): only the same one reads its private results. */
  readonly principal: string;
}

/**
 * One client's view of a `ResponseCache`. A key is server, method and params (the params' JSON,
 * without `_meta`: the revision's keys are the same on every request), then the scope: a list's
 * changes forget every key under its method, a resource's update every scope of its read. A result
 * is kept when the server gave it a positive `ttlMs` and it came in one round (the spec forbids
 * keeping what a round of input produced); `"private"` unless the server said `"public"`.
 */
export class ClientResponses {
  readonly #options: ResponseCacheOptions;

  constructor(options: ResponseCacheOptions) {
    this.#options = options;
  }

  /** The key of a request whose result may be cached, or undefined. */
  keyOf(method: string, params: JsonObject | undefined): string | undefined {
    return CACHEABLE.has(method) ? `${this.#prefix(method)}${JSON.stringify(params ?? {})}\u0000` : undefined;
  }

  get(key: string): unknown {
    const { cache, principal } = this.#options;
    return cache.get(`${key}private:${principal}`) ?? cache.get(`${key}public`);
  }

  keep(key: string, result: unknown): void {
    const { ttlMs, cacheScope } = result as { ttlMs?: unknown; cacheScope?: unknown };
    // A missing, zero or negative ttlMs means stale at once: nothing to keep.
    if (typeof ttlMs !== "number" || !(ttlMs > 0)) return;
    this.#options.cache.set(cacheScope === "public" ? `${key}public` : `${key}private:${this.#options.principal}`, result, ttlMs);
  }

  /** A change notification: the lists it names, or the resource it updated (for every principal), are stale. */
  changed(method: string, params: unknown): void {
    if (method === NOTIFICATIONS.resourcesUpdated) {
      this.#options.cache.forget(this.keyOf(METHODS.resourcesRead, { uri: (params as { uri: string }).uri }) as string);
      return;
    }
    const lists = STALE_AFTER[method];
    if (lists !== undefined) for (const stale of lists) this.#options.cache.forget(this.#prefix(stale));
  }

  /** Forgets every result of this client's server (both scopes). */
  clear(): void {
    this.#options.cache.forget(`${this.#options.server}\u0000`);
  }

  #prefix(method: string): string {
    return `${this.#options.server}\u0000${method}\u0000`;
  }
}

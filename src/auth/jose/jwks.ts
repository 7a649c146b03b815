// JWK Sets (RFC 7517 §5) as key resolvers for verifyJws/verifyJwt: a set given in code, or one
// fetched from an authorization server's jwks_uri and cached. A token only ever picks among the set's
// keys by kid and alg; keys named in its header (jwk, jku, x5u, x5c) are never used.
import type { MCPError } from "../../error-codes/mcp-error.js";
import { ignoreFailure, readText } from "../../transport/http-client/body.js";
import type { FetchLike } from "../../transport/http-client/http-options.js";
import { PROFILES, type JwsAlgorithm } from "./algorithms.js";
import { invalidInput, jwksFailure, refused } from "./errors.js";
import { importPublicJwk, type JoseKey, type Jwk } from "./jwk.js";
import { MAX_KEY_CANDIDATES, type JwsHeader, type KeyResolver } from "./jws.js";

/** A JWK Set document: `{ "keys": [ …JWKs ] }`. */
export interface JwkSet {
  readonly keys: readonly Jwk[];
}

export interface RemoteJwksOptions {
  /** The fetch to use (default: `globalThis.fetch`, looked up at each request). */
  readonly fetch?: FetchLike;
  /** How long a fetched set is used before it is fetched again, in ms (default 10 minutes). */
  readonly cacheMs?: number;
  /** The least time between two fetches caused by a token no key fits, or after a failed fetch, in ms (default 30 s). */
  readonly cooldownMs?: number;
  /** How long a fetch may take, body included, in ms (default 5 s). */
  readonly timeoutMs?: number;
  /** The largest set accepted, in bytes (default 512 KiB). */
  readonly maxBytes?: number;
  /** The clock, in ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
}

export const JWKS_DEFAULTS = { cacheMs: 600_000, cooldownMs: 30_000, timeoutMs: 5_000, maxBytes: 512 * 1024 } as const;

function isJwk(value: unknown): value is Jwk {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a set's key may be tried for `alg`: the key type and curve fit, and its own alg and use, when given, allow it. */
function fitsAlgorithm(jwk: Jwk, alg: JwsAlgorithm): boolean {
  const profile = PROFILES[alg];
  return (
    jwk["kty"] === profile.kty &&
    (profile.crv === undefined || jwk["crv"] === profile.crv) &&
    (jwk["alg"] === undefined || jwk["alg"] === alg) &&
    (jwk["use"] === undefined || jwk["use"] === "sig")
  );
}

/** The set's keys a token with `header` may have been signed with, or why there is none. */
function select(keys: readonly unknown[], header: JwsHeader): { readonly fitting: readonly Jwk[]; readonly none: string } {
  const named = keys.filter((jwk): jwk is Jwk => isJwk(jwk) && (header.kid === undefined || jwk["kid"] === header.kid));
  const fitting = named.filter((jwk) => fitsAlgorithm(jwk, header.alg));
  if (named.length === 0)
    return { fitting, none: header.kid === undefined ? "the key set is empty" : "no key in the key set has the token's kid" };
  return {
    fitting,
    none:
      header.kid === undefined
        ? `no key in the key set is a signature key for ${header.alg}`
        : `the key set's key with the token's kid is not a signature key for ${header.alg}`,
  };
}

/** Imports set keys once per (key, alg): a JWK object of a set is never changed, so its import is kept with it. */
class JwkImports {
  readonly #imports = new WeakMap<Jwk, Map<JwsAlgorithm, Promise<JoseKey>>>();

  importFor(jwk: Jwk, alg: JwsAlgorithm): Promise<JoseKey> {
    let byAlg = this.#imports.get(jwk);
    if (byAlg === undefined) this.#imports.set(jwk, (byAlg = new Map()));
    let imported = byAlg.get(alg);
    if (imported === undefined) byAlg.set(alg, (imported = importPublicJwk(jwk, alg)));
    return imported;
  }

  async keysFor(keys: readonly unknown[], header: JwsHeader): Promise<JoseKey[]> {
    const { fitting, none } = select(keys, header);
    if (fitting.length === 0) throw refused("key", none);
    if (fitting.length > MAX_KEY_CANDIDATES)
      throw refused("key", `more than ${MAX_KEY_CANDIDATES} keys of the key set fit the token's header`);
    const settled = await Promise.allSettled(fitting.map((jwk) => this.importFor(jwk, header.alg)));
    const imported = settled.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
    if (imported.length > 0) return imported;
    throw refused("key", "the key set's key for this token cannot be imported", (settled[0] as PromiseRejectedResult).reason);
  }
}

function keysOf(jwks: unknown, where: string): readonly unknown[] {
  const keys = isJwk(jwks) ? jwks["keys"] : undefined;
  if (!Array.isArray(keys))
    throw where === ""
      ? invalidInput("The JWK Set is not an object with a keys array")
      : jwksFailure(`The JWKS from ${where} is not a JSON object with a keys array`);
  return keys;
}

/** A resolver over a JWK Set given in code (e.g. a client's registered `jwks`); keys are imported on first use. */
export function localJwks(jwks: JwkSet): KeyResolver {
  const keys = keysOf(jwks, "");
  const imports = new JwkImports();
  return (header) => imports.keysFor(keys, header);
}

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** jwks_uri is https (RFC 8414 §2); plain http only on the loopback interface, for development and tests. */
function checkJwksUrl(url: string): void {
  const parsed = typeof url === "string" && URL.canParse(url) ? new URL(url) : undefined;
  const allowed =
    parsed !== undefined && (parsed.protocol === "https:" || (parsed.protocol === "http:" && LOOPBACK_HOSTS.has(parsed.hostname)));
  if (!allowed) throw invalidInput("The JWKS URL must be an https URL (http only for localhost)");
}

function positive(value: number | undefined, fallback: number, name: string, zeroAllowed: boolean): number {
  const chosen = value ?? fallback;
  if (!Number.isFinite(chosen) || chosen < 0 || (!zeroAllowed && chosen === 0))
    throw invalidInput(`remoteJwks: ${name} must be a ${zeroAllowed ? "non-negative" : "positive"} number`);
  return chosen;
}

interface Settings {
  readonly fetch: FetchLike;
  readonly cacheMs: number;
  readonly cooldownMs: number;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly now: () => number;
}

async function fetchKeys(url: string, settings: Settings): Promise<readonly unknown[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
  try {
    let response;
    try {
      response = await settings.fetch(url, {
        method: "GET",
        headers: { accept: "application/jwk-set+json, application/json" },
        signal: controller.signal,
      });
    } catch (error) {
      throw jwksFailure(`Could not fetch the JWKS from ${url}`, error);
    }
    if (!response.ok) {
      if (response.body) ignoreFailure(response.body.cancel());
      throw jwksFailure(`The JWKS endpoint ${url} answered HTTP ${response.status}`);
    }
    const { text, complete } = await readText(response, settings.maxBytes);
    if (!complete) throw jwksFailure(`The JWKS from ${url} was not read whole: over ${settings.maxBytes} bytes, cut off, or over time`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw jwksFailure(`The JWKS from ${url} is not JSON`, error);
    }
    return keysOf(parsed, url);
  } finally {
    clearTimeout(timer);
  }
}

/** One remote set: the keys last fetched, when, the last failure, and the fetch in flight that callers share. */
class RemoteJwks {
  readonly #url: string;
  readonly #settings: Settings;
  readonly #imports = new JwkImports();
  #keys: readonly unknown[] | undefined;
  #loadedAt = 0;
  #attemptedAt = 0;
  #failure: MCPError | undefined;
  #loading: Promise<void> | undefined;

  constructor(url: string, settings: Settings) {
    this.#url = url;
    this.#settings = settings;
  }

  async resolve(header: JwsHeader): Promise<JoseKey[]> {
    if (this.#keys === undefined || this.#settings.now() - this.#loadedAt >= this.#settings.cacheMs) await this.#load();
    // A key rotated in since the last fetch: fetch again, but at most once per cooldown, so tokens
    // with made-up kids cannot turn into a stream of requests to the authorization server.
    if (
      select(this.#keys as readonly unknown[], header).fitting.length === 0 &&
      (this.#loading !== undefined || this.#settings.now() - this.#attemptedAt >= this.#settings.cooldownMs)
    ) {
      await this.#load();
    }
    return this.#imports.keysFor(this.#keys as readonly unknown[], header);
  }

  #load(): Promise<void> {
    this.#loading ??= this.#fetch().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  async #fetch(): Promise<void> {
    const started = this.#settings.now();
    // After a failure, callers get it again until the cooldown is over: an unreachable server is not hammered.
    if (this.#failure !== undefined && started - this.#attemptedAt < this.#settings.cooldownMs) throw this.#failure;
    this.#attemptedAt = started;
    try {
      this.#keys = await fetchKeys(this.#url, this.#settings);
      this.#loadedAt = started;
      this.#failure = undefined;
    } catch (error) {
      this.#failure = error as MCPError;
      throw error;
    }
  }
}

/**
 * A resolver over the JWK Set at `url` (an authorization server's `jwks_uri`): fetched on first use,
 * kept `cacheMs`, fetched again when no key fits a token (a new kid) at most once per `cooldownMs`;
 * concurrent callers share one fetch. A fetch that fails rejects with `MCP.TRANSPORT_ERROR`.
 */
export function remoteJwks(url: string, options: RemoteJwksOptions = {}): KeyResolver {
  checkJwksUrl(url);
  const settings: Settings = {
    // The platform's, even on Node: a set fetched once in a while gains nothing from nodeFetch().
    fetch: options.fetch ?? ((target, init) => globalThis.fetch(target, init)),
    cacheMs: positive(options.cacheMs, JWKS_DEFAULTS.cacheMs, "cacheMs", true),
    cooldownMs: positive(options.cooldownMs, JWKS_DEFAULTS.cooldownMs, "cooldownMs", true),
    timeoutMs: positive(options.timeoutMs, JWKS_DEFAULTS.timeoutMs, "timeoutMs", false),
    maxBytes: positive(options.maxBytes, JWKS_DEFAULTS.maxBytes, "maxBytes", false),
    now: options.now ?? Date.now,
  };
  const remote = new RemoteJwks(url, settings);
  return (header) => remote.resolve(header);
}

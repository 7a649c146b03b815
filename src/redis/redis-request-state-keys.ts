import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPError } from "../error-codes/mcp-error.js";
import { decodeHex, randomHex } from "../protocol/bytes-text.js";
import { MIN_REQUEST_STATE_SECRET_BYTES, type RequestStateKey, type RequestStateKeys } from "../stores/request-state-keys.js";
import { checkPrefix, invalidOption, redisCommands, RedisScript, type RedisClient, type RedisCommands } from "./redis-commands.js";

export interface RedisRequestStateKeysOptions {
  /** The connection: a node-redis or ioredis client (connected), or a `RedisCommands`. */
  readonly client: RedisClient;
  /** Put before the key (default `"mcp:"`); no `{` or `}`. Every process of a deployment shares it. */
  readonly prefix?: string;
  /** Makes a new current key this often (milliseconds), once for the whole deployment; without it, only `rotate()` does. */
  readonly rotateEveryMs?: number;
  /** Previous keys still accepted for opening after a rotation (default 1). */
  readonly keep?: number;
  /**
   * How long a command may wait for Redis's answer, in milliseconds (default 2000): then it rejects with `MCP.TRANSPORT_ERROR`, so no call
   * hangs while Redis is away.
   */
  readonly timeoutMs?: number;
  /** Told of an automatic rotation that failed (Redis away): it is tried again at the next period. */
  readonly onError?: (error: unknown) => void;
}

/** How long the keys read from Redis are used before they are read again. */
const REFRESH_MS = 1000;

/** Redis's clock in epoch milliseconds, formatted whole (Lua's tostring keeps 14 digits). */
const NOW = `
local function now()
  local time = redis.call('TIME')
  return string.format('%.0f', tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000))
end
`;

/**
 * KEYS: the list of keys, newest first, each "<id> <made at> <secret hex>". ARGV: id, secret, ttl
 * ('0': none). → the list; when it is empty, the key given becomes the first: of two processes
 * starting together, the first to run this makes the key and the other reads it.
 */
const READ = /* @__PURE__ */ new RedisScript(`${NOW}
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('LPUSH', KEYS[1], ARGV[1] .. ' ' .. now() .. ' ' .. ARGV[2])
  if ARGV[3] ~= '0' then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
end
return redis.call('LRANGE', KEYS[1], 0, -1)
`);

/**
 * KEYS: the list. ARGV: id, secret, ttl ('0': none), keep, minimum age ('0': rotate now). → the
 * list. Puts the new key first and keeps `keep` older ones, unless the current key is younger than
 * the minimum age: every process runs the automatic rotation, the first one due makes the key.
 */
const ROTATE = /* @__PURE__ */ new RedisScript(`${NOW}
local current = redis.call('LINDEX', KEYS[1], 0)
local at = now()
if current and tonumber(at) - tonumber(string.match(current, '^%S+ (%d+)')) < tonumber(ARGV[5]) then
  return redis.call('LRANGE', KEYS[1], 0, -1)
end
redis.call('LPUSH', KEYS[1], ARGV[1] .. ' ' .. at .. ' ' .. ARGV[2])
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[4]))
if ARGV[3] ~= '0' then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return redis.call('LRANGE', KEYS[1], 0, -1)
`);

/**
 * The keys `requestState` is sealed with, shared through Redis by every process of a deployment, so
 * a state sealed by one process opens on any other. The keys are one list,
 * `<prefix>{request-state}:keys`, newest (current) first: the first process to need a key makes a
 * random 32-byte one (`crypto.getRandomValues`) and puts it there only if the list is empty, so
 * processes starting together agree on one. Each process reads the list at most once a second, and
 * again when asked for a key id it does not know (another process may have just made it).
 */
export class RedisRequestStateKeys implements RequestStateKeys {
  readonly #redis: RedisCommands;
  readonly #key: string;
  readonly #keep: number;
  readonly #ttl: string;
  readonly #rotateEveryMs: number;
  readonly #timer: ReturnType<typeof setInterval> | undefined;
  #cache: { readonly keys: readonly RequestStateKey[]; readonly at: number } | undefined;
  #reading: Promise<readonly RequestStateKey[]> | undefined;

  constructor(options: RedisRequestStateKeysOptions) {
    const { client, prefix = "mcp:", rotateEveryMs, keep = 1, timeoutMs, onError = () => {} } = options;
    if (!Number.isSafeInteger(keep) || keep < 0)
      throw invalidOption("RedisRequestStateKeys: keep must be a whole number of keys, 0 or more");
    if (rotateEveryMs !== undefined && (!Number.isSafeInteger(rotateEveryMs) || rotateEveryMs <= 0))
      throw invalidOption("RedisRequestStateKeys: rotateEveryMs must be a positive whole number of milliseconds");
    this.#redis = redisCommands(client, { timeoutMs });
    this.#key = `${checkPrefix(prefix, "RedisRequestStateKeys")}{request-state}:keys`;
    this.#keep = keep;
    this.#rotateEveryMs = rotateEveryMs ?? 0;
    // The list outlives the oldest key kept, and is renewed by every rotation: it goes only when no
    // process rotated for that long (the deployment is gone). Without rotation it never goes: no
    // process renews it, and it must stay while any process may seal with its one key.
    this.#ttl = String(rotateEveryMs === undefined ? 0 : rotateEveryMs * (keep + 2));
    if (rotateEveryMs !== undefined) {
      // Checked ten times a period: the first process to find the current key a period old makes
      // the next (the others then find it young), so keys last one period to a tenth more.
      this.#timer = setInterval(() => void this.#rotate(this.#rotateEveryMs).catch(onError), Math.max(1, Math.floor(rotateEveryMs / 10)));
      // A process stops when its work is done, rotation or not.
      this.#timer.unref();
    }
  }

  async current(): Promise<RequestStateKey> {
    return (this.#fresh() ?? (await this.#read()))[0] as RequestStateKey;
  }

  async byId(id: string): Promise<RequestStateKey | undefined> {
    const fresh = this.#fresh();
    const known = (fresh ?? (await this.#read())).find((key) => key.id === id);
    // A key id not known from a read of less than a second ago may be a key another process made since.
    return known !== undefined || fresh === undefined ? known : (await this.#read()).find((key) => key.id === id);
  }

  /** Makes a new current key for every process now, keeping the `keep` previous ones for opening. */
  async rotate(): Promise<void> {
    await this.#rotate(0);
  }

  /** Stops the automatic rotation; the client given stays open. */
  close(): Promise<void> {
    clearInterval(this.#timer);
    return this.#redis.close();
  }

  /** The keys read less than a second ago, if any. */
  #fresh(): readonly RequestStateKey[] | undefined {
    const cache = this.#cache;
    return cache !== undefined && Date.now() - cache.at < REFRESH_MS ? cache.keys : undefined;
  }

  /** Reads the list (once for every caller waiting meanwhile), making the first key if there is none. */
  #read(): Promise<readonly RequestStateKey[]> {
    this.#reading ??= READ.run(this.#redis, [this.#key], [...newKey(), this.#ttl])
      .then((reply) => this.#cached(reply))
      .finally(() => (this.#reading = undefined));
    return this.#reading;
  }

  async #rotate(minimumAge: number): Promise<void> {
    this.#cached(await ROTATE.run(this.#redis, [this.#key], [...newKey(), this.#ttl, String(this.#keep), String(minimumAge)]));
  }

  #cached(reply: unknown): readonly RequestStateKey[] {
    const keys = (reply as string[]).map((entry) => {
      const [id, , secret] = entry.split(" ") as [string, string, string];
      const bytes = decodeHex(secret);
      // Written by the scripts above as hex: anything else is a list someone else changed, and no key is taken from it.
      if (bytes === undefined)
        throw new MCPError(MCP_CODES.INVALID_PARAMS, `RedisRequestStateKeys: the secret of key "${id}" in Redis is not hex`);
      return Object.freeze({ id, secret: bytes });
    });
    this.#cache = { keys, at: Date.now() };
    return keys;
  }
}

/** A fresh key's id and secret (hex), for the scripts to store if they need one. */
function newKey(): [string, string] {
  return [randomHex(12), randomHex(MIN_REQUEST_STATE_SECRET_BYTES)];
}

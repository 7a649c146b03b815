import type { LeaseRenewal, SessionDirectory, SessionRecord, SessionState } from "../stores/session-directory.js";
import { checkPrefix, escapedName, redisCommands, RedisScript, tagOf, type RedisClient, type RedisCommands } from "./redis-commands.js";

export interface RedisSessionDirectoryOptions {
  /** The connection: a node-redis or ioredis client (connected), or a `RedisCommands`. */
  readonly client: RedisClient;
  /** Put before every key (default `"mcp:"`); no `{` or `}`. The instances of one deployment share it. */
  readonly prefix?: string;
  /**
   * How long a command may wait for Redis's answer, in milliseconds (default 2000): then it rejects with `MCP.TRANSPORT_ERROR`, so no call
   * hangs while Redis is away.
   */
  readonly timeoutMs?: number;
}

/** The fields of a record's hash, in the order HMGET and the takeover script give them. */
const FIELDS = ["instance", "epoch", "principal", "state"] as const;

/** KEYS: the record. ARGV: ttl, then field, value, … → 1 when made, 0 when the id is taken. */
const CREATE = /* @__PURE__ */ new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`);

/** KEYS: the record. ARGV: epoch, state JSON → 1 when written, 0 when the epoch moved or the record is gone. */
const SAVE_STATE = /* @__PURE__ */ new RedisScript(`
if redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[2])
return 1
`);

/** KEYS: the record. ARGV: epoch, instance → the record's fields after the move (as HMGET gives them), or false. */
const TAKE_OVER = /* @__PURE__ */ new RedisScript(`
if redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[1] then return false end
redis.call('HSET', KEYS[1], 'instance', ARGV[2])
redis.call('HINCRBY', KEYS[1], 'epoch', 1)
return redis.call('HMGET', KEYS[1], '${FIELDS.join("', '")}')
`);

/** KEYS: the record. ARGV: epoch. */
const REMOVE = /* @__PURE__ */ new RedisScript(`
if redis.call('HGET', KEYS[1], 'epoch') == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`);

/** KEYS: the lease. ARGV: token, ttl → 'acquired', 'renewed' or 'conflict'. */
const RENEW = /* @__PURE__ */ new RedisScript(`
local held = redis.call('GET', KEYS[1])
if not held then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 'acquired'
end
if held ~= ARGV[1] then return 'conflict' end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 'renewed'
`);

/** KEYS: the lease. ARGV: token. */
const RELEASE = /* @__PURE__ */ new RedisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`);

/**
 * The sessions of a deployment in Redis. A record is a hash under the session's own hash tag
 * (`<prefix>{s:<id>}`: `instance`, `epoch`, `principal` when there is one, `state` as JSON once
 * saved), so a Redis Cluster spreads them. Every write that compares an epoch is one script, and so
 * atomic. A lease is `<prefix>lease:{<instance>}`, the holder's token. The directory has no clock
 * of its own: lives are Redis's expiries (`PEXPIRE`, `PX`), counted by Redis from each write.
 */
export class RedisSessionDirectory implements SessionDirectory {
  readonly #redis: RedisCommands;
  readonly #prefix: string;

  constructor(options: RedisSessionDirectoryOptions) {
    const { client, prefix = "mcp:", timeoutMs } = options;
    this.#redis = redisCommands(client, { timeoutMs });
    this.#prefix = checkPrefix(prefix, "RedisSessionDirectory");
  }

  async create(record: SessionRecord, ttlMs: number): Promise<boolean> {
    const fields = ["instance", record.instance, "epoch", String(record.epoch)];
    if (record.principal !== undefined) fields.push("principal", record.principal);
    if (record.state !== undefined) fields.push("state", JSON.stringify(record.state));
    return (await CREATE.run(this.#redis, [this.#key(record.id)], [milliseconds(ttlMs), ...fields])) === 1;
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    return recordOf(id, await this.#redis.command(["HMGET", this.#key(id), ...FIELDS]));
  }

  async saveState(id: string, epoch: number, state: SessionState): Promise<boolean> {
    return (await SAVE_STATE.run(this.#redis, [this.#key(id)], [String(epoch), JSON.stringify(state)])) === 1;
  }

  async takeOver(id: string, epoch: number, instance: string): Promise<SessionRecord | undefined> {
    return recordOf(id, await TAKE_OVER.run(this.#redis, [this.#key(id)], [String(epoch), instance]));
  }

  async touch(ids: readonly string[], ttlMs: number): Promise<void> {
    // One command per id: the records are in different slots. The client sends them together.
    const ttl = milliseconds(ttlMs);
    await Promise.all(ids.map((id) => this.#redis.command(["PEXPIRE", this.#key(id), ttl])));
  }

  async remove(id: string, epoch: number): Promise<void> {
    await REMOVE.run(this.#redis, [this.#key(id)], [String(epoch)]);
  }

  async renewLease(instance: string, token: string, ttlMs: number): Promise<LeaseRenewal> {
    return (await RENEW.run(this.#redis, [this.#lease(instance)], [token, milliseconds(ttlMs)])) as LeaseRenewal;
  }

  async releaseLease(instance: string, token: string): Promise<void> {
    await RELEASE.run(this.#redis, [this.#lease(instance)], [token]);
  }

  async alive(instance: string): Promise<boolean> {
    return (await this.#redis.command(["EXISTS", this.#lease(instance)])) === 1;
  }

  #key(id: string): string {
    return this.#prefix + tagOf("s", id);
  }

  #lease(instance: string): string {
    return `${this.#prefix}lease:{${escapedName(instance)}}`;
  }
}

/** Redis takes whole milliseconds, and a zero or negative expiry deletes the key at once. */
function milliseconds(ttlMs: number): string {
  return String(Math.max(1, Math.ceil(ttlMs)));
}

/** A record from its fields as HMGET gives them (a null for each field missing); undefined when the record is gone. */
function recordOf(id: string, reply: unknown): SessionRecord | undefined {
  const [instance, epoch, principal, state] = Array.isArray(reply) ? (reply as (string | null)[]) : [];
  if (typeof instance !== "string") return undefined;
  return {
    id,
    instance,
    epoch: Number(epoch),
    ...(typeof principal === "string" && { principal }),
    ...(typeof state === "string" && { state: JSON.parse(state) as SessionState }),
  };
}

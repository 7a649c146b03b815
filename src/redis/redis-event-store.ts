import type { JsonRpcId } from "../types/types.js";
import type { EventStore, StoredEvent, StreamRef } from "../transport/http-server/event-store.js";
import { checkPrefix, invalidOption, redisCommands, RedisScript, tagOf, type RedisClient, type RedisCommands } from "./redis-commands.js";

export interface RedisEventStoreOptions {
  /** The connection: a node-redis or ioredis client (connected), or a `RedisCommands`. */
  readonly client: RedisClient;
  /** Put before every key (default `"mcp:"`); no `{` or `}`. */
  readonly prefix?: string;
  /** Events kept per stream (default 1000); the oldest go first. */
  readonly maxEventsPerStream?: number;
  /** How long a session's events are kept after its last append, in milliseconds (default one hour). */
  readonly ttlMs?: number;
  /**
   * How long a command may wait for Redis's answer, in milliseconds (default 2000): then it rejects with `MCP.TRANSPORT_ERROR`, so no call
   * hangs while Redis is away.
   */
  readonly timeoutMs?: number;
}

/**
 * KEYS: the stream, its event ids (event id → entry id), the session's streams (stream id → the
 * requests its first event named, JSON). ARGV: stream id, max events, ttl, requests, then each
 * event's id and data, in order. Adds them, then trims the oldest entries beyond the bound (the new
 * ones too, if there are more of them), their ids with them, so an id still known names an entry
 * still there, and every later entry of its stream is there too; what the first event named is kept
 * apart.
 */
const APPEND = /* @__PURE__ */ new RedisScript(`
for n = 5, #ARGV, 2 do
  redis.call('HSET', KEYS[2], ARGV[n], redis.call('XADD', KEYS[1], '*', 'id', ARGV[n], 'data', ARGV[n + 1]))
end
local over = redis.call('XLEN', KEYS[1]) - tonumber(ARGV[2])
if over > 0 then
  for _, entry in ipairs(redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', over)) do
    redis.call('HDEL', KEYS[2], entry[2][2])
    redis.call('XDEL', KEYS[1], entry[1])
  end
end
redis.call('HSETNX', KEYS[3], ARGV[1], ARGV[4])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
return 1
`);

/** KEYS: the stream, its event ids. ARGV: event id. → false when the id is not (or no longer) there; else {id, data, ...} after it. */
const AFTER = /* @__PURE__ */ new RedisScript(`
local from = redis.call('HGET', KEYS[2], ARGV[1])
if not from or #redis.call('XRANGE', KEYS[1], from, from) == 0 then return false end
local out = {}
for _, entry in ipairs(redis.call('XRANGE', KEYS[1], '(' .. from, '+')) do
  out[#out + 1] = entry[2][2]
  out[#out + 1] = entry[2][4]
end
return out
`);

/** KEYS: the session's streams. ARGV: the key base of its streams. Deletes every key of the session. */
const DROP = /* @__PURE__ */ new RedisScript(`
for _, stream in ipairs(redis.call('HKEYS', KEYS[1])) do
  redis.call('DEL', ARGV[1] .. 's:' .. stream, ARGV[1] .. 'i:' .. stream)
end
redis.call('DEL', KEYS[1])
return 1
`);

/**
 * The events of Streamable HTTP sessions in Redis streams, so a client can resume a stream through
 * any process. A session's keys share its hash tag (`<prefix>{e:<session>}`): per stream, a Redis
 * stream of `id`/`data` entries (`…:s:<streamId>`, at most `maxEventsPerStream`) and a hash of event
 * id → entry id (`…:i:<streamId>`); and a hash of its streams (`…:streams`, stream id → the
 * requests the stream's first event named, as JSON, `null` for none), which `dropSession` and
 * `streamRequests` read. Every key expires `ttlMs` after the session's last append. A replay from an id that is
 * unknown or trimmed answers undefined (the handler refuses it), never a replay with a gap.
 */
export class RedisEventStore implements EventStore {
  readonly #redis: RedisCommands;
  readonly #prefix: string;
  readonly #maxEvents: string;
  readonly #ttl: string;

  constructor(options: RedisEventStoreOptions) {
    const { client, prefix = "mcp:", maxEventsPerStream = 1000, ttlMs = 3_600_000, timeoutMs } = options;
    this.#redis = redisCommands(client, { timeoutMs });
    this.#prefix = checkPrefix(prefix, "RedisEventStore");
    this.#maxEvents = String(count(maxEventsPerStream, "maxEventsPerStream"));
    this.#ttl = String(count(ttlMs, "ttlMs"));
  }

  append(stream: StreamRef, event: StoredEvent): Promise<void> {
    return this.appendAll(stream, [event]);
  }

  /** Several events of one stream in one script (one round trip): an opening and the answer that followed it. */
  async appendAll(stream: StreamRef, events: readonly StoredEvent[]): Promise<void> {
    if (events.length === 0) return;
    const base = this.#base(stream.sessionId);
    const requests = JSON.stringify((events[0] as StoredEvent).requests ?? null);
    const args = [stream.streamId, this.#maxEvents, this.#ttl, requests];
    for (const event of events) args.push(event.id, event.data);
    await APPEND.run(this.#redis, [`${base}s:${stream.streamId}`, `${base}i:${stream.streamId}`, `${base}streams`], args);
  }

  async eventsAfter(stream: StreamRef, eventId: string): Promise<readonly StoredEvent[] | undefined> {
    const base = this.#base(stream.sessionId);
    const reply = await AFTER.run(this.#redis, [`${base}s:${stream.streamId}`, `${base}i:${stream.streamId}`], [eventId]);
    // Lua's false comes back as a null reply.
    if (!Array.isArray(reply)) return undefined;
    const events: StoredEvent[] = [];
    for (let n = 0; n < reply.length; n += 2) events.push({ id: String(reply[n]), data: String(reply[n + 1]) });
    return events;
  }

  /** What the stream's first event named (kept with the stream, however trimmed), null for none; undefined for a stream not held. */
  async streamRequests(stream: StreamRef): Promise<readonly JsonRpcId[] | null | undefined> {
    const json = await this.#redis.command(["HGET", `${this.#base(stream.sessionId)}streams`, stream.streamId]);
    return typeof json === "string" ? (JSON.parse(json) as readonly JsonRpcId[] | null) : undefined;
  }

  async dropSession(sessionId: string): Promise<void> {
    const base = this.#base(sessionId);
    await DROP.run(this.#redis, [`${base}streams`], [base]);
  }

  #base(sessionId: string): string {
    return `${this.#prefix}${tagOf("e", sessionId)}:`;
  }
}

function count(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw invalidOption(`RedisEventStore: ${name} must be a positive whole number`);
  return value;
}

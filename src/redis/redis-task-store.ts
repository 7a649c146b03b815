import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPError } from "../error-codes/mcp-error.js";
import { randomHex } from "../protocol/bytes-text.js";
import {
  applyTaskPatch,
  checkTaskUpdate,
  invalid,
  newTaskRecord,
  taskExpiresAt,
  taskInfo,
  type NewTask,
  type TaskPage,
  type TaskPageRequest,
  type TaskPatch,
  type TaskPrecondition,
  type TaskRecord,
  type TaskStore,
  type TaskStoreSettings,
  type TaskUpdateOutcome,
  taskStoreSettings,
  isCount,
} from "../stores/task-store.js";
import { checkPrefix, redisCommands, tagOf, type RedisClient, type RedisCommands } from "./redis-commands.js";
import { CREATE, INDEX, LIST, SWEEP, UPDATE } from "./task-scripts.js";

export interface RedisTaskStoreOptions extends TaskStoreSettings {
  /** The connection: a node-redis or ioredis client (connected), or a `RedisCommands`. */
  readonly client: RedisClient;
  /** Put before every key (default `"mcp:"`); no `{` or `}`. Processes that share tasks share it. */
  readonly prefix?: string;
  /**
   * How long a command may wait for Redis's answer, in milliseconds (default 2000): then it rejects with `MCP.TRANSPORT_ERROR`, so no call
   * hangs while Redis is away.
   */
  readonly timeoutMs?: number;
}

/** The keys of one owner, all under its hash tag: one slot. */
interface OwnerKeys {
  /** Task id → place in creation order. */
  readonly seq: string;
  /** Task id → expiry (epoch ms, `+inf` for none). */
  readonly exp: string;
  /** Before a task id: its record (a hash of `version` and `json`). */
  readonly base: string;
}

const CURSOR_PREFIX = "t1.";
const CURSOR = /^t1\.([0-9a-z]{1,11})$/;
/** Entries of the expiry index `expire()` takes at a time. */
const EXPIRE_BATCH = 100;

/**
 * Tasks in Redis, shared by every process given the same prefix. An owner's tasks live under its
 * hash tag: each record (`<prefix>{o:<owner>}:t:<id>`, a hash of its version and its JSON) and two
 * sorted sets, by creation and by expiry, every one with a Redis expiry at the end of what it holds.
 * An update reads the record, applies `applyTaskPatch` here, and writes with a script that sets it
 * only if its version is still the one read (else it reads again). `expire()` visits the owners
 * through one more sorted set (`<prefix>{expiry}`, in a slot of its own), of tasks by expiry.
 */
export class RedisTaskStore implements TaskStore {
  readonly #redis: RedisCommands;
  readonly #prefix: string;
  readonly #now: () => number;
  readonly #maxTasksPerOwner: number;
  readonly #pageSize: number;
  readonly #expiryIndex: string;

  constructor(options: RedisTaskStoreOptions) {
    if (typeof options !== "object" || options === null) throw invalid("RedisTaskStore: options must be an object with a client");
    const { client, prefix = "mcp:", timeoutMs } = options;
    const { now, maxTasksPerOwner, pageSize } = taskStoreSettings(options, "RedisTaskStore");
    this.#redis = redisCommands(client, { timeoutMs });
    this.#prefix = checkPrefix(prefix, "RedisTaskStore");
    this.#now = now;
    this.#maxTasksPerOwner = maxTasksPerOwner;
    this.#pageSize = pageSize;
    this.#expiryIndex = `${this.#prefix}{expiry}`;
  }

  async create(owner: string, task: NewTask): Promise<TaskRecord> {
    if (typeof owner !== "string") throw invalid("a task owner must be a string");
    const now = this.#now();
    // 128 random bits: unguessable, and unique without a look-up.
    const record = newTaskRecord(randomHex(16), task, now);
    const keys = this.#keys(owner);
    const at = expiryText(record);
    const reply = (await CREATE.run(
      this.#redis,
      [keys.seq, keys.exp, keys.base + record.taskId],
      [keys.base, String(now), String(this.#maxTasksPerOwner), record.taskId, JSON.stringify(record), at],
    )) as unknown[];
    if (reply[0] !== 1) throw this.#limitReached(String(reply[1]), now);
    if (at !== "inf") await this.#index(now, [[at, member(owner, record.taskId)]]);
    return record;
  }

  async get(owner: string, taskId: string): Promise<TaskRecord | undefined> {
    return this.#read(this.#keys(owner), taskId, this.#now());
  }

  async update(owner: string, taskId: string, patch: TaskPatch, precondition?: TaskPrecondition): Promise<TaskUpdateOutcome> {
    checkTaskUpdate(patch, precondition);
    const keys = this.#keys(owner);
    for (;;) {
      const now = this.#now();
      const current = await this.#read(keys, taskId, now);
      if (current === undefined) return { ok: false, reason: "not-found" };
      const outcome = applyTaskPatch(current, patch, precondition, now);
      if (!outcome.ok) return outcome;
      const at = expiryText(outcome.task);
      const written = await UPDATE.run(
        this.#redis,
        [keys.base + taskId, keys.seq, keys.exp],
        [String(current.version), JSON.stringify(outcome.task), at, String(now), taskId],
      );
      // Another write came between the read and this one: the rules apply again to what it left.
      if (written !== 1) continue;
      if (at !== expiryText(current)) await this.#reindex(now, owner, taskId, at);
      return outcome;
    }
  }

  cancel(owner: string, taskId: string, statusMessage?: string): Promise<TaskUpdateOutcome> {
    return this.update(owner, taskId, { status: "cancelled", statusMessage });
  }

  async list(owner: string, page: TaskPageRequest = {}): Promise<TaskPage> {
    const { cursor, limit = this.#pageSize } = page;
    if (!isCount(limit)) throw invalid("a task list's limit must be a positive whole number");
    const after = cursor === undefined ? "" : placeOf(cursor);
    const keys = this.#keys(owner);
    // One more than the page: whether a next page exists.
    const reply = (await LIST.run(
      this.#redis,
      [keys.seq, keys.exp],
      [keys.base, String(this.#now()), after, String(limit + 1)],
    )) as string[];
    const places: string[] = [];
    const tasks = [];
    for (let n = 0; n < reply.length && tasks.length < limit; n += 2) {
      places.push(reply[n] as string);
      tasks.push(taskInfo(JSON.parse(reply[n + 1] as string) as TaskRecord));
    }
    if (reply.length <= 2 * limit) return { tasks };
    return { tasks, nextCursor: CURSOR_PREFIX + Number(places[places.length - 1]).toString(36) };
  }

  async expire(now: number = this.#now()): Promise<number> {
    let removed = 0;
    for (;;) {
      const due = (await this.#redis.command([
        "ZRANGEBYSCORE",
        this.#expiryIndex,
        "-inf",
        String(now),
        "LIMIT",
        "0",
        String(EXPIRE_BATCH),
      ])) as string[];
      if (due.length === 0) return removed;
      const byOwner = new Map<string, string[]>();
      for (const entry of due) {
        const [owner, taskId] = JSON.parse(entry) as [string, string];
        byOwner.set(owner, [...(byOwner.get(owner) ?? []), taskId]);
      }
      for (const [owner, taskIds] of byOwner) removed += await this.#sweep(now, owner, taskIds);
    }
  }

  /**
   * Frees the owner's expired tasks (counting them: the owner's keys say what is still there, so
   * two processes never count one task twice), then sets the index right for the ids it was given.
   */
  async #sweep(now: number, owner: string, taskIds: readonly string[]): Promise<number> {
    const keys = this.#keys(owner);
    const reply = (await SWEEP.run(this.#redis, [keys.seq, keys.exp], [keys.base, String(now), ...taskIds])) as unknown[];
    const held = new Map<string, string>();
    for (let n = 1; n < reply.length; n += 2) held.set(reply[n] as string, reply[n + 1] as string);
    const gone = taskIds.filter((taskId) => !held.has(taskId) || held.get(taskId) === "inf");
    if (gone.length > 0) await this.#redis.command(["ZREM", this.#expiryIndex, ...gone.map((taskId) => member(owner, taskId))]);
    // An id still held moved its expiry after the index was written: the index takes the new one.
    const moved = [...held].filter(([, at]) => at !== "inf").map(([taskId, at]): [string, string] => [at, member(owner, taskId)]);
    if (moved.length > 0) await this.#index(now, moved);
    return Number(reply[0]);
  }

  async #read(keys: OwnerKeys, taskId: string, now: number): Promise<TaskRecord | undefined> {
    const json = await this.#redis.command(["HGET", keys.base + taskId, "json"]);
    if (typeof json !== "string") return undefined;
    const record = JSON.parse(json) as TaskRecord;
    // Invisible from its expiry on, by this store's clock, whether Redis has freed it yet or not.
    return now < taskExpiresAt(record) ? record : undefined;
  }

  async #reindex(now: number, owner: string, taskId: string, at: string): Promise<void> {
    if (at === "inf") await this.#redis.command(["ZREM", this.#expiryIndex, member(owner, taskId)]);
    else await this.#index(now, [[at, member(owner, taskId)]]);
  }

  async #index(now: number, entries: readonly (readonly [string, string])[]): Promise<void> {
    await INDEX.run(this.#redis, [this.#expiryIndex], [String(now), ...entries.flat()]);
  }

  #keys(owner: string): OwnerKeys {
    const tag = this.#prefix + tagOf("o", owner);
    return { seq: `${tag}:seq`, exp: `${tag}:exp`, base: `${tag}:t:` };
  }

  #limitReached(earliest: string, now: number): MCPError {
    const message = `Task limit: an owner may hold ${this.#maxTasksPerOwner} tasks at once`;
    // The earliest expiry frees a place: that is when trying again can succeed.
    if (earliest === "inf") return new MCPError(MCP_CODES.RATE_LIMITED, `${message}, and none of its tasks expires`);
    const wait = Number(earliest) - now;
    return new MCPError(MCP_CODES.RATE_LIMITED, `${message}; one expires in ${wait} ms`, { data: { retryAfterMs: wait } });
  }
}

/** A task's expiry as the scripts take it: epoch ms, or `inf`. */
function expiryText(record: TaskRecord): string {
  const at = taskExpiresAt(record);
  return at === Number.POSITIVE_INFINITY ? "inf" : String(at);
}

/** An entry of the expiry index: which owner's task. */
function member(owner: string, taskId: string): string {
  return JSON.stringify([owner, taskId]);
}

/** The creation place a cursor of this store names; anything else is refused. */
function placeOf(cursor: string): string {
  const digits = CURSOR.exec(cursor)?.[1];
  if (digits === undefined) throw invalid(`Invalid cursor: ${JSON.stringify(cursor.slice(0, 64))}`);
  return String(Number.parseInt(digits, 36));
}

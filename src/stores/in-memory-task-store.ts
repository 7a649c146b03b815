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
  taskStoreSettings,
  isCount,
  type NewTask,
  type TaskInfo,
  type TaskPage,
  type TaskPageRequest,
  type TaskPatch,
  type TaskPrecondition,
  type TaskRecord,
  type TaskStore,
  type TaskStoreSettings,
  type TaskUpdateOutcome,
} from "./task-store.js";

export type InMemoryTaskStoreOptions = TaskStoreSettings;

/** A task as this store keeps it: its record as JSON text, like a shared store, so nothing handed out aliases it. */
interface Entry {
  /** Its place in creation order: what a cursor names. */
  readonly seq: number;
  readonly expiresAt: number;
  readonly json: string;
}

const CURSOR_PREFIX = "t1.";
const CURSOR = /^t1\.([0-9a-z]{1,10})$/;

/**
 * The tasks of one process. It has no timer: an expired task is invisible at once, and freed by
 * `expire()`, by a `get` or `update` that finds it, or when its owner creates or lists tasks.
 */
export class InMemoryTaskStore implements TaskStore {
  readonly #now: () => number;
  readonly #maxTasksPerOwner: number;
  readonly #pageSize: number;
  /** Owner → task id → entry; a Map keeps the order keys were first set in, so creation order. */
  readonly #owners = new Map<string, Map<string, Entry>>();
  #created = 0;

  constructor(options: InMemoryTaskStoreOptions = {}) {
    const { now, maxTasksPerOwner, pageSize } = taskStoreSettings(options, "InMemoryTaskStore");
    this.#now = now;
    this.#maxTasksPerOwner = maxTasksPerOwner;
    this.#pageSize = pageSize;
  }

  /** How many tasks the store holds, expired ones not freed yet included. */
  get size(): number {
    let size = 0;
    for (const tasks of this.#owners.values()) size += tasks.size;
    return size;
  }

  /** How many owners hold tasks. */
  get ownerCount(): number {
    return this.#owners.size;
  }

  // Every method is `async` without an `await`: its whole body runs at the call, so a check and
  // the write it guards are never split by another call (a cancel racing a completion).
  async create(owner: string, task: NewTask): Promise<TaskRecord> {
    if (typeof owner !== "string") throw invalid("a task owner must be a string");
    const now = this.#now();
    // 128 random bits: unguessable, and unique without a look-up.
    const record = newTaskRecord(randomHex(16), task, now);
    this.#sweep(owner, now);
    const tasks = this.#owners.get(owner) ?? new Map<string, Entry>();
    if (tasks.size >= this.#maxTasksPerOwner) throw this.#limitReached(tasks, now);
    this.#owners.set(owner, tasks);
    this.#created += 1;
    tasks.set(record.taskId, entryOf(this.#created, record));
    return record;
  }

  async get(owner: string, taskId: string): Promise<TaskRecord | undefined> {
    const entry = this.#live(owner, taskId, this.#now());
    return entry === undefined ? undefined : (JSON.parse(entry.json) as TaskRecord);
  }

  async update(owner: string, taskId: string, patch: TaskPatch, precondition?: TaskPrecondition): Promise<TaskUpdateOutcome> {
    checkTaskUpdate(patch, precondition);
    const now = this.#now();
    const entry = this.#live(owner, taskId, now);
    if (entry === undefined) return { ok: false, reason: "not-found" };
    const outcome = applyTaskPatch(JSON.parse(entry.json) as TaskRecord, patch, precondition, now);
    // Setting a key a Map has keeps its place: the task keeps its place in creation order.
    // Stryker disable next-line ConditionalExpression: a refused update's task is the stored record, and writing it back changes nothing
    if (outcome.ok) (this.#owners.get(owner) as Map<string, Entry>).set(taskId, entryOf(entry.seq, outcome.task));
    return outcome;
  }

  cancel(owner: string, taskId: string, statusMessage?: string): Promise<TaskUpdateOutcome> {
    return this.update(owner, taskId, { status: "cancelled", statusMessage });
  }

  async list(owner: string, page: TaskPageRequest = {}): Promise<TaskPage> {
    const { cursor, limit = this.#pageSize } = page;
    if (!isCount(limit)) throw invalid("a task list's limit must be a positive whole number");
    const after = cursor === undefined ? 0 : seqOf(cursor);
    this.#sweep(owner, this.#now());
    const found: Entry[] = [];
    for (const entry of this.#owners.get(owner)?.values() ?? []) {
      if (entry.seq <= after) continue;
      if (found.length === limit) {
        const last = found[found.length - 1] as Entry;
        return { tasks: found.map(infoOf), nextCursor: CURSOR_PREFIX + last.seq.toString(36) };
      }
      found.push(entry);
    }
    return { tasks: found.map(infoOf) };
  }

  async expire(now: number = this.#now()): Promise<number> {
    let removed = 0;
    // A Map may lose keys while iterated: a sweep deletes the owner it empties.
    for (const owner of this.#owners.keys()) removed += this.#sweep(owner, now);
    return removed;
  }

  /** The owner's task, unless it has expired (it is freed then). */
  #live(owner: string, taskId: string, now: number): Entry | undefined {
    const entry = this.#owners.get(owner)?.get(taskId);
    if (entry === undefined || now < entry.expiresAt) return entry;
    this.#sweep(owner, now);
    return undefined;
  }

  /** Frees the owner's expired tasks, and the owner once it holds none; returns how many. */
  #sweep(owner: string, now: number): number {
    const tasks = this.#owners.get(owner);
    if (tasks === undefined) return 0;
    const before = tasks.size;
    for (const [taskId, entry] of tasks) if (now >= entry.expiresAt) tasks.delete(taskId);
    if (tasks.size === 0) this.#owners.delete(owner);
    return before - tasks.size;
  }

  #limitReached(tasks: ReadonlyMap<string, Entry>, now: number): MCPError {
    const message = `Task limit: an owner may hold ${this.#maxTasksPerOwner} tasks at once`;
    let next = Number.POSITIVE_INFINITY;
    for (const entry of tasks.values()) next = Math.min(next, entry.expiresAt);
    // The earliest expiry frees a place: that is when trying again can succeed.
    if (next === Number.POSITIVE_INFINITY) return new MCPError(MCP_CODES.RATE_LIMITED, `${message}, and none of its tasks expires`);
    return new MCPError(MCP_CODES.RATE_LIMITED, `${message}; one expires in ${next - now} ms`, { data: { retryAfterMs: next - now } });
  }
}

function entryOf(seq: number, record: TaskRecord): Entry {
  return { seq, expiresAt: taskExpiresAt(record), json: JSON.stringify(record) };
}

function infoOf(entry: Entry): TaskInfo {
  return taskInfo(JSON.parse(entry.json) as TaskRecord);
}

/** The creation place a cursor of this store names; anything else is refused. */
function seqOf(cursor: string): number {
  const digits = CURSOR.exec(cursor)?.[1];
  if (digits === undefined) throw invalid(`Invalid cursor: ${JSON.stringify(cursor.slice(0, 64))}`);
  return Number.parseInt(digits, 36);
}

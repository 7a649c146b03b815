import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPError } from "../error-codes/mcp-error.js";
import type { TaskStatus } from "../schemas/schemas.js";
import type { JsonObject, JsonValue } from "../types/types.js";

// The protocol's own: `working ⇄ input_required`, then exactly one of completed, failed, cancelled.
export type { TaskStatus };

/** The JSON-RPC error a failed task ended with. */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: JsonValue;
}

/** The request a task runs, as the server needs it to resume the work. */
export interface TaskRequest {
  readonly method: string;
  readonly params?: JsonObject;
}

/** What `tasks/list` shows of a task. Times are epoch milliseconds (the wire's ISO 8601 is `new Date(ms).toISOString()`). */
export interface TaskInfo {
  /** Made by the store: 128 random bits or more. */
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** How long the task is kept, in milliseconds from `createdAt` (as in both eras); `null`: until deleted otherwise. */
  readonly ttl: number | null;
  readonly pollInterval?: number;
  /** 1 when created, one more on every update: what `update`'s `version` precondition compares. */
  readonly version: number;
}

/** A whole task, as `get` and `update` give it: JSON only, so that a shared store keeps it as JSON. */
export interface TaskRecord extends TaskInfo {
  readonly request: TaskRequest;
  /** The server's own JSON, kept for it and never read by the store. */
  readonly data?: JsonValue;
  /** The requests waiting for answers (2026 `inputRequests`): only while `input_required`. */
  readonly inputRequests?: JsonObject;
  /** What the request returned (a tool's result, even one with `isError`): only when `completed`. */
  readonly result?: JsonObject;
  /** The JSON-RPC error the request failed with: only when `failed`. */
  readonly error?: TaskError;
}

/** What `create` is given: a task starts `working`. */
export interface NewTask {
  readonly request: TaskRequest;
  /** Milliseconds from creation (a positive whole number), or `null` to keep it until it is deleted otherwise. */
  readonly ttl: number | null;
  readonly pollInterval?: number;
  readonly statusMessage?: string;
  readonly data?: JsonValue;
}

/**
 * A change to a task: what is left out (or `undefined`) is kept. `result` comes with `status: "completed"`, `error`
 * with `"failed"`, `inputRequests` with a task that is or becomes `input_required` (leaving that
 * status drops them). `statusMessage: null` removes the message; `ttl` still counts from creation.
 */
export interface TaskPatch {
  readonly status?: TaskStatus | undefined;
  readonly statusMessage?: string | null | undefined;
  readonly ttl?: number | null | undefined;
  readonly pollInterval?: number | undefined;
  readonly inputRequests?: JsonObject | undefined;
  readonly result?: JsonObject | undefined;
  readonly error?: TaskError | undefined;
  readonly data?: JsonValue | undefined;
}

/** An update applies only if the task is still at this version and/or in one of these statuses. */
export interface TaskPrecondition {
  readonly version?: number;
  readonly status?: TaskStatus | readonly TaskStatus[];
}

/**
 * What an update did. `not-found` is also the answer for another owner's task and for an expired
 * one; `final` and `precondition` give the task as it stays, unchanged.
 */
export type TaskUpdateOutcome =
  | { readonly ok: true; readonly task: TaskRecord }
  | { readonly ok: false; readonly reason: "not-found" }
  | { readonly ok: false; readonly reason: "final" | "precondition"; readonly task: TaskRecord };

/** Which page `list` gives: from `cursor` (a `nextCursor` it gave), at most `limit` tasks. */
export interface TaskPageRequest {
  readonly cursor?: string | undefined;
  readonly limit?: number | undefined;
}

export interface TaskPage {
  readonly tasks: readonly TaskInfo[];
  /** There when more tasks follow: pass it back as `cursor`. */
  readonly nextCursor?: string;
}

/**
 * Where tasks live while they run and after they end, for as long as their `ttl`. Every task
 * belongs to an owner, an opaque key the server derives from the principal or the session: with
 * another owner, a task is exactly as absent as one that never was. Every method is asynchronous,
 * so that a store shared by several processes can implement it; an update is atomic, and once a
 * task is final nothing changes it, so that a cancel racing a completion ends in exactly one
 * final state. Expired tasks are invisible at once; `expire()` frees what they hold.
 */
export interface TaskStore {
  /** A new `working` task with a fresh unguessable id. Rejects with `MCP.RATE_LIMITED` when the owner holds its maximum of tasks. */
  create(owner: string, task: NewTask): Promise<TaskRecord>;
  get(owner: string, taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Applies `patch` atomically, if the task is not final and `precondition` holds. Rejects with `MCP.INVALID_PARAMS` on a patch that breaks
   * the rules, changing nothing.
   */
  update(owner: string, taskId: string, patch: TaskPatch, precondition?: TaskPrecondition): Promise<TaskUpdateOutcome>;
  /** `update(owner, taskId, { status: "cancelled", statusMessage })`. */
  cancel(owner: string, taskId: string, statusMessage?: string): Promise<TaskUpdateOutcome>;
  /** The owner's live tasks, oldest first. Rejects with `MCP.INVALID_PARAMS` on a cursor the store did not make. */
  list(owner: string, page?: TaskPageRequest): Promise<TaskPage>;
  /** Deletes every task whose `ttl` has run out at `now` (default: the store's clock); resolves to how many. */
  expire(now?: number): Promise<number>;
}

/** What every store is set with: its clock, the bound on an owner's tasks, the page size of `list`. */
export interface TaskStoreSettings {
  /** The clock, in epoch milliseconds (default `Date.now`): it decides what has expired. */
  readonly now?: () => number;
  /** How many tasks one owner may hold at once, final ones included, until they expire (default 1000). */
  readonly maxTasksPerOwner?: number;
  /** Tasks on a `list` page when the caller gives no `limit` (default 100). */
  readonly pageSize?: number;
}

/** The settings with their defaults, checked (`MCP.INVALID_PARAMS` naming `store` and the setting). */
export function taskStoreSettings(settings: TaskStoreSettings, store: string): Required<TaskStoreSettings> {
  const { now = Date.now, maxTasksPerOwner = 1000, pageSize = 100 } = settings;
  if (typeof now !== "function") throw invalid(`${store}: now must be a function giving epoch milliseconds`);
  if (!isCount(maxTasksPerOwner)) throw invalid(`${store}: maxTasksPerOwner must be a positive whole number`);
  if (!isCount(pageSize)) throw invalid(`${store}: pageSize must be a positive whole number`);
  return { now, maxTasksPerOwner, pageSize };
}

const STATUSES: readonly TaskStatus[] = ["working", "input_required", "completed", "failed", "cancelled"];

export function isFinalTaskStatus(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** When the task stops being visible: `createdAt + ttl`, or never. */
export function taskExpiresAt(task: Pick<TaskInfo, "createdAt" | "ttl">): number {
  return task.ttl === null ? Number.POSITIVE_INFINITY : task.createdAt + task.ttl;
}

/** The record `create` stores for `task`, checked. */
export function newTaskRecord(taskId: string, task: NewTask, now: number): TaskRecord {
  checkObject(task, "a new task");
  checkRequest(task.request);
  checkTtl(task.ttl);
  checkOptional(task.pollInterval, isDuration, "pollInterval must be a positive whole number of milliseconds");
  checkOptional(task.statusMessage, isString, "statusMessage must be a string");
  return jsonCopy<TaskRecord>({
    taskId,
    status: "working",
    statusMessage: task.statusMessage,
    createdAt: now,
    lastUpdatedAt: now,
    ttl: task.ttl,
    pollInterval: task.pollInterval,
    version: 1,
    request: task.request,
    data: task.data,
  });
}

/** Checks what `update` is given, before any task is looked up: `MCP.INVALID_PARAMS` on a malformed patch or precondition. */
export function checkTaskUpdate(patch: TaskPatch, precondition: TaskPrecondition | undefined): void {
  checkPatch(patch);
  checkPrecondition(precondition);
}

/**
 * The rules of every update, for every store, on a patch `checkTaskUpdate` passed: a store reads
 * the record, calls this, and writes what it returns if the record has not changed meanwhile (in
 * Redis, one script that compares `version` and sets). Throws `MCP.INVALID_PARAMS` on a patch
 * that does not fit the status it leads to (a result without `completed`, say).
 */
export function applyTaskPatch(
  current: TaskRecord,
  patch: TaskPatch,
  precondition: TaskPrecondition | undefined,
  now: number,
): TaskUpdateOutcome {
  if (isFinalTaskStatus(current.status)) return { ok: false, reason: "final", task: current };
  if (!holds(precondition, current)) return { ok: false, reason: "precondition", task: current };
  const status = patch.status ?? current.status;
  checkOutcomeFields(patch, status);
  const { statusMessage = current.statusMessage, ttl = current.ttl, pollInterval = current.pollInterval, data = current.data } = patch;
  const task = jsonCopy<TaskRecord>({
    ...current,
    status,
    statusMessage: statusMessage ?? undefined,
    lastUpdatedAt: now,
    ttl,
    pollInterval,
    version: current.version + 1,
    data,
    inputRequests: status === "input_required" ? (patch.inputRequests ?? current.inputRequests) : undefined,
    result: patch.result,
    error: patch.error,
  });
  return { ok: true, task };
}

/** What `list` shows of a record. */
export function taskInfo(task: TaskRecord): TaskInfo {
  const { request: _request, data: _data, inputRequests: _inputRequests, result: _result, error: _error, ...info } = task;
  return info;
}

/**
 * A JSON copy: what the caller keeps can never change what is stored, and a value JSON cannot
 * carry is dropped (`undefined`) or refused, exactly as a store that keeps JSON text would.
 */
export function jsonCopy<T>(value: { readonly [K in keyof T]: T[K] | undefined }): T {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw invalid("a task must be JSON: its value could not be serialised", error);
  }
  return JSON.parse(text) as T;
}

export function invalid(message: string, cause?: unknown): MCPError {
  return new MCPError(MCP_CODES.INVALID_PARAMS, message, { cause });
}

function checkPatch(patch: TaskPatch): void {
  checkObject(patch, "a task patch");
  checkOptional(patch.status, isStatus, `status must be one of ${STATUSES.join(", ")}`);
  checkOptional(patch.statusMessage, (message) => message === null || isString(message), "statusMessage must be a string or null");
  if (patch.ttl !== undefined) checkTtl(patch.ttl);
  checkOptional(patch.pollInterval, isDuration, "pollInterval must be a positive whole number of milliseconds");
  checkOptional(patch.inputRequests, isObject, "inputRequests must be an object");
  checkOptional(patch.result, isObject, "result must be an object");
  checkOptional(patch.error, isTaskError, "error must be a JSON-RPC error: an integer code and a string message");
}

/** What a status carries: a result when completed, an error when failed, input requests while input is required. */
function checkOutcomeFields(patch: TaskPatch, status: TaskStatus): void {
  if ((status === "completed") !== (patch.result !== undefined))
    throw invalid("a task's result comes with status completed, and completed comes with a result");
  if ((status === "failed") !== (patch.error !== undefined))
    throw invalid("a task's error comes with status failed, and failed comes with an error");
  if (patch.inputRequests !== undefined && status !== "input_required") throw invalid("inputRequests come with status input_required");
}

function checkPrecondition(precondition: TaskPrecondition | undefined): void {
  if (precondition === undefined) return;
  checkObject(precondition, "a task precondition");
  checkOptional(precondition.version, Number.isSafeInteger, "precondition version must be a whole number");
  const { status } = precondition;
  checkOptional(
    status,
    (given) => isStatus(given) || (Array.isArray(given) && given.every(isStatus)),
    "precondition status must be a status or a list of them",
  );
}

function holds(precondition: TaskPrecondition | undefined, task: TaskRecord): boolean {
  if (precondition === undefined) return true;
  const { version, status } = precondition;
  if (version !== undefined && version !== task.version) return false;
  return status === undefined || ([] as TaskStatus[]).concat(status).includes(task.status);
}

function checkRequest(request: TaskRequest): void {
  checkObject(request, "a task's request");
  if (!isString(request.method) || request.method === "") throw invalid("a task's request needs a method name");
  checkOptional(request.params, isObject, "a task's request params must be an object");
}

function checkTtl(ttl: unknown): void {
  if (ttl !== null && !isDuration(ttl)) throw invalid("ttl must be a positive whole number of milliseconds, or null");
}

function checkObject(value: unknown, what: string): void {
  if (!isObject(value)) throw invalid(`${what} must be an object`);
}

function checkOptional<T>(value: T | undefined, test: (value: T) => boolean, message: string): void {
  if (value !== undefined && !test(value)) throw invalid(message);
}

function isStatus(value: unknown): value is TaskStatus {
  return STATUSES.includes(value as TaskStatus);
}

function isTaskError(value: unknown): boolean {
  return isObject(value) && Number.isSafeInteger(value["code"]) && isString(value["message"]);
}

/** A positive whole number (a count, a limit). */
export function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) > 0;
}

function isDuration(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) > 0;
}

function isString(value: unknown): value is string {
  return typeof value === "string";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

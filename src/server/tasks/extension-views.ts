import type { TaskRecord } from "../../stores/task-store.js";
import type { JsonObject } from "../../types/types.js";

// How the tasks extension (2026-07-28) shows a stored task: times as ISO 8601 text from the record's
// epoch milliseconds, `ttlMs` and `pollIntervalMs` (integers), never the server's own `data` or request.

/** The fields every task answer carries (the extension's `Task`). */
function taskFields(record: TaskRecord): JsonObject {
  const task: JsonObject = { taskId: record.taskId, status: record.status };
  if (record.statusMessage !== undefined) task["statusMessage"] = record.statusMessage;
  task["createdAt"] = new Date(record.createdAt).toISOString();
  task["lastUpdatedAt"] = new Date(record.lastUpdatedAt).toISOString();
  task["ttlMs"] = record.ttl;
  if (record.pollInterval !== undefined) task["pollIntervalMs"] = record.pollInterval;
  return task;
}

/**
 * The answer to a tools/call the server made a task of: the task, flat, and nothing of its outcome (no result, error, inputRequests or
 * requestState).
 */
export function createTaskResult(record: TaskRecord): JsonObject {
  return { resultType: "task", ...taskFields(record) };
}

/**
 * The task as `tasks/get` and `notifications/tasks` show it, with what its status brings: every
 * outstanding request for input (`input_required`), the result, an `isError` one included
 * (`completed`), or the JSON-RPC error (`failed`).
 */
export function detailedTask(record: TaskRecord): JsonObject {
  const task = taskFields(record);
  if (record.status === "input_required") task["inputRequests"] = inputRequestsOf(record);
  else if (record.status === "completed") task["result"] = record.result;
  else if (record.status === "failed") task["error"] = record.error;
  return task;
}

/**
 * The outstanding requests (always there while `input_required`) in the MRTR shape: a request without params (roots/list) shows empty ones.
 */
function inputRequestsOf(record: TaskRecord): JsonObject {
  const requests = record.inputRequests as Record<string, { readonly method: string; readonly params?: JsonObject }>;
  return Object.fromEntries(Object.entries(requests).map(([key, { method, params }]) => [key, { method, params: params ?? {} }]));
}

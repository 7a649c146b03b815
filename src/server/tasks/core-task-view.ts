// How a task looks to a client of 2025-11-25: the `Task` object (ISO times, `ttl`, `pollInterval`)
// and what `tasks/result` answers once the task is terminal.
import { JsonRpcError } from "../../error-codes/mcp-error.js";
import type { Task } from "../../schemas/schemas.js";
import type { TaskInfo, TaskRecord } from "../../stores/task-store.js";
import type { JsonObject } from "../../types/types.js";
import { withFields } from "../../types/objects.js";

const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** Another owner's task, an expired one and one that never was all answer alike (no id in the message). */
export function taskNotFound(): JsonRpcError {
  return new JsonRpcError(-32602, "Task not found");
}

/** `_meta` that ties a message to a task. */
export function relatedTaskMeta(taskId: string, meta?: unknown): JsonObject {
  // A message's `_meta` is an object when there is one (the codecs check it): its keys are kept.
  return withFields(meta as JsonObject | undefined, { [RELATED_TASK]: { taskId } });
}

/**
 * The 2025-11-25 `Task`. A tool's `isError` result counts as a failure there (the store keeps it
 * as `completed`, as 2026 shows it): such a task shows `failed`, its message the result's first text.
 */
export function taskView(task: TaskInfo & Pick<TaskRecord, "result">): Task {
  const failedTool = task.status === "completed" && task.result?.["isError"] === true;
  const statusMessage = failedTool ? (firstText(task.result) ?? task.statusMessage) : task.statusMessage;
  return {
    taskId: task.taskId,
    status: failedTool ? "failed" : task.status,
    ...(statusMessage === undefined ? {} : { statusMessage }),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttl: task.ttl,
    // The engine gives every task one.
    pollInterval: task.pollInterval,
  };
}

/**
 * What `tasks/result` answers for a terminal task: the request's own result, tied to the task, or
 * its JSON-RPC error. A cancelled task has neither; it gets -32603, as SDK 1.x servers answer it.
 */
export function terminalAnswer(task: TaskRecord): JsonObject {
  if (task.status === "completed") {
    const result = task.result as JsonObject;
    return withFields(result, { _meta: relatedTaskMeta(task.taskId, result["_meta"]) });
  }
  if (task.status === "failed") {
    const { code, message, data } = task.error as NonNullable<TaskRecord["error"]>;
    throw new JsonRpcError(code, message, data);
  }
  throw new JsonRpcError(-32603, "Task was cancelled", { status: "cancelled" });
}

function firstText(result: JsonObject): string | undefined {
  // A tool's result was checked as a CallToolResult: its content is a list of blocks.
  const text = (result["content"] as JsonObject[]).find((block) => block["type"] === "text");
  return text === undefined ? undefined : String(text["text"]);
}

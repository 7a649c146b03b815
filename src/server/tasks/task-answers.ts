import { JSONRPC_ERROR_CODES, MCP_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError, MCPError, describeThrown } from "../../error-codes/mcp-error.js";
import type { TaskPatch, TaskRecord, TaskStore } from "../../stores/task-store.js";
import type { JsonObject } from "../../types/types.js";

/** How many times a read-modify-write is tried while other writers keep changing the task's version. */
export const CAS_ATTEMPTS = 16;

/** Checks one answer to an outstanding input request: returns the answer to keep, or throws why it is refused. */
export type AnswerCheck = (method: string, params: JsonObject | undefined, answer: unknown) => unknown;

interface InputRequest {
  readonly method: string;
  readonly params?: JsonObject;
}

/** The answers given so far, by key: the engine keeps them in its own `data.answers` (it stores `{}` at creation). */
export function answersOf(task: TaskRecord): JsonObject {
  return (task.data as { answers: JsonObject }).answers;
}

/**
 * Applies the answers to the task's outstanding input requests in one compare-and-set write (read
 * again and retried when the version moved): answered keys leave `inputRequests` and go into
 * `data.answers`; the task is `working` again once none is left. Keys not outstanding are ignored,
 * and when none is, nothing is written. A refused answer rejects with -32602 naming its key, and
 * nothing is applied. Resolves to the task and what was applied, or undefined when it is not found.
 */
export async function applyAnswers(
  store: TaskStore,
  owner: string,
  taskId: string,
  responses: Readonly<Record<string, unknown>>,
  check: AnswerCheck,
): Promise<{ readonly task: TaskRecord; readonly applied: ReadonlyMap<string, unknown> } | undefined> {
  for (let attempt = 1; attempt <= CAS_ATTEMPTS; attempt += 1) {
    const task = await store.get(owner, taskId);
    if (task === undefined) return undefined;
    const applied = checkedAnswers(task, responses, check);
    if (applied.size === 0) return { task, applied };
    const outcome = await store.update(owner, taskId, answerPatch(task, applied), { version: task.version });
    if (outcome.ok) return { task: outcome.task, applied };
  }
  throw new MCPError(MCP_CODES.INTERNAL_ERROR, `Task ${taskId} kept changing: its input answers could not be written`);
}

function checkedAnswers(task: TaskRecord, responses: Readonly<Record<string, unknown>>, check: AnswerCheck): Map<string, unknown> {
  const pending = task.inputRequests ?? {};
  const applied = new Map<string, unknown>();
  for (const key of Object.keys(responses)) {
    if (!Object.hasOwn(pending, key)) continue;
    const { method, params } = pending[key] as InputRequest;
    try {
      // JSON has no undefined: an answer checked to nothing is kept as null, so every process reads the same.
      applied.set(key, check(method, params, responses[key]) ?? null);
    } catch (error) {
      throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, `inputResponses[${JSON.stringify(key)}]: ${describeThrown(error)}`);
    }
  }
  return applied;
}

function answerPatch(task: TaskRecord, applied: ReadonlyMap<string, unknown>): TaskPatch {
  // Object.fromEntries and spreads define keys as own properties: a key such as "__proto__" stays a key.
  const left = Object.entries(task.inputRequests as JsonObject).filter(([key]) => !applied.has(key));
  const data = { ...(task.data as JsonObject), answers: { ...answersOf(task), ...Object.fromEntries(applied) } } as JsonObject;
  if (left.length === 0) return { status: "working", data: data as TaskPatch["data"] };
  return { status: "input_required", inputRequests: Object.fromEntries(left), data: data as TaskPatch["data"] };
}

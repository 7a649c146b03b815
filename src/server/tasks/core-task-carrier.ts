// 2025-11-25's tasks/result: it blocks until the task is terminal, and meanwhile it carries the
// task's input. A task asks its requestor through real requests, which need a stream to ride (over
// Streamable HTTP, an open request's SSE stream): the open tasks/result is that stream.
import type { CreateMessageRequestParams, ElicitRequestParams } from "../../schemas/schemas.js";
import { isFinalTaskStatus, type TaskRecord } from "../../stores/task-store.js";
import type { JsonObject } from "../../types/types.js";
import type { HandlerContext, InputOptions } from "../mcp-server/mcp-server.types.js";
import { relatedTaskMeta } from "./core-task-view.js";
import type { TaskSurfaceHost } from "./task-surface.js";
import { withFields } from "../../types/objects.js";

interface InputRequest {
  readonly method: string;
  readonly params?: JsonObject;
}

/**
 * Waits until the task is terminal (resolves to it) or gone (undefined). Each of its outstanding
 * input requests, read now and on every change of the task, is sent once as a request of this
 * `tasks/result` (`context`), tied to the task by its `_meta`; the client's answer (checked by the
 * session) goes to the task. When the client leaves (the request's signal), it rejects with the
 * signal's reason, and what was not answered stays outstanding for the next `tasks/result`.
 */
export async function carryUntilTerminal(
  host: TaskSurfaceHost,
  owner: string,
  taskId: string,
  context: HandlerContext,
): Promise<TaskRecord | undefined> {
  const { engine, server } = host;
  const { signal } = context;
  const sent = new Set<string>();
  // Set at the start of every turn, before anything can call it.
  let wake!: () => void;
  const unsubscribe = server.changes.subscribe((change) => {
    if (change.kind === "task" && change.taskId === taskId) wake();
  });
  const onAbort = (): void => wake();
  signal.addEventListener("abort", onAbort);
  try {
    for (;;) {
      // Armed before the read: a change while the task is read wakes the next turn instead of being missed.
      const changed = new Promise<void>((resolve) => (wake = resolve));
      signal.throwIfAborted();
      const task = await engine.get(owner, taskId);
      if (task === undefined || isFinalTaskStatus(task.status)) return task;
      for (const [key, request] of Object.entries(task.inputRequests ?? {})) {
        if (sent.has(key)) continue;
        sent.add(key);
        // The answer reaches the task (its run wakes up); a request the client refused or left unanswered stays outstanding.
        ask(context, taskId, request as InputRequest).then(
          (answer) =>
            engine
              .answer(owner, taskId, { [key]: answer }, (_method, _params, checked) => checked)
              .catch((error: unknown) => engine.options.onError?.(error)),
          () => undefined,
        );
      }
      await changed;
    }
  } finally {
    unsubscribe();
    signal.removeEventListener("abort", onAbort);
  }
}

/**
 * One input request of the task, sent through `context` (its capability check and answer check included), without a deadline: the carrier's
 * end cancels it.
 */
function ask(context: HandlerContext, taskId: string, { method, params }: InputRequest): Promise<unknown> {
  const options: InputOptions = { timeoutMs: Number.POSITIVE_INFINITY };
  const related = withFields(params, { _meta: relatedTaskMeta(taskId, params?.["_meta"]) });
  if (method === "sampling/createMessage") return context.createMessage(related as unknown as CreateMessageRequestParams, options);
  if (method === "elicitation/create") return context.elicitInput(related as unknown as ElicitRequestParams, options);
  // roots/list: the session asks it without params, so it carries no related-task `_meta`.
  return context.listRoots(options);
}

// An SDK 1.x server of task tools (its experimental registerToolTask, an InMemoryTaskStore and a
// message queue), for the client's tasks in revision 2025-11-25, in memory or over HTTP.
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";

export const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
export const form = { type: "object" as const, properties: { name: { type: "string" as const } }, required: ["name"] };

/**
 * An SDK 1.x server whose task tools end after a few milliseconds (`never` does not end; `interview`
 * asks for a name first, on the task's queue); its store goes into `stores`, to be cleaned up.
 */
export function sdkTaskServer(stores: InMemoryTaskStore[]): McpServer {
  const store = new InMemoryTaskStore();
  stores.push(store);
  const server = new McpServer(
    { name: "sdk-tasks", version: "1.0.0" },
    {
      capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore: store,
      taskMessageQueue: new InMemoryTaskMessageQueue(),
      defaultTaskPollInterval: 5,
    },
  );
  const register = (
    name: string,
    taskSupport: "optional" | "required",
    run: (
      taskId: string,
      extra: { sendRequest: (...args: never[]) => Promise<unknown> },
    ) => Promise<{ status: "completed" | "failed"; result: ReturnType<typeof text> & { isError?: boolean } } | undefined>,
  ) =>
    server.experimental.tasks.registerToolTask(
      name,
      { inputSchema: { text: z.string().optional() }, execution: { taskSupport } },
      {
        createTask: async (_args, extra) => {
          const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl ?? 60_000, pollInterval: 5 });
          setTimeout(() => {
            void run(task.taskId, extra as never).then(
              (end) => end && extra.taskStore.storeTaskResult(task.taskId, end.status, end.result),
            );
          }, 10);
          return { task };
        },
        getTask: (_args, extra) => extra.taskStore.getTask(extra.taskId),
        getTaskResult: (_args, extra) => extra.taskStore.getTaskResult(extra.taskId) as never,
      },
    );
  register("slow", "optional", async () => ({ status: "completed", result: text("slow done") }));
  register("required", "required", async () => ({ status: "completed", result: text("required done") }));
  register("failing", "optional", async () => ({ status: "failed", result: { ...text("it broke"), isError: true } }));
  register("never", "optional", async () => undefined);
  register("interview", "optional", async (taskId, extra) => {
    const answer = (await extra.sendRequest(
      { method: "elicitation/create", params: { mode: "form", message: "Your name?", requestedSchema: form } } as never,
      ElicitResultSchema as never,
      { relatedTask: { taskId } } as never,
    )) as { content?: { name?: string } };
    return { status: "completed", result: text(`hello ${answer.content?.name ?? "nobody"}`) };
  });
  server.registerTool("plain", { inputSchema: {} }, () => text("plain"));
  return server;
}

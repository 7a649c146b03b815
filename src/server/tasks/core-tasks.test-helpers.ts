// The 2025-11-25 tasks surface's test bench: an MCPServer with serverTasks() and the official SDK
// 1.x client (a real 2025-11-25 requestor) connected in memory, optionally as an authenticated principal.
import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { sdkPair } from "../../../e2e/support/sdk-bridge.js";
import type { Transport } from "../../transport/transport/transport.types.js";
import { MCPServer } from "../mcp-server/mcp-server.js";
import type { ServerSession } from "../mcp-server/session.js";
import { serverTasks, type ServerTasksOptions } from "./server-tasks.js";

export { deferred, hooked, type Deferred } from "./tasks.test-helpers.js";

export const info = { name: "tasks-2025", version: "1.0.0" };

/** A server with tasks (clients poll every 10 ms) and a tool of each level that answers at once. */
export function taskServer(options: ServerTasksOptions = {}): MCPServer {
  const server = new MCPServer(info, { tasks: serverTasks({ pollIntervalMs: 10, ...options }) });
  const input = { type: "object", properties: { text: { type: "string" } } } as const;
  server.tool("plain", { inputSchema: input }, echo("plain"));
  server.tool("maybe", { inputSchema: input, execution: { taskSupport: "optional" } }, echo("maybe"));
  server.tool("must", { inputSchema: input, execution: { taskSupport: "required" } }, echo("must"));
  return server;
}

/** A handler that answers with its tool's name and its `text` argument. */
function echo(name: string) {
  return (args: { text?: string }) => ({ content: [{ type: "text" as const, text: `${name}: ${args.text ?? ""}` }] });
}

/** The SDK 1.x client connected to `server`; with `authInfo`, every message arrives as the transport authenticated it. */
export async function sdkClient(
  server: MCPServer,
  options: ClientOptions & { readonly authInfo?: unknown } = {},
): Promise<{ client: Client; session: ServerSession }> {
  const { authInfo, ...clientOptions } = options;
  const { ours, sdk } = sdkPair();
  const session = await server.start(authInfo === undefined ? ours : authenticated(ours, authInfo));
  const client = new Client({ name: "sdk-client", version: "1.0.0" }, clientOptions);
  await client.connect(sdk);
  return { client, session };
}

function authenticated(inner: Transport, authInfo: unknown): Transport {
  return {
    start: (receiver) =>
      inner.start({
        onMessage: (message) => receiver.onMessage(message, { authInfo }),
        onMalformed: (error) => receiver.onMalformed(error),
        onClose: (error) => receiver.onClose(error),
      }),
    send: (message) => inner.send(message),
    close: () => inner.close(),
  };
}

/** Starts `name` as a task (tools/call with `task`), as the SDK sends it: the CreateTaskResult's task. */
export async function startTask(client: Client, name: string, args: Record<string, unknown> = {}, task: { ttl?: number } = {}) {
  const created = await client.request({ method: "tools/call", params: { name, arguments: args, task } }, CreateTaskAnswer);
  return created.task;
}

const CreateTaskAnswer = z
  .object({
    task: z
      .object({
        taskId: z.string(),
        status: z.string(),
        ttl: z.number().nullable(),
        pollInterval: z.number().optional(),
        createdAt: z.string(),
        lastUpdatedAt: z.string(),
      })
      .loose(),
  })
  .loose();

/** What the SDK's `callToolStream` yields for a call, to its end. */
export async function streamed(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
  options: Parameters<Client["experimental"]["tasks"]["callToolStream"]>[2] = { task: {} },
) {
  const messages = [];
  for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, options))
    messages.push(message);
  return messages;
}

/** Waits (real timers) until `check` holds, up to `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 2_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("Timed out waiting for a condition");
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

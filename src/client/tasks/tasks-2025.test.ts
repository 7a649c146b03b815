// The client's tasks in revision 2025-11-25 against the official SDK 1.x server (its experimental
// registerToolTask, an InMemoryTaskStore and a message queue): the client asks with `task`, waits on
// tasks/result (input requests of the task arriving on it), reads, lists and cancels tasks.
// A raw server covers what the SDK does not make happen (a tasks/result that never answers, a
// request for input the server cancels).
import type { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError } from "../../error-codes/mcp-error.js";
import type { MCPClient } from "../mcp-client/mcp-client.js";
import type { MCPClientOptions } from "../mcp-client/mcp-client.types.js";
import { MCPClient as Client } from "../mcp-client/mcp-client.js";
import { CLIENT_INFO, connectToRaw, connectToSdk, type RawServer } from "../mcp-client/mcp-client.test-helpers.js";
import { form, sdkTaskServer, text } from "./sdk-task-server.test-helpers.js";
import { sessionPeer } from "./tasks.test-helpers.js";
import type { TaskInput, ToolTask } from "./tasks.types.js";

const stores: InMemoryTaskStore[] = [];
const clients: MCPClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const store of stores.splice(0)) store.cleanup();
});

async function sdkClient(options: MCPClientOptions = {}): Promise<MCPClient> {
  const connected = await connectToSdk(sdkTaskServer(stores), options);
  clients.push(connected);
  return connected;
}

describe("tasks in revision 2025-11-25, against SDK 1.x", () => {
  it("asks for a task, reads its state under one set of names, waits for its result, and lists it", async () => {
    const ours = await sdkClient();
    const task = await ours.callTool("slow", { text: "x" }, { task: { ttlMs: 30_000 } });
    expect(task.taskId).toEqual(expect.any(String));
    await expect(task.status()).resolves.toEqual({
      taskId: task.taskId,
      status: "working",
      createdAt: expect.any(String),
      lastUpdatedAt: expect.any(String),
      ttlMs: 30_000,
      pollIntervalMs: 5,
    });
    await expect(task.result()).resolves.toMatchObject({
      ...text("slow done"),
      _meta: { "io.modelcontextprotocol/related-task": { taskId: task.taskId } },
    });
    await expect(task.status()).resolves.toMatchObject({ status: "completed" });
    const page = await ours.listTasks();
    expect(page.tasks.map((listed) => [listed.taskId, listed.status, listed.ttlMs])).toEqual([[task.taskId, "completed", 30_000]]);
    expect(page).not.toHaveProperty("nextCursor");
  });

  it("gives a failed tool's stored error result, and rejects with the wire code of a tasks/result error", async () => {
    const ours = await sdkClient();
    await expect((await ours.callTool("failing", {}, { task: true })).result()).resolves.toMatchObject({
      ...text("it broke"),
      isError: true,
    });
    await expect(ours.task("no-such-task").result()).rejects.toMatchObject({ wireCode: -32602 });
  });

  it("cancels a task with tasks/cancel", async () => {
    const ours = await sdkClient();
    const task = await ours.callTool("never", {}, { task: true });
    await task.cancel();
    await expect(task.status()).resolves.toMatchObject({ status: "cancelled" });
  });

  it("follows a tool listed as task-required through a plain call; refuses locally a task of a tool that cannot run as one", async () => {
    const ours = await sdkClient();
    await expect(ours.callTool("required")).resolves.toMatchObject(text("required done"));
    // An optional one is called plainly: the SDK waits for its task itself.
    await expect(ours.callTool("slow")).resolves.toMatchObject(text("slow done"));
    await expect(ours.callTool("plain", {}, { task: true })).rejects.toMatchObject({
      code: MCP_CODES.METHOD_NOT_FOUND,
      message: "Tool plain does not run as a task (its execution.taskSupport is forbidden)",
    });
  });

  it("answers a request for input that arrives on tasks/result with the client's handler", async () => {
    const asked: unknown[] = [];
    const ours = await sdkClient({
      elicitation: {
        form: (params, context) => (
          asked.push([params.message, context.meta?.["io.modelcontextprotocol/related-task"]]),
          { action: "accept", content: { name: "Ada" } }
        ),
      },
    });
    const task = await ours.callTool("interview", {}, { task: true });
    await expect(task.result()).resolves.toMatchObject(text("hello Ada"));
    expect(asked).toEqual([["Your name?", { taskId: task.taskId }]]);
  });

  it("hands a request for input of a task to onInput, keyed by its JSON-RPC id, and answers it with update", async () => {
    const handler = vi.fn(() => ({ action: "decline" as const }));
    const ours = await sdkClient({ elicitation: { form: handler } });
    const inputs: TaskInput[] = [];
    let task: ToolTask | undefined;
    task = await ours.callTool(
      "interview",
      {},
      {
        task: {
          onInput: (input) => {
            inputs.push(input);
            void task?.update({ [input.key]: { action: "accept", content: { name: "Grace" } }, unknown: {} });
          },
        },
      },
    );
    await expect(task.result()).resolves.toMatchObject(text("hello Grace"));
    expect(inputs).toEqual([
      { key: expect.stringMatching(/^\d+$/), method: "elicitation/create", params: expect.objectContaining({ message: "Your name?" }) },
    ]);
    expect(handler).not.toHaveBeenCalled();
  });
});

describe("tasks in revision 2025-11-25, against a raw server", () => {
  const task = { taskId: "t-1", status: "working", createdAt: "2025-11-25T00:00:00Z", lastUpdatedAt: "2025-11-25T00:00:00Z", ttl: null };

  it("asks tasks/result again after one that timed out, and refuses a task on a server without the capability", async () => {
    let asked = 0;
    const { client: ours, server } = await connectToRaw(
      { "tasks/result": () => (++asked === 1 ? new Promise(() => {}) : text("second time")), "tools/call": () => ({ task }) },
      { timeoutMs: 20 },
    );
    clients.push(ours);
    await expect(ours.task("t-1").result()).resolves.toEqual(text("second time"));
    expect(asked).toBe(2);
    await expect(ours.callTool("slow", {}, { task: true })).rejects.toMatchObject({
      code: MCP_CODES.METHOD_NOT_FOUND,
      message: "The server runs no tool as a task (its capabilities lack tasks.requests.tools.call)",
    });
    await expect(ours.callTool("slow")).rejects.toMatchObject({
      code: MCP_CODES.PROTOCOL_INVALID,
      message: "tools/call slow was answered with a task, which this client did not ask for",
    });
    expect(server.initializeParams).toHaveLength(1);
  });

  it("tells a cancelled task's tasks/result error from a failure by its status; keeps the error if the status is unreadable", async () => {
    let status = "cancelled";
    const { client: ours } = await connectToRaw({
      "tasks/result": () => failure("Task was cancelled"),
      "tasks/get": () => (status === "gone" ? failure("no such task") : { ...task, status, statusMessage: "by the user" }),
    });
    clients.push(ours);
    await expect(ours.task("t-1").result()).rejects.toMatchObject({
      code: MCP_CODES.REQUEST_CANCELLED,
      message: "Task t-1 was cancelled: by the user",
    });
    status = "failed";
    await expect(ours.task("t-1").result()).rejects.toMatchObject({ code: MCP_CODES.INTERNAL_ERROR, message: "Task was cancelled" });
    status = "gone";
    await expect(ours.task("t-1").result()).rejects.toMatchObject({ code: MCP_CODES.INTERNAL_ERROR, message: "Task was cancelled" });
  });

  it("rejects a parked request for input that the server cancels, and one still parked when the wait ends", async () => {
    const outcomes: string[] = [];
    const params = {
      mode: "form",
      message: "Name?",
      requestedSchema: form,
      _meta: { "io.modelcontextprotocol/related-task": { taskId: "t-1" } },
    };
    let serverEnd: RawServer | undefined;
    const ask = (signal: AbortSignal) =>
      (serverEnd as RawServer).dispatcher.request("elicitation/create", params, { signal }).then(
        () => outcomes.push("answered"),
        (error: Error) => outcomes.push(error.message),
      );
    const { client: ours, server } = await connectToRaw(
      {
        "tasks/result": async () => {
          const cancelled = new AbortController();
          const first = ask(cancelled.signal);
          setTimeout(() => cancelled.abort("no longer needed"), 5);
          await first;
          await ask(new AbortController().signal);
          return new Promise(() => {});
        },
      },
      { elicitation: { form: () => ({ action: "decline" }) } },
    );
    clients.push(ours);
    serverEnd = server;
    const inputs: TaskInput[] = [];
    const waiting = new AbortController();
    const result = ours.task("t-1", { onInput: (input) => inputs.push(input) }).result({ signal: waiting.signal });
    await vi.waitFor(() => expect(inputs).toHaveLength(2));
    waiting.abort("gave up");
    await expect(result).rejects.toMatchObject({
      code: MCP_CODES.REQUEST_CANCELLED,
      message: "The wait for task t-1 was cancelled: gave up",
    });
    await vi.waitFor(() =>
      expect(outcomes).toEqual(["Request cancelled: no longer needed", "The wait for task t-1 ended before this input was answered"]),
    );
    expect(inputs.map((input) => input.method)).toEqual(["elicitation/create", "elicitation/create"]);
  });

  it("refuses a task of a listed tool without execution, passes a plain call's errors on, and pages through tasks/list", async () => {
    const listed = {
      taskId: "t-2",
      status: "completed",
      createdAt: "2025-11-25T00:00:00Z",
      lastUpdatedAt: "2025-11-25T00:00:01Z",
      ttl: 1000,
      statusMessage: "done",
    };
    const ours = await sessionPeer(
      {
        "tools/list": () => ({ tools: [{ name: "bare", inputSchema: { type: "object" } }] }),
        "tools/call": () => Promise.reject(new Error("tool exploded")),
        "tasks/list": (params) =>
          (params as { cursor?: string } | undefined)?.cursor === "next" ? { tasks: [listed] } : { tasks: [], nextCursor: "next" },
      },
      { tools: {}, tasks: { list: {}, requests: { tools: { call: {} } } } },
    );
    clients.push(ours);
    await expect(ours.callTool("bare", {}, { task: true })).rejects.toMatchObject({
      code: MCP_CODES.METHOD_NOT_FOUND,
      message: "Tool bare does not run as a task (its execution.taskSupport is absent, meaning forbidden)",
    });
    await expect(ours.callTool("bare")).rejects.toMatchObject({ wireCode: -32603 });
    await expect(ours.listTasks()).resolves.toEqual({ tasks: [], nextCursor: "next" });
    await expect(ours.listTasks("next")).resolves.toEqual({
      tasks: [
        {
          taskId: "t-2",
          status: "completed",
          statusMessage: "done",
          createdAt: "2025-11-25T00:00:00Z",
          lastUpdatedAt: "2025-11-25T00:00:01Z",
          ttlMs: 1000,
        },
      ],
    });
  });

  it("refuses every call before connect as any call, and ends a wait begun after close at once", async () => {
    const early = new Client(CLIENT_INFO, { telemetry: null });
    await expect(early.callTool("any", {}, { task: true })).rejects.toMatchObject({ code: MCP_CODES.NOT_INITIALIZED });
    await expect(early.listTasks()).rejects.toMatchObject({ code: MCP_CODES.NOT_INITIALIZED });
    const ours = await sessionPeer({}, {});
    await ours.close();
    await expect(ours.task("t-1").result()).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_CLOSED,
      message: "The connection closed while waiting for task t-1",
    });
  });
});

/** What a 2025-11-25 server answers a cancelled task's tasks/result with: -32603 (the era has no code of its own). */
function failure(message: string): never {
  throw new JsonRpcError(-32603, message, { status: "cancelled" });
}

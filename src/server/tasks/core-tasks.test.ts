// The 2025-11-25 tasks surface through MCPServer and the official SDK 1.x client: who decides
// (the B3 table's 2025 rows), the Task view, tasks/get, tasks/list, tasks/cancel, owners, capabilities.
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { JsonRpcError } from "../../error-codes/mcp-error.js";
import { PROFILES } from "../../protocol/profiles.js";
import { InMemoryTaskStore } from "../../stores/in-memory-task-store.js";
import { MCPServer } from "../mcp-server/mcp-server.js";
import { initializedRawClientOf, rawClientOf } from "../mcp-server/mcp-server.test-helpers.js";
import { deferred, hooked, info, sdkClient, startTask, streamed, taskServer, until } from "./core-tasks.test-helpers.js";
import { serverTasks } from "./server-tasks.js";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

describe("2025-11-25 tools/call: the client decides, within what the tool allows", () => {
  it("starts a task for an optional or required tool called with `task`, answering the nested CreateTaskResult", async () => {
    const { client } = await sdkClient(taskServer());
    for (const name of ["maybe", "must"]) {
      const task = await startTask(client, name, { text: "x" });
      expect(task).toEqual({
        taskId: expect.stringMatching(/^[0-9a-f]{32}$/),
        status: "working",
        createdAt: expect.stringMatching(ISO),
        lastUpdatedAt: expect.stringMatching(ISO),
        ttl: 3_600_000,
        pollInterval: 10,
      });
      const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
      expect(result.content).toEqual([{ type: "text", text: `${name}: x` }]);
    }
    const bare = await client.request({ method: "tools/call", params: { name: "must", task: {} } }, CreateTaskResultSchema);
    await expect(client.experimental.tasks.getTaskResult(bare.task.taskId, CallToolResultSchema)).resolves.toMatchObject({
      content: [{ text: "must: " }],
    });
  });

  it("refuses `task` on a forbidden tool with -32601 once tasks are declared", async () => {
    const { client } = await sdkClient(taskServer());
    await expect(startTask(client, "plain")).rejects.toMatchObject({
      code: -32601,
      message: expect.stringContaining("Tool plain cannot be called as a task"),
    });
  });

  it("runs a call without `task` in the request, but refuses it on a required tool with -32601", async () => {
    const { client } = await sdkClient(taskServer());
    await expect(client.callTool({ name: "plain", arguments: { text: "a" } })).resolves.toEqual({
      content: [{ type: "text", text: "plain: a" }],
    });
    await expect(client.callTool({ name: "maybe", arguments: { text: "b" } })).resolves.toEqual({
      content: [{ type: "text", text: "maybe: b" }],
    });
    await expect(client.callTool({ name: "must", arguments: {} })).rejects.toMatchObject({
      code: -32601,
      message: expect.stringContaining("Tool must must be called as a task"),
    });
  });

  it("processes a `task` call normally while no tool may run as a task (no tasks capability declared)", async () => {
    const server = new MCPServer(info, { tasks: serverTasks() });
    server.tool("plain", {}, () => ({ content: [{ type: "text", text: "inline" }] }));
    const { client } = await sdkClient(server);
    expect(client.getServerCapabilities()?.tasks).toBeUndefined();
    await expect(
      client.request({ method: "tools/call", params: { name: "plain", arguments: {}, task: {} } }, CallToolResultSchema),
    ).resolves.toEqual({ content: [{ type: "text", text: "inline" }] });
  });

  it("runs the SDK's callToolStream to its result, with the tool's execution listed", async () => {
    const { client } = await sdkClient(taskServer());
    const { tools } = await client.listTools();
    expect(tools.map((tool) => [tool.name, tool.execution])).toEqual([
      ["plain", undefined],
      ["maybe", { taskSupport: "optional" }],
      ["must", { taskSupport: "required" }],
    ]);
    const messages = await streamed(client, "must", { text: "s" });
    expect(messages[0]).toMatchObject({ type: "taskCreated", task: { status: "working" } });
    expect(messages.at(-1)).toMatchObject({ type: "result", result: { content: [{ type: "text", text: "must: s" }] } });
  });

  it("keeps a task for the ttl asked, at most the server's maximum; the tool's own when the client names none", async () => {
    const server = new MCPServer(info, { tasks: serverTasks({ maxTtlMs: 60_000 }) });
    server.tool("kept", { execution: { taskSupport: "optional" }, task: { ttlMs: 5_000, pollIntervalMs: 250 } }, () => ({ content: [] }));
    const { client } = await sdkClient(server);
    expect(await startTask(client, "kept", {}, { ttl: 20_000 })).toMatchObject({ ttl: 20_000, pollInterval: 250 });
    expect(await startTask(client, "kept", {}, { ttl: 600_000 })).toMatchObject({ ttl: 60_000 });
    expect(await startTask(client, "kept")).toMatchObject({ ttl: 5_000 });
    // A ttl no store can keep (not a positive whole number) is not granted: the tool's applies.
    expect(await startTask(client, "kept", {}, { ttl: 0 })).toMatchObject({ ttl: 5_000 });
  });

  it("runs the tool's prepare in the request (its input asked as the request's own), its value reaching the task", async () => {
    const server = new MCPServer(info, { tasks: serverTasks({ pollIntervalMs: 10 }) });
    const asked: unknown[] = [];
    server.tool(
      "deploy",
      {
        execution: { taskSupport: "required" },
        task: {
          prepare: async (_args, context) => {
            const answer = await context.elicitInput({
              message: "Which region?",
              requestedSchema: { type: "object", properties: { region: { type: "string" } } },
            });
            return answer.content?.["region"];
          },
        },
      },
      (_args, context) => ({
        content: [
          { type: "text", text: `deployed to ${String(context.task?.prepared)} as ${context.task?.id === undefined ? "inline" : "task"}` },
        ],
      }),
    );
    const { client } = await sdkClient(server, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return { action: "accept", content: { region: "eu" } };
    });
    const task = await startTask(client, "deploy");
    // Asked before the task existed: no related-task meta.
    expect(asked).toEqual([{ message: "Which region?", requestedSchema: { type: "object", properties: { region: { type: "string" } } } }]);
    await expect(client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).resolves.toMatchObject({
      content: [{ text: "deployed to eu as task" }],
    });
  });
});

describe("2025-11-25 tasks/get, tasks/list, tasks/cancel", () => {
  it("gets a task's view; an unknown id is -32602", async () => {
    const gate = deferred();
    const server = taskServer();
    server.tool("wait", { execution: { taskSupport: "optional" } }, async () => {
      await gate.promise;
      return { content: [] };
    });
    const { client } = await sdkClient(server);
    const task = await startTask(client, "wait");
    await expect(client.experimental.tasks.getTask(task.taskId)).resolves.toEqual({ ...task, _meta: undefined });
    await expect(client.experimental.tasks.getTask("0".repeat(32))).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Task not found"),
    });
    gate.resolve();
  });

  it("lists the owner's tasks a page at a time; a cursor it did not give is -32602", async () => {
    let vanished: string | undefined;
    const store = hooked(new InMemoryTaskStore({ pageSize: 2 }), {
      get: (real, owner, taskId) => (taskId === vanished ? Promise.resolve(undefined) : real.get(owner, taskId)),
    });
    const { client } = await sdkClient(taskServer({ store }));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await startTask(client, "maybe")).taskId);
    await until(async () => (await client.experimental.tasks.getTask(ids[2] as string)).status === "completed");
    const first = await client.experimental.tasks.listTasks();
    expect(first.tasks.map((task) => [task.taskId, task.status])).toEqual([
      [ids[0], "completed"],
      [ids[1], "completed"],
    ]);
    expect(first.tasks[0]).toMatchObject({ createdAt: expect.stringMatching(ISO), ttl: 3_600_000, pollInterval: 10 });
    const second = await client.experimental.tasks.listTasks(first.nextCursor);
    expect(second.tasks.map((task) => task.taskId)).toEqual([ids[2]]);
    expect(second.nextCursor).toBeUndefined();
    // A completed task that expires between the page and the read of its result is listed as the page had it.
    vanished = ids[0];
    expect((await client.experimental.tasks.listTasks()).tasks.map((task) => task.status)).toEqual(["completed", "completed"]);
    await expect(client.experimental.tasks.listTasks("not-a-cursor")).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Invalid cursor"),
    });
  });

  it("cancels a running task: answered cancelled, its handler aborted; a terminal task is -32602", async () => {
    const server = taskServer();
    const aborted = deferred<unknown>();
    const started = deferred();
    server.tool("forever", { execution: { taskSupport: "optional" } }, (_args, context) => {
      started.resolve();
      return new Promise((_resolve, reject) =>
        context.signal.addEventListener("abort", () => (aborted.resolve(context.signal.reason), reject(context.signal.reason))),
      );
    });
    const { client } = await sdkClient(server);
    const task = await startTask(client, "forever");
    await started.promise;
    const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: "cancelled", statusMessage: "Cancelled by the client" });
    await expect(aborted.promise).resolves.toMatchObject({ code: "MCP.REQUEST_CANCELLED" });
    await expect(client.experimental.tasks.cancelTask(task.taskId)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("already terminal"),
    });
    await expect(client.experimental.tasks.cancelTask("f".repeat(32))).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Task not found"),
    });
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe("cancelled");
  });

  it("answers a cancel that lost a race with the task's end (or its expiry) as the end it met", async () => {
    const store = new InMemoryTaskStore();
    let lost: "final" | "not-found" = "final";
    const racing = hooked(store, {
      cancel: (real, owner, taskId) =>
        lost === "final"
          ? real
              .get(owner, taskId)
              .then((task) => ({ ok: false as const, reason: "final" as const, task: task as NonNullable<typeof task> }))
          : Promise.resolve({ ok: false as const, reason: "not-found" as const }),
    });
    const gate = deferred();
    const server = taskServer({ store: racing });
    server.tool("wait", { execution: { taskSupport: "optional" } }, async () => (await gate.promise, { content: [] }));
    const { client } = await sdkClient(server);
    const task = await startTask(client, "wait");
    await expect(client.experimental.tasks.cancelTask(task.taskId)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("already terminal"),
    });
    lost = "not-found";
    await expect(client.experimental.tasks.cancelTask(task.taskId)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Task not found"),
    });
    gate.resolve();
  });

  it("shows another principal's task exactly as an unknown one: -32602 on get, result and cancel, left out of list", async () => {
    const server = taskServer();
    const alice = await sdkClient(server, { authInfo: { subject: "alice", clientId: "app" } });
    const bob = await sdkClient(server, { authInfo: { subject: "bob", clientId: "app" } });
    const task = await startTask(alice.client, "maybe");
    const unknown = { code: -32602, message: expect.stringContaining("Task not found") };
    await expect(bob.client.experimental.tasks.getTask(task.taskId)).rejects.toMatchObject(unknown);
    await expect(bob.client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).rejects.toMatchObject(unknown);
    await expect(bob.client.experimental.tasks.cancelTask(task.taskId)).rejects.toMatchObject(unknown);
    expect((await bob.client.experimental.tasks.listTasks()).tasks).toEqual([]);
    expect((await alice.client.experimental.tasks.listTasks()).tasks.map((listed) => listed.taskId)).toEqual([task.taskId]);
  });

  it("lets a principal reach its tasks from another session", async () => {
    const server = taskServer();
    const first = await sdkClient(server, { authInfo: { subject: "alice" } });
    const task = await startTask(first.client, "maybe", { text: "again" });
    await first.client.close();
    const second = await sdkClient(server, { authInfo: { subject: "alice" } });
    await expect(second.client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).resolves.toMatchObject({
      content: [{ text: "maybe: again" }],
    });
  });

  it("passes on what the store fails with besides a bad cursor", async () => {
    const store = hooked(new InMemoryTaskStore(), { list: () => Promise.reject(new JsonRpcError(-32603, "The store is down")) });
    const { client } = await sdkClient(taskServer({ store }));
    await expect(client.experimental.tasks.listTasks()).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining("The store is down"),
    });
  });
});

describe("2025-11-25 task owners", () => {
  it("binds tasks to the server's principal of a request when its authInfo names no token subject", async () => {
    const server = taskServer();
    const first = await sdkClient(server, { authInfo: { apiKey: "k-1" } });
    const task = await startTask(first.client, "maybe", { text: "key" });
    await first.client.close();
    const second = await sdkClient(server, { authInfo: { apiKey: "k-1" } });
    await expect(second.client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).resolves.toMatchObject({
      content: [{ text: "maybe: key" }],
    });
    const other = await sdkClient(server, { authInfo: { apiKey: "k-2" } });
    await expect(other.client.experimental.tasks.getTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
  });

  it("takes the owner from the server's ownerOf option when given one", async () => {
    const server = taskServer({ ownerOf: (inbound) => (inbound?.authInfo as { team?: string } | undefined)?.team, closeGraceMs: 100 });
    const ada = await sdkClient(server, { authInfo: { team: "blue", subject: "ada" } });
    const bob = await sdkClient(server, { authInfo: { team: "blue", subject: "bob" } });
    const task = await startTask(ada.client, "maybe");
    await expect(bob.client.experimental.tasks.getTask(task.taskId)).resolves.toMatchObject({ taskId: task.taskId });
  });

  it("serves one server: a second one given the same serverTasks() is refused", () => {
    const tasks = serverTasks();
    const first = new MCPServer(info, { tasks });
    expect(first.capabilitiesFor(PROFILES["2025-11-25"])).not.toHaveProperty("tasks");
    expect(() => new MCPServer(info, { tasks })).toThrow("serverTasks() serves one server: give each server its own");
  });
});

describe("2025-11-25 tasks capabilities, and revisions before it", () => {
  it("declares tasks (list, cancel, tools/call) to a 2025-11-25 client while a tool may run as a task", async () => {
    const server = taskServer();
    const { client } = await sdkClient(server);
    expect(client.getServerCapabilities()?.tasks).toEqual(TASKS_CAPABILITY);
  });

  it("shows a 2025-06-18 session no tasks: no capability, no execution, a required tool runs in the request, no tasks/*", async () => {
    const { client } = await initializedRawClientOf(taskServer(), "2025-06-18");
    const listed = (await client.request("tools/list", {})) as { tools: { name: string; execution?: unknown }[] };
    expect(listed.tools.map((tool) => tool.execution)).toEqual([undefined, undefined, undefined]);
    await expect(client.request("tools/call", { name: "must", arguments: { text: "old" } })).resolves.toEqual({
      content: [{ type: "text", text: "must: old" }],
    });
    await expect(client.request("tools/call", { name: "maybe", arguments: {}, task: {} })).resolves.toEqual({
      content: [{ type: "text", text: "maybe: " }],
    });
    await expect(client.request("tasks/list", {})).rejects.toMatchObject({ code: "MCP.METHOD_NOT_FOUND" });
    const raw = await rawClientOf(taskServer());
    const initialized = (await raw.client.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "old", version: "1" },
    })) as { capabilities: object };
    expect(initialized.capabilities).not.toHaveProperty("tasks");
    expect(initialized.capabilities).toHaveProperty("tools");
  });
});

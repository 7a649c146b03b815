// 2025-11-25's tasks/result (it blocks, then answers as the tool call would have; meanwhile it
// carries the task's input), the isError → failed view, and what the creating session is told.
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import { JsonRpcError } from "../../error-codes/mcp-error.js";
import { InMemoryTaskStore } from "../../stores/in-memory-task-store.js";
import type { HandlerContext } from "../mcp-server/mcp-server.types.js";
import { deferred, hooked, sdkClient, startTask, streamed, taskServer, until } from "./core-tasks.test-helpers.js";

const RELATED = "io.modelcontextprotocol/related-task";
const NAME_FORM = { type: "object", properties: { name: { type: "string" } } } as const;

/** A server whose tool `run` (optional) runs `body` as its handler. */
function running(body: (context: HandlerContext) => Promise<unknown>, options: Parameters<typeof taskServer>[0] = {}) {
  const server = taskServer(options);
  server.tool("run", { execution: { taskSupport: "optional" } }, async (_args, context) => {
    const value = await body(context);
    return Array.isArray((value as { content?: unknown } | undefined)?.content)
      ? (value as never)
      : { content: [{ type: "text", text: JSON.stringify(value) }] };
  });
  return server;
}

describe("2025-11-25 tasks/result: the outcome, once terminal", () => {
  it("blocks until the task completes, then answers its result tied to the task", async () => {
    const gate = deferred<string>();
    const server = running(() => gate.promise);
    server.tool("traced", { execution: { taskSupport: "optional" } }, () => ({ content: [], _meta: { trace: "t-1" } }));
    const { client } = await sdkClient(server);
    const task = await startTask(client, "run");
    let settled = false;
    const result = client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema).finally(() => (settled = true));
    await client.experimental.tasks.getTask(task.taskId);
    // Other changes do not end the wait.
    await server.changes.publish({ kind: "list", list: "tools" });
    const other = await startTask(client, "maybe");
    await until(async () => (await client.experimental.tasks.getTask(other.taskId)).status === "completed");
    expect(settled).toBe(false);
    gate.resolve("done");
    await expect(result).resolves.toEqual({ content: [{ type: "text", text: '"done"' }], _meta: { [RELATED]: { taskId: task.taskId } } });
    // Once terminal, at once, with the tool's own _meta kept.
    const traced = await startTask(client, "traced");
    await until(async () => (await client.experimental.tasks.getTask(traced.taskId)).status === "completed");
    await expect(client.experimental.tasks.getTaskResult(traced.taskId, CallToolResultSchema)).resolves.toEqual({
      content: [],
      _meta: { trace: "t-1", [RELATED]: { taskId: traced.taskId } },
    });
  });

  it("answers a task that failed with a JSON-RPC error with that error", async () => {
    const { client } = await sdkClient(running(() => Promise.reject(new JsonRpcError(-32050, "Quota exceeded", { retryAfterMs: 5 }))));
    const task = await startTask(client, "run");
    await expect(client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).rejects.toMatchObject({
      code: -32050,
      message: expect.stringContaining("Quota exceeded"),
      data: { retryAfterMs: 5 },
    });
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "failed", statusMessage: "Quota exceeded" });
  });

  it("fails a task whose result breaks the tool's output schema, as the call would have failed", async () => {
    const server = taskServer();
    server.tool(
      "typed",
      { outputSchema: { type: "object", properties: { n: { type: "number" } } }, execution: { taskSupport: "optional" } },
      () => ({ content: [] }),
    );
    const { client } = await sdkClient(server);
    const task = await startTask(client, "typed");
    const broken = { code: -32603, message: expect.stringContaining("Tool typed has an output schema but returned no structuredContent") };
    const error = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject(broken);
    expect((error as { data?: unknown }).data).toBeUndefined();
  });

  it("shows a tool's isError result as failed (its first text the message), and still answers that result", async () => {
    const failing = {
      isError: true,
      content: [
        { type: "image", data: "AA==", mimeType: "image/png" },
        { type: "text", text: "disk full" },
      ],
    };
    const { client } = await sdkClient(running(() => Promise.resolve(failing)));
    const task = await startTask(client, "run");
    await expect(client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).resolves.toEqual({
      ...failing,
      _meta: { [RELATED]: { taskId: task.taskId } },
    });
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "failed", statusMessage: "disk full" });
    expect((await client.experimental.tasks.listTasks()).tasks).toMatchObject([{ status: "failed", statusMessage: "disk full" }]);
    await expect(client.experimental.tasks.cancelTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
  });

  it("keeps the status message of an isError result without text", async () => {
    const { client } = await sdkClient(
      running(async (context) => {
        await context.progress(1, 1, "gave up");
        return { isError: true, content: [] };
      }),
    );
    const task = await startTask(client, "run");
    await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: "failed", statusMessage: "gave up" });
  });

  it("answers a cancelled task with -32603, as SDK 1.x servers do, also to a tasks/result waiting when it is cancelled", async () => {
    const { client } = await sdkClient(
      running(
        (context) => new Promise((_resolve, reject) => context.signal.addEventListener("abort", () => reject(context.signal.reason))),
      ),
    );
    const task = await startTask(client, "run");
    const waiting = client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    await client.experimental.tasks.getTask(task.taskId);
    await client.experimental.tasks.cancelTask(task.taskId);
    const cancelled = { code: -32603, message: expect.stringContaining("Task was cancelled"), data: { status: "cancelled" } };
    await expect(waiting).rejects.toMatchObject(cancelled);
    await expect(client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).rejects.toMatchObject(cancelled);
  });

  it("answers -32602 when the task is gone (expired) while tasks/result waits", async () => {
    let gone = false;
    const store = hooked(new InMemoryTaskStore(), {
      get: (real, owner, taskId) => (gone ? Promise.resolve(undefined) : real.get(owner, taskId)),
    });
    const server = running(() => new Promise(() => {}), { store });
    const { client } = await sdkClient(server);
    const task = await startTask(client, "run");
    const waiting = client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    await client.experimental.tasks.listTasks();
    gone = true;
    await server.changes.publish({ kind: "task", taskId: task.taskId });
    await expect(waiting).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Task not found") });
  });
});

describe("2025-11-25 tasks/result carries the task's input", () => {
  it("sends each input request on tasks/result, tied to the task, and the client's answers reach the task", async () => {
    const server = running(async (context) => {
      const [name, other] = await Promise.all([
        context.elicitInput({ message: "Name?", requestedSchema: NAME_FORM }),
        context.elicitInput({ message: "Other?", requestedSchema: NAME_FORM }),
      ]);
      const sampled = await context.createMessage({ messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 5 });
      const roots = await context.listRoots();
      return [name.content?.["name"], other.content?.["name"], sampled.content, roots.roots.length];
    });
    const { client } = await sdkClient(server, { capabilities: { elicitation: {}, sampling: {}, roots: {} } });
    const asked: { method: string; params?: unknown }[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request);
      return { action: "accept", content: { name: request.params.message === "Name?" ? "Ada" : "Bob" } };
    });
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      asked.push(request);
      return { role: "assistant", content: { type: "text", text: "Hello" }, model: "m" };
    });
    client.setRequestHandler(ListRootsRequestSchema, (request) => {
      asked.push(request);
      return { roots: [{ uri: "file:///r" }] };
    });
    const messages = await streamed(client, "run");
    const taskId = (messages[0] as { task: { taskId: string } }).task.taskId;
    expect(messages).toContainEqual(
      expect.objectContaining({ type: "taskStatus", task: expect.objectContaining({ status: "input_required" }) }),
    );
    expect(messages.at(-1)).toMatchObject({
      type: "result",
      result: { content: [{ text: JSON.stringify(["Ada", "Bob", { type: "text", text: "Hello" }, 1]) }] },
    });
    const related = { _meta: { [RELATED]: { taskId } } };
    expect(asked.map(({ method, params }) => [method, params])).toEqual([
      ["elicitation/create", { ...related, message: "Name?", requestedSchema: NAME_FORM }],
      ["elicitation/create", { ...related, message: "Other?", requestedSchema: NAME_FORM }],
      ["sampling/createMessage", expect.objectContaining({ ...related, maxTokens: 5 })],
      // The session asks roots/list without params: it carries no related-task meta.
      ["roots/list", undefined],
    ]);
  });

  it("refuses input the creating client did not declare, as the tool's error", async () => {
    const { client } = await sdkClient(running((context) => context.elicitInput({ message: "Name?", requestedSchema: NAME_FORM })));
    const task = await startTask(client, "run");
    await expect(client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).resolves.toMatchObject({
      isError: true,
      content: [{ text: "The client did not declare the elicitation.form capability" }],
    });
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({
      status: "failed",
      statusMessage: "The client did not declare the elicitation.form capability",
    });
  });

  it("leaves what a dropped tasks/result did not get answered outstanding, for the next one to carry", async () => {
    const server = running((context) => context.elicitInput({ message: "Name?", requestedSchema: NAME_FORM }));
    const { client } = await sdkClient(server, { capabilities: { elicitation: {} } });
    const asked: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      // The first is never answered (the user walked away); the second is.
      return asked.length === 1 ? new Promise(() => {}) : { action: "accept", content: { name: "Ada" } };
    });
    const task = await startTask(client, "run");
    await until(async () => (await client.experimental.tasks.getTask(task.taskId)).status === "input_required");
    const leaving = new AbortController();
    const dropped = client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema, { signal: leaving.signal });
    await until(() => asked.length === 1);
    // Read again, the same outstanding request is not sent twice by one tasks/result.
    await client.experimental.tasks.getTask(task.taskId);
    await server.changes.publish({ kind: "task", taskId: task.taskId });
    await client.experimental.tasks.getTask(task.taskId);
    expect(asked).toHaveLength(1);
    leaving.abort("gone");
    await expect(dropped).rejects.toBeDefined();
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe("input_required");
    await expect(client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).resolves.toMatchObject({
      content: [{ text: JSON.stringify({ action: "accept", content: { name: "Ada" } }) }],
    });
    expect(asked).toEqual([
      expect.objectContaining({ message: "Name?" }),
      expect.objectContaining({ message: "Name?", _meta: { [RELATED]: { taskId: task.taskId } } }),
    ]);
  });

  it("reports an answer the task store could not take, and the input stays outstanding", async () => {
    const onError = vi.fn();
    const failing = new Error("The store is down");
    const store = hooked(new InMemoryTaskStore(), {
      update: (real, owner, taskId, patch, precondition) =>
        patch.data === undefined ? real.update(owner, taskId, patch, precondition) : Promise.reject(failing),
    });
    const { client } = await sdkClient(
      running((context) => context.elicitInput({ message: "Name?", requestedSchema: NAME_FORM }), { store, onError }),
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { name: "Ada" } }));
    const task = await startTask(client, "run");
    await until(async () => (await client.experimental.tasks.getTask(task.taskId)).status === "input_required");
    const waiting = client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    await until(() => onError.mock.calls.length > 0);
    expect(onError).toHaveBeenCalledWith(failing);
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe("input_required");
    await client.experimental.tasks.cancelTask(task.taskId);
    await expect(waiting).rejects.toMatchObject({ code: -32603 });
  });
});

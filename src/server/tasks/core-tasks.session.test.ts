// What a 2025-11-25 session hears of its tasks (progress, log messages, notifications/tasks/status),
// and what its end does to them.
import { CallToolResultSchema, LoggingMessageNotificationSchema, TaskStatusNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import { InMemoryChangeFeed } from "../../stores/change-feed.js";
import { InMemoryTaskStore } from "../../stores/in-memory-task-store.js";
import { MCPServer } from "../mcp-server/mcp-server.js";
import { deferred, hooked, info, sdkClient, startTask, streamed, taskServer, until } from "./core-tasks.test-helpers.js";
import { serverTasks } from "./server-tasks.js";

const RELATED = "io.modelcontextprotocol/related-task";

describe("2025-11-25: a task's progress and log messages", () => {
  it("go to the creating session with the creating request's token and the task's meta; log messages by the session's level", async () => {
    const server = taskServer();
    server.tool("chatty", { execution: { taskSupport: "optional" } }, async (_args, context) => {
      await context.progress(1, 2, "half");
      await context.progress(2);
      await context.progress(2, 2);
      await context.log("debug", "hidden");
      await context.log("warning", { step: 1 }, "builder");
      await context.log("error", "plain");
      return { content: [{ type: "text", text: "ok" }] };
    });
    const { client } = await sdkClient(server);
    await client.setLoggingLevel("warning");
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params));
    const progress: unknown[] = [];
    const messages = await streamed(client, "chatty", {}, { task: {}, onprogress: (update) => progress.push(update) });
    const taskId = (messages[0] as { task: { taskId: string } }).task.taskId;
    const related = { [RELATED]: { taskId } };
    expect(messages.at(-1)).toMatchObject({ type: "result" });
    expect(progress).toEqual([
      { progress: 1, total: 2, message: "half", _meta: related },
      { progress: 2, _meta: related },
      { progress: 2, total: 2, _meta: related },
    ]);
    // The last progress is the task's status message.
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ status: "completed", statusMessage: "2/2" });
    expect(logs).toEqual([
      { level: "warning", logger: "builder", data: { step: 1 }, _meta: related },
      { level: "error", data: "plain", _meta: related },
    ]);
  });

  it("send no progress when the creating request asked for none, and nothing once the session is gone", async () => {
    const server = taskServer();
    const gate = deferred();
    const told = vi.fn();
    server.tool("later", { execution: { taskSupport: "optional" } }, async (_args, context) => {
      await context.progress(1);
      await gate.promise;
      await context.log("error", "after the session");
      await context.progress(2);
      told();
      return { content: [] };
    });
    const first = await sdkClient(server, { authInfo: { subject: "alice" } });
    const onerror = vi.fn();
    first.client.onerror = onerror;
    const task = await startTask(first.client, "later");
    await until(async () => (await first.client.experimental.tasks.getTask(task.taskId)).statusMessage === "1");
    await first.client.close();
    gate.resolve();
    const second = await sdkClient(server, { authInfo: { subject: "alice" } });
    await second.client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(told).toHaveBeenCalled();
    // An unknown progress token would have been an error to the SDK client.
    expect(onerror).not.toHaveBeenCalled();
  });
});

describe("2025-11-25 notifications/tasks/status", () => {
  it("tells the session that created a task, and one that polled it, of each change until it is terminal", async () => {
    const server = taskServer();
    const gate = deferred();
    server.tool("steps", { execution: { taskSupport: "optional" } }, async (_args, context) => {
      await context.progress(1, 2, "first step");
      await gate.promise;
      return { content: [{ type: "text", text: "done" }] };
    });
    const creator = await sdkClient(server, { authInfo: { subject: "alice" } });
    const poller = await sdkClient(server, { authInfo: { subject: "alice" } });
    const heard = { creator: [] as unknown[], poller: [] as unknown[] };
    creator.client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => void heard.creator.push(notification.params));
    poller.client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => void heard.poller.push(notification.params));
    const task = await startTask(creator.client, "steps");
    await until(() => heard.creator.length > 0);
    expect(heard.creator[0]).toEqual({ ...task, statusMessage: "first step", lastUpdatedAt: expect.any(String) });
    await poller.client.experimental.tasks.getTask(task.taskId);
    // What is not a task's change tells nothing.
    await server.changes.publish({ kind: "list", list: "tools" });
    gate.resolve();
    await until(() => heard.poller.length > 0 && heard.creator.length > 1);
    expect(heard.creator.at(-1)).toMatchObject({ taskId: task.taskId, status: "completed" });
    expect(heard.poller).toEqual([heard.creator.at(-1)]);
    expect(heard.creator.at(-1)).not.toHaveProperty("_meta");
    // Terminal: nothing more is told, and the server no longer listens for it.
    await server.changes.publish({ kind: "task", taskId: task.taskId });
    await creator.client.experimental.tasks.listTasks();
    expect(heard.creator.filter((status) => (status as { status: string }).status === "completed")).toHaveLength(1);
  });

  it("stops watching a task once every session watching it closed, and reports a status it could not read", async () => {
    const onError = vi.fn();
    const failing = new Error("The store is down");
    let down = false;
    const store = hooked(new InMemoryTaskStore(), {
      get: (real, owner, taskId) => (down ? Promise.reject(failing) : real.get(owner, taskId)),
    });
    const changeFeed = new InMemoryChangeFeed();
    const server = new MCPServer(info, { changeFeed, tasks: serverTasks({ store, onError }) });
    const gate = deferred();
    server.tool("wait", { execution: { taskSupport: "optional" } }, async () => (await gate.promise, { content: [] }));
    const alice = await sdkClient(server, { authInfo: { subject: "alice" } });
    const bob = await sdkClient(server, { authInfo: { subject: "alice" } });
    const unwatched = changeFeed.listenerCount;
    const task = await startTask(alice.client, "wait");
    await bob.client.experimental.tasks.getTask(task.taskId);
    expect(changeFeed.listenerCount).toBe(unwatched + 1);
    await alice.client.close();
    expect(changeFeed.listenerCount).toBe(unwatched + 1);
    await bob.client.close();
    expect(changeFeed.listenerCount).toBe(unwatched);
    const carol = await sdkClient(server, { authInfo: { subject: "alice" } });
    await carol.client.experimental.tasks.getTask(task.taskId);
    down = true;
    await changeFeed.publish({ kind: "task", taskId: task.taskId });
    await until(() => onError.mock.calls.length > 0);
    expect(onError).toHaveBeenCalledWith(failing);
    down = false;
    gate.resolve();
  });
});

describe("2025-11-25: a session's end", () => {
  it("cancels the tasks the session owned (no principal); a principal's keep running", async () => {
    const store = new InMemoryTaskStore();
    const server = taskServer({ store });
    const aborted = vi.fn();
    const release = deferred();
    server.tool("long", { execution: { taskSupport: "optional" } }, (_args, context) => {
      context.signal.addEventListener("abort", () => aborted(context.signal.reason));
      return release.promise.then(() => ({ content: [{ type: "text", text: "finished" }] }));
    });
    const anonymous = await sdkClient(server);
    const own = await startTask(anonymous.client, "long");
    const owned = await startTask(anonymous.client, "maybe");
    await until(async () => (await anonymous.client.experimental.tasks.getTask(owned.taskId)).status === "completed");
    const principal = await sdkClient(server, { authInfo: { subject: "alice" } });
    const kept = await startTask(principal.client, "long");
    const sessionId = anonymous.session.id;
    await anonymous.client.close();
    await until(async () => (await store.get(`s:${sessionId}`, own.taskId))?.status === "cancelled");
    expect((await store.get(`s:${sessionId}`, owned.taskId))?.status).toBe("completed");
    expect(aborted).toHaveBeenCalledTimes(1);
    await principal.client.close();
    release.resolve();
    const again = await sdkClient(server, { authInfo: { subject: "alice" } });
    await expect(again.client.experimental.tasks.getTaskResult(kept.taskId, CallToolResultSchema)).resolves.toMatchObject({
      content: [{ text: "finished" }],
    });
  });

  it("cancels every running task when the server closes", async () => {
    const real = new InMemoryTaskStore();
    const owners: string[] = [];
    const store = hooked(real, { create: (inner, owner, task) => (owners.push(owner), inner.create(owner, task)) });
    const server = taskServer({ store });
    const aborted = deferred<unknown>();
    const started = deferred();
    server.tool("long", { execution: { taskSupport: "optional" } }, (_args, context) => {
      started.resolve();
      return new Promise((_resolve, reject) =>
        context.signal.addEventListener("abort", () => (aborted.resolve(context.signal.reason), reject(context.signal.reason))),
      );
    });
    const { client } = await sdkClient(server, { authInfo: { subject: "alice" } });
    const task = await startTask(client, "long");
    await started.promise;
    await server.close();
    await expect(aborted.promise).resolves.toMatchObject({ code: "MCP.REQUEST_CANCELLED", message: "Server closed" });
    expect(owners).toEqual([expect.stringMatching(/^p:/)]);
    expect((await real.get(owners[0] as string, task.taskId))?.status).toBe("cancelled");
  });

  it("cancels them page by page, and reports a store that fails", async () => {
    const onError = vi.fn();
    const failing = new Error("The store is down");
    let down = false;
    const store = hooked(new InMemoryTaskStore({ pageSize: 1 }), {
      list: (real, owner, page) => (down ? Promise.reject(failing) : real.list(owner, page)),
    });
    const server = taskServer({ store, onError });
    server.tool(
      "idle",
      { execution: { taskSupport: "optional" } },
      (_args, context) => new Promise((_resolve, reject) => context.signal.addEventListener("abort", () => reject(context.signal.reason))),
    );
    const first = await sdkClient(server);
    const tasks = [await startTask(first.client, "idle"), await startTask(first.client, "idle")];
    const firstId = first.session.id;
    await first.client.close();
    await until(async () =>
      (await Promise.all(tasks.map((task) => store.get(`s:${firstId}`, task.taskId)))).every((task) => task?.status === "cancelled"),
    );
    down = true;
    const second = await sdkClient(server);
    await startTask(second.client, "idle");
    await second.client.close();
    await until(() => onError.mock.calls.length > 0);
    expect(onError).toHaveBeenCalledWith(failing);
  });
});

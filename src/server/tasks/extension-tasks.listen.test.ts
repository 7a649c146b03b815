import { afterEach, describe, expect, it, vi } from "vitest";

import { META_KEYS } from "../../constants/index.js";
import { InMemoryTaskStore } from "../../stores/in-memory-task-store.js";
import type { TaskRecord } from "../../stores/task-store.js";
import { SseReader } from "../../transport/http-server/http-server.test-helpers.js";
import { streamableHttpHandler } from "../../transport/http-server/streamable-handler.js";
import type { TaskSupport } from "../core/task-support.js";
import { MCPServer } from "../mcp-server/mcp-server.js";
import { answerOf, modernRequest } from "../stateless/stateless.test-helpers.js";
import { MAX_WATCHED_TASKS } from "./extension-tasks.js";
import { EXTENSION, WITH_EXTENSION, tasksFixture, type CallParts, type TasksFixture } from "./extension-tasks.test-helpers.js";
import { serverTasks } from "./server-tasks.js";

/** A store whose next reads the test can make fail, come back empty, or wait. */
class FlakyStore extends InMemoryTaskStore {
  failNext = 0;
  goneNext = 0;
  /** While set, reads wait for it (and tell `reading` they began). */
  held: Promise<void> | undefined;
  reading: (() => void) | undefined;

  override async get(owner: string, taskId: string): Promise<TaskRecord | undefined> {
    this.reading?.();
    if (this.held) await this.held;
    if (this.failNext > 0) {
      this.failNext--;
      return Promise.reject(new Error("store down"));
    }
    if (this.goneNext === 0) return super.get(owner, taskId);
    this.goneNext--;
    return Promise.resolve(undefined);
  }
}

const servers: MCPServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function fixture(store?: FlakyStore): TasksFixture {
  const made = tasksFixture(store);
  servers.push(made.server);
  return made;
}

let listenId = 100;
/** Opens a listen stream; gives the stream and its id. */
async function listen(
  tasks: TasksFixture,
  notifications: Record<string, unknown>,
  parts: CallParts = {},
): Promise<{ stream: SseReader; id: number }> {
  const id = ++listenId;
  const headers = parts.user === undefined ? {} : { "x-user": parts.user };
  const response = await tasks.fetch(
    modernRequest(id, "subscriptions/listen", { notifications }, { capabilities: parts.capabilities ?? WITH_EXTENSION, headers }),
  );
  return { stream: new SseReader(response.body), id };
}

const tagged = (id: number) => ({ [META_KEYS.subscriptionId]: id });

/** Makes the tools list change: what the streams below also asked for, so the next message after it shows nothing came before. */
function changeTools(tasks: TasksFixture): void {
  tasks.server.tool(`marker-${++listenId}`, { description: "a list change" }, () => ({ content: [] }));
}

describe("subscriptions/listen with taskIds (2026-07-28)", () => {
  it("sends a list change that comes while the task ids are checked after the acknowledgement", async () => {
    const store = new FlakyStore();
    const tasks = fixture(store);
    let release!: () => void;
    store.held = new Promise((resolve) => (release = resolve));
    const reading = new Promise<void>((resolve) => (store.reading = resolve));
    // The stream's response starts with its first message: the acknowledgement, held by the store.
    const opening = listen(tasks, { toolsListChanged: true, taskIds: ["t-unknown"] });
    await reading;
    changeTools(tasks);
    // The change is published once the tick's changes are collected, while the read still waits.
    await new Promise((resolve) => setTimeout(resolve, 0));
    store.held = undefined;
    release();
    const { stream, id } = await opening;
    const [first, second] = [await stream.next(), await stream.next()];
    expect(JSON.parse(first?.data as string)).toMatchObject({
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { toolsListChanged: true, taskIds: [] }, _meta: tagged(id) },
    });
    expect(JSON.parse(second?.data as string)).toMatchObject({ method: "notifications/tools/list_changed", params: { _meta: tagged(id) } });
    await stream.cancel();
  });

  it("honours the caller's own tasks only, and sends each change of one as notifications/tasks until its final one", async () => {
    const tasks = fixture();
    const own = await tasks.start("ask", {}, { user: "alice" });
    const others = await tasks.start("wait", {}, { user: "bob" });
    const { stream, id } = await listen(tasks, { taskIds: [own, others, "no-such-task", own], toolsListChanged: true }, { user: "alice" });
    expect(await stream.nextMessage()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { toolsListChanged: true, taskIds: [own] }, _meta: tagged(id) },
    });

    await vi.waitFor(() => expect(tasks.gates).toHaveLength(2));
    tasks.gate("ask").release("go");
    const asking = await stream.nextMessage();
    expect(asking).toMatchObject({
      method: "notifications/tasks",
      params: { taskId: own, status: "input_required", inputRequests: { only: { method: "elicitation/create" } }, _meta: tagged(id) },
    });
    expect(asking?.["params"]).not.toHaveProperty("resultType");

    await tasks.request(
      "tasks/update",
      { taskId: own, inputResponses: { only: { action: "accept", content: { name: "Ann" } } } },
      { user: "alice" },
    );
    const seen: Record<string, unknown>[] = [];
    for (let message = await stream.nextMessage(); ; message = await stream.nextMessage()) {
      seen.push(message as Record<string, unknown>);
      if ((message?.["params"] as Record<string, unknown> | undefined)?.["status"] === "completed") break;
    }
    // A working state may or may not be read between the answer and the outcome; the final one always comes, last.
    for (const message of seen)
      expect(message).toMatchObject({ method: "notifications/tasks", params: { taskId: own, _meta: tagged(id) } });
    expect(
      seen.map((message) => (message["params"] as Record<string, unknown>)["status"]).filter((status) => status !== "working"),
    ).toEqual(["completed"]);
    expect(seen.at(-1)?.["params"]).toMatchObject({ result: { content: [{ type: "text", text: "asked: Ann" }] } });

    // Dropped after its final notification, and bob's task was never watched.
    await tasks.changes.publish({ kind: "task", taskId: own });
    tasks.gate("wait").release("bob's");
    await tasks.until(others, "completed", { user: "bob" });
    changeTools(tasks);
    expect(await stream.nextMessage()).toMatchObject({ method: "notifications/tools/list_changed" });
  });

  it("carries a task's states only: its log and progress messages go nowhere, its progress becomes its status message", async () => {
    const tasks = fixture();
    const capabilities = { ...WITH_EXTENSION, roots: {} };
    const taskId = await tasks.start("roots", {}, { capabilities, logLevel: "debug", extra: { progressToken: "p1" } });
    const { stream } = await listen(tasks, { taskIds: [taskId] }, { capabilities });
    expect(await stream.nextMessage()).toMatchObject({ params: { notifications: { taskIds: [taskId] } } });
    await vi.waitFor(() => expect(tasks.gates).toHaveLength(1));
    tasks.gate("roots").release("go");
    const seen: Record<string, unknown>[] = [];
    for (let message = await stream.nextMessage(); ; message = await stream.nextMessage()) {
      seen.push(message as Record<string, unknown>);
      if ((message?.["params"] as Record<string, unknown> | undefined)?.["status"] === "input_required") break;
    }
    expect(seen.map((message) => message["method"])).toEqual(seen.map(() => "notifications/tasks"));
    expect(seen.at(-1)?.["params"]).toMatchObject({ statusMessage: "3", inputRequests: { roots: { method: "roots/list", params: {} } } });
    await tasks.request(
      "tasks/update",
      { taskId, inputResponses: { roots: { roots: [{ uri: "file:///a" }, { uri: "file:///b" }] } } },
      { capabilities },
    );
    expect((await tasks.until(taskId, "completed"))["result"]).toEqual({ content: [{ type: "text", text: "2 roots" }] });
  });

  it("refuses taskIds on a stream that did not declare the extension (-32021)", async () => {
    const tasks = fixture();
    const taskId = await tasks.start("wait");
    const before = tasks.changes.listenerCount;
    const response = await tasks.fetch(
      modernRequest(1, "subscriptions/listen", { notifications: { taskIds: [taskId] } }, { capabilities: {} }),
    );
    expect(await answerOf(response)).toMatchObject({
      id: 1,
      error: { code: -32021, data: { requiredCapabilities: { extensions: { [EXTENSION]: {} } } } },
    });
    expect(tasks.changes.listenerCount).toBe(before);
  });

  it("reports on at most MAX_WATCHED_TASKS ids", async () => {
    const tasks = fixture();
    const taskId = await tasks.start("wait");
    const asked = [...Array.from({ length: MAX_WATCHED_TASKS }, (_, index) => `unknown-${index}`), taskId];
    const { stream } = await listen(tasks, { taskIds: asked });
    expect(await stream.nextMessage()).toMatchObject({ params: { notifications: { taskIds: [] } } });
  });

  it("sends a final task's state once however many changes queue up, then nothing", async () => {
    const tasks = fixture();
    const taskId = await tasks.start("must");
    await tasks.until(taskId, "completed");
    const { stream } = await listen(tasks, { taskIds: [taskId], toolsListChanged: true });
    expect(await stream.nextMessage()).toMatchObject({ params: { notifications: { taskIds: [taskId] } } });
    void tasks.changes.publish({ kind: "task", taskId });
    void tasks.changes.publish({ kind: "task", taskId });
    expect(await stream.nextMessage()).toMatchObject({
      method: "notifications/tasks",
      params: { taskId, status: "completed", result: { isError: true } },
    });
    changeTools(tasks);
    expect(await stream.nextMessage()).toMatchObject({ method: "notifications/tools/list_changed" });
  });

  it("sends nothing for a read that failed (the stream goes on) and drops a task that is gone", async () => {
    const store = new FlakyStore();
    const tasks = fixture(store);
    // Final tasks: no run of theirs reads the store when they change (only the stream does).
    const failing = await tasks.start("must");
    const going = await tasks.start("must");
    await tasks.until(failing, "completed");
    await tasks.until(going, "completed");
    const { stream } = await listen(tasks, { taskIds: [failing, going], toolsListChanged: true });
    expect(await stream.nextMessage()).toMatchObject({ params: { notifications: { taskIds: [failing, going] } } });
    store.failNext = 1;
    await tasks.changes.publish({ kind: "task", taskId: failing });
    await vi.waitFor(() => expect(store.failNext).toBe(0));
    await tasks.changes.publish({ kind: "task", taskId: failing });
    expect(await stream.nextMessage()).toMatchObject({ method: "notifications/tasks", params: { taskId: failing, status: "completed" } });
    store.goneNext = 1;
    await tasks.changes.publish({ kind: "task", taskId: going });
    await vi.waitFor(() => expect(store.goneNext).toBe(0));
    await tasks.changes.publish({ kind: "task", taskId: going });
    changeTools(tasks);
    expect(await stream.nextMessage()).toMatchObject({ method: "notifications/tools/list_changed" });
  });

  it("sends no task's changes on a stream that asked for no taskIds", async () => {
    const tasks = fixture();
    const { stream } = await listen(tasks, { toolsListChanged: true });
    expect(await stream.nextMessage()).toMatchObject({ params: { notifications: { toolsListChanged: true } } });
    await tasks.until(await tasks.start("must"), "completed");
    changeTools(tasks);
    expect(await stream.nextMessage()).toMatchObject({ method: "notifications/tools/list_changed" });
  });

  it("honours no taskIds on a server whose tasks cannot be listened for (no tasks option, or one without watch)", async () => {
    const own = serverTasks();
    const withoutWatch: TaskSupport = {
      attach: (host) => own.attach(host),
      callTool: (call, context, profile) => own.callTool(call, context, profile),
      methods: () => own.methods(),
      capabilities: (profile, declared) => own.capabilities(profile, declared),
      sessionClosed: (session) => own.sessionClosed(session),
      close: () => own.close(),
    };
    for (const options of [{}, { tasks: withoutWatch }]) {
      const server = new MCPServer({ name: "no-watch", version: "1" }, options);
      servers.push(server);
      server.tool("first", { description: "a tool" }, () => ({ content: [] }));
      const response = await streamableHttpHandler(server).fetch(
        modernRequest(
          3,
          "subscriptions/listen",
          { notifications: { taskIds: ["some-task"], toolsListChanged: true } },
          { capabilities: WITH_EXTENSION },
        ),
      );
      expect(await new SseReader(response.body).nextMessage()).toEqual({
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: { notifications: { toolsListChanged: true }, _meta: tagged(3) },
      });
    }
  });
});

// What MCPServer asks of its `tasks` option and gives it, seen through a recording TaskSupport: the
// server holds no task logic of its own, so this is all of its share.
import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { RevisionProfile } from "../../protocol/profiles.js";
import type { ServerCapabilities } from "../../schemas/schemas.js";
import type { JsonObject } from "../../types/types.js";
import type { TaskCall, TaskHost, TaskSupport } from "../core/task-support.js";
import { MCPServer } from "./mcp-server.js";
import type { HandlerContext, SessionHandle } from "./mcp-server.types.js";
import { initializedRawClientOf, settle } from "./mcp-server.test-helpers.js";
import type { FeatureHandler } from "./server-host.js";
import { ConnectionChannel } from "../stateless/stateless-context.js";
import { meta } from "../stateless/stateless.test-helpers.js";

class RecordingTasks implements TaskSupport {
  host: TaskHost | undefined;
  readonly calls: { call: TaskCall; context: HandlerContext; profile: RevisionProfile }[] = [];
  readonly closedSessions: SessionHandle[] = [];
  closes = 0;
  answer: JsonObject | undefined = { task: task("t-1", { ttl: null }) };

  attach(host: TaskHost): void {
    this.host = host;
  }

  callTool(call: TaskCall, context: HandlerContext, profile: RevisionProfile): Promise<JsonObject> | undefined {
    this.calls.push({ call, context, profile });
    return this.answer && Promise.resolve(this.answer);
  }

  methods(): ReadonlyMap<string, FeatureHandler> {
    // A task named by the request, its status message saying which revision's view it is.
    const get = ((params: JsonObject, _context: HandlerContext, profile: RevisionProfile) =>
      task(
        params["taskId"] as string,
        profile.tasks === "core" ? { ttl: null, statusMessage: profile.version } : { ttlMs: null, statusMessage: profile.version },
      )) as unknown as FeatureHandler;
    return new Map([["tasks/get", get]]);
  }

  capabilities(profile: RevisionProfile, declared: ServerCapabilities): ServerCapabilities {
    return { ...declared, experimental: { tasksFor: { revision: profile.version, taskTools: this.host?.taskTools() ?? "unattached" } } };
  }

  sessionClosed(session: SessionHandle): void {
    this.closedSessions.push(session);
  }

  close(): Promise<void> {
    this.closes++;
    return Promise.resolve();
  }
}

function task(taskId: string, fields: JsonObject): JsonObject {
  return { taskId, status: "working", createdAt: "2026-12-02T00:00:00.000Z", lastUpdatedAt: "2026-12-02T00:00:00.000Z", ...fields };
}

function serverWith(tasks: RecordingTasks | undefined): MCPServer {
  const server = new MCPServer({ name: "seam", version: "1.0.0" }, tasks ? { tasks } : {});
  server.tool("plain", {}, () => ({ content: [{ type: "text", text: "inline" }] }));
  return server;
}

describe("MCPServer's tasks seam", () => {
  it("refuses a tool that may run as a task on a server without tasks, and a support level that does not exist", () => {
    const server = serverWith(undefined);
    expect(() => server.tool("build", { execution: { taskSupport: "optional" } }, () => ({ content: [] }))).toThrow(
      /give the server the tasks option/,
    );
    expect(() => server.tool("deploy", { execution: { taskSupport: "required" } }, () => ({ content: [] }))).toThrow(
      expect.objectContaining({ code: "MCP.INVALID_PARAMS" }),
    );
    expect(() =>
      serverWith(new RecordingTasks()).tool("odd", { execution: { taskSupport: "sometimes" as "optional" } }, () => ({ content: [] })),
    ).toThrow(/must be "forbidden", "optional" or "required"/);
    // Forbidden is what every tool is without a word about it.
    expect(() => server.tool("never", { execution: { taskSupport: "forbidden" } }, () => ({ content: [] }))).not.toThrow();
  });

  it("attaches its tasks once, with the server's feed and closing signal and its answer to whether a tool may run as a task", () => {
    const tasks = new RecordingTasks();
    const server = serverWith(tasks);
    expect(tasks.host).toBe(server);
    expect(server.taskTools()).toBe(false);
    const entry = server.tool("build", { execution: { taskSupport: "optional" } }, () => ({ content: [] }));
    expect(server.taskTools()).toBe(true);
    entry.disable();
    expect(server.taskTools()).toBe(false);
  });

  it("hands a call its checked arguments and a way to run the handler, and answers with what tasks answer", async () => {
    const tasks = new RecordingTasks();
    const server = serverWith(tasks);
    const ran: string[] = [];
    server.tool(
      "build",
      { execution: { taskSupport: "optional" }, task: { ttlMs: 5000 }, inputSchema: z.object({ target: z.string() }) },
      ({ target }, context) => {
        ran.push(`${target} as ${context.task?.id ?? "no task"}`);
        return { content: [{ type: "text", text: target }] };
      },
    );
    const { client } = await initializedRawClientOf(server, "2025-11-25");
    expect(await client.request("tools/call", { name: "build", arguments: { target: "web" }, task: { ttl: 100 } })).toEqual({
      task: task("t-1", { ttl: null }),
    });
    const [{ call, profile }] = tasks.calls as [(typeof tasks.calls)[number]];
    expect([call.name, call.support, call.tool, call.args, call.params.task, profile.version]).toEqual([
      "build",
      "optional",
      { ttlMs: 5000 },
      { target: "web" },
      { ttl: 100 },
      "2025-11-25",
    ]);
    const own = { task: { id: "t-9", prepared: undefined } } as HandlerContext;
    expect(await call.run(own)).toEqual({ content: [{ type: "text", text: "web" }] });
    expect(ran).toEqual(["web as t-9"]);
    // Undefined from tasks: the call runs in the request, as any other.
    tasks.answer = undefined;
    expect(await client.request("tools/call", { name: "build", arguments: { target: "api" } })).toEqual({
      content: [{ type: "text", text: "api" }],
    });
    expect(ran).toEqual(["web as t-9", "api as no task"]);
    // A tool that says nothing of tasks is handed over as forbidden.
    tasks.answer = { content: [{ type: "text", text: "from tasks" }] };
    expect(await client.request("tools/call", { name: "plain" })).toEqual(tasks.answer);
    expect(tasks.calls.map(({ call: { support } }) => support)).toEqual(["optional", "optional", "forbidden"]);
  });

  it("refuses bad arguments as the revision does, before tasks see the call", async () => {
    const tasks = new RecordingTasks();
    const server = serverWith(tasks);
    server.tool("build", { execution: { taskSupport: "required" }, inputSchema: z.object({ target: z.string() }) }, () => ({
      content: [],
    }));
    const { client } = await initializedRawClientOf(server, "2025-11-25");
    expect(await client.request("tools/call", { name: "build", arguments: { target: 7 }, task: {} })).toMatchObject({ isError: true });
    expect(tasks.calls).toEqual([]);
  });

  it("routes the tasks methods in both eras, behind the server's layers, as the request's revision has them", async () => {
    const tasks = new RecordingTasks();
    const server = serverWith(tasks);
    const seen: string[] = [];
    server.use("tasks/get", (next) => (request, context) => {
      seen.push(`${request.method} ${context.era}`);
      return next(request, context);
    });
    const { client } = await initializedRawClientOf(server, "2025-11-25");
    expect(await client.request("tasks/get", { taskId: "t-1" })).toMatchObject({ taskId: "t-1", statusMessage: "2025-11-25", ttl: null });
    const answer = await server.serveStateless(2, "tasks/get", { taskId: "t-2", _meta: meta() }, channel());
    expect(answer).toMatchObject({ result: { taskId: "t-2", statusMessage: "2026-07-28", ttlMs: null, resultType: "complete" } });
    expect(seen).toEqual(["tasks/get session", "tasks/get stateless"]);
  });

  it("leaves a revision without tasks to its codec: tasks methods are not found there", async () => {
    const { client } = await initializedRawClientOf(serverWith(new RecordingTasks()), "2025-06-18");
    await expect(client.request("tasks/get", { taskId: "t-1" })).rejects.toMatchObject({
      code: "MCP.METHOD_NOT_FOUND",
      message: "Method not found: tasks/get",
    });
  });

  it("lists a task tool with execution where the revision has it, and without in the tasks extension's revision", async () => {
    const server = serverWith(new RecordingTasks());
    server.tool("build", { execution: { taskSupport: "optional" }, task: { ttlMs: 5 } }, () => ({ content: [] }));
    const { client } = await initializedRawClientOf(server, "2025-11-25");
    const listed = (await client.request("tools/list", {})) as { tools: JsonObject[] };
    expect(listed.tools.find(({ name }) => name === "build")).toEqual({
      name: "build",
      execution: { taskSupport: "optional" },
      inputSchema: { type: "object", properties: {} },
    });
    const stateless = (await server.serveStateless(3, "tools/list", { _meta: meta() }, channel())) as { result: { tools: JsonObject[] } };
    expect(stateless.result.tools.find(({ name }) => name === "build")).toEqual({
      name: "build",
      inputSchema: { type: "object", properties: {} },
    });
  });

  it("declares what tasks add to the capabilities, per revision", async () => {
    const server = serverWith(new RecordingTasks());
    server.tool("build", { execution: { taskSupport: "required" } }, () => ({ content: [] }));
    const { client } = await initializedRawClientOf(server, "2025-11-25");
    expect(client).toBeDefined();
    const session = [...server.sessions][0];
    expect(session?.client).toBeDefined();
    const discovered = (await server.serveStateless(4, "server/discover", { _meta: meta() }, channel())) as {
      result: { capabilities: ServerCapabilities };
    };
    expect(discovered.result.capabilities.experimental).toEqual({ tasksFor: { revision: "2026-07-28", taskTools: true } });
  });

  it("leaves a task's change to tasks: sessions are told nothing of it", async () => {
    const server = serverWith(new RecordingTasks());
    const { client } = await initializedRawClientOf(server, "2025-11-25");
    const heard: string[] = [];
    for (const method of ["notifications/tools/list_changed", "notifications/resources/updated", "notifications/tasks/status"])
      client.setNotificationHandler(method, () => void heard.push(method));
    await client.request("resources/subscribe", { uri: "file:///a" });
    await server.changes.publish({ kind: "task", taskId: "t-1" });
    await server.markResourceUpdated("file:///a");
    await settle();
    expect(heard).toEqual(["notifications/resources/updated"]);
  });

  it("tells tasks of a session's end, and closes them before the sessions when the server closes", async () => {
    const tasks = new RecordingTasks();
    const server = serverWith(tasks);
    const { client, session } = await initializedRawClientOf(server, "2025-11-25");
    const order: string[] = [];
    void session.finished.then(() => order.push("session finished"));
    const closing = tasks.close.bind(tasks);
    tasks.close = () => {
      order.push(`tasks closing, session open: ${!session.closed}`);
      return closing();
    };
    await server.close();
    await session.finished;
    expect(order[0]).toBe("tasks closing, session open: true");
    expect(tasks.closes).toBe(1);
    expect(tasks.closedSessions).toEqual([session]);
    expect(client.closed).toBe(true);
  });
});

function channel(): ConnectionChannel {
  const signal = new AbortController().signal;
  return { recorded: true, inbound: undefined, signal, notify: () => Promise.resolve() } as unknown as ConnectionChannel;
}

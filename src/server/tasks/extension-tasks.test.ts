import { afterEach, describe, expect, it, vi } from "vitest";

import { MCPServer } from "../mcp-server/mcp-server.js";
import { EXTENSION, WITH_EXTENSION, tasksFixture, type TasksFixture } from "./extension-tasks.test-helpers.js";
import { serverTasks } from "./server-tasks.js";

const servers: MCPServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function fixture(): TasksFixture {
  const made = tasksFixture();
  servers.push(made.server);
  return made;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const REQUIRED = { requiredCapabilities: { extensions: { [EXTENSION]: {} } } };

describe("the tasks extension's gate (2026-07-28)", () => {
  it("answers tasks/get, update and cancel with -32021 unless the request declares the extension (not the legacy capability)", async () => {
    const tasks = fixture();
    const taskId = await tasks.start("wait");
    for (const capabilities of [{}, { tasks: { list: {} } }]) {
      for (const [method, params] of [
        ["tasks/get", { taskId }],
        ["tasks/update", { taskId, inputResponses: {} }],
        ["tasks/cancel", { taskId }],
      ] as const) {
        const answer = await tasks.request(method, params, { capabilities });
        expect(answer.error).toEqual({
          code: -32021,
          message: `${method} requires the ${EXTENSION} extension: declare it in the request's client capabilities`,
          data: REQUIRED,
        });
      }
    }
    expect((await tasks.get(taskId))["status"]).toBe("working");
  });

  it("checks the params first: the codec's refusal comes before the gate", async () => {
    const tasks = fixture();
    expect((await tasks.request("tasks/get", {}, { capabilities: {} })).error?.code).toBe(-32602);
    expect((await tasks.request("tasks/result", { taskId: "x" })).error?.code).toBe(-32601);
    expect((await tasks.request("tasks/list", {})).error?.code).toBe(-32601);
  });

  it("refuses a required tool to a request without the extension (-32021 naming it) and runs an optional one in the request", async () => {
    const tasks = fixture();
    const refused = await tasks.request("tools/call", { name: "must", arguments: {} }, { capabilities: {} });
    expect(refused.error).toEqual({
      code: -32021,
      message: `Tool "must" requires the ${EXTENSION} extension: declare it in the request's client capabilities`,
      data: REQUIRED,
    });
    const inline = tasks.request("tools/call", { name: "wait", arguments: {} }, { capabilities: {} });
    await vi.waitFor(() => expect(tasks.gates).toHaveLength(1));
    tasks.gate("wait").release("in the request");
    expect((await inline).result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "in the request" }] });
  });

  it("runs a tool that is never a task in the request, with the extension and a task param alike", async () => {
    const tasks = fixture();
    const answer = await tasks.request("tools/call", { name: "echo", arguments: { text: "hi" }, task: { ttl: 1000 } });
    expect(answer.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "hi" }] });
    expect(answer.result).not.toHaveProperty("taskId");
  });
});

describe("tasks the server makes (2026-07-28)", () => {
  it("answers a task with the flat CreateTaskResult and nothing else, then finds it at once", async () => {
    const tasks = fixture();
    const created = (await tasks.request("tools/call", { name: "wait" })).result as Record<string, unknown>;
    expect(Object.keys(created).toSorted()).toEqual([
      "_meta",
      "createdAt",
      "lastUpdatedAt",
      "pollIntervalMs",
      "resultType",
      "status",
      "taskId",
      "ttlMs",
    ]);
    expect(created).toMatchObject({
      resultType: "task",
      status: "working",
      ttlMs: 120_000,
      pollIntervalMs: 25,
      createdAt: expect.stringMatching(ISO),
      lastUpdatedAt: expect.stringMatching(ISO),
    });
    expect(typeof created["taskId"]).toBe("string");
    expect(await tasks.get(created["taskId"] as string)).toMatchObject({
      resultType: "complete",
      taskId: created["taskId"],
      status: "working",
    });
  });

  it("gives a tool without task settings the server's poll interval and time to live", async () => {
    const tasks = fixture();
    const created = (await tasks.request("tools/call", { name: "must", arguments: {} })).result;
    expect(created).toMatchObject({ ttlMs: 3_600_000, pollIntervalMs: 40 });
  });

  it("shows each status with what it brings: working, completed (an isError result too), failed (the error, no result)", async () => {
    const tasks = fixture();
    const waiting = await tasks.start("wait");
    await vi.waitFor(() => expect(tasks.gates).toHaveLength(1));
    const working = await tasks.until(waiting, "working");
    expect(Object.keys(working).toSorted()).toEqual([
      "_meta",
      "createdAt",
      "lastUpdatedAt",
      "pollIntervalMs",
      "resultType",
      "status",
      "statusMessage",
      "taskId",
      "ttlMs",
    ]);
    expect(working["statusMessage"]).toBe("1/2");
    tasks.gate("wait").release("done");
    expect(await tasks.until(waiting, "completed")).toMatchObject({ result: { content: [{ type: "text", text: "done" }] } });

    const toolError = await tasks.until(await tasks.start("must"), "completed");
    expect(toolError["result"]).toEqual({ content: [{ type: "text", text: "it broke" }], isError: true });

    const failed = await tasks.until(await tasks.start("broken"), "failed");
    expect(failed["error"]).toEqual({ code: -32603, message: "broken on purpose", data: { why: "test" } });
    expect(failed).not.toHaveProperty("result");
  });

  it("fails a task whose handler asks for input the creating request's client cannot give (-32021)", async () => {
    const tasks = fixture();
    const failed = await tasks.until(await tasks.start("sample"), "failed");
    expect(failed["error"]).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
  });

  it("runs prepare's input as the request's own rounds, then answers the last round with a task that has what prepare gave", async () => {
    const tasks = fixture();
    const first = (await tasks.request("tools/call", { name: "prepared", arguments: {} })).result as Record<string, unknown>;
    expect(first).toMatchObject({ resultType: "input_required", inputRequests: { user_name: { method: "elicitation/create" } } });
    expect(first).not.toHaveProperty("taskId");
    const second = (
      await tasks.request("tools/call", {
        name: "prepared",
        arguments: {},
        inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
        requestState: first["requestState"],
      })
    ).result;
    expect(second).toMatchObject({ resultType: "task", status: "working" });
    expect(second).not.toHaveProperty("requestState");
    expect(second).not.toHaveProperty("inputRequests");
    const done = await tasks.until(second?.["taskId"] as string, "completed");
    expect(done["result"]).toEqual({ content: [{ type: "text", text: "Hello from the task, Alice" }] });
  });
});

describe("tasks/update (2026-07-28)", () => {
  it("takes partial answers (the next get shows the rest outstanding), ignores unknown keys, applies nothing of a bad one", async () => {
    const tasks = fixture();
    const taskId = await tasks.start("ask2");
    let asked: Record<string, unknown> = {};
    await vi.waitFor(async () => {
      asked = await tasks.get(taskId);
      expect(Object.keys(asked["inputRequests"] ?? {}).toSorted()).toEqual(["a", "b"]);
    });
    expect(asked).toMatchObject({
      status: "input_required",
      inputRequests: {
        a: { method: "elicitation/create", params: { message: "A?" } },
        b: { method: "elicitation/create", params: { message: "B?" } },
      },
    });

    const ack = await tasks.request("tasks/update", {
      taskId,
      inputResponses: { a: { action: "accept", content: { name: "Ann" } }, never: { ignored: true } },
    });
    expect(ack.result).toEqual({ resultType: "complete", _meta: expect.any(Object) as unknown });
    const next = await tasks.get(taskId);
    expect(next["status"]).toBe("input_required");
    expect(Object.keys(next["inputRequests"] as object)).toEqual(["b"]);

    const bad = await tasks.request("tasks/update", {
      taskId,
      inputResponses: { b: { action: "accept", content: { name: 5 } }, a: { action: "accept", content: { name: "late" } } },
    });
    expect(bad.error?.code).toBe(-32602);
    expect(bad.error?.message).toContain('inputResponses["b"]');
    expect(Object.keys((await tasks.get(taskId))["inputRequests"] as object)).toEqual(["b"]);

    expect(
      (await tasks.request("tasks/update", { taskId, inputResponses: { b: { action: "accept", content: { name: "Bob" } } } })).result?.[
        "resultType"
      ],
    ).toBe("complete");
    expect((await tasks.until(taskId, "completed"))["result"]).toEqual({ content: [{ type: "text", text: "Ann and Bob" }] });
  });

  it("answers an unknown id with -32602", async () => {
    const tasks = fixture();
    const answer = await tasks.request("tasks/update", { taskId: "no-such-task", inputResponses: {} });
    expect(answer.error).toEqual({ code: -32602, message: "Task not found: unknown, expired, or not this caller's" });
  });
});

describe("tasks/cancel (2026-07-28)", () => {
  it("cancels a running task (its handler's signal fires, it stays cancelled) and acknowledges a final one the same way", async () => {
    const tasks = fixture();
    const taskId = await tasks.start("wait");
    await vi.waitFor(() => expect(tasks.gates).toHaveLength(1));
    const ack = await tasks.request("tasks/cancel", { taskId });
    expect(Object.keys(ack.result as object).toSorted()).toEqual(["_meta", "resultType"]);
    expect(ack.result?.["resultType"]).toBe("complete");
    const cancelled = await tasks.get(taskId);
    expect(cancelled["status"]).toBe("cancelled");
    expect(cancelled).not.toHaveProperty("result");
    expect(tasks.gate("wait").abortedWith).toMatchObject({ code: "MCP.REQUEST_CANCELLED" });
    tasks.gate("wait").release("too late");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await tasks.get(taskId))["status"]).toBe("cancelled");
    expect((await tasks.request("tasks/cancel", { taskId })).result?.["resultType"]).toBe("complete");
  });

  it("answers an unknown id with -32602", async () => {
    const tasks = fixture();
    expect((await tasks.request("tasks/cancel", { taskId: "no-such-task" })).error?.code).toBe(-32602);
    expect((await tasks.request("tasks/get", { taskId: "no-such-task" })).error?.code).toBe(-32602);
  });
});

describe("tasks of two principals (2026-07-28)", () => {
  it("answers another principal's task exactly as an unknown one (-32602) on get, update and cancel", async () => {
    const tasks = fixture();
    const taskId = await tasks.start("ask2", {}, { user: "alice" });
    await vi.waitFor(async () => expect(Object.keys((await tasks.get(taskId, { user: "alice" }))["inputRequests"] ?? {})).toHaveLength(2));
    const unknown = await tasks.request("tasks/get", { taskId: "no-such-task" }, { user: "mallory" });
    for (const [method, params] of [
      ["tasks/get", { taskId }],
      ["tasks/update", { taskId, inputResponses: { a: { action: "decline" } } }],
      ["tasks/cancel", { taskId }],
    ] as const) {
      expect((await tasks.request(method, params, { user: "mallory" })).error).toEqual(unknown.error);
      expect((await tasks.request(method, params)).error).toEqual(unknown.error);
    }
    expect(await tasks.get(taskId, { user: "alice" })).toMatchObject({ status: "input_required", inputRequests: { a: {}, b: {} } });
  });
});

describe("the tasks extension over HTTP and in discovery (2026-07-28)", () => {
  it("refuses a tasks/get whose Mcp-Name is not its taskId (-32020, HTTP 400)", async () => {
    const tasks = fixture();
    const taskId = await tasks.start("wait");
    const answer = await tasks.request("tasks/get", { taskId }, { headers: { "mcp-name": "another-task" } });
    expect(answer.status).toBe(400);
    expect(answer.error?.code).toBe(-32020);
  });

  it("declares the extension in server/discover (never capabilities.tasks) and lists tools without execution", async () => {
    const tasks = fixture();
    const capabilities = (await tasks.request("server/discover")).result?.["capabilities"] as Record<string, unknown>;
    expect(capabilities["extensions"]).toEqual({ [EXTENSION]: {} });
    expect(capabilities).not.toHaveProperty("tasks");
    const tools = (await tasks.request("tools/list")).result?.["tools"] as Record<string, unknown>[];
    expect(tools.map((tool) => tool["name"])).toContain("must");
    for (const tool of tools) expect(tool).not.toHaveProperty("execution");
  });

  it("declares nothing of tasks while no enabled tool may run as one", async () => {
    const server = new MCPServer({ name: "plain", version: "1" }, { tasks: serverTasks() });
    servers.push(server);
    server.tool("echo", { description: "never a task" }, () => ({ content: [] }));
    const task = server.tool("later", { description: "may be a task", execution: { taskSupport: "optional" } }, () => ({ content: [] }));
    task.disable();
    const discover = async () =>
      (await server.serveStateless(
        1,
        "server/discover",
        {
          _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": WITH_EXTENSION },
        },
        { signal: new AbortController().signal, inbound: undefined, notify: () => Promise.resolve() },
      )) as { result: Record<string, Record<string, unknown>> };
    expect((await discover()).result["capabilities"]).not.toHaveProperty("extensions");
    task.enable();
    expect((await discover()).result["capabilities"]?.["extensions"]).toEqual({ [EXTENSION]: {} });
  });
});

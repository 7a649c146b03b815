// The client's tasks in the stateless era (2026-07-28, the tasks extension), against a scripted peer
// answering in the extension's wire shapes: the server decides, the client polls tasks/get, answers
// input with one tasks/update, and cancels with tasks/cancel.
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import type { ElicitRequestFormParams } from "../../schemas/schemas.js";
import type { MCPClient } from "../mcp-client/mcp-client.js";
import { ack, created, got, inTurn, scriptedPeer, scripts, TASKS_EXTENSION, text, type Message, type Reply } from "./tasks.test-helpers.js";
import type { TaskInput } from "./tasks.types.js";

const clients: MCPClient[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const client of clients.splice(0)) await client.close();
});

async function peer(...args: Parameters<typeof scriptedPeer>): ReturnType<typeof scriptedPeer> {
  const connected = await scriptedPeer(...args);
  clients.push(connected.client);
  return connected;
}

const fast = { pollIntervalMs: 1 };
const ask = (message: string) => ({
  method: "elicitation/create",
  params: { message, requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } },
});
const rootsRequest = { method: "roots/list" };

describe("tasks in the stateless era", () => {
  it("declares the extension on every request, sends no task param, and gives a task answered at once as an ended one", async () => {
    const { client, requests, sent } = await peer(inTurn("tools/call", { result: text("at once") }));
    const task = await client.callTool("quick", { a: 1 }, { task: { ttlMs: 5000 } });
    expect(task.taskId).toBeUndefined();
    await expect(task.result()).resolves.toEqual(text("at once"));
    await expect(task.status()).rejects.toMatchObject({
      code: MCP_CODES.NOT_FOUND,
      message: "tools/call quick was answered at once: there is no task to ask about",
    });
    await task.cancel();
    await task.update({ anything: 1 });
    const [call] = sent("tools/call");
    expect(call).toEqual({
      name: "quick",
      arguments: { a: 1 },
      _meta: expect.objectContaining({ "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } } }),
    });
    expect(client.capabilities).toEqual({ extensions: { [TASKS_EXTENSION]: {} } });
    expect(requests.map((message) => message.method)).toEqual(["server/discover", "tools/call", "tools/list"]);
  });

  it("follows a task to its result when the caller did not ask for one, polling tasks/get with the task's id", async () => {
    const { client, sent } = await peer(
      scripts(inTurn("tools/call", created(fast)), inTurn("tasks/get", got("working", fast), got("completed", { result: text("done") }))),
    );
    await expect(client.callTool("slow")).resolves.toEqual(text("done"));
    const gets = sent("tasks/get");
    expect(gets).toHaveLength(2);
    expect(gets[0]).toEqual({ taskId: "t-1", _meta: expect.objectContaining({ "io.modelcontextprotocol/protocolVersion": "2026-07-28" }) });
    expect(sent("tasks/cancel")).toEqual([]);
  });

  it("gives a completed tool error as the result, and checks a completed result against the tool's outputSchema", async () => {
    const failing = { content: [{ type: "text", text: "no" }], isError: true };
    const broken = { content: [], structuredContent: { celsius: "hot" } };
    const tools = [
      {
        name: "weather",
        inputSchema: { type: "object" },
        outputSchema: { type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] },
      },
    ];
    const { client } = await peer(
      (message) => {
        if (message.method === "tools/call")
          return created({ ...fast, taskId: (message.params?.["arguments"] as { id?: string } | undefined)?.id });
        return message.method === "tasks/get"
          ? got("completed", { result: message.params?.["taskId"] === "failing" ? failing : broken })
          : undefined;
      },
      {},
      tools,
    );
    await expect(client.callTool("weather", { id: "failing" })).resolves.toEqual(failing);
    const task = await client.callTool("weather", { id: "failing" }, { task: true });
    expect(task.taskId).toBe("failing");
    await expect(task.result()).resolves.toEqual(failing);
    await expect(client.callTool("weather", { id: "broken" })).rejects.toMatchObject({ code: MCP_CODES.PROTOCOL_INVALID, data: broken });
    // A task found by its id: the tool is not known, so nothing is checked.
    await expect(client.task("broken").result()).resolves.toEqual(broken);
  });

  it("rejects with the task's JSON-RPC error when it failed, and with MCP.REQUEST_CANCELLED when it was cancelled", async () => {
    const error = { code: -32050, message: "the backend is down", data: { retry: false } };
    const { client } = await peer(
      scripts(inTurn("tools/call", created(fast)), (message) => {
        if (message.method !== "tasks/get") return undefined;
        const taskId = message.params?.["taskId"];
        if (taskId === "t-1") return got("failed", { error });
        return taskId === "t-9" ? got("cancelled", { taskId, statusMessage: "stopped by an operator" }) : got("cancelled", { taskId });
      }),
    );
    await expect(client.callTool("fails")).rejects.toMatchObject({
      wireCode: -32050,
      message: "the backend is down",
      data: { retry: false },
    });
    await expect(client.task("t-9").result()).rejects.toMatchObject({
      code: MCP_CODES.REQUEST_CANCELLED,
      message: "Task t-9 was cancelled: stopped by an operator",
    });
    await expect(client.task("t-8").result()).rejects.toMatchObject({ message: "Task t-8 was cancelled", data: { status: "cancelled" } });
  });

  it("answers new requests for input through the client's handlers, each key once across polls, in one tasks/update per poll", async () => {
    const asked: string[] = [];
    const form = (params: ElicitRequestFormParams) => {
      asked.push(params.message);
      return { action: "accept" as const, content: { ok: true } };
    };
    const both = { inputRequests: { first: ask("one?"), roots: rootsRequest }, ...fast };
    const { client, sent } = await peer(
      scripts(
        inTurn("tools/call", created(fast)),
        inTurn(
          "tasks/get",
          got("input_required", both),
          got("input_required", both),
          got("input_required", { inputRequests: { roots: rootsRequest, third: ask("three?") }, ...fast }),
          got("completed", { result: text("answered") }),
        ),
        (message) => (message.method === "tasks/update" ? ack : undefined),
      ),
      { elicitation: { form }, roots: [{ uri: "file:///work" }] },
    );
    await expect(client.callTool("interview")).resolves.toEqual(text("answered"));
    expect(asked).toEqual(["one?", "three?"]);
    const updates = sent("tasks/update");
    expect(updates.map(({ taskId, inputResponses }) => ({ taskId, inputResponses }))).toEqual([
      {
        taskId: "t-1",
        inputResponses: { first: { action: "accept", content: { ok: true } }, roots: { roots: [{ uri: "file:///work" }] } },
      },
      { taskId: "t-1", inputResponses: { third: { action: "accept", content: { ok: true } } } },
    ]);
  });

  it("hands input to onInput once per key instead of the handlers, and sends what update is given", async () => {
    const form = vi.fn(() => ({ action: "decline" as const }));
    const inputs: TaskInput[] = [];
    let answered = false;
    const { client, sent } = await peer(
      scripts(
        inTurn("tools/call", created(fast)),
        (message) =>
          message.method === "tasks/get"
            ? answered
              ? got("completed", { result: text("thanks") })
              : got("input_required", { inputRequests: { name: ask("name?") }, ...fast })
            : undefined,
        (message) => (message.method === "tasks/update" ? ((answered = true), ack) : undefined),
      ),
      { elicitation: { form } },
    );
    const task = await client.callTool("interview", {}, { task: { onInput: (input) => inputs.push(input) } });
    const result = task.result();
    await vi.waitFor(() => expect(sent("tasks/get").length).toBeGreaterThan(2));
    expect(inputs).toEqual([{ key: "name", method: "elicitation/create", params: ask("name?").params }]);
    await task.update({ name: { action: "accept", content: { ok: false } } });
    await expect(result).resolves.toEqual(text("thanks"));
    expect(form).not.toHaveBeenCalled();
    expect(sent("tasks/update")).toEqual([
      { taskId: "t-1", inputResponses: { name: { action: "accept", content: { ok: false } } }, _meta: expect.any(Object) },
    ]);
  });

  it("cancels the task with tasks/cancel (never notifications/cancelled) when the caller's signal aborts a plain call", async () => {
    // A tasks/cancel that fails (here: not scripted) changes nothing for the caller.
    const { client, sent, requests } = await peer(scripts(inTurn("tools/call", created(fast)), inTurn("tasks/get", got("working", fast))));
    const controller = new AbortController();
    const call = client.callTool("slow", {}, { signal: controller.signal });
    await vi.waitFor(() => expect(sent("tasks/get").length).toBeGreaterThan(0));
    controller.abort("enough");
    await expect(call).rejects.toMatchObject({ code: MCP_CODES.REQUEST_CANCELLED, message: "The wait for task t-1 was cancelled: enough" });
    await vi.waitFor(() => expect(sent("tasks/cancel")).toEqual([{ taskId: "t-1", _meta: expect.any(Object) }]));
    expect(requests.some((message) => message.method === "notifications/cancelled")).toBe(false);
  });

  it("bounds a plain call's wait by its timeoutMs, then cancels the task; a handle's abandoned wait leaves the task alone", async () => {
    const { client, sent } = await peer(
      scripts(inTurn("tools/call", created(fast)), inTurn("tasks/get", got("working", fast)), inTurn("tasks/cancel", ack)),
    );
    await expect(client.callTool("slow", {}, { timeoutMs: 30 })).rejects.toMatchObject({
      code: MCP_CODES.TIMEOUT,
      message: "task t-1 did not end within 30 ms",
    });
    await vi.waitFor(() => expect(sent("tasks/cancel")).toHaveLength(1));
    const task = await client.callTool("slow", {}, { task: true });
    const given = new AbortController();
    given.abort("not now");
    await expect(task.result({ signal: given.signal })).rejects.toMatchObject({ code: MCP_CODES.REQUEST_CANCELLED });
    await expect(task.result({ timeoutMs: 5 })).rejects.toMatchObject({ code: MCP_CODES.TIMEOUT });
    expect(sent("tasks/cancel")).toHaveLength(1);
  });

  it("with no poll interval from the server, waits 500 ms, then 1.5 times longer up to 5 s; no timer outlives the wait", async () => {
    vi.useFakeTimers();
    const started = Date.now();
    const at: number[] = [];
    let polls = 0;
    const { client } = await peer(
      scripts(inTurn("tools/call", created()), (message) => {
        if (message.method !== "tasks/get") return undefined;
        at.push(Date.now() - started);
        return ++polls < 9 ? got("working") : got("completed", { result: text("late") });
      }),
    );
    const call = client.callTool("slow");
    await vi.advanceTimersByTimeAsync(30_000);
    await expect(call).resolves.toEqual(text("late"));
    const waits = at.map((time, index) => time - (at[index - 1] ?? 0));
    // 1687.5 ms and so on: a timer fires on the whole millisecond.
    expect(waits).toEqual([500, 750, 1125, 1687, 2531, 3796, 5000, 5000, 5000]);
    await client.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("reads a task's state under the era's names, cancels by id, and has no tasks/list", async () => {
    const { client, sent } = await peer(
      scripts(
        inTurn("tasks/get", got("input_required", { statusMessage: "waiting", pollIntervalMs: 250, inputRequests: { r: rootsRequest } })),
        inTurn("tasks/cancel", ack),
      ),
    );
    const task = client.task("t-1");
    await expect(task.status()).resolves.toEqual({
      taskId: "t-1",
      status: "input_required",
      statusMessage: "waiting",
      createdAt: "2026-07-28T10:00:00.000Z",
      lastUpdatedAt: "2026-07-28T10:00:01.000Z",
      ttlMs: 60000,
      pollIntervalMs: 250,
    });
    await task.cancel();
    expect(sent("tasks/cancel")).toEqual([{ taskId: "t-1", _meta: expect.any(Object) }]);
    await expect(client.listTasks()).rejects.toMatchObject({
      code: MCP_CODES.METHOD_NOT_FOUND,
      message: "tasks/list is a method of revision 2025-11-25 only; this connection speaks 2026-07-28",
    });
  });

  it("ends every wait with MCP.TRANSPORT_CLOSED when the client closes, and cancels nothing", async () => {
    const { client, sent } = await peer(scripts(inTurn("tools/call", created(fast)), inTurn("tasks/get", got("working", fast))));
    const call = client.callTool("slow");
    await vi.waitFor(() => expect(sent("tasks/get").length).toBeGreaterThan(0));
    await client.close();
    await expect(call).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    expect(sent("tasks/cancel")).toEqual([]);
  });

  it("with tasks: false declares no extension, and refuses a task the server makes anyway", async () => {
    const { client, sent } = await peer(inTurn("tools/call", created()), {
      tasks: false,
      elicitation: { form: () => ({ action: "cancel" as const }) },
    });
    expect(client.capabilities).toEqual({ elicitation: { form: {} } });
    await expect(client.callTool("slow")).rejects.toMatchObject({
      code: MCP_CODES.PROTOCOL_INVALID,
      message: "tools/call slow was answered with a task, which this client did not ask for",
    });
    expect(sent("tools/call")[0]?.["_meta"]).toMatchObject({ "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } } });
  });

  it("lets client layers see the task requests, and lists the tools again on a header mismatch before calling once more", async () => {
    let calls = 0;
    const mismatch: Reply = { error: { code: -32020, message: "Mcp-Name does not match" } };
    const { client } = await peer(
      scripts(
        (message: Message) => (message.method === "tools/call" ? (++calls === 1 ? mismatch : created(fast)) : undefined),
        inTurn("tasks/get", got("completed", { result: text("ok") })),
      ),
    );
    const seen: string[] = [];
    client.use((next) => (request, context) => (seen.push(request.method), next(request, context)));
    await expect(client.callTool("moved")).resolves.toEqual(text("ok"));
    // The last listing is the output check's, for a tool the listing still lacks.
    expect(seen).toEqual(["tools/call", "tools/list", "tools/call", "tasks/get", "tools/list"]);
  });
});

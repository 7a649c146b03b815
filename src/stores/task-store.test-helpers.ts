// The TaskStore contract: what every implementation (in memory, Redis, a user's own) must do, as
// a suite any of them runs with `describeTaskStore(name, makeStore)`. The store is given a clock
// it must read for every "now" (creation, updates, expiry) and a small per-owner limit.
import { describe, expect, it } from "vitest";

import { MCP_CODES } from "../error-codes/error-codes.js";
import { describeTaskStoreModel } from "./task-store-model.test-helpers.js";
import type { NewTask, TaskPatch, TaskRecord, TaskStore, TaskUpdateOutcome } from "./task-store.js";
import { rejectedWith } from "../error-codes/mcp-error.test-helpers.js";

export interface TaskStoreTestOptions {
  readonly now: () => number;
  readonly maxTasksPerOwner: number;
}

export type MakeTaskStore = (options: TaskStoreTestOptions) => TaskStore | Promise<TaskStore>;

export const T0 = Date.UTC(2026, 6, 28, 12);
export const LIMIT = 4;
export const CALL: NewTask = { request: { method: "tools/call", params: { name: "build", arguments: { target: "all" } } }, ttl: 60_000 };
export const RESULT = { content: [{ type: "text", text: "built" }], isError: false };
export const ERROR = { code: -32603, message: "the build machine is gone", data: { machine: "b7" } };

/** A store on a clock the test moves. */
export async function clocked(
  makeStore: MakeTaskStore,
  maxTasksPerOwner = LIMIT,
): Promise<{ store: TaskStore; advance: (ms: number) => number }> {
  let time = T0;
  const store = await makeStore({ now: () => time, maxTasksPerOwner });
  return { store, advance: (ms) => (time += ms) };
}

/** The task an update that had to succeed gave. */
export function updated(outcome: TaskUpdateOutcome): TaskRecord {
  if (!outcome.ok) throw new Error(`the update was refused: ${outcome.reason}`);
  return outcome.task;
}

/** `modelRuns`: the random sequences the model property tries. */
export function describeTaskStore(name: string, makeStore: MakeTaskStore, modelRuns: number): void {
  describe(`${name}: the TaskStore contract`, () => {
    describeLifecycle(makeStore);
    describeFinality(makeStore);
    describeOwnership(makeStore);
    describeRefusals(makeStore);
    describeListing(makeStore);
    describeExpiry(makeStore);
    describeTaskStoreModel(makeStore, modelRuns);
  });
}

function describeLifecycle(makeStore: MakeTaskStore): void {
  it("creates a working task at version 1, with a fresh unguessable id", async () => {
    const { store } = await clocked(makeStore);
    const task = await store.create("alice", { ...CALL, pollInterval: 2000, statusMessage: "queued", data: { step: 0 } });
    expect(task).toEqual({
      ...CALL,
      taskId: task.taskId,
      status: "working",
      statusMessage: "queued",
      createdAt: T0,
      lastUpdatedAt: T0,
      pollInterval: 2000,
      version: 1,
      data: { step: 0 },
    });
    expect(await store.get("alice", task.taskId)).toEqual(task);
    const ids = new Set<string>([task.taskId]);
    for (let n = 0; n < LIMIT - 1; n += 1) ids.add((await store.create(`owner ${n}`, CALL)).taskId);
    expect(ids.size).toBe(LIMIT);
    for (const id of ids) expect(id).toMatch(/^[\x21-\x7e]{22,}$/); // printable, room for 128 random bits
  });

  it("moves a task working ⇄ input_required, then to completed, one version at a time", async () => {
    const { store, advance } = await clocked(makeStore);
    const { taskId } = await store.create("alice", CALL);
    advance(10);
    const asking = await store.update("alice", taskId, {
      status: "input_required",
      statusMessage: "asking",
      inputRequests: { "ask-1": { method: "elicitation/create" } },
    });
    expect(asking).toEqual({
      ok: true,
      task: expect.objectContaining({
        status: "input_required",
        statusMessage: "asking",
        inputRequests: { "ask-1": { method: "elicitation/create" } },
        lastUpdatedAt: T0 + 10,
        version: 2,
      }),
    });
    advance(10);
    const still = await store.update("alice", taskId, { data: { answered: [] } });
    expect(still).toEqual({
      ok: true,
      task: expect.objectContaining({
        status: "input_required",
        inputRequests: { "ask-1": { method: "elicitation/create" } },
        data: { answered: [] },
        version: 3,
      }),
    });
    const working = updated(await store.update("alice", taskId, { status: "working", statusMessage: null }));
    expect(working).not.toHaveProperty("inputRequests");
    expect(working).not.toHaveProperty("statusMessage");
    advance(10);
    const done = await store.update("alice", taskId, { status: "completed", result: RESULT, pollInterval: 500 });
    expect(done).toEqual({
      ok: true,
      task: {
        ...CALL,
        taskId,
        status: "completed",
        result: RESULT,
        data: { answered: [] },
        createdAt: T0,
        lastUpdatedAt: T0 + 30,
        pollInterval: 500,
        version: 5,
      },
    });
    expect(await store.get("alice", taskId)).toEqual(updated(done));
  });

  it("ends a task failed with its JSON-RPC error, or cancelled, keeping what the patch does not change", async () => {
    const { store } = await clocked(makeStore);
    const one = await store.create("alice", { ...CALL, statusMessage: "running", pollInterval: 100 });
    const failed = await store.update("alice", one.taskId, { status: "failed", error: ERROR });
    expect(failed).toEqual({ ok: true, task: { ...one, status: "failed", error: ERROR, version: 2 } });
    const two = await store.create("alice", CALL);
    expect(await store.cancel("alice", two.taskId)).toEqual({ ok: true, task: { ...two, status: "cancelled", version: 2 } });
    const three = await store.create("alice", { ...CALL, statusMessage: "running" });
    expect(await store.cancel("alice", three.taskId, "stopped by the user")).toEqual({
      ok: true,
      task: { ...three, status: "cancelled", statusMessage: "stopped by the user", version: 2 },
    });
  });
}

function describeFinality(makeStore: MakeTaskStore): void {
  it("refuses any change to a final task and changes nothing, so a cancel racing a completion ends one way", async () => {
    const { store } = await clocked(makeStore);
    for (const end of [{ status: "completed", result: RESULT }, { status: "failed", error: ERROR }, { status: "cancelled" }] as const) {
      const { taskId } = await store.create("alice", CALL);
      const ended = { task: updated(await store.update("alice", taskId, end)) };
      for (const patch of [
        { status: "working" },
        { status: "completed", result: RESULT },
        { statusMessage: "late" },
        { ttl: null },
        {},
      ] as TaskPatch[]) {
        expect(await store.update("alice", taskId, patch)).toEqual({ ok: false, reason: "final", task: ended.task });
      }
      expect(await store.cancel("alice", taskId)).toEqual({ ok: false, reason: "final", task: ended.task });
      expect(await store.get("alice", taskId)).toEqual(ended.task);
    }
    const { taskId } = await store.create("alice", CALL);
    const race = await Promise.all([
      store.update("alice", taskId, { status: "completed", result: RESULT }),
      store.cancel("alice", taskId),
      store.update("alice", taskId, { status: "failed", error: ERROR }),
    ]);
    expect(race.filter((outcome) => outcome.ok)).toHaveLength(1);
    const final = (await store.get("alice", taskId)) as TaskRecord;
    expect(race.map((outcome) => outcome.ok || (outcome.reason === "final" && outcome.task.status === final.status))).toEqual([
      true,
      true,
      true,
    ]);
    expect(final.version).toBe(2);
  });

  it("applies an update only when its precondition holds; a final task is final first", async () => {
    const { store } = await clocked(makeStore);
    const { taskId } = await store.create("alice", CALL);
    const stale = await store.update("alice", taskId, { statusMessage: "a" }, { version: 2 });
    expect(stale).toEqual({ ok: false, reason: "precondition", task: expect.objectContaining({ version: 1 }) });
    expect(await store.update("alice", taskId, { statusMessage: "a" }, { status: "input_required" })).toMatchObject({
      ok: false,
      reason: "precondition",
    });
    expect(await store.update("alice", taskId, { statusMessage: "a" }, { status: ["input_required", "completed"] })).toMatchObject({
      ok: false,
      reason: "precondition",
    });
    expect(await store.update("alice", taskId, { statusMessage: "a" }, { version: 1, status: "input_required" })).toMatchObject({
      ok: false,
      reason: "precondition",
    });
    expect(
      await store.update("alice", taskId, { statusMessage: "a" }, { version: 1, status: ["input_required", "working"] }),
    ).toMatchObject({ ok: true, task: { statusMessage: "a", version: 2 } });
    expect(await store.update("alice", taskId, { status: "input_required" }, { status: "working" })).toMatchObject({
      ok: true,
      task: { version: 3 },
    });
    expect(await store.update("alice", taskId, { statusMessage: "b" }, {})).toMatchObject({ ok: true, task: { version: 4 } });
    await store.cancel("alice", taskId);
    expect(await store.update("alice", taskId, { statusMessage: "c" }, { version: 1 })).toMatchObject({ ok: false, reason: "final" });
  });

  it("keeps its own copies: what a caller changes afterwards changes nothing stored", async () => {
    const { store } = await clocked(makeStore);
    const params = { name: "build", arguments: { target: "all" } };
    const task = await store.create("alice", { request: { method: "tools/call", params }, ttl: null, data: { list: [1] } });
    params.arguments.target = "changed";
    (task.data as { list: number[] }).list.push(2);
    const result = { content: [{ type: "text", text: "built" }] };
    const done = updated(await store.update("alice", task.taskId, { status: "completed", result }));
    result.content[0]!.text = "changed";
    (done.result as typeof result).content[0]!.text = "changed too";
    const stored = (await store.get("alice", task.taskId)) as TaskRecord;
    expect(stored.request.params).toEqual({ name: "build", arguments: { target: "all" } });
    expect(stored.data).toEqual({ list: [1] });
    expect(stored.result).toEqual({ content: [{ type: "text", text: "built" }] });
    (stored.data as { list: number[] }).list.push(3);
    expect((await store.get("alice", task.taskId))?.data).toEqual({ list: [1] });
  });
}

function describeOwnership(makeStore: MakeTaskStore): void {
  it("answers another owner exactly as for a task that never was", async () => {
    const { store } = await clocked(makeStore);
    const { taskId } = await store.create("alice", CALL);
    for (const [owner, id] of [
      ["mallory", taskId],
      ["alice", "0".repeat(32)],
      ["alice", "__proto__"],
      ["__proto__", taskId],
      ["", taskId],
    ] as const) {
      expect(await store.get(owner, id)).toBeUndefined();
      expect(await store.update(owner, id, { status: "completed", result: RESULT })).toEqual({ ok: false, reason: "not-found" });
      expect(await store.cancel(owner, id)).toEqual({ ok: false, reason: "not-found" });
    }
    for (const owner of ["mallory", "__proto__", ""]) expect(await store.list(owner)).toEqual({ tasks: [] });
    expect(await store.list("alice")).toEqual({ tasks: [expect.objectContaining({ taskId, status: "working", version: 1 })] });
  });

  it("never reads an owner: any string is one, and two strings are two", async () => {
    const { store } = await clocked(makeStore);
    for (const owner of ["", "__proto__", "constructor", "user:1", "user:1 ", "ключ"]) {
      const { taskId } = await store.create(owner, CALL);
      expect((await store.list(owner)).tasks.map((task) => task.taskId)).toEqual([taskId]);
    }
  });

  it("bounds the tasks one owner holds, final ones included, until one expires", async () => {
    const { store, advance } = await clocked(makeStore);
    const first = await store.create("alice", { ...CALL, ttl: 5000 });
    await store.cancel("alice", first.taskId);
    for (let n = 1; n < LIMIT; n += 1) await store.create("alice", { ...CALL, ttl: 9000 });
    advance(1000);
    const refused = await rejectedWith(store.create("alice", CALL), MCP_CODES.RATE_LIMITED);
    expect(refused.message).toBe(`Task limit: an owner may hold ${LIMIT} tasks at once; one expires in 4000 ms`);
    expect(refused.data).toEqual({ retryAfterMs: 4000 });
    expect(await store.create("bob", CALL)).toMatchObject({ status: "working" });
    expect((await store.list("alice")).tasks).toHaveLength(LIMIT);
    advance(4000);
    expect(await store.create("alice", CALL)).toMatchObject({ status: "working" });
  });

  it("says so when none of an owner's tasks will ever expire", async () => {
    const { store } = await clocked(makeStore, 1);
    await store.create("alice", { ...CALL, ttl: null });
    const refused = await rejectedWith(store.create("alice", CALL), MCP_CODES.RATE_LIMITED);
    expect(refused.message).toBe("Task limit: an owner may hold 1 tasks at once, and none of its tasks expires");
    expect(refused.data).toBeUndefined();
  });
}

const BAD_PATCHES: [string, TaskPatch, string][] = [
  ["a result without completed", { result: RESULT }, "a task's result comes with status completed, and completed comes with a result"],
  ["completed without a result", { status: "completed" }, "a task's result comes with status completed, and completed comes with a result"],
  [
    "a result with failed",
    { status: "failed", error: ERROR, result: RESULT },
    "a task's result comes with status completed, and completed comes with a result",
  ],
  ["failed without an error", { status: "failed" }, "a task's error comes with status failed, and failed comes with an error"],
  [
    "an error with cancelled",
    { status: "cancelled", error: ERROR },
    "a task's error comes with status failed, and failed comes with an error",
  ],
  ["input requests while working", { inputRequests: {} }, "inputRequests come with status input_required"],
  [
    "input requests with completed",
    { status: "completed", result: RESULT, inputRequests: {} },
    "inputRequests come with status input_required",
  ],
  ["an unknown status", { status: "done" as never }, "status must be one of working, input_required, completed, failed, cancelled"],
  ["a number as message", { statusMessage: 7 as never }, "statusMessage must be a string or null"],
  ["a ttl of 0", { ttl: 0 }, "ttl must be a positive whole number of milliseconds, or null"],
  ["a fractional ttl", { ttl: 1.5 }, "ttl must be a positive whole number of milliseconds, or null"],
  ["a negative poll interval", { pollInterval: -1 }, "pollInterval must be a positive whole number of milliseconds"],
  ["a poll interval of null", { pollInterval: null as never }, "pollInterval must be a positive whole number of milliseconds"],
  ["input requests as a list", { status: "input_required", inputRequests: [] as never }, "inputRequests must be an object"],
  ["a result as text", { status: "completed", result: "built" as never }, "result must be an object"],
  [
    "an error without a code",
    { status: "failed", error: { message: "x" } as never },
    "error must be a JSON-RPC error: an integer code and a string message",
  ],
  [
    "an error with a fractional code",
    { status: "failed", error: { code: 1.5, message: "x" } },
    "error must be a JSON-RPC error: an integer code and a string message",
  ],
  [
    "an error without a message",
    { status: "failed", error: { code: 1 } as never },
    "error must be a JSON-RPC error: an integer code and a string message",
  ],
  ["data JSON cannot carry", { data: { size: 10n } as never }, "a task must be JSON: its value could not be serialised"],
  ["not an object", null as never, "a task patch must be an object"],
];

function describeRefusals(makeStore: MakeTaskStore): void {
  it.each(BAD_PATCHES)("refuses a patch with %s, changing nothing", async (_what, patch, message) => {
    const { store } = await clocked(makeStore);
    const task = await store.create("alice", CALL);
    expect((await rejectedWith(store.update("alice", task.taskId, patch), MCP_CODES.INVALID_PARAMS)).message).toBe(message);
    expect(await store.get("alice", task.taskId)).toEqual(task);
  });

  it("checks a patch before it looks for the task", async () => {
    const { store } = await clocked(makeStore);
    expect((await rejectedWith(store.update("alice", "missing", { status: "done" as never }), MCP_CODES.INVALID_PARAMS)).message).toContain(
      "status must be one of",
    );
  });

  it.each([
    [[] as never, "a task precondition must be an object"],
    [{ version: "1" } as never, "precondition version must be a whole number"],
    [{ status: "done" } as never, "precondition status must be a status or a list of them"],
    [{ status: ["working", "done"] } as never, "precondition status must be a status or a list of them"],
  ])("refuses the precondition %j", async (precondition, message) => {
    const { store } = await clocked(makeStore);
    const task = await store.create("alice", CALL);
    expect((await rejectedWith(store.update("alice", task.taskId, {}, precondition), MCP_CODES.INVALID_PARAMS)).message).toBe(message);
    expect(await store.get("alice", task.taskId)).toEqual(task);
  });

  it.each([
    ["no task", undefined as never, "a new task must be an object"],
    ["no request", { ttl: null } as never, "a task's request must be an object"],
    ["an empty method", { request: { method: "" }, ttl: null }, "a task's request needs a method name"],
    ["a method that is not text", { request: { method: 7 }, ttl: null } as never, "a task's request needs a method name"],
    [
      "params as a list",
      { request: { method: "tools/call", params: [] }, ttl: null } as never,
      "a task's request params must be an object",
    ],
    ["no ttl", { request: { method: "tools/call" } } as never, "ttl must be a positive whole number of milliseconds, or null"],
    ["a poll interval of 0", { ...CALL, pollInterval: 0 }, "pollInterval must be a positive whole number of milliseconds"],
    ["a message that is not text", { ...CALL, statusMessage: null } as never, "statusMessage must be a string"],
    ["data with a cycle", { ...CALL, data: cycle() }, "a task must be JSON: its value could not be serialised"],
  ])("refuses to create a task with %s", async (_what, task: NewTask, message) => {
    const { store } = await clocked(makeStore);
    expect((await rejectedWith(store.create("alice", task), MCP_CODES.INVALID_PARAMS)).message).toBe(message);
    expect(await store.list("alice")).toEqual({ tasks: [] });
  });

  it("refuses an owner that is not a string", async () => {
    const { store } = await clocked(makeStore);
    expect((await rejectedWith(store.create(7 as never, CALL), MCP_CODES.INVALID_PARAMS)).message).toBe("a task owner must be a string");
  });
}

function cycle(): never {
  const value: Record<string, unknown> = {};
  value["self"] = value;
  return value as never;
}

function describeListing(makeStore: MakeTaskStore): void {
  it("lists an owner's live tasks oldest first, a page at a time, without their results", async () => {
    const { store, advance } = await clocked(makeStore, 10);
    const made: TaskRecord[] = [];
    for (let n = 0; n < 5; n += 1) {
      made.push(await store.create("alice", { ...CALL, statusMessage: `task ${n}`, data: n }));
      advance(1);
    }
    await store.create("bob", CALL);
    await store.update("alice", made[0]!.taskId, { status: "completed", result: RESULT });
    await store.update("alice", made[1]!.taskId, { status: "input_required", inputRequests: { a: {} } });
    const first = await store.list("alice", { limit: 2 });
    expect(first.tasks).toEqual([
      {
        taskId: made[0]!.taskId,
        status: "completed",
        statusMessage: "task 0",
        createdAt: T0,
        lastUpdatedAt: T0 + 5,
        ttl: 60_000,
        version: 2,
      },
      {
        taskId: made[1]!.taskId,
        status: "input_required",
        statusMessage: "task 1",
        createdAt: T0 + 1,
        lastUpdatedAt: T0 + 5,
        ttl: 60_000,
        version: 2,
      },
    ]);
    const second = await store.list("alice", { limit: 2, cursor: first.nextCursor as string });
    expect(second.tasks.map((task) => task.statusMessage)).toEqual(["task 2", "task 3"]);
    const last = await store.list("alice", { limit: 2, cursor: second.nextCursor as string });
    expect(last).toEqual({ tasks: [expect.objectContaining({ statusMessage: "task 4" })] });
    expect((await store.list("alice", { limit: 5 })).nextCursor).toBeUndefined();
    expect((await store.list("alice")).tasks).toHaveLength(5);
  });

  it("keeps a cursor's place when tasks before it expire or end", async () => {
    const { store, advance } = await clocked(makeStore, 10);
    const short = await store.create("alice", { ...CALL, ttl: 100 });
    await store.create("alice", { ...CALL, ttl: 100 });
    const kept = [await store.create("alice", CALL), await store.create("alice", CALL)];
    const first = await store.list("alice", { limit: 2 });
    await store.cancel("alice", short.taskId);
    advance(100);
    await store.expire();
    expect((await store.list("alice", { cursor: first.nextCursor as string })).tasks.map((task) => task.taskId)).toEqual(
      kept.map((task) => task.taskId),
    );
  });

  it.each(["", "garbage", "t1.", "c1.0", "t1.-1", "t1.0.1", "t1.zzzzzzzzzzzzzzzz"])(
    "refuses the cursor %j, which it did not make",
    async (cursor) => {
      const { store } = await clocked(makeStore);
      await store.create("alice", CALL);
      const refused = await rejectedWith(store.list("alice", { cursor }), MCP_CODES.INVALID_PARAMS);
      expect(refused.message).toContain("Invalid cursor");
    },
  );

  it.each([0, -1, 1.5, Number.NaN, "2" as never])("refuses the page size %j", async (limit) => {
    const { store } = await clocked(makeStore);
    expect((await rejectedWith(store.list("alice", { limit }), MCP_CODES.INVALID_PARAMS)).message).toBe(
      "a task list's limit must be a positive whole number",
    );
  });
}

function describeExpiry(makeStore: MakeTaskStore): void {
  it("hides a task the moment its ttl from creation has run out, whatever happened since", async () => {
    const { store, advance } = await clocked(makeStore);
    const { taskId } = await store.create("alice", { ...CALL, ttl: 1000 });
    advance(900);
    await store.update("alice", taskId, { status: "completed", result: RESULT });
    advance(99);
    expect(await store.get("alice", taskId)).toMatchObject({ status: "completed" });
    advance(1);
    expect(await store.get("alice", taskId)).toBeUndefined();
    expect(await store.list("alice")).toEqual({ tasks: [] });
    expect(await store.update("alice", taskId, {})).toEqual({ ok: false, reason: "not-found" });
    expect(await store.cancel("alice", taskId)).toEqual({ ok: false, reason: "not-found" });
  });

  it("moves the end when an update changes the ttl, still counted from creation", async () => {
    const { store, advance } = await clocked(makeStore);
    const { taskId } = await store.create("alice", { ...CALL, ttl: 1000 });
    advance(800);
    await store.update("alice", taskId, { status: "completed", result: RESULT, ttl: 800 + 5000 });
    advance(5000 - 1);
    expect(await store.get("alice", taskId)).toMatchObject({ ttl: 5800 });
    advance(1);
    expect(await store.get("alice", taskId)).toBeUndefined();
    const forever = await store.create("alice", { ...CALL, ttl: 10 });
    await store.update("alice", forever.taskId, { ttl: null });
    advance(365 * 24 * 3600 * 1000);
    await store.expire();
    expect(await store.get("alice", forever.taskId)).toMatchObject({ ttl: null });
  });

  it("expire() deletes what has run out by the given time, and counts it", async () => {
    const { store, advance } = await clocked(makeStore);
    const early = await store.create("alice", { ...CALL, ttl: 100 });
    const late = await store.create("bob", { ...CALL, ttl: 200 });
    expect(await store.expire(T0 + 99)).toBe(0);
    expect(await store.expire(T0 + 150)).toBe(1);
    expect(await store.expire(T0 + 150)).toBe(0);
    advance(150);
    expect(await store.get("alice", early.taskId)).toBeUndefined();
    expect(await store.get("bob", late.taskId)).toMatchObject({ version: 1 });
    advance(50);
    expect(await store.expire()).toBe(1);
    expect(await store.get("bob", late.taskId)).toBeUndefined();
  });
}

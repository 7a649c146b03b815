import { afterEach, describe, expect, it, vi } from "vitest";

import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { rejectedWith } from "../../error-codes/mcp-error.test-helpers.js";
import { InMemoryTaskStore } from "../../stores/in-memory-task-store.js";
import type { TaskRecord } from "../../stores/task-store.js";
import { TaskEngine } from "./task-engine.js";
import { CALL, OWNER, RESULT, T0, bench, completed, deferred, flush, startHeld } from "./tasks.test-helpers.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("TaskEngine: starting a task and writing its outcome", () => {
  it("stores the task before start resolves, starts the work on a later turn, and completes it with the result", async () => {
    const { engine: make, store, changes } = bench();
    const engine = make();
    let began = false;
    let finish!: (result: typeof RESULT) => void;
    const record = await engine.start({
      owner: OWNER,
      request: CALL,
      data: { era: "2026-07-28", answers: { forged: true } },
      work: async (run) => {
        began = true;
        expect([run.taskId, run.owner, run.signal.aborted]).toEqual([record.taskId, OWNER, false]);
        return { result: await new Promise<typeof RESULT>((resolve) => (finish = resolve)) };
      },
    });
    expect(began).toBe(false);
    expect(record).toMatchObject({
      status: "working",
      createdAt: T0,
      ttl: 3_600_000,
      pollInterval: 1_000,
      request: CALL,
      data: { era: "2026-07-28", answers: {} },
    });
    expect(await engine.get(OWNER, record.taskId)).toEqual(record);
    expect(changes).toEqual([{ kind: "task", taskId: record.taskId }]);
    await flush();
    expect([began, engine.running]).toEqual([true, 1]);
    finish(RESULT);
    await flush();
    expect(await store.get(OWNER, record.taskId)).toMatchObject({ status: "completed", result: RESULT, version: 2 });
    expect([engine.running, changes.length]).toEqual([0, 2]);
  });

  it.each([
    ["no ttl: the default", {}, undefined, 3_600_000],
    ["a ttl under the maximum", {}, 5_000, 5_000],
    ["a ttl above the maximum: clamped", {}, 90_000_000, 86_400_000],
    ["a null ttl: the maximum", {}, null, 86_400_000],
    ["a default above the maximum: clamped", { defaultTtlMs: 9_000, maxTtlMs: 8_000 }, undefined, 8_000],
    ["no maximum, a null ttl: unlimited", { maxTtlMs: null }, null, null],
    ["no maximum, no ttl: the default", { maxTtlMs: null, defaultTtlMs: 7_000 }, undefined, 7_000],
    ["no maximum, a ttl: as requested", { maxTtlMs: null }, 90_000_000, 90_000_000],
  ])("gives the task its ttl: %s", async (_case, options, ttl, expected) => {
    const engine = bench().engine(options);
    const { record } = await startHeld(engine, ttl === undefined ? {} : { ttl });
    expect(record.ttl).toBe(expected);
  });

  it("gives the task the engine's pollInterval, or the one the start names", async () => {
    const engine = bench().engine({ pollIntervalMs: 250 });
    expect(engine.pollIntervalMs).toBe(250);
    expect((await startHeld(engine)).record.pollInterval).toBe(250);
    expect((await startHeld(engine, { pollInterval: 40 })).record.pollInterval).toBe(40);
  });

  it.each([
    ["defaultTtlMs", 0],
    ["maxTtlMs", 1.5],
    ["pollIntervalMs", -1],
    ["closeGraceMs", Number.NaN],
  ])("refuses %s %s", (name, value) => {
    const { store, feed } = bench();
    expect(() => new TaskEngine({ store, feed, [name]: value })).toThrow(
      expect.objectContaining({
        code: MCP_CODES.INVALID_PARAMS,
        message: `TaskEngine: ${name} must be a positive whole number of milliseconds`,
      }),
    );
  });

  it("rejects as the store does: at the owner's limit, MCP.RATE_LIMITED, and nothing runs", async () => {
    const { feed } = bench();
    const engine = new TaskEngine({ store: new InMemoryTaskStore({ maxTasksPerOwner: 1 }), feed });
    await startHeld(engine);
    const work = vi.fn();
    await rejectedWith(engine.start({ owner: OWNER, request: CALL, work }), MCP_CODES.RATE_LIMITED);
    await flush();
    expect([work.mock.calls.length, engine.running]).toEqual([0, 1]);
  });

  it("fails the task with -32603 and the thrown message when the work throws, with the message as the diagnosis", async () => {
    const { engine: make, store } = bench();
    const engine = make();
    const record = await engine.start({ owner: OWNER, request: CALL, work: () => Promise.reject(new Error("the build machine is gone")) });
    await flush();
    expect(await store.get(OWNER, record.taskId)).toMatchObject({
      status: "failed",
      error: { code: -32603, message: "the build machine is gone" },
      statusMessage: "the build machine is gone",
    });
  });

  it("fails the task with the JSON-RPC error the work gives as its outcome", async () => {
    const { engine: make, store } = bench();
    const engine = make();
    const error = { code: -32602, message: "Unknown city", data: { city: "Atlantis" } };
    const record = await engine.start({ owner: OWNER, request: CALL, work: async () => ({ error }) });
    await flush();
    expect(await store.get(OWNER, record.taskId)).toMatchObject({ status: "failed", error, statusMessage: "Unknown city" });
  });

  it("fails the task when the store refuses its result (not JSON), instead of leaving it working", async () => {
    const { engine: make, store } = bench();
    const engine = make();
    const record = await engine.start({ owner: OWNER, request: CALL, work: async () => ({ result: { size: 10n } }) });
    await flush();
    const task = (await store.get(OWNER, record.taskId)) as TaskRecord;
    expect([task.status, task.error?.code, task.error?.message]).toEqual([
      "failed",
      -32603,
      expect.stringMatching(/^The task's outcome could not be stored: a task must be JSON/),
    ]);
  });

  it("reports a store that fails the outcome write to onError, never as an unhandled rejection", async () => {
    const down = new Error("store down");
    const { engine: make, store, errors } = bench();
    const engine = make({ overrides: { update: async () => Promise.reject(down) } });
    const { record, held } = await startHeld(engine);
    held.finish(completed());
    await flush();
    expect(errors).toEqual([down]);
    expect([(await store.get(OWNER, record.taskId))?.status, engine.running]).toEqual(["working", 0]);
  });

  it("reports a feed listener that throws to onError; the writes and calls go on", async () => {
    const { engine: make, store, feed, errors } = bench();
    const engine = make();
    const unsubscribe = feed.subscribe(() => {
      throw new Error("listener broke");
    });
    const { record, held } = await startHeld(engine);
    held.finish(completed());
    await flush();
    unsubscribe();
    expect(errors).toEqual([expect.any(AggregateError), expect.any(AggregateError)]);
    expect((await store.get(OWNER, record.taskId))?.status).toBe("completed");
  });
});

describe("TaskEngine: cancel, and exactly one final state", () => {
  it("cancels in the store first, then aborts the local run with MCP.REQUEST_CANCELLED; the late outcome is dropped", async () => {
    const { engine: make, store, changes } = bench();
    const engine = make();
    const { record, run, held } = await startHeld(engine);
    const outcome = await engine.cancel(OWNER, record.taskId, "Stopped by the user");
    expect(outcome).toMatchObject({ ok: true, task: { status: "cancelled", statusMessage: "Stopped by the user", version: 2 } });
    expect(run.signal.reason).toEqual(new MCPError(MCP_CODES.REQUEST_CANCELLED, "Stopped by the user"));
    held.finish(completed());
    await flush();
    expect(await store.get(OWNER, record.taskId)).toMatchObject({ status: "cancelled", version: 2 });
    expect([engine.running, changes.length]).toEqual([0, 2]);
  });

  it("cancels with the reason 'Task cancelled' when no message is given", async () => {
    const engine = bench().engine();
    const { record, run } = await startHeld(engine);
    await engine.cancel(OWNER, record.taskId);
    expect(run.signal.reason).toEqual(new MCPError(MCP_CODES.REQUEST_CANCELLED, "Task cancelled"));
  });

  it("keeps a completed task completed: a later cancel is refused as final and aborts nothing", async () => {
    const engine = bench().engine();
    const { record, run, held } = await startHeld(engine);
    held.finish(completed());
    await flush();
    expect(await engine.cancel(OWNER, record.taskId)).toMatchObject({ ok: false, reason: "final", task: { status: "completed" } });
    expect(run.signal.aborted).toBe(false);
  });

  it("ends cancelled when the cancel lands between the outcome's start and its write; the outcome is dropped silently", async () => {
    const { engine: make, store, errors } = bench();
    let engine!: TaskEngine;
    engine = make({
      overrides: {
        update: async (real, owner, taskId, patch, precondition) => {
          if (patch.status === "completed") await engine.cancel(owner, taskId, "too late");
          return real.update(owner, taskId, patch, precondition);
        },
      },
    });
    const { record, held } = await startHeld(engine);
    held.finish(completed());
    await flush();
    expect(await store.get(OWNER, record.taskId)).toMatchObject({ status: "cancelled", statusMessage: "too late", version: 2 });
    expect([errors, engine.running]).toEqual([[], 0]);
  });

  it("ends completed when the outcome is written before a cancel that was already under way", async () => {
    const { engine: make, store } = bench();
    const cancelling = deferred();
    const engine = make({
      overrides: {
        cancel: async (real, owner, taskId, message) => {
          await cancelling.promise;
          return real.cancel(owner, taskId, message);
        },
      },
    });
    const { record, run, held } = await startHeld(engine);
    const cancel = engine.cancel(OWNER, record.taskId);
    held.finish(completed());
    await flush();
    cancelling.resolve();
    expect(await cancel).toMatchObject({ ok: false, reason: "final" });
    expect([(await store.get(OWNER, record.taskId))?.status, run.signal.aborted]).toEqual(["completed", false]);
  });

  it("treats another owner's task as absent: get, list, cancel and answer find nothing, and the run goes on", async () => {
    const engine = bench().engine();
    const { record, run } = await startHeld(engine);
    expect(await engine.get("p:mallory", record.taskId)).toBeUndefined();
    expect(await engine.list("p:mallory")).toEqual({ tasks: [] });
    expect(await engine.cancel("p:mallory", record.taskId)).toEqual({ ok: false, reason: "not-found" });
    expect(await engine.answer("p:mallory", record.taskId, { x: 1 }, () => 1)).toBeUndefined();
    expect([run.signal.aborted, (await engine.list(OWNER)).tasks.map((task) => task.taskId)]).toEqual([false, [record.taskId]]);
  });
});

describe("TaskEngine: close", () => {
  it("cancels every local run in the store, aborts it, rejects its asks, and leaves no run, timer or listener", async () => {
    const { engine: make, store, feed } = bench();
    const listeners = feed.listenerCount;
    const engine = make();
    expect(feed.listenerCount).toBe(listeners + 1);
    const first = await startHeld(engine);
    const second = await startHeld(engine);
    const asked = second.run.ask("elicitation/create", { message: "Name?" }).catch((error: unknown) => error);
    await flush();
    // The works obey their signal.
    for (const { run, held } of [first, second]) run.signal.addEventListener("abort", () => held.fail(run.signal.reason));
    await engine.close();
    for (const { record, run } of [first, second]) {
      expect(await store.get(OWNER, record.taskId)).toMatchObject({ status: "cancelled", statusMessage: "Server closed" });
      expect(run.signal.reason).toEqual(new MCPError(MCP_CODES.REQUEST_CANCELLED, "Server closed"));
    }
    expect(await asked).toEqual(new MCPError(MCP_CODES.REQUEST_CANCELLED, "Server closed"));
    expect([engine.running, vi.getTimerCount(), feed.listenerCount]).toEqual([0, 0, listeners]);
  });

  it("is idempotent, and start() rejects with MCP.TRANSPORT_CLOSED after it", async () => {
    const engine = bench().engine();
    const closing = engine.close();
    expect(engine.close()).toBe(closing);
    await closing;
    const refused = await rejectedWith(
      engine.start({ owner: OWNER, request: CALL, work: async () => completed() }),
      MCP_CODES.TRANSPORT_CLOSED,
    );
    expect(refused.message).toBe("The task engine is closed: no task starts after close()");
  });

  it("leaves a work that ignores its signal after closeGraceMs, and still resolves", async () => {
    const engine = bench().engine({ closeGraceMs: 2_000 });
    const { run } = await startHeld(engine);
    let closed = false;
    const closing = engine.close().then(() => (closed = true));
    await vi.advanceTimersByTimeAsync(1_999);
    expect([closed, run.signal.aborted]).toEqual([false, true]);
    await vi.advanceTimersByTimeAsync(1);
    await closing;
    expect([engine.running, vi.getTimerCount()]).toEqual([0, 0]);
  });

  it("cancels a task whose start was being stored when close() began, and rejects that start", async () => {
    const { engine: make, store } = bench();
    const engine = make();
    const work = vi.fn();
    const starting = engine.start({ owner: OWNER, request: CALL, work });
    const closing = engine.close();
    await rejectedWith(starting, MCP_CODES.TRANSPORT_CLOSED);
    await closing;
    const { tasks } = await store.list(OWNER);
    expect([tasks.map((task) => [task.status, task.statusMessage]), work.mock.calls.length]).toEqual([[["cancelled", "Server closed"]], 0]);
  });

  it("publishes nothing for a run whose task was already final when close() cancels it, and still aborts the run", async () => {
    const { engine: make, store, changes } = bench();
    const engine = make();
    const { record, run, held } = await startHeld(engine);
    // Cancelled through the store alone: the engine was not told.
    await store.cancel(OWNER, record.taskId, "elsewhere");
    run.signal.addEventListener("abort", () => held.finish(completed()));
    const heard = changes.length;
    await engine.close();
    expect([changes.length, run.signal.reason, (await store.get(OWNER, record.taskId))?.statusMessage]).toEqual([
      heard,
      new MCPError(MCP_CODES.REQUEST_CANCELLED, "Server closed"),
      "elsewhere",
    ]);
  });

  it("reports a store that fails the closing cancel, and still aborts the run", async () => {
    const down = new Error("store down");
    const { engine: make, errors } = bench();
    const engine = make({ overrides: { cancel: () => Promise.reject(down) } });
    const { run, held } = await startHeld(engine);
    run.signal.addEventListener("abort", () => held.finish(completed()));
    await engine.close();
    expect([errors, run.signal.aborted, engine.running]).toEqual([[down], true, 0]);
  });
});

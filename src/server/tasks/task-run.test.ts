import { afterEach, describe, expect, it, vi } from "vitest";

import { MCP_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError, MCPError } from "../../error-codes/mcp-error.js";
import { rejectedWith } from "../../error-codes/mcp-error.test-helpers.js";
import type { TaskRecord } from "../../stores/task-store.js";
import { CAS_ATTEMPTS } from "./task-answers.js";
import { CALL, OWNER, accept, bench, completed, deferred, flush, startHeld } from "./tasks.test-helpers.js";

afterEach(() => {
  vi.useRealTimers();
});

const ELICIT = { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } };

describe("TaskRun.status: the task's statusMessage, throttled", () => {
  it("writes the first message at once, then the last of those given within one pollInterval when it ends", async () => {
    const { engine: make, store, changes } = bench();
    const engine = make({ pollIntervalMs: 1_000 });
    const { record, run } = await startHeld(engine);
    const message = async () => (await store.get(OWNER, record.taskId))?.statusMessage;
    run.status("compiling 1/3");
    await flush();
    expect([await message(), changes.length]).toEqual(["compiling 1/3", 2]);
    await vi.advanceTimersByTimeAsync(100);
    run.status("compiling 2/3");
    await vi.advanceTimersByTimeAsync(100);
    run.status("compiling 3/3");
    await vi.advanceTimersByTimeAsync(799);
    expect(await message()).toBe("compiling 1/3");
    await vi.advanceTimersByTimeAsync(1);
    expect([await message(), changes.length]).toEqual(["compiling 3/3", 3]);
    // A pollInterval has passed since: the next message is written at once.
    await vi.advanceTimersByTimeAsync(1_000);
    run.status("linking");
    await flush();
    expect(await message()).toBe("linking");
  });

  it("writes the message still waiting before the outcome, and none after it; its timer is cleared", async () => {
    const { engine: make, store } = bench();
    const engine = make();
    const { record, run, held } = await startHeld(engine);
    run.status("first");
    await flush();
    run.status("last");
    const timers = vi.getTimerCount();
    held.finish(completed());
    await flush();
    expect(vi.getTimerCount()).toBe(timers - 1);
    const task = (await store.get(OWNER, record.taskId)) as TaskRecord;
    expect([task.status, task.statusMessage, task.version]).toEqual(["completed", "last", 4]);
    run.status("after the end");
    await vi.advanceTimersByTimeAsync(5_000);
    expect((await store.get(OWNER, record.taskId))?.version).toBe(4);
  });

  it("reports a status write the store fails, and goes on", async () => {
    const down = new Error("store down");
    const { engine: make, errors } = bench();
    const engine = make({
      overrides: {
        update: (real, owner, taskId, patch, precondition) =>
          patch.statusMessage === "x" ? Promise.reject(down) : real.update(owner, taskId, patch, precondition),
      },
    });
    const { run } = await startHeld(engine);
    run.status("x");
    await flush();
    expect(errors).toEqual([down]);
  });
});

describe("TaskRun.ask and TaskEngine.answer: input while the task runs", () => {
  it("writes two parallel asks as two keys, stays input_required on a partial answer, and is working again after the last", async () => {
    const { engine: make, store } = bench();
    const engine = make();
    const { record, run } = await startHeld(engine);
    const both = Promise.all([run.ask("elicitation/create", ELICIT), run.ask("sampling/createMessage", { maxTokens: 5 })]);
    await flush();
    const asked = (await store.get(OWNER, record.taskId)) as TaskRecord;
    expect([asked.status, asked.inputRequests]).toEqual([
      "input_required",
      {
        "elicitation-1": { method: "elicitation/create", params: ELICIT },
        "sampling-2": { method: "sampling/createMessage", params: { maxTokens: 5 } },
      },
    ]);
    const partial = await engine.answer(OWNER, record.taskId, { "elicitation-1": { action: "accept", content: { name: "Ada" } } }, accept);
    expect([partial?.status, Object.keys(partial?.inputRequests ?? {})]).toEqual(["input_required", ["sampling-2"]]);
    const last = await engine.answer(OWNER, record.taskId, { "sampling-2": { role: "assistant" } }, accept);
    expect([last?.status, last?.inputRequests, last?.data]).toEqual([
      "working",
      undefined,
      { answers: { "elicitation-1": { action: "accept", content: { name: "Ada" } }, "sampling-2": { role: "assistant" } } },
    ]);
    expect(await both).toEqual([{ action: "accept", content: { name: "Ada" } }, { role: "assistant" }]);
  });

  it("uses the key given, counts the others per task (skipping one given before), and sends no params when none are given", async () => {
    const { engine: make, store } = bench();
    const engine = make();
    const { record, run } = await startHeld(engine);
    void run.ask("elicitation/create", ELICIT, "elicitation-1");
    void run.ask("elicitation/create", ELICIT);
    void run.ask("roots/list", undefined, "__proto__");
    await flush();
    const task = (await store.get(OWNER, record.taskId)) as TaskRecord;
    expect(Object.keys(task.inputRequests ?? {})).toEqual(["elicitation-1", "elicitation-2", "__proto__"]);
    expect(Object.hasOwn(task.inputRequests ?? {}, "__proto__") && task.inputRequests?.["__proto__"]).toEqual({ method: "roots/list" });
  });

  it("refuses a key used before in the task with MCP.INVALID_PARAMS, even once answered", async () => {
    const engine = bench().engine();
    const { record, run } = await startHeld(engine);
    const first = run.ask("elicitation/create", ELICIT, "name");
    await flush();
    await engine.answer(OWNER, record.taskId, { name: { action: "decline" } }, accept);
    expect(await first).toEqual({ action: "decline" });
    const refused = await rejectedWith(run.ask("elicitation/create", ELICIT, "name"), MCP_CODES.INVALID_PARAMS);
    expect(refused.message).toBe('Input key "name" was used before in this task: keys are never reused');
  });

  it("refuses a bad answer with -32602 naming its key, and applies nothing (not even the good ones)", async () => {
    const { engine: make, store, changes } = bench();
    const engine = make();
    const { record, run } = await startHeld(engine);
    void run.ask("elicitation/create", ELICIT, "a");
    void run.ask("elicitation/create", ELICIT, "b");
    await flush();
    const before = await store.get(OWNER, record.taskId);
    const heard = changes.length;
    const check = (method: string, params: unknown, answer: unknown) => {
      expect([method, params]).toEqual(["elicitation/create", ELICIT]);
      if (answer === "bad") throw new Error("not an elicitation result");
      return answer;
    };
    const refused = await engine
      .answer(OWNER, record.taskId, { a: { action: "cancel" }, b: "bad" }, check)
      .catch((error: unknown) => error);
    expect(refused).toEqual(new JsonRpcError(-32602, 'inputResponses["b"]: not an elicitation result'));
    expect([await store.get(OWNER, record.taskId), changes.length]).toEqual([before, heard]);
  });

  it("ignores keys not outstanding and writes nothing when none is; an answer checked to nothing is kept as null", async () => {
    const { engine: make, store, changes } = bench();
    const engine = make();
    const { record, run } = await startHeld(engine);
    const check = vi.fn(() => undefined);
    expect(await engine.answer(OWNER, record.taskId, { never: 1 }, check)).toEqual(record);
    const asked = run.ask("elicitation/create", ELICIT, "name");
    await flush();
    const heard = changes.length;
    const before = await store.get(OWNER, record.taskId);
    expect(await engine.answer(OWNER, record.taskId, JSON.parse('{"other":1,"__proto__":2}') as Record<string, unknown>, check)).toEqual(
      before,
    );
    expect([check.mock.calls.length, changes.length]).toEqual([0, heard]);
    await engine.answer(OWNER, record.taskId, { name: { action: "accept" } }, check);
    expect(await asked).toBeNull();
    expect((await store.get(OWNER, record.taskId))?.data).toEqual({ answers: { name: null } });
  });

  it("retries the answer's write when the version moved under it", async () => {
    const { engine: make, store } = bench();
    let clash = true;
    const engine = make({
      overrides: {
        update: async (real, owner, taskId, patch, precondition) => {
          // Once: another writer changes the task between the answer's read and its write.
          if (clash && patch.data !== undefined) {
            clash = false;
            await real.update(owner, taskId, { statusMessage: "meanwhile" });
          }
          return real.update(owner, taskId, patch, precondition);
        },
      },
    });
    const { record, run } = await startHeld(engine);
    const asked = run.ask("elicitation/create", ELICIT, "name");
    await flush();
    await engine.answer(OWNER, record.taskId, { name: { action: "decline" } }, accept);
    expect([await asked, (await store.get(OWNER, record.taskId))?.statusMessage]).toEqual([{ action: "decline" }, "meanwhile"]);
  });

  it("gives up with MCP.INTERNAL_ERROR when the version keeps moving, for an ask and for an answer", async () => {
    const { engine: make, store } = bench();
    const engine = make({
      overrides: {
        update: async (real, owner, taskId, patch, precondition) => {
          if (precondition?.version !== undefined) await real.update(owner, taskId, { statusMessage: "busy" });
          return real.update(owner, taskId, patch, precondition);
        },
      },
    });
    const { record, run } = await startHeld(engine);
    const refused = await rejectedWith(run.ask("elicitation/create", ELICIT, "name"), MCP_CODES.INTERNAL_ERROR);
    expect(refused.message).toBe(`Task ${record.taskId} kept changing: its input request "name" could not be written`);
    await store.update(OWNER, record.taskId, { status: "input_required", inputRequests: { name: { method: "elicitation/create" } } });
    const busy = await rejectedWith(engine.answer(OWNER, record.taskId, { name: 1 }, accept), MCP_CODES.INTERNAL_ERROR);
    expect([busy.message, (await store.get(OWNER, record.taskId))?.version]).toEqual([
      `Task ${record.taskId} kept changing: its input answers could not be written`,
      2 + 2 * CAS_ATTEMPTS,
    ]);
  });

  it("rejects an ask whose write the store fails with that failure", async () => {
    const down = new Error("store down");
    const engine = bench().engine({ overrides: { get: () => Promise.reject(down) } });
    const { run } = await startHeld(engine);
    await expect(run.ask("elicitation/create", ELICIT)).rejects.toBe(down);
  });

  it("keeps the cancel's reason for an ask whose write fails after the run ended", async () => {
    const reading = deferred();
    let failing = false;
    const engine = bench().engine({
      overrides: {
        get: async (real, owner, taskId) => {
          if (!failing) return real.get(owner, taskId);
          await reading.promise;
          throw new Error("store down");
        },
      },
    });
    const { record, run } = await startHeld(engine);
    failing = true;
    const asked = run.ask("elicitation/create", ELICIT).catch((error: unknown) => error);
    await engine.cancel(OWNER, record.taskId, "Stopped");
    reading.resolve();
    expect(await asked).toEqual(new MCPError(MCP_CODES.REQUEST_CANCELLED, "Stopped"));
  });

  it("rejects the asks with the signal's reason when the run ends, and any ask after it", async () => {
    const engine = bench().engine();
    const { record, run } = await startHeld(engine);
    const asked = run.ask("elicitation/create", ELICIT);
    await flush();
    await engine.cancel(OWNER, record.taskId, "no longer needed");
    const reason = new MCPError(MCP_CODES.REQUEST_CANCELLED, "no longer needed");
    await expect(asked).rejects.toEqual(reason);
    await expect(run.ask("elicitation/create", ELICIT)).rejects.toBe(run.signal.reason);
  });

  it("rejects the asks still waiting when the work ends without them, and any ask after it, with MCP.INTERNAL_ERROR", async () => {
    const { engine: make, store } = bench();
    const engine = make();
    const { record, run, held } = await startHeld(engine);
    const asked = run.ask("elicitation/create", ELICIT);
    await flush();
    held.finish(completed());
    const ended = await rejectedWith(asked, MCP_CODES.INTERNAL_ERROR);
    expect(ended.message).toBe("The task's work ended before its input was answered");
    await rejectedWith(run.ask("elicitation/create", ELICIT), MCP_CODES.INTERNAL_ERROR);
    const task = (await store.get(OWNER, record.taskId)) as TaskRecord;
    expect([task.status, "inputRequests" in task]).toEqual(["completed", false]);
  });

  it("ends the run when its task was cancelled or is gone by the time an ask is written", async () => {
    const { engine: make, store } = bench();
    const engine = make();
    const cancelled = await startHeld(engine);
    await store.cancel(OWNER, cancelled.record.taskId, "cancelled elsewhere");
    await expect(cancelled.run.ask("elicitation/create", ELICIT)).rejects.toEqual(
      new MCPError(MCP_CODES.REQUEST_CANCELLED, "cancelled elsewhere"),
    );
    const gone = await startHeld(engine, { ttl: 1_000 });
    vi.setSystemTime(Date.now() + 1_000);
    await expect(gone.run.ask("elicitation/create", ELICIT)).rejects.toEqual(new MCPError(MCP_CODES.REQUEST_CANCELLED, "Task expired"));
    expect([cancelled.run.signal.aborted, gone.run.signal.aborted]).toEqual([true, true]);
  });

  it("never starts the work of a task cancelled before the work's turn", async () => {
    const { engine: make, store } = bench();
    const engine = make();
    const work = vi.fn(async () => completed());
    const record = await engine.start({ owner: OWNER, request: CALL, work });
    await engine.cancel(OWNER, record.taskId);
    await flush();
    expect([work.mock.calls.length, engine.running, (await store.get(OWNER, record.taskId))?.status]).toEqual([0, 0, "cancelled"]);
  });
});

describe("TaskEngine: two processes sharing one store and one feed", () => {
  it("resolves an ask on A with the answer given on B (A hears the feed and re-reads data.answers)", async () => {
    const { engine: make } = bench();
    const [a, b] = [make(), make()];
    const { record, run } = await startHeld(a);
    const asked = run.ask("elicitation/create", ELICIT, "name");
    await flush();
    expect(await b.answer(OWNER, record.taskId, { name: { action: "accept", content: { name: "Ada" } } }, accept)).toMatchObject({
      status: "working",
    });
    await flush();
    expect(await asked).toEqual({ action: "accept", content: { name: "Ada" } });
    expect([a.running, b.running]).toEqual([1, 0]);
  });

  it("does not lose an answer given on B while A's ask write is still returning", async () => {
    const { engine: make } = bench();
    let b!: ReturnType<typeof make>;
    const a = make({
      overrides: {
        update: async (real, owner, taskId, patch, precondition) => {
          const outcome = await real.update(owner, taskId, patch, precondition);
          if (patch.inputRequests !== undefined) await b.answer(owner, taskId, { name: "early" }, accept);
          return outcome;
        },
      },
    });
    b = make();
    const { run } = await startHeld(a);
    const asked = run.ask("elicitation/create", ELICIT, "name");
    await flush();
    expect(await asked).toBe("early");
  });

  it("resolves on A only the asks B answered; the others keep waiting", async () => {
    const { engine: make } = bench();
    const [a, b] = [make(), make()];
    const { record, run } = await startHeld(a);
    let second: unknown = "waiting";
    const first = run.ask("elicitation/create", ELICIT, "first");
    void run.ask("elicitation/create", ELICIT, "second").then((answer) => (second = answer));
    await flush();
    await b.answer(OWNER, record.taskId, { first: "one" }, accept);
    await flush();
    expect([await first, second]).toEqual(["one", "waiting"]);
  });

  it("ends A's run with 'Task expired' when a change finds its task gone", async () => {
    const { engine: make, feed } = bench();
    const a = make();
    const { record, run } = await startHeld(a, { ttl: 1_000 });
    vi.setSystemTime(Date.now() + 1_000);
    await feed.publish({ kind: "task", taskId: record.taskId });
    await flush();
    expect(run.signal.reason).toEqual(new MCPError(MCP_CODES.REQUEST_CANCELLED, "Task expired"));
  });

  it("aborts A's run when B cancels its task, with the cancel's message", async () => {
    const { engine: make } = bench();
    const [a, b] = [make(), make()];
    const { record, run } = await startHeld(a);
    await b.cancel(OWNER, record.taskId, "Cancelled from B");
    await flush();
    expect(run.signal.reason).toEqual(new MCPError(MCP_CODES.REQUEST_CANCELLED, "Cancelled from B"));
  });

  it("reads once more, not once per change, when changes arrive while it reads; a failed read is reported", async () => {
    const { engine: make, feed, errors } = bench();
    const reading = deferred();
    let reads = 0;
    const a = make({
      overrides: {
        get: async (real, owner, taskId) => {
          reads += 1;
          if (reads === 1) await reading.promise;
          if (reads === 3) throw new Error("read failed");
          return real.get(owner, taskId);
        },
      },
    });
    const { record, run } = await startHeld(a);
    for (let n = 0; n < 3; n += 1) await feed.publish({ kind: "task", taskId: record.taskId });
    reading.resolve();
    await flush();
    expect(reads).toBe(2);
    await feed.publish({ kind: "task", taskId: record.taskId });
    await flush();
    expect([reads, errors, run.signal.aborted]).toEqual([3, [new Error("read failed")], false]);
    await feed.publish({ kind: "list", list: "tools" });
    expect(reads).toBe(3);
  });
});

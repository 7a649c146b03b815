import { afterEach, describe, expect, it, vi } from "vitest";

import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { InMemoryTaskStore } from "../../stores/in-memory-task-store.js";
import { TaskExpiry } from "./task-expiry.js";
import { OWNER, T0, bench, startHeld } from "./tasks.test-helpers.js";

afterEach(() => {
  vi.useRealTimers();
});

const EXPIRED = new MCPError(MCP_CODES.REQUEST_CANCELLED, "Task expired");

describe("TaskEngine: expiry", () => {
  it("keeps one timer at the earliest expiry; when it fires, the store expires, the local run aborts, the next is armed", async () => {
    const { engine: make, store, changes } = bench();
    const expire = vi.spyOn(store, "expire");
    const engine = make();
    const late = await startHeld(engine, { ttl: 5_000 });
    const early = await startHeld(engine, { ttl: 2_000 });
    const last = await startHeld(engine, { ttl: 8_000 });
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_999);
    expect([expire.mock.calls.length, early.run.signal.aborted]).toEqual([0, false]);
    const heard = changes.length;
    await vi.advanceTimersByTimeAsync(1);
    expect(expire.mock.calls).toEqual([[T0 + 2_000]]);
    expect([early.run.signal.reason, late.run.signal.aborted, store.size, changes.length, vi.getTimerCount()]).toEqual([
      EXPIRED,
      false,
      2,
      heard,
      1,
    ]);
    await vi.advanceTimersByTimeAsync(3_000);
    expect([late.run.signal.reason, last.run.signal.aborted, store.size]).toEqual([EXPIRED, false, 1]);
    await vi.advanceTimersByTimeAsync(3_000);
    expect([last.run.signal.reason, store.size, expire.mock.calls.length, vi.getTimerCount()]).toEqual([EXPIRED, 0, 3, 0]);
  });

  it("keeps the expiry of a task that ended, and frees it from the store at its time", async () => {
    const { engine: make, store } = bench();
    const engine = make();
    const { held } = await startHeld(engine, { ttl: 1_000 });
    held.finish({ result: { content: [] } });
    await vi.advanceTimersByTimeAsync(999);
    expect([engine.running, store.size, vi.getTimerCount()]).toEqual([0, 1, 1]);
    await vi.advanceTimersByTimeAsync(1);
    expect([store.size, vi.getTimerCount()]).toEqual([0, 0]);
  });

  it("keeps the first reason of a run that was cancelled before its task expired", async () => {
    const engine = bench().engine();
    const { record, run } = await startHeld(engine, { ttl: 1_000 });
    await engine.cancel(OWNER, record.taskId, "Stopped");
    await vi.advanceTimersByTimeAsync(1_000);
    expect([run.signal.reason, engine.running]).toEqual([new MCPError(MCP_CODES.REQUEST_CANCELLED, "Stopped"), 1]);
  });

  it("arms nothing for a task with a null ttl", async () => {
    const engine = bench().engine({ maxTtlMs: null });
    const { record } = await startHeld(engine, { ttl: null });
    expect([record.ttl, vi.getTimerCount()]).toEqual([null, 0]);
  });

  it("reaches an expiry beyond 2^31 − 1 ms in steps", async () => {
    const { engine: make, store } = bench();
    const expire = vi.spyOn(store, "expire");
    const engine = make({ maxTtlMs: null });
    const thirtyDays = 30 * 86_400_000;
    const { run } = await startHeld(engine, { ttl: thirtyDays });
    await vi.advanceTimersByTimeAsync(2_147_483_647);
    expect([expire.mock.calls.length, run.signal.aborted, vi.getTimerCount()]).toEqual([1, false, 1]);
    await vi.advanceTimersByTimeAsync(thirtyDays - 2_147_483_647);
    expect([expire.mock.calls.length, run.signal.reason, vi.getTimerCount()]).toEqual([2, EXPIRED, 0]);
  });

  it("reports a store whose expire fails, and still aborts the run and arms the next", async () => {
    const down = new Error("store down");
    const { engine: make, errors } = bench();
    const engine = make({ overrides: { expire: () => Promise.reject(down) } });
    const first = await startHeld(engine, { ttl: 1_000 });
    await startHeld(engine, { ttl: 2_000 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect([errors, first.run.signal.reason, vi.getTimerCount()]).toEqual([[down], EXPIRED, 1]);
  });
});

describe("TaskExpiry", () => {
  it("unrefs its timer where the timer has unref, and does without where it has none", () => {
    const unref = vi.fn();
    const setTimer = vi
      .spyOn(globalThis, "setTimeout")
      .mockReturnValueOnce({ unref } as never)
      .mockReturnValueOnce(7 as never);
    vi.spyOn(globalThis, "clearTimeout").mockImplementation(() => undefined);
    const expiry = new TaskExpiry(
      new InMemoryTaskStore(),
      () => T0,
      () => undefined,
      () => undefined,
    );
    expiry.add("later", T0 + 2_000);
    expiry.add("sooner", T0 + 1_000);
    expect([setTimer.mock.calls.map((call) => call[1]), unref.mock.calls.length, expiry.size]).toEqual([[2_000, 1_000], 1, 2]);
    expiry.add("last", T0 + 3_000);
    expect(setTimer.mock.calls.length).toBe(2);
    expiry.close();
    expect(expiry.size).toBe(0);
  });

  it("arms nothing again when closed while a firing waits on the store", async () => {
    vi.useFakeTimers({ now: T0 });
    let release!: () => void;
    const store = new InMemoryTaskStore();
    vi.spyOn(store, "expire").mockImplementation(() => new Promise((resolve) => (release = () => resolve(0))));
    const due = vi.fn();
    const expiry = new TaskExpiry(
      store,
      () => Date.now(),
      due,
      () => undefined,
    );
    expiry.add("a", T0 + 10);
    expiry.add("b", T0 + 20);
    await vi.advanceTimersByTimeAsync(10);
    expiry.close();
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect([due.mock.calls, vi.getTimerCount()]).toEqual([[[["a"]]], 0]);
  });
});

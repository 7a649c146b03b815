import { describe, expect, it, vi } from "vitest";

import { MCP_CODES } from "../error-codes/error-codes.js";
import { InMemoryTaskStore } from "./in-memory-task-store.js";
import { rejectedWith } from "../error-codes/mcp-error.test-helpers.js";
import { CALL, RESULT, T0, clocked, describeTaskStore } from "./task-store.test-helpers.js";

/** Random sequences of the model property: 150 in `npm test`, `FUZZ_RUNS=<n>` for a longer campaign. */
const MODEL_RUNS = Number(process.env["FUZZ_RUNS"]) || 150;

describeTaskStore("InMemoryTaskStore", (options) => new InMemoryTaskStore(options), MODEL_RUNS);

const inMemory = (maxTasksPerOwner?: number) =>
  clocked((options) => new InMemoryTaskStore(options), maxTasksPerOwner) as Promise<{
    store: InMemoryTaskStore;
    advance: (ms: number) => number;
  }>;

describe("InMemoryTaskStore", () => {
  it("makes task ids of 128 random bits, as lower-case hex", async () => {
    const random = vi.spyOn(crypto, "getRandomValues");
    const { store } = await inMemory();
    const { taskId } = await store.create("alice", CALL);
    expect(taskId).toMatch(/^[0-9a-f]{32}$/);
    expect(random).toHaveBeenCalledWith(expect.objectContaining({ length: 16 }));
  });

  it("reads Date.now when given no clock, and serves 1000 tasks per owner, 100 per page", async () => {
    vi.spyOn(Date, "now").mockReturnValue(T0 + 5);
    const store = new InMemoryTaskStore();
    expect(await store.create("alice", CALL)).toMatchObject({ createdAt: T0 + 5 });
    for (let n = 1; n < 1000; n += 1) await store.create("alice", { ...CALL, ttl: 1000 + n });
    await rejectedWith(store.create("alice", CALL), MCP_CODES.RATE_LIMITED);
    const first = await store.list("alice");
    expect(first.tasks).toHaveLength(100);
    expect(first.nextCursor).toBe(`t1.${(100).toString(36)}`);
    expect((await store.list("alice", { cursor: first.nextCursor as string })).tasks[0]).toMatchObject({ ttl: 1100 });
    vi.spyOn(Date, "now").mockReturnValue(T0 + 5 + 60_000);
    expect(await store.expire()).toBe(1000);
  });

  it.each([
    [{ now: 5 as never }, "InMemoryTaskStore: now must be a function giving epoch milliseconds"],
    [{ maxTasksPerOwner: 0 }, "InMemoryTaskStore: maxTasksPerOwner must be a positive whole number"],
    [{ maxTasksPerOwner: 2.5 }, "InMemoryTaskStore: maxTasksPerOwner must be a positive whole number"],
    [{ pageSize: 0 }, "InMemoryTaskStore: pageSize must be a positive whole number"],
  ])("refuses the options %j", (options, message) => {
    expect(() => new InMemoryTaskStore(options)).toThrow(expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message }));
  });

  it("quotes at most 64 characters of a cursor it refuses", async () => {
    const { store } = await inMemory();
    const refused = await rejectedWith(store.list("alice", { cursor: `t1.${"x".repeat(100)}` }), MCP_CODES.INVALID_PARAMS);
    expect(refused.message).toBe(`Invalid cursor: "t1.${"x".repeat(61)}"`);
  });

  it("keeps why JSON refused a value as the error's cause", async () => {
    const { store } = await inMemory();
    const refused = await rejectedWith(store.create("alice", { ...CALL, data: { size: 10n } as never }), MCP_CODES.INVALID_PARAMS);
    expect(refused.cause).toBeInstanceOf(TypeError);
  });

  it("lists pageSize tasks a page when the caller gives no limit", async () => {
    const store = new InMemoryTaskStore({ now: () => T0, pageSize: 2 });
    for (let n = 0; n < 3; n += 1) await store.create("alice", CALL);
    const first = await store.list("alice");
    expect(first.tasks).toHaveLength(2);
    expect((await store.list("alice", { cursor: first.nextCursor as string })).tasks).toHaveLength(1);
  });

  it("frees what expired tasks hold on expire(), and owners that hold nothing more", async () => {
    const { store, advance } = await inMemory();
    await store.create("alice", { ...CALL, ttl: 100 });
    await store.create("alice", { ...CALL, ttl: 200 });
    await store.create("bob", { ...CALL, ttl: 100 });
    expect([store.size, store.ownerCount]).toEqual([3, 2]);
    advance(100);
    expect(await store.expire()).toBe(2);
    expect([store.size, store.ownerCount]).toEqual([1, 1]);
    advance(100);
    expect(await store.expire()).toBe(1);
    expect([store.size, store.ownerCount]).toEqual([0, 0]);
  });

  it("frees an owner's expired tasks when it gets, updates, lists or creates", async () => {
    const { store, advance } = await inMemory();
    const made = async (owner: string) => (await store.create(owner, { ...CALL, ttl: 100 })).taskId;
    const ids = [await made("get"), await made("update"), await made("list"), await made("create")];
    await store.create("other", { ...CALL, ttl: 100 });
    advance(100);
    await store.get("get", ids[0] as string);
    expect(store.size).toBe(4);
    await store.update("update", ids[1] as string, {});
    expect(store.size).toBe(3);
    await store.list("list");
    expect(store.size).toBe(2);
    await store.create("create", CALL);
    expect([store.size, store.ownerCount]).toEqual([2, 2]);
    await store.get("get", ids[0] as string);
    expect(await store.expire()).toBe(1);
  });

  it("frees an expired task that another owner asks for only when its owner comes", async () => {
    const { store, advance } = await inMemory();
    const { taskId } = await store.create("alice", { ...CALL, ttl: 100 });
    advance(100);
    expect(await store.get("mallory", taskId)).toBeUndefined();
    expect(store.size).toBe(1);
    expect(await store.get("alice", taskId)).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it("keeps an unexpired task of an owner whose other task it frees", async () => {
    const { store, advance } = await inMemory();
    const short = await store.create("alice", { ...CALL, ttl: 100 });
    const long = await store.create("alice", { ...CALL, ttl: 1000 });
    advance(100);
    expect(await store.get("alice", short.taskId)).toBeUndefined();
    expect(await store.get("alice", long.taskId)).toMatchObject({ version: 1 });
    expect([store.size, store.ownerCount]).toEqual([1, 1]);
    await store.update("alice", long.taskId, { status: "completed", result: RESULT });
    expect((await store.list("alice")).tasks).toEqual([expect.objectContaining({ taskId: long.taskId, status: "completed" })]);
  });
});

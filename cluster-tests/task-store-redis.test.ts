// What the Redis task store does beyond the contract: its keys (one hash tag per owner, a Redis
// expiry on every one), the expiry index `expire()` walks, and what it does when Redis freed a
// record first or forgot its scripts.
import { describe, expect, it, vi } from "vitest";

import { MCP_CODES } from "../src/error-codes/error-codes.js";
import { rejectedWith } from "../src/error-codes/mcp-error.test-helpers.js";
import { RedisTaskStore, redisCommands, type RedisCommands } from "../src/redis/index.js";
import { CALL, RESULT, T0 } from "../src/stores/task-store.test-helpers.js";
import { uniquePrefix, useRedisServer } from "./support/redis-server.js";

const redis = useRedisServer();

async function setUp(name: string): Promise<{
  store: RedisTaskStore;
  commands: RedisCommands;
  prefix: string;
  advance: (ms: number) => void;
  keys: () => Promise<string[]>;
}> {
  let time = T0;
  const prefix = uniquePrefix(name);
  const commands = redisCommands(await redis.nodeRedis());
  const store = new RedisTaskStore({ client: commands, prefix, now: () => time });
  const keys = async () => ((await commands.command(["KEYS", `${prefix}*`])) as string[]).toSorted();
  return { store, commands, prefix, advance: (ms) => void (time += ms), keys };
}

const pttl = async (commands: RedisCommands, key: string): Promise<number> => Number(await commands.command(["PTTL", key]));

describe("RedisTaskStore's keys", () => {
  /** How long after the store's clock Redis frees a key: the clocks of the processes sharing it may differ. */
  const REDIS_GRACE_MS = 60_000;

  it("keeps an owner's keys under its hash tag, each expiring with what it holds, and none once expire() ran", async () => {
    const { store, commands, prefix, advance, keys } = await setUp("keys");
    const short = await store.create("alice", { ...CALL, ttl: 60_000 });
    const tag = `${prefix}{o:alice}`;
    expect(await keys()).toEqual([`${prefix}{expiry}`, `${tag}:exp`, `${tag}:seq`, `${tag}:t:${short.taskId}`]);
    for (const key of await keys()) expect(await pttl(commands, key)).toBeGreaterThan(59_000);
    advance(10_000);
    const long = await store.create("alice", { ...CALL, ttl: 120_000 });
    // The record keeps its own end (and Redis a minute more); the indexes last as long as the owner's last task.
    expect(await pttl(commands, `${tag}:t:${short.taskId}`)).toBeLessThanOrEqual(60_000 + REDIS_GRACE_MS);
    expect(await pttl(commands, `${tag}:t:${short.taskId}`)).toBeGreaterThan(REDIS_GRACE_MS);
    expect(await pttl(commands, `${tag}:t:${long.taskId}`)).toBeGreaterThan(110_000);
    expect(await pttl(commands, `${tag}:seq`)).toBeGreaterThan(110_000);
    const forever = await store.create("alice", { ...CALL, ttl: null });
    for (const key of [`${tag}:t:${forever.taskId}`, `${tag}:seq`, `${tag}:exp`]) expect(await pttl(commands, key)).toBe(-1);
    await store.update("alice", forever.taskId, { status: "completed", result: RESULT, ttl: 30_000 });
    expect(await pttl(commands, `${tag}:t:${forever.taskId}`)).toBeGreaterThan(19_000);
    expect(await pttl(commands, `${tag}:seq`)).toBeGreaterThan(110_000);
    advance(200_000);
    expect(await store.expire()).toBe(3);
    // Redis deletes a sorted set it empties: nothing of the prefix is left.
    expect(await keys()).toEqual([]);
  });

  it("escapes what could end or share a tag: braces, percent signs, lone surrogates", async () => {
    const { store, prefix, keys } = await setUp("tags");
    for (const owner of ["", "a}b{", "100%", "\uD800x", "x\uDC00", "😀"]) await store.create(owner, { ...CALL, ttl: null });
    const tags = (await keys()).filter((key) => key.endsWith(":seq")).map((key) => key.slice(prefix.length, -":seq".length));
    expect(tags.toSorted()).toEqual(["{o:%d800x}", "{o:100%0025}", "{o:a%007db%007b}", "{o:x%dc00}", "{o:}", "{o:😀}"].toSorted());
    expect((await store.list("a}b{")).tasks).toHaveLength(1);
  });

  it("sends a script whole when Redis has forgotten it", async () => {
    const { store, commands } = await setUp("noscript");
    const { taskId } = await store.create("alice", CALL);
    await commands.command(["SCRIPT", "FLUSH"]);
    expect(await store.update("alice", taskId, { statusMessage: "again" })).toMatchObject({ ok: true, task: { version: 2 } });
  });

  it("passes on any other error Redis answers", async () => {
    const { commands } = await setUp("errors");
    const failing: RedisCommands = {
      ...commands,
      command: (args) => (args[0] === "EVALSHA" ? Promise.reject(new Error("OOM command not allowed")) : commands.command(args)),
    };
    const store = new RedisTaskStore({ client: failing, prefix: uniquePrefix("errors") });
    await expect(store.create("alice", CALL)).rejects.toThrow("OOM command not allowed");
    const odd: RedisCommands = { ...commands, command: () => Promise.reject("not an Error") };
    await expect(new RedisTaskStore({ client: odd }).create("alice", CALL)).rejects.toBe("not an Error");
  });

  it("lists past a record Redis freed first, and drops it from the owner's indexes", async () => {
    const { store, commands, prefix, keys } = await setUp("freed");
    const [one, two, three] = [await store.create("alice", CALL), await store.create("alice", CALL), await store.create("alice", CALL)];
    await commands.command(["DEL", `${prefix}{o:alice}:t:${two.taskId}`]);
    const page = await store.list("alice", { limit: 2 });
    expect(page.tasks.map((task) => task.taskId)).toEqual([one.taskId, three.taskId]);
    expect(page.nextCursor).toBeUndefined();
    expect(await commands.command(["ZCARD", `${prefix}{o:alice}:seq`])).toBe(2);
    expect((await keys()).length).toBe(5);
  });

  it("follows a task whose expiry moved after the index was written, and one that no longer expires", async () => {
    const { store, commands, prefix } = await setUp("moved");
    const moved = await store.create("alice", { ...CALL, ttl: 100 });
    const kept = await store.create("alice", { ...CALL, ttl: 100 });
    await store.update("alice", moved.taskId, { ttl: 10_000 });
    await store.update("alice", kept.taskId, { ttl: null });
    expect(await commands.command(["ZRANGE", `${prefix}{expiry}`, "0", "-1"])).toEqual([JSON.stringify(["alice", moved.taskId])]);
    // As if a process had written the old expiries back after those updates.
    await commands.command(["ZADD", `${prefix}{expiry}`, String(T0 + 100), JSON.stringify(["alice", moved.taskId])]);
    expect(await store.expire(T0 + 150)).toBe(0);
    await commands.command(["ZADD", `${prefix}{expiry}`, String(T0 + 100), JSON.stringify(["alice", kept.taskId])]);
    expect(await store.expire(T0 + 150)).toBe(0);
    expect(await commands.command(["ZRANGE", `${prefix}{expiry}`, "0", "-1"])).toEqual([JSON.stringify(["alice", moved.taskId])]);
    expect(Number(await commands.command(["ZSCORE", `${prefix}{expiry}`, JSON.stringify(["alice", moved.taskId])]))).toBe(T0 + 10_000);
    expect(await store.get("alice", kept.taskId)).toMatchObject({ ttl: null });
    expect(await store.expire(T0 + 10_000)).toBe(1);
  });

  it("walks the expiry index a hundred entries at a time", async () => {
    const { store } = await setUp("batches");
    const bulk = new RedisTaskStore({
      client: redisCommands(await redis.ioRedis()),
      prefix: uniquePrefix("batches"),
      now: () => T0,
      maxTasksPerOwner: 300,
    });
    for (let n = 0; n < 250; n += 1) await bulk.create(`owner ${n % 3}`, { ...CALL, ttl: 100 });
    expect(await bulk.expire(T0 + 100)).toBe(250);
    expect(await store.expire(T0 + 100)).toBe(0);
  });
});

describe("RedisTaskStore's options", () => {
  it("reads Date.now when given no clock, and takes 1000 tasks per owner, 100 per page, under mcp:", async () => {
    const commands = redisCommands(await redis.ioRedis());
    await commands.command(["FLUSHALL"]);
    vi.spyOn(Date, "now").mockReturnValue(T0 + 5);
    const store = new RedisTaskStore({ client: commands });
    for (let n = 0; n < 1000; n += 1) await store.create("alice", CALL);
    await rejectedWith(store.create("alice", CALL), MCP_CODES.RATE_LIMITED);
    const first = await store.list("alice");
    expect(first.tasks).toHaveLength(100);
    expect(first.tasks[0]).toMatchObject({ createdAt: T0 + 5 });
    expect(await commands.command(["EXISTS", "mcp:{o:alice}:seq"])).toBe(1);
    vi.spyOn(Date, "now").mockReturnValue(T0 + 5 + 60_000);
    expect(await store.expire()).toBe(1000);
  });

  it.each([
    [null, "RedisTaskStore: options must be an object with a client"],
    [{ now: 5 }, "RedisTaskStore: now must be a function giving epoch milliseconds"],
    [{ maxTasksPerOwner: 0 }, "RedisTaskStore: maxTasksPerOwner must be a positive whole number"],
    [{ pageSize: 1.5 }, "RedisTaskStore: pageSize must be a positive whole number"],
    [{ prefix: "a{b" }, "RedisTaskStore: prefix must be a string without { or }"],
    [{ prefix: 7 }, "RedisTaskStore: prefix must be a string without { or }"],
    [{ client: null }, "A Redis store needs a node-redis client, an ioredis client, or a RedisCommands adapter"],
    [
      { client: { sendCommand: 1, call: 1, command: 1 } },
      "A Redis store needs a node-redis client, an ioredis client, or a RedisCommands adapter",
    ],
  ])("refuses the options %j", async (options, message) => {
    const client = await redis.ioRedis();
    const given = options === null ? null : { client, ...options };
    expect(() => new RedisTaskStore(given as never)).toThrow(expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message }));
  });
});

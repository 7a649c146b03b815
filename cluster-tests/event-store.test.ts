// RedisEventStore on a real redis-server: a stream's events after an id, in order; a trimmed or
// unknown id refused (undefined), never a replay with a gap; an expiry on every key; dropSession.
import { describe, expect, it } from "vitest";

import { MCP_CODES } from "../src/error-codes/error-codes.js";
import { RedisEventStore, redisCommands, type RedisClient } from "../src/redis/index.js";
import type { StoredEvent } from "../src/transport/http-server/event-store.js";
import { uniquePrefix, useRedisServer } from "./support/redis-server.js";

const redis = useRedisServer();
const event = (n: number): StoredEvent => ({
  id: `e${n}`,
  data: n === 0 ? "" : JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: n } }),
});
const s1 = { sessionId: "session}{%", streamId: "s1" };
const s2 = { sessionId: "session}{%", streamId: "s2" };

describe.each(["node-redis", "ioredis"])("RedisEventStore (%s)", (library) => {
  const client = async (): Promise<RedisClient> => (library === "ioredis" ? redis.ioRedis() : redis.nodeRedis());

  it("replays what followed an id of the stream, in order, and refuses an id it does not hold", async () => {
    const store = new RedisEventStore({ client: await client(), prefix: uniquePrefix("events") });
    for (let n = 0; n < 5; n += 1) await store.append(s1, event(n));
    await store.append(s2, event(10));
    expect(await store.eventsAfter(s1, "e1")).toEqual([event(2), event(3), event(4)]);
    expect(await store.eventsAfter(s1, "e0")).toEqual([1, 2, 3, 4].map(event));
    expect(await store.eventsAfter(s1, "e4")).toEqual([]);
    expect(await store.eventsAfter(s2, "e10")).toEqual([]);
    expect(await store.eventsAfter(s1, "e10")).toBeUndefined();
    expect(await store.eventsAfter(s1, "never")).toBeUndefined();
    expect(await store.eventsAfter({ sessionId: "other", streamId: "s1" }, "e1")).toBeUndefined();
  });

  it("keeps the last maxEventsPerStream events of a stream: a replay from one trimmed is refused", async () => {
    const prefix = uniquePrefix("trim");
    const commands = redisCommands(await client());
    const store = new RedisEventStore({ client: commands, prefix, maxEventsPerStream: 3 });
    for (let n = 1; n <= 6; n += 1) await store.append(s1, event(n));
    for (const gone of ["e1", "e2", "e3"]) expect(await store.eventsAfter(s1, gone)).toBeUndefined();
    expect(await store.eventsAfter(s1, "e4")).toEqual([event(5), event(6)]);
    const base = `${prefix}{e:session%007d%007b%0025}:`;
    expect(await commands.command(["XLEN", `${base}s:s1`])).toBe(3);
    expect(await commands.command(["HLEN", `${base}i:s1`])).toBe(3);
  });

  it("appends several events in one script, in order, trimming the oldest when they are more than it keeps; none is nothing", async () => {
    const prefix = uniquePrefix("batch");
    const commands = redisCommands(await client());
    const store = new RedisEventStore({ client: commands, prefix, maxEventsPerStream: 3 });
    await store.appendAll(s1, []);
    expect(await commands.command(["KEYS", `${prefix}*`])).toEqual([]);
    await store.appendAll(s1, [{ ...event(0), requests: [7] }, event(1)]);
    expect(await store.eventsAfter(s1, "e0")).toEqual([event(1)]);
    await store.appendAll(s1, [event(2), event(3), event(4), event(5)]);
    for (const gone of ["e0", "e1", "e2"]) expect(await store.eventsAfter(s1, gone)).toBeUndefined();
    expect(await store.eventsAfter(s1, "e3")).toEqual([event(4), event(5)]);
    expect(await store.streamRequests(s1)).toEqual([7]);
  });

  it("refuses an id whose entry is gone though its id is still known", async () => {
    const prefix = uniquePrefix("gap");
    const commands = redisCommands(await client());
    const store = new RedisEventStore({ client: commands, prefix });
    for (let n = 1; n <= 3; n += 1) await store.append(s1, event(n));
    const base = `${prefix}{e:session%007d%007b%0025}:`;
    await commands.command(["XTRIM", `${base}s:s1`, "MAXLEN", "1"]);
    expect(await store.eventsAfter(s1, "e1")).toBeUndefined();
    expect(await store.eventsAfter(s1, "e3")).toEqual([]);
  });

  it("keeps the requests a stream's first event named, past trimming, as long as the stream; null when it named none", async () => {
    const prefix = uniquePrefix("requests");
    const commands = redisCommands(await client());
    const store = new RedisEventStore({ client: commands, prefix, maxEventsPerStream: 2 });
    await store.append(s1, { ...event(0), requests: [1, "two", -3.5] });
    for (let n = 1; n <= 3; n += 1) await store.append(s1, { ...event(n), requests: [n] });
    await store.append(s2, event(10));
    await store.append(s2, { ...event(11), requests: [11] });
    expect(await store.eventsAfter(s1, "e0")).toBeUndefined();
    expect(await store.streamRequests(s1)).toEqual([1, "two", -3.5]);
    expect(await store.streamRequests(s2)).toBeNull();
    expect(await store.streamRequests({ sessionId: s1.sessionId, streamId: "s3" })).toBeUndefined();
    expect(await store.streamRequests({ sessionId: "other", streamId: "s1" })).toBeUndefined();
    const base = `${prefix}{e:session%007d%007b%0025}:`;
    expect(await commands.command(["HMGET", `${base}streams`, "s1", "s2"])).toEqual(['[1,"two",-3.5]', "null"]);
    await store.dropSession(s1.sessionId);
    expect(await store.streamRequests(s1)).toBeUndefined();
    expect(await store.streamRequests(s2)).toBeUndefined();
  });

  it("keeps every key of a session for ttlMs after its last append, and drops them all with the session", async () => {
    const prefix = uniquePrefix("drop");
    const commands = redisCommands(await client());
    const store = new RedisEventStore({ client: commands, prefix, ttlMs: 60_000 });
    await store.append(s1, event(1));
    await store.append(s2, event(2));
    await store.append({ sessionId: "kept", streamId: "s1" }, event(3));
    const keys = async () => ((await commands.command(["KEYS", `${prefix}*`])) as string[]).toSorted();
    expect(await keys()).toHaveLength(8);
    for (const key of await keys()) {
      const ttl = Number(await commands.command(["PTTL", key]));
      expect(ttl > 59_000 && ttl <= 60_000).toBe(true);
    }
    await store.dropSession(s1.sessionId);
    expect(await keys()).toEqual([`${prefix}{e:kept}:i:s1`, `${prefix}{e:kept}:s:s1`, `${prefix}{e:kept}:streams`]);
    expect(await store.eventsAfter(s1, "e1")).toBeUndefined();
    await store.dropSession("never");
  });
});

describe("RedisEventStore's options", () => {
  it.each([
    [{ maxEventsPerStream: 0 }, "RedisEventStore: maxEventsPerStream must be a positive whole number"],
    [{ ttlMs: 1.5 }, "RedisEventStore: ttlMs must be a positive whole number"],
    [{ prefix: "{" }, "RedisEventStore: prefix must be a string without { or }"],
  ])("refuses %j", async (options, message) => {
    const client = await redis.nodeRedis();
    expect(() => new RedisEventStore({ client, ...options })).toThrow(expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message }));
  });

  it("keeps a thousand events a stream, for an hour, under mcp:", async () => {
    const commands = redisCommands(await redis.ioRedis());
    const store = new RedisEventStore({ client: commands });
    for (let n = 1; n <= 1001; n += 1) await store.append({ sessionId: "defaults", streamId: "s" }, event(n));
    expect(await store.eventsAfter({ sessionId: "defaults", streamId: "s" }, "e1")).toBeUndefined();
    expect(await store.eventsAfter({ sessionId: "defaults", streamId: "s" }, "e2")).toHaveLength(999);
    expect(Number(await commands.command(["PTTL", "mcp:{e:defaults}:s:s"]))).toBeGreaterThan(3_590_000);
    await store.dropSession("defaults");
  });
});

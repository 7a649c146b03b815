// RedisSessionDirectory on a real redis-server: the SessionDirectory contract (with real ttls of a
// few hundred milliseconds, so the suite waits them out) on node-redis and on ioredis; then the keys
// it writes, their expiries, and none left behind.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";

import { MCP_CODES } from "../src/error-codes/error-codes.js";
import { RedisSessionDirectory, redisCommands, type RedisClient } from "../src/redis/index.js";
import { describeSessionDirectory, recordOf, STATE } from "../src/stores/session-directory.test-helpers.js";
import { uniquePrefix, useRedisServer } from "./support/redis-server.js";

const redis = useRedisServer();

for (const library of ["node-redis", "ioredis"]) {
  const client = async (): Promise<RedisClient> => (library === "ioredis" ? redis.ioRedis() : redis.nodeRedis());
  describeSessionDirectory(
    `RedisSessionDirectory (${library})`,
    async () => ({
      directory: new RedisSessionDirectory({ client: await client(), prefix: uniquePrefix("directory") }),
      wait: (ms) => sleep(ms),
    }),
    200,
  );
}

describe("RedisSessionDirectory's keys", () => {
  it("keeps a record as one hash under the session's own tag, with Redis's expiry, and no key once removed", async () => {
    const prefix = uniquePrefix("layout");
    const commands = redisCommands(await redis.nodeRedis());
    const directory = new RedisSessionDirectory({ client: commands, prefix });
    const id = "i1.{7}%\uD800";
    await directory.create(recordOf(id, { principal: "alice" }), 60_000);
    await directory.saveState(id, 0, STATE);
    await directory.takeOver(id, 0, "i2");
    const key = `${prefix}{s:i1.%007b7%007d%0025%d800}`;
    expect(await commands.command(["KEYS", `${prefix}*`])).toEqual([key]);
    expect(await commands.command(["HMGET", key, "instance", "epoch", "principal", "state"])).toEqual([
      "i2",
      "1",
      "alice",
      JSON.stringify(STATE),
    ]);
    const ttl = Number(await commands.command(["PTTL", key]));
    expect(ttl > 59_000 && ttl <= 60_000).toBe(true);
    await directory.touch([id], 120_000);
    expect(Number(await commands.command(["PTTL", key]))).toBeGreaterThan(119_000);
    await directory.remove(id, 1);
    expect(await commands.command(["KEYS", `${prefix}*`])).toEqual([]);
  });

  it("keeps a lease as the holder's token under the instance's tag, with its ttl, and no key once released", async () => {
    const prefix = uniquePrefix("leases");
    const commands = redisCommands(await redis.ioRedis());
    const directory = new RedisSessionDirectory({ client: commands, prefix });
    await directory.renewLease("i{1}", "token", 30_000);
    const key = `${prefix}lease:{i%007b1%007d}`;
    expect(await commands.command(["KEYS", `${prefix}*`])).toEqual([key]);
    expect(await commands.command(["GET", key])).toBe("token");
    expect(Number(await commands.command(["PTTL", key]))).toBeGreaterThan(29_000);
    await directory.renewLease("i{1}", "token", 90_000);
    expect(Number(await commands.command(["PTTL", key]))).toBeGreaterThan(89_000);
    await directory.releaseLease("i{1}", "token");
    expect(await commands.command(["KEYS", `${prefix}*`])).toEqual([]);
  });

  it("takes whole milliseconds: a fraction is rounded up, and nothing below one", async () => {
    const prefix = uniquePrefix("milliseconds");
    const commands = redisCommands(await redis.nodeRedis());
    const directory = new RedisSessionDirectory({ client: commands, prefix });
    await directory.create(recordOf("s"), 10_000.2);
    expect(Number(await commands.command(["PTTL", `${prefix}{s:s}`]))).toBeGreaterThan(9_900);
    expect(await directory.renewLease("i1", "t", 0)).toBe("acquired");
    await sleep(5);
    expect(await directory.alive("i1")).toBe(false);
  });

  it("uses mcp: when given no prefix, and refuses a prefix with braces", async () => {
    const commands = redisCommands(await redis.ioRedis());
    const directory = new RedisSessionDirectory({ client: commands });
    await directory.create(recordOf("defaults"), 60_000);
    expect(await commands.command(["EXISTS", "mcp:{s:defaults}"])).toBe(1);
    await directory.remove("defaults", 0);
    expect(() => new RedisSessionDirectory({ client: commands, prefix: "a{b" })).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: "RedisSessionDirectory: prefix must be a string without { or }" }),
    );
  });
});

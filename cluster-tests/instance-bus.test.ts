// RedisInstanceBus on a real redis-server: the InstanceBus contract between two buses on two
// connections (one per client library, each way), then what it does on Redis: one subscription per
// instance whatever the listeners, released with the last, a listen racing the last stop, a failed
// subscribe, a throwing listener reported.
import { afterAll, describe, expect, it } from "vitest";

import { MCP_CODES } from "../src/error-codes/error-codes.js";
import { RedisInstanceBus, redisCommands, type RedisClient, type RedisCommands } from "../src/redis/index.js";
import { describeInstanceBus, until } from "../src/stores/instance-bus.test-helpers.js";
import { uniquePrefix, useRedisServer } from "./support/redis-server.js";

const redis = useRedisServer();
const buses: RedisInstanceBus[] = [];
afterAll(async () => {
  for (const bus of buses) await bus.close();
});

function busOn(client: RedisClient, prefix: string, onError?: (error: unknown) => void): RedisInstanceBus {
  const bus = new RedisInstanceBus({ client, prefix, ...(onError && { onError }) });
  buses.push(bus);
  return bus;
}

describeInstanceBus("RedisInstanceBus (node-redis → ioredis)", async () => {
  const prefix = uniquePrefix("bus");
  return { sender: busOn(await redis.nodeRedis(), prefix), receiver: busOn(await redis.ioRedis(), prefix) };
});

describeInstanceBus("RedisInstanceBus (ioredis → node-redis)", async () => {
  const prefix = uniquePrefix("bus");
  return { sender: busOn(await redis.ioRedis(), prefix), receiver: busOn(await redis.nodeRedis(), prefix) };
});

async function subscribers(commands: RedisCommands, channel: string): Promise<number> {
  return Number(((await commands.command(["PUBSUB", "NUMSUB", channel])) as unknown[])[1]);
}

describe("RedisInstanceBus on Redis", () => {
  it("subscribes once per instance on <prefix>instance:<instance>, whatever the listeners, and unsubscribes with the last", async () => {
    const prefix = uniquePrefix("channels");
    const commands = redisCommands(await redis.nodeRedis());
    const bus = busOn(await redis.nodeRedis(), prefix);
    const stops = await Promise.all([bus.listen("i1", () => {}), bus.listen("i1", () => {}), bus.listen("i2", () => {})]);
    expect(await subscribers(commands, `${prefix}instance:i1`)).toBe(1);
    expect(await subscribers(commands, `${prefix}instance:i2`)).toBe(1);
    await stops[0]?.();
    expect(await subscribers(commands, `${prefix}instance:i1`)).toBe(1);
    await stops[1]?.();
    expect(await subscribers(commands, `${prefix}instance:i1`)).toBe(0);
    expect(await subscribers(commands, `${prefix}instance:i2`)).toBe(1);
    await bus.close();
    // The server sees the closed connection go a moment later.
    let left = 1;
    for (let tries = 0; left > 0 && tries < 200; tries += 1) left = await subscribers(commands, `${prefix}instance:i2`);
    expect(left).toBe(0);
    // Stopping after close is harmless.
    await stops[2]?.();
  });

  it("stays subscribed when a listen comes while the last stop unsubscribes", async () => {
    const prefix = uniquePrefix("race");
    const sender = busOn(await redis.ioRedis(), prefix);
    const bus = busOn(await redis.ioRedis(), prefix);
    const heard: string[] = [];
    const stop = await bus.listen("i1", () => {});
    const [, again] = await Promise.all([stop(), bus.listen("i1", (message) => heard.push(message))]);
    await sender.send("i1", "still heard");
    await until(() => heard.length === 1);
    await again();
    const stopAgain = await bus.listen("i1", (message) => heard.push(message));
    await sender.send("i1", "heard again");
    await until(() => heard.length === 2);
    expect(heard).toEqual(["still heard", "heard again"]);
    await stopAgain();
  });

  it("reports a listener that throws to onError", async () => {
    const prefix = uniquePrefix("throws");
    const errors: unknown[] = [];
    const boom = new Error("listener broke");
    const bus = busOn(await redis.nodeRedis(), prefix, (error) => errors.push(error));
    await bus.listen("i1", () => {
      throw boom;
    });
    await bus.send("i1", "m");
    await until(() => errors.length === 1);
    expect(errors).toEqual([boom]);
  });

  it("rejects a listen whose subscribe failed, and subscribes again for the next one", async () => {
    const real = redisCommands(await redis.nodeRedis());
    let failures = 1;
    const flaky: RedisCommands = {
      command: (args) => real.command(args),
      subscribe: (channel, onMessage) =>
        failures-- > 0 ? Promise.reject(new Error("no subscription")) : real.subscribe(channel, onMessage),
      unsubscribe: (channel) => real.unsubscribe(channel),
      close: () => real.close(),
    };
    const bus = busOn(flaky, uniquePrefix("flaky"));
    await expect(bus.listen("i1", () => {})).rejects.toThrow("no subscription");
    const heard: string[] = [];
    const stop = await bus.listen("i1", (message) => heard.push(message));
    await bus.send("i1", "after the failure");
    await until(() => heard.length === 1);
    expect(heard).toEqual(["after the failure"]);
    await stop();
  });

  it("uses mcp: when given no prefix, and refuses a prefix with braces", async () => {
    const commands = redisCommands(await redis.ioRedis());
    const bus = new RedisInstanceBus({ client: await redis.ioRedis() });
    buses.push(bus);
    const stop = await bus.listen("defaults", () => {});
    expect(await subscribers(commands, "mcp:instance:defaults")).toBe(1);
    await stop();
    expect(() => new RedisInstanceBus({ client: commands, prefix: "}" })).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: "RedisInstanceBus: prefix must be a string without { or }" }),
    );
  });
});

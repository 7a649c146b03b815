// RedisChangeFeed on a real redis-server: two feeds on two connections (one per client library)
// hear what either publishes; what is not a change is reported, never thrown; the last listener to
// leave releases the subscription.
import { describe, expect, it } from "vitest";

import { RedisChangeFeed, redisCommands, type RedisCommands } from "../src/redis/index.js";
import type { Change } from "../src/stores/change-feed.js";
import { uniquePrefix, useRedisServer } from "./support/redis-server.js";

const redis = useRedisServer();

/** Resolves once `count` items are in `items` (the channel delivers on another connection). */
async function until(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 5) {
    if (waited > 5_000) throw new Error("waited 5 s in vain");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function subscribers(commands: RedisCommands, channel: string): Promise<number> {
  const reply = (await commands.command(["PUBSUB", "NUMSUB", channel])) as unknown[];
  return Number(reply[1]);
}

const same = (): void => {};

const CHANGES: Change[] = [
  { kind: "list", list: "tools" },
  { kind: "list", list: "resources" },
  { kind: "list", list: "prompts" },
  { kind: "resource", uri: "file:///a b" },
  { kind: "task", taskId: "0f".repeat(16) },
];

describe("RedisChangeFeed", () => {
  it("tells the listeners of every feed on the channel, its own included, of each kind of change", async () => {
    const prefix = uniquePrefix("feed");
    const a = new RedisChangeFeed({ client: await redis.nodeRedis(), prefix });
    const b = new RedisChangeFeed({ client: await redis.ioRedis(), prefix });
    const heardA: Change[] = [];
    const heardB: Change[] = [];
    a.subscribe((change) => heardA.push(change));
    b.subscribe((change) => heardB.push(change));
    await Promise.all([a.ready(), b.ready()]);
    for (const [index, change] of CHANGES.entries()) await (index % 2 === 0 ? a : b).publish(change);
    await until(() => heardA.length === CHANGES.length && heardB.length === CHANGES.length);
    expect(heardA).toEqual(CHANGES);
    expect(heardB).toEqual(CHANGES);
    await Promise.all([a.close(), b.close()]);
  });

  it("reports what is not a change on the channel and goes on", async () => {
    const prefix = uniquePrefix("malformed");
    const errors: unknown[] = [];
    const heard: Change[] = [];
    const client = await redis.ioRedis();
    const feed = new RedisChangeFeed({ client, prefix, onError: (error) => errors.push(error) });
    feed.subscribe((change) => heard.push(change));
    await feed.ready();
    const bad = [
      "not json",
      "null",
      "7",
      '{"kind":"list","list":"tasks"}',
      '{"kind":"resource"}',
      '{"kind":"task","taskId":1}',
      '{"kind":"other"}',
    ];
    for (const message of bad) await client.publish(`${prefix}changes`, message);
    await client.publish(`${prefix}changes`, JSON.stringify(CHANGES[0]));
    await until(() => heard.length === 1);
    expect(heard).toEqual([CHANGES[0]]);
    expect(errors.map((error) => (error as Error).message)).toEqual(
      bad.map((message) => `RedisChangeFeed: ignored a message on ${prefix}changes that is not a change: ${message}`),
    );
    // Without onError, the same message is ignored as quietly.
    const quiet = new RedisChangeFeed({ client: await redis.nodeRedis(), prefix });
    quiet.subscribe(() => {});
    await quiet.ready();
    await client.publish(`${prefix}changes`, "x".repeat(100));
    await client.publish(`${prefix}changes`, JSON.stringify(CHANGES[1]));
    await until(() => heard.length === 2);
    expect((errors.at(-1) as Error).message).toMatch(/not a change: x{64}$/);
    await Promise.all([feed.close(), quiet.close()]);
  });

  it("tells the other listeners when one throws, and reports the throw", async () => {
    const errors: unknown[] = [];
    const heard: Change[] = [];
    const feed = new RedisChangeFeed({
      client: await redis.nodeRedis(),
      prefix: uniquePrefix("throws"),
      onError: (error) => errors.push(error),
    });
    const boom = new Error("listener broke");
    feed.subscribe(() => {
      throw boom;
    });
    feed.subscribe((change) => heard.push(change));
    await feed.ready();
    await feed.publish(CHANGES[2] as Change);
    await until(() => heard.length === 1);
    expect(errors).toEqual([boom]);
    await feed.close();
  });

  it.each(["node-redis", "ioredis"])(
    "subscribes with the first listener, once, and releases the channel with the last (%s)",
    async (library) => {
      const prefix = uniquePrefix("release");
      const commands = redisCommands(library === "ioredis" ? await redis.ioRedis() : await redis.nodeRedis());
      const feed = new RedisChangeFeed({ client: commands, prefix });
      await feed.ready();
      expect(await subscribers(commands, `${prefix}changes`)).toBe(0);
      const first = feed.subscribe(same);
      const second = feed.subscribe(same);
      expect(feed.listenerCount).toBe(2);
      await feed.ready();
      expect(await subscribers(commands, `${prefix}changes`)).toBe(1);
      first();
      first();
      expect(feed.listenerCount).toBe(1);
      expect(await subscribers(commands, `${prefix}changes`)).toBe(1);
      second();
      await until(() => feed.listenerCount === 0);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await subscribers(commands, `${prefix}changes`)).toBe(0);
      // And again: a new first listener subscribes again, on the same duplicate connection.
      const heard: Change[] = [];
      const again = feed.subscribe((change) => heard.push(change));
      await feed.ready();
      await feed.publish(CHANGES[3] as Change);
      await until(() => heard.length === 1);
      again();
      await feed.close();
      await feed.close();
    },
  );

  it("reports a subscribe or an unsubscribe Redis refused, and subscribes again with the next listener", async () => {
    const errors: unknown[] = [];
    const real = redisCommands(await redis.nodeRedis());
    let refuse = true;
    const flaky: RedisCommands = {
      command: (args) => real.command(args),
      subscribe: (channel, onMessage) => (refuse ? Promise.reject(new Error("subscribe refused")) : real.subscribe(channel, onMessage)),
      unsubscribe: () => Promise.reject(new Error("unsubscribe refused")),
      close: () => real.close(),
    };
    const feed = new RedisChangeFeed({ client: flaky, prefix: uniquePrefix("flaky"), onError: (error) => errors.push(error) });
    const first = feed.subscribe(() => {});
    await feed.ready();
    expect(errors).toEqual([new Error("subscribe refused")]);
    refuse = false;
    const heard: Change[] = [];
    const second = feed.subscribe((change) => heard.push(change));
    await feed.ready();
    await feed.publish(CHANGES[4] as Change);
    await until(() => heard.length === 2 || heard.length === 1);
    first();
    second();
    await until(() => errors.length === 2);
    expect(errors[1]).toEqual(new Error("unsubscribe refused"));
    await feed.close();
  });

  it("refuses a prefix with braces, and closes nothing it did not open", async () => {
    const client = await redis.nodeRedis();
    expect(() => new RedisChangeFeed({ client, prefix: "a}" })).toThrow("RedisChangeFeed: prefix must be a string without { or }");
    const feed = new RedisChangeFeed({ client });
    await feed.close();
    expect(await client.ping()).toBe("PONG");
    await new RedisChangeFeed({ client: await redis.ioRedis() }).close();
    await redisCommands(await redis.nodeRedis()).unsubscribe("nothing");
    await redisCommands(await redis.ioRedis()).unsubscribe("nothing");
  });
});

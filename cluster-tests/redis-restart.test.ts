// Redis away, then back. Away: a store call rejects with MCP.TRANSPORT_ERROR once its timeout passed
// (node-redis and ioredis would queue it for as long as Redis is gone), naming the command only.
// Back: a RedisChangeFeed hears its subscription return and tells its listeners that every list may
// have changed (it missed what was published meanwhile), so a listen stream sends list_changed; and
// the adapter's reconnection listeners, on both libraries.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";

import { MCP_CODES } from "../src/error-codes/error-codes.js";
import { MCPError } from "../src/error-codes/mcp-error.js";
import { MCPServer, META_KEYS, type JsonObject } from "../src/index.js";
import {
  RedisChangeFeed,
  RedisEventStore,
  RedisSessionDirectory,
  redisCommands,
  type IoRedisClient,
  type IoRedisSubscriber,
  type RedisClient,
  type RedisCommands,
} from "../src/redis/index.js";
import type { Change } from "../src/stores/change-feed.js";
import { recordOf } from "../src/stores/session-directory.test-helpers.js";
import { until } from "../src/stores/instance-bus.test-helpers.js";
import { uniquePrefix, useRedisServer } from "./support/redis-server.js";

const redis = useRedisServer();
const LISTS: Change[] = [
  { kind: "list", list: "tools" },
  { kind: "list", list: "resources" },
  { kind: "list", list: "prompts" },
];

/** What `promise` rejected with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** Resolves once `commands` answers again (the client reconnected). */
async function answering(commands: RedisCommands): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await commands.command(["PING"]).catch(() => "not yet")) !== "PONG") {
    if (Date.now() > deadline) throw new Error("Redis did not come back in 15 s");
    await sleep(20);
  }
}

describe("Redis away, then back", () => {
  it("while Redis is away, fails a store call with MCP.TRANSPORT_ERROR after timeoutMs, naming only the command; then works", async () => {
    const prefix = uniquePrefix("away");
    const clients: RedisClient[] = [await redis.nodeRedis(), await redis.ioRedis()];
    const directories = clients.map((client) => new RedisSessionDirectory({ client, prefix, timeoutMs: 300 }));
    const store = new RedisEventStore({ client: clients[0] as RedisClient, prefix, timeoutMs: 250 });
    const defaults = redisCommands(clients[1] as RedisClient);
    await redis.stop();
    const began = Date.now();
    const errors = await Promise.all([
      ...directories.map((directory) =>
        rejection(
          directory.saveState("s", 0, { protocolVersion: "secret-state", clientInfo: {}, clientCapabilities: {}, subscriptions: [] }),
        ),
      ),
      rejection(store.append({ sessionId: "s", streamId: "1" }, { id: "e", data: "secret-data" })),
      rejection(directories[1]?.alive("i1") ?? Promise.resolve()),
    ]);
    expect(Date.now() - began).toBeLessThan(2_000);
    for (const error of errors) expect(error).toBeInstanceOf(MCPError);
    expect(errors.map((error) => [(error as MCPError).code, (error as MCPError).message])).toEqual([
      [MCP_CODES.TRANSPORT_ERROR, "Redis did not answer EVALSHA within 300 ms"],
      [MCP_CODES.TRANSPORT_ERROR, "Redis did not answer EVALSHA within 300 ms"],
      [MCP_CODES.TRANSPORT_ERROR, "Redis did not answer EVALSHA within 250 ms"],
      [MCP_CODES.TRANSPORT_ERROR, "Redis did not answer EXISTS within 300 ms"],
    ]);
    const slow = Date.now();
    expect(await rejection(defaults.command(["get", "k"]))).toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: "Redis did not answer GET within 2000 ms",
    });
    expect(Date.now() - slow).toBeGreaterThanOrEqual(1_990);
    await redis.start();
    for (const client of clients) await answering(redisCommands(client));
    for (const directory of directories) {
      expect(await directory.create(recordOf(`back ${directories.indexOf(directory)}`), 60_000)).toBe(true);
      expect(await directory.get(`back ${directories.indexOf(directory)}`)).toEqual(recordOf(`back ${directories.indexOf(directory)}`));
    }
  });

  it("refuses a timeout that is not a positive whole number of milliseconds", async () => {
    const client = await redis.nodeRedis();
    for (const timeoutMs of [0, -1, 1.5, Number.NaN]) {
      expect(() => new RedisSessionDirectory({ client, timeoutMs })).toThrow(
        expect.objectContaining({
          code: MCP_CODES.INVALID_PARAMS,
          message: "A Redis store's timeoutMs must be a positive whole number of milliseconds",
        }),
      );
    }
  });

  it("tells a feed's listeners (both libraries) every list changed once resubscribed; a listen stream sends list_changed", async () => {
    const prefix = uniquePrefix("restart");
    const feeds = [
      new RedisChangeFeed({ client: await redis.nodeRedis(), prefix }),
      new RedisChangeFeed({ client: await redis.ioRedis(), prefix }),
    ] as const;
    const heard: Change[][] = [[], []];
    feeds.forEach((feed, index) => feed.subscribe((change) => heard[index]?.push(change)));
    const server = new MCPServer({ name: "restarted", version: "1.0.0" }, { changeFeed: feeds[0] });
    await Promise.all(feeds.map((feed) => feed.ready()));
    // A listen stream is told of the lists the server has: registering them is heard first.
    server.tool("t", {}, () => ({ content: [] }));
    server.prompt("p", {}, () => ({ messages: [] }));
    await until(() => heard.every((changes) => changes.length === 2));
    for (const changes of heard) changes.length = 0;
    const notified: { method: string; params: JsonObject }[] = [];
    const stop = new AbortController();
    const declared = { [META_KEYS.protocolVersion]: "2026-07-28", [META_KEYS.clientCapabilities]: {} };
    const listening = server.serveStateless(
      1,
      "subscriptions/listen",
      { notifications: { toolsListChanged: true, promptsListChanged: true }, _meta: declared },
      { signal: stop.signal, inbound: undefined, notify: async (method, params) => void notified.push({ method, params }) },
    );
    await until(() => notified.length === 1);
    await redis.restart();
    await until(() => heard.every((changes) => changes.length === 3));
    expect(heard).toEqual([LISTS, LISTS]);
    await until(() => notified.length === 3);
    expect(notified.map(({ method }) => method).toSorted()).toEqual([
      "notifications/prompts/list_changed",
      "notifications/subscriptions/acknowledged",
      "notifications/tools/list_changed",
    ]);
    // Subscribed again: what is published now is heard.
    await feeds[1]?.publish({ kind: "resource", uri: "mem://after" });
    await until(() => heard.every((changes) => changes.length === 4));
    expect(heard.map((changes) => changes[3])).toEqual([
      { kind: "resource", uri: "mem://after" },
      { kind: "resource", uri: "mem://after" },
    ]);
    stop.abort();
    await listening;
    await server.close();
    await Promise.all(feeds.map((feed) => feed.close()));
  });

  it("tells every reconnection listener of an adapter, one that throws included, until it stops listening", async () => {
    for (const client of [await redis.nodeRedis(), await redis.ioRedis()]) {
      const commands = redisCommands(client);
      await commands.subscribe(`${uniquePrefix("reconnect")}x`, () => {});
      let told = 0;
      const stopThrowing = commands.onReconnect(() => {
        throw new Error("listener broke");
      });
      const stopCounting = commands.onReconnect(() => (told += 1));
      await redis.restart();
      await until(() => told === 1);
      stopCounting();
      stopThrowing();
      await redis.restart();
      await answering(commands);
      await sleep(200);
      expect(told).toBe(1);
      await commands.close();
    }
  });
});

describe("the adapters without a server", () => {
  it("waits for ioredis to subscribe again before telling; lost again meanwhile, tells at the next ready", async () => {
    const events = new Map<string, (() => void)[]>();
    let failNext = false;
    const subscribed: string[] = [];
    const subscriber: IoRedisSubscriber = {
      subscribe: (channel) =>
        failNext ? ((failNext = false), Promise.reject(new Error("lost again"))) : (subscribed.push(channel), Promise.resolve()),
      unsubscribe: () => Promise.resolve(),
      on: (event: string, listener: (...args: string[]) => void) => events.set(event, [...(events.get(event) ?? []), () => listener()]),
      disconnect: () => {},
    };
    const client: IoRedisClient = { call: () => Promise.resolve("OK"), duplicate: () => subscriber };
    const commands = redisCommands(client);
    let told = 0;
    commands.onReconnect(() => (told += 1));
    await commands.subscribe("a", () => {});
    const ready = (): void => events.get("ready")?.forEach((listener) => listener());
    ready();
    await sleep(0);
    expect(told).toBe(0);
    failNext = true;
    ready();
    await sleep(0);
    expect(told).toBe(0);
    ready();
    await until(() => told === 1);
    expect(subscribed).toEqual(["a", "a"]);
    events.get("error")?.forEach((listener) => listener());
  });

  it("gives a user's adapter without onReconnect one that never tells", async () => {
    const adapter: RedisCommands = {
      command: () => Promise.resolve("PONG"),
      subscribe: () => Promise.resolve(),
      unsubscribe: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
    const commands = redisCommands(adapter);
    expect(await commands.command(["PING"])).toBe("PONG");
    const stop = commands.onReconnect(() => {});
    expect(stop()).toBeUndefined();
  });
});

// A real redis-server for one test file: on a unix socket in a temporary directory (no TCP port, no
// disk), started in beforeAll and stopped by its PID in afterAll. Clients of both libraries connect
// to it; every suite names its own key prefix. A test may stop it and start it again on the same
// socket (an empty server, as after a crash without persistence): the clients reconnect by themselves.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { createClient } from "redis";
import { afterAll, beforeAll } from "vitest";

export interface RedisServer {
  readonly socket: string;
  /** Stops the server (SIGTERM to its PID) and waits until it exited. */
  stop(): Promise<void>;
  /** Starts it again on the same socket, once stopped; resolves when it listens. */
  start(): Promise<void>;
  /** `stop()` then `start()`. */
  restart(): Promise<void>;
  /** A connected node-redis client, closed in afterAll. */
  nodeRedis(): Promise<NodeRedis>;
  /** A connected ioredis client, closed in afterAll. */
  ioRedis(): Promise<Redis>;
}

const nodeRedisOn = (path: string) => createClient({ socket: { path, tls: false } });
export type NodeRedis = ReturnType<typeof nodeRedisOn>;

const REDIS_SERVER = process.env["REDIS_SERVER"] ?? "/usr/bin/redis-server";

/** Starts redis-server for the file that calls it. */
export function useRedisServer(): RedisServer {
  let dir = "";
  let child: ChildProcess | undefined;
  const closers: (() => Promise<unknown>)[] = [];
  const socket = (): string => join(dir, "redis.sock");

  async function start(): Promise<void> {
    const started = spawn(
      REDIS_SERVER,
      ["--port", "0", "--unixsocket", socket(), "--unixsocketperm", "700", "--save", "", "--appendonly", "no", "--dir", dir],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    child = started;
    for (let waited = 0; !existsSync(socket()); waited += 20) {
      if (waited > 10_000 || started.exitCode !== null) throw new Error(`redis-server did not start (${REDIS_SERVER})`);
      await sleep(20);
    }
  }

  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (running?.pid !== undefined && running.exitCode === null) {
      const exited = new Promise((resolve) => running.once("exit", resolve));
      process.kill(running.pid, "SIGTERM");
      await exited;
    }
    // Gone with the server, or left by one that died: the next start waits for its own.
    rmSync(socket(), { force: true });
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "mcp-redis-"));
    await start();
  });

  afterAll(async () => {
    for (const close of closers.splice(0)) await close().catch(() => {});
    await stop();
    rmSync(dir, { recursive: true, force: true });
  });

  return {
    get socket() {
      return socket();
    },
    stop,
    start,
    async restart() {
      await stop();
      await start();
    },
    async nodeRedis() {
      const client = nodeRedisOn(socket());
      client.on("error", () => {});
      await client.connect();
      closers.push(() => client.close());
      return client;
    },
    async ioRedis() {
      const client = new Redis({ path: socket(), lazyConnect: true });
      // While the server is away (a restart): its errors are expected, and would otherwise be logged.
      client.on("error", () => {});
      await client.connect();
      closers.push(() => client.quit());
      return client;
    },
  };
}

let prefixes = 0;

/** A key prefix of its own for each suite (and each store in it). */
export function uniquePrefix(name: string): string {
  prefixes += 1;
  return `test:${name}:${process.pid}:${prefixes}:`;
}

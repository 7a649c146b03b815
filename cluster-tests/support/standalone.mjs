// The cluster suite's harness outside vitest (bench/cluster.mjs, conformance/cluster.mjs): its
// TypeScript helpers as plain modules, and a redis-server of one's own. Both run on Node 20, which
// cannot strip types: proxy.ts and instances.ts import node:* modules only, so rolldown's transform
// alone makes them runnable.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

const SUPPORT = fileURLToPath(new URL(".", import.meta.url));
const REDIS_SERVER = process.env.REDIS_SERVER ?? "/usr/bin/redis-server";

/**
 * Writes proxy.mjs and instances.mjs into `dir` (the support's proxy.ts and instances.ts without their types); resolves with both modules.
 */
export async function compileSupport(dir) {
  const { transformSync } = await import("rolldown/utils");
  for (const name of ["proxy", "instances"]) {
    const path = join(SUPPORT, `${name}.ts`);
    const { code, errors } = transformSync(path, readFileSync(path, "utf8"));
    if (errors.length > 0) throw new Error(`${name}.ts: ${errors.map((error) => error.message).join("; ")}`);
    writeFileSync(join(dir, `${name}.mjs`), code);
  }
  return { proxy: await import(join(dir, "proxy.mjs")), instances: await import(join(dir, "instances.mjs")) };
}

/** Starts redis-server on a unix socket in `dir` (no TCP port, no persistence); `stop()` ends it by its PID. */
export async function startRedisServer(dir) {
  const socket = join(dir, "redis.sock");
  const child = spawn(
    REDIS_SERVER,
    ["--port", "0", "--unixsocket", socket, "--unixsocketperm", "700", "--save", "", "--appendonly", "no", "--dir", dir],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  for (let waited = 0; !existsSync(socket); waited += 20) {
    if (waited > 10_000 || child.exitCode !== null) throw new Error(`redis-server did not start (${REDIS_SERVER})`);
    await sleep(20);
  }
  return {
    socket,
    pid: child.pid,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(child.pid, "SIGTERM");
      await exited;
    },
  };
}

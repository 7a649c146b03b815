#!/usr/bin/env node
// The fixture server as a deployment of three processes: a redis-server of its own (a unix socket in
// a temporary directory), three `server.mjs` in cluster mode sharing sessions, events, changes, tasks
// and request-state keys on it, and the cluster suite's proxy in front, alternating processes per
// request — so every session-era request may land on a process other than its session's and be
// relayed. Used by run.sh for its cluster runs; prints the proxy's URL on stderr as server.mjs does
// ("… listening on http://127.0.0.1:<port>/mcp") and stops everything it started, by PID, on
// SIGTERM/SIGINT.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileSupport, startRedisServer } from "../cluster-tests/support/standalone.mjs";

const log = (...parts) => console.error("[conformance-cluster]", ...parts);
const dir = mkdtempSync(join(tmpdir(), "mcp-conformance-cluster-"));
const stops = [];
let proxy;

async function stop(code) {
  // What shows the runs went through every process.
  if (proxy) log(`requests per instance: ${JSON.stringify(proxy.counts)}`);
  for (const step of stops.splice(0).toReversed()) await step().catch((error) => log(String(error)));
  rmSync(dir, { recursive: true, force: true });
  process.exit(code);
}
process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => void stop(0));

try {
  const { proxy: proxyModule, instances: instancesModule } = await compileSupport(dir);
  const redis = await startRedisServer(dir);
  stops.push(() => redis.stop());
  const instances = await instancesModule.startInstances(3, {
    redisSocket: redis.socket,
    prefix: "conformance:",
    script: fileURLToPath(new URL("server.mjs", import.meta.url)),
    env: { CLUSTER: "on" },
  });
  stops.push(() => instances.stopAll());
  proxy = await proxyModule.startProxy(instances.instances);
  stops.push(() => proxy.close());
  proxy.mode = "alternate";
  log(
    `listening on ${new URL("/mcp", proxy.url).href} ` +
      `(pid ${process.pid}; instances ${instances.instances.map(({ tag, pid }) => `${tag} ${pid}`).join(", ")})`,
  );
} catch (error) {
  log(`could not start: ${error instanceof Error ? error.message : String(error)}`);
  await stop(1);
}

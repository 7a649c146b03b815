// Throughput of several server processes on Redis (issue 22): not a test. `vite build` first, then
// `node --expose-gc bench/cluster.mjs [--clients 16] [--calls 2000]`.
//
// It starts its own redis-server (a unix socket in a temporary directory, stopped by its PID), the
// fixture of the cluster suite (cluster-tests/fixtures/cluster-server.mjs, on dist/) and the suite's
// proxy, each proxy in a child of its own (cluster-tests/support/proxy.ts and instances.ts, stripped
// of their types by rolldown's transform into the temporary directory), so the clients' CPU does not
// slow it. For each setup, N clients of ours (MCPClient over nodeFetch(), each its own connection)
// call `echo` through that setup's proxy: a warm-up, then a fixed count of calls (bounded in time).
// Measured: calls/s, and the CPU (utime + stime in /proc/<pid>/stat) per call summed over the setup's
// server processes, redis-server's apart. The proxies' CPU is not counted. Three repetitions, the
// setups interleaved in a rotating order; medians, and medians of per-repetition ratios.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { compileSupport, startRedisServer } from "../cluster-tests/support/standalone.mjs";
import { median } from "./lib/measure.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const option = (name, fallback, max) => {
  const at = process.argv.indexOf(name);
  return Math.min(Math.max(at > 0 ? Number(process.argv[at + 1]) : fallback, 1), max);
};
const CLIENTS = option("--clients", 16, 256);
const CALLS = option("--calls", 5000, 100_000);
const WARM_UP_CALLS = 25;
const REPETITIONS = 3;
const MEASURE_DEADLINE_MS = 20_000;
const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

if (!existsSync(join(ROOT, "dist/index.js"))) throw new Error("no dist/: run `npx vite build` first");
const { MCPClient, StreamableHttpTransport } = await import("@suaveplan/mcp");
const { nodeFetch } = await import("@suaveplan/mcp/node");

const dir = mkdtempSync(join(tmpdir(), "mcp-bench-cluster-"));
const stops = [];

/** The suite's TypeScript helpers as plain modules in the temporary directory, and the proxy's child script beside them. */
async function loadSupport() {
  const { instances } = await compileSupport(dir);
  writeFileSync(join(dir, "proxy-main.mjs"), PROXY_MAIN);
  return instances;
}

// A proxy in a child: upstreams and mode in argv, its URL on stdout; "counts" on stdin answers its counts; stdin's end stops it.
const PROXY_MAIN = `import { startProxy } from "./proxy.mjs";
const { upstreams, mode } = JSON.parse(process.argv[2]);
const proxy = await startProxy(upstreams);
proxy.mode = mode;
process.stdout.write(JSON.stringify({ url: proxy.url }) + "\\n");
process.stdin.setEncoding("utf8").on("data", () => process.stdout.write(JSON.stringify(proxy.counts) + "\\n"));
process.stdin.once("end", async () => { await proxy.close(); process.exit(0); });
`;

/** Resolves with the child's next stdout line, or fails if it exits first. */
function nextLine(child, what) {
  return new Promise((resolve, reject) => {
    let out = "";
    const onData = (text) => {
      out += text;
      if (!out.includes("\n")) return;
      child.stdout.off("data", onData);
      resolve(JSON.parse(out.slice(0, out.indexOf("\n"))));
    };
    child.stdout.setEncoding("utf8").on("data", onData);
    child.once("exit", (code) => reject(new Error(`${what} exited (${code})`)));
  });
}

async function startRedis() {
  const redis = await startRedisServer(dir);
  stops.push(() => redis.stop());
  return redis;
}

async function startProxyChild(upstreams, mode) {
  const child = spawn(process.execPath, [join(dir, "proxy-main.mjs"), JSON.stringify({ upstreams, mode })], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  stops.push(async () => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.stdin.end();
    await Promise.race([exited, sleep(3_000).then(() => child.kill("SIGKILL"))]);
  });
  const { url } = await nextLine(child, "proxy");
  return {
    url: new URL("/mcp", url),
    async counts() {
      const line = nextLine(child, "proxy");
      child.stdin.write("counts\n");
      return line;
    },
  };
}

/** CPU seconds (user + system) a process used so far. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}
const cpuOf = (pids) => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);

async function connectClients(url, era) {
  const clients = [];
  for (let index = 0; index < CLIENTS; index++) {
    const client = new MCPClient({ name: `bench-${index}`, version: "1.0.0" }, { era, telemetry: null });
    await client.connect(new StreamableHttpTransport(url, { fetchImpl: nodeFetch() }));
    clients.push(client);
  }
  stops.push(() => Promise.all(clients.map((client) => client.close().catch(() => {}))));
  return clients;
}

/** `count` calls of echo shared by the clients, each client one at a time; stops at the deadline. */
async function callEcho(clients, count, deadline) {
  let started = 0;
  const loop = async (client) => {
    while (started < count && performance.now() < deadline) {
      started += 1;
      await client.callTool("echo", { text: "hello" });
    }
  };
  await Promise.all(clients.map(loop));
  return started;
}

async function measure(setup, redisPid) {
  await callEcho(setup.clients, WARM_UP_CALLS * setup.clients.length, performance.now() + MEASURE_DEADLINE_MS);
  globalThis.gc?.();
  const serverBefore = cpuOf(setup.pids);
  const redisBefore = cpuSeconds(redisPid);
  const wallBefore = performance.now();
  const calls = await callEcho(setup.clients, CALLS, wallBefore + MEASURE_DEADLINE_MS);
  const seconds = (performance.now() - wallBefore) / 1000;
  return {
    callsPerSecond: calls / seconds,
    serverUs: ((cpuOf(setup.pids) - serverBefore) * 1e6) / calls,
    redisUs: ((cpuSeconds(redisPid) - redisBefore) * 1e6) / calls,
  };
}

/** One setup: its proxy (a child), its server processes, its clients. */
async function startSetup(name, instances, mode, era) {
  const proxy = await startProxyChild(instances, mode);
  return { name, proxy, pids: instances.map(({ pid }) => pid), clients: await connectClients(proxy.url, era), samples: [] };
}

/** The five setups, their processes started and their clients connected. */
async function startSetups(startInstances, redis) {
  const script = join(ROOT, "cluster-tests/fixtures/cluster-server.mjs");
  const group = async (count, options) => {
    const started = await startInstances(count, { script, ...options });
    stops.push(() => started.stopAll());
    return started.instances;
  };
  const memory = await group(1, { prefix: "bench:memory:", env: { STORES: "memory" } });
  const single = await group(1, { prefix: "bench:single:", redisSocket: redis.socket, env: { CLUSTER: "on" } });
  const three = await group(3, { prefix: "bench:three:", redisSocket: redis.socket, env: { CLUSTER: "on" } });
  const setups = [
    await startSetup("1 process, in-memory stores", memory, { pin: 0 }, "session"),
    await startSetup("1 process, Redis (sessionCluster and every store on Redis)", single, { pin: 0 }, "session"),
    await startSetup("3 processes, tag (sticky), session era", three, "tag", "session"),
    await startSetup("3 processes, alternate, session era", three, "alternate", "session"),
    await startSetup("3 processes, alternate, 2026-07-28 (stateless)", three, "alternate", "auto"),
  ];
  for (const { name, clients } of setups.slice(-1))
    if (clients[0].era !== "stateless") throw new Error(`${name}: the client's probe chose ${clients[0].era}`);
  return setups;
}

const format = (value, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "–");

/** Median over repetitions of a/b for one measure. */
const ratio = (a, b, key) =>
  a.samples.length === 0 || b.samples.length === 0
    ? Number.NaN
    : median(a.samples.map((sample, index) => sample[key] / b.samples[index][key]));

/** A target of issue 22: setup a against b, by calls/s and by server CPU per call (b's over a's). */
function target(label, a, b, floor) {
  if (a.skipped !== undefined) return console.log(`${label}: not measured (${a.skipped.split(":")[0]})`);
  const calls = ratio(a, b, "callsPerSecond");
  const cpu = ratio(b, a, "serverUs");
  console.log(
    `${label}: calls/s ${format(calls, 2)}× (${calls >= floor ? "met" : "NOT met"}); ` +
      `by server CPU per call, ${format(cpu, 2)}× (${cpu >= floor ? "met" : "NOT met"})`,
  );
}

async function printTable(setups) {
  const [first, , third] = setups;
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(
    `\n${CLIENTS} clients, ${CALLS} calls of echo per repetition, ` +
      `medians of ${REPETITIONS} interleaved repetitions (node ${process.version}, load ${load})`,
  );
  console.log("The proxies' CPU is not counted (each proxy is a child of its own); server CPU sums the setup's server processes.\n");
  console.log(
    "| setup | calls/s | server CPU µs/call | redis CPU µs/call | calls/s ÷ 1 | CPU/call ÷ 1 | calls/s ÷ 3 | CPU/call ÷ 3 | " +
      "requests per upstream |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const [index, setup] of setups.entries()) {
    if (setup.skipped !== undefined) {
      console.log(`| ${index + 1}. ${setup.name} | skipped: ${setup.skipped} | | | | | | | |`);
      continue;
    }
    const med = (key) => median(setup.samples.map((sample) => sample[key]));
    const counts = Object.entries(await setup.proxy.counts())
      .map(([tag, count]) => `${tag} ${count}`)
      .join(", ");
    const cells = [
      format(med("callsPerSecond")),
      format(med("serverUs")),
      format(med("redisUs")),
      format(ratio(setup, first, "callsPerSecond"), 2),
      format(ratio(setup, first, "serverUs"), 2),
      format(ratio(setup, third, "callsPerSecond"), 2),
      format(ratio(setup, third, "serverUs"), 2),
      counts,
    ];
    console.log(`| ${index + 1}. ${setup.name} | ${cells.join(" | ")} |`);
  }
  console.log("\nTargets (issue 22):");
  target("2 ≥ 0.85× 1 (one process: Redis against in-memory)", setups[1], first, 0.85);
  target("4 ≥ 0.6× 3 (three processes: alternating against sticky)", setups[3], third, 0.6);
}

async function main() {
  const began = performance.now();
  const { startInstances } = await loadSupport();
  const redis = await startRedis();
  const setups = await startSetups(startInstances, redis);
  const measured = setups.filter((setup) => setup.skipped === undefined);
  console.log(`started in ${((performance.now() - began) / 1000).toFixed(1)} s; measuring ${measured.length} setups`);
  for (let repetition = 0; repetition < REPETITIONS; repetition++) {
    const order = measured.map((_, index) => measured[(index + repetition) % measured.length]);
    for (const setup of order) setup.samples.push(await measure(setup, redis.pid));
    console.log(`repetition ${repetition + 1} done (${((performance.now() - began) / 1000).toFixed(1)} s)`);
  }
  await printTable(setups);
  console.log(`\nwhole run ${((performance.now() - began) / 1000).toFixed(1)} s`);
}

async function stopEverything() {
  for (const stop of stops.splice(0).toReversed()) await stop().catch((error) => console.error(`stopping: ${error}`));
  rmSync(dir, { recursive: true, force: true });
}

process.once("SIGINT", () => void stopEverything().then(() => process.exit(130)));
try {
  await main();
} finally {
  await stopEverything();
}

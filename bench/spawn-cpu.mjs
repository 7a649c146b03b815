// Where a stdio server child's start goes: the CPU a fresh child has used by the time it answered
// initialize and a first tools/call (read with the `cpu` tool every bench server has), for the
// limit's child and ours (echo tool in JSON Schema), under each Node given — and, on a Node with
// V8's compile cache for ES modules (22.1+), once more with NODE_COMPILE_CACHE set (after a run
// that fills it). Medians over the runs, alternating the children.
//
//   npm run bench:spawn                  (builds dist/ first; adds the Node 22 of runtimes/.tools if installed)
//   node bench/spawn-cpu.mjs [--runs 15] [--node /path/to/node ...]
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const at = process.argv.indexOf("--runs");
const RUNS = Math.min(Math.max(at > 0 ? Number(process.argv[at + 1]) : 15, 3), 200);
const SPAWN_TIMEOUT_MS = 20_000;
const BUNDLED_NODE_22 = join(ROOT, "runtimes/.tools/node_modules/node/bin/node");
const given = process.argv.flatMap((arg, index) => (arg === "--node" ? [process.argv[index + 1]] : []));
const nodes = given.length > 0 ? given : [process.execPath, ...(existsSync(BUNDLED_NODE_22) ? [BUNDLED_NODE_22] : [])];

const CHILDREN = { limit: "bench/servers/limit-stdio.mjs", ours: "bench/servers/ours-json-schema-stdio.mjs" };
// The environment ours and the SDKs' clients give a child (the spec's safe list): no NODE_OPTIONS, no extra CA certificates.
const SAFE_ENV = Object.fromEntries(
  ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"]
    .filter((name) => process.env[name] !== undefined)
    .map((name) => [name, process.env[name]]),
);
const INPUT = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "first" } } },
  { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "cpu", arguments: {} } },
]
  .map((message) => `${JSON.stringify(message)}\n`)
  .join("");

/** One child: its CPU in ms when it answered the `cpu` call (initialize and the first echo done). */
function childCpuMs(node, script, env) {
  const result = spawnSync(node, [script], { cwd: ROOT, env, input: INPUT, encoding: "utf8", timeout: SPAWN_TIMEOUT_MS });
  const answer = result.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line))
    .find((message) => message.id === 3);
  if (answer?.result === undefined)
    throw new Error(`${script} on ${node} gave no cpu answer (${result.status ?? result.signal}): ${result.stderr.slice(0, 500)}`);
  return Number(answer.result.content[0].text) / 1000;
}

function nodeVersion(node) {
  return spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
}

const median = (values) => values.toSorted((a, b) => a - b)[values.length >> 1];

function measure(node, env) {
  const samples = { limit: [], ours: [] };
  for (const script of Object.values(CHILDREN)) childCpuMs(node, script, env); // warm-up (and fills a compile cache)
  for (let run = 0; run < RUNS; run++) {
    for (const name of run % 2 === 0 ? ["limit", "ours"] : ["ours", "limit"]) samples[name].push(childCpuMs(node, CHILDREN[name], env));
  }
  const ratios = samples.ours.map((ours, index) => ours / samples.limit[index]);
  return { limit: median(samples.limit), ours: median(samples.ours), ratio: median(ratios) };
}

if (!existsSync(join(ROOT, "dist/index.js"))) {
  console.error("dist/ is missing: run `npm run build` (or `npm run bench:spawn`) first");
  process.exit(1);
}
console.log(`| node | compile cache | limit child (ms CPU) | our child (ms CPU) | ours/limit |\n| --- | --- | --- | --- | --- |`);
for (const node of nodes) {
  const version = nodeVersion(node);
  const modes = Number(version.slice(1).split(".")[0]) >= 22 ? [false, true] : [false];
  for (const cached of modes) {
    const cacheDir = cached ? mkdtempSync(join(tmpdir(), "mcp-compile-cache-")) : undefined;
    try {
      const row = measure(node, cacheDir === undefined ? SAFE_ENV : { ...SAFE_ENV, NODE_COMPILE_CACHE: cacheDir });
      console.log(`| ${version} | ${cached ? "yes" : "no"} | ${row.limit.toFixed(1)} | ${row.ours.toFixed(1)} | ${row.ratio.toFixed(2)} |`);
    } finally {
      if (cacheDir !== undefined) rmSync(cacheDir, { recursive: true, force: true });
    }
  }
}

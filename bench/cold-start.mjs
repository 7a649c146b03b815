// Cold start: how long a fresh Node process takes to import the universal entry, hyperfine-style —
// warm-up runs, then repeated spawns, alternating a bare `node` (the baseline) with `node` importing
// dist/index.js (and, for scale, the Node entry and the official SDK's client and server), reporting
// the median wall time of each and the median of the differences to the baseline (the figure).
//
//   npm run bench:cold-start            (builds dist/ first)
//   node bench/cold-start.mjs [--runs 40] [--warmup 5] [--json]
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const RUNS = Math.min(Math.max(arg("runs", 40), 5), 500);
const WARMUP = Math.min(Math.max(arg("warmup", 5), 0), 50);
const JSON_OUT = process.argv.includes("--json");
const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SPAWN_TIMEOUT_MS = 20_000;

const universal = new URL("../dist/index.js", import.meta.url).href;
const nodeEntry = new URL("../dist/node/index.js", import.meta.url).href;
if (!existsSync(fileURLToPath(universal))) {
  console.error("dist/ is missing: run `npm run build` (or `npm run bench:cold-start`) first");
  process.exit(1);
}

/** Each case is one `node --input-type=module -e <code>` spawn; the import is awaited before exit. */
const cases = [
  { name: "node (no import: baseline)", code: "" },
  { name: "import @suaveplan/mcp", code: `await import(${JSON.stringify(universal)});` },
  {
    name: "import @suaveplan/mcp + /node",
    code: `await import(${JSON.stringify(universal)}); await import(${JSON.stringify(nodeEntry)});`,
  },
  {
    name: "import @modelcontextprotocol/sdk client (1.x, reference)",
    code: `await import("@modelcontextprotocol/sdk/client/index.js"); await import("@modelcontextprotocol/sdk/client/streamableHttp.js");`,
  },
  { name: "import @modelcontextprotocol/server (2.x, reference)", code: `await import("@modelcontextprotocol/server");` },
];

function spawnOnce(code) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", code], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
    timeout: SPAWN_TIMEOUT_MS,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`spawn failed (${result.status ?? result.signal}): ${String(result.stderr).slice(0, 500)}`);
  return ms;
}

const median = (values) => {
  const sorted = values.toSorted((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

for (const { code } of cases) for (let i = 0; i < WARMUP; i++) spawnOnce(code);
const times = cases.map(() => []);
const deltas = cases.map(() => []);
// Interleaved rounds: each round spawns every case once, so drift in machine load hits all alike.
for (let round = 0; round < RUNS; round++) {
  const baseline = spawnOnce(cases[0].code);
  times[0].push(baseline);
  for (let i = 1; i < cases.length; i++) {
    const ms = spawnOnce(cases[i].code);
    times[i].push(ms);
    deltas[i].push(ms - baseline);
  }
}

const rows = cases.map(({ name }, i) => ({
  name,
  medianMs: Number(median(times[i]).toFixed(2)),
  minMs: Number(Math.min(...times[i]).toFixed(2)),
  importMs: i === 0 ? 0 : Number(median(deltas[i]).toFixed(2)),
}));
if (JSON_OUT) {
  console.log(JSON.stringify({ node: process.version, runs: RUNS, warmup: WARMUP, rows }, null, 2));
} else {
  console.log(
    `cold start, node ${process.version}, ${RUNS} interleaved runs after ${WARMUP} warm-up runs each (wall time of a whole process)`,
  );
  console.log(`${"case".padEnd(58)} ${"median".padStart(9)} ${"min".padStart(9)} ${"import (median Δ)".padStart(18)}`);
  for (const row of rows) {
    console.log(
      [
        row.name.padEnd(58),
        `${row.medianMs} ms`.padStart(9),
        `${row.minMs} ms`.padStart(9),
        (row.importMs ? `+${row.importMs} ms` : "—").padStart(18),
      ].join(" "),
    );
  }
  console.log(
    `cold start of @suaveplan/mcp: ${rows[1].medianMs} ms for a fresh process (median), of which the import is ${rows[1].importMs} ms`,
  );
}

#!/usr/bin/env node
// `npm run bench`: ours, the official SDK 1.x and 2.x, and the physical limit, interleaved in one
// process; reports medians of per-repetition ratios. Writes bench/results/latest.{json,md}.
// BENCH_QUICK=1: fewer iterations and repetitions. BENCH_ONLY=<text>: only scenarios whose title contains it.
import { mkdirSync, writeFileSync } from "node:fs";
import { interleave, ratios, timed, median } from "./lib/measure.mjs";
import { httpContenders } from "./scenarios/http.mjs";
import { CLIENT_LAYERS, IN_PROCESS, SERVER_LAYERS, concurrentCalls, sequentialCalls, sequentialPings } from "./scenarios/in-process.mjs";
import {
  CONNECT_BY_ERA,
  heapPerPendingClientRequest,
  heapPerPair,
  heapPerPendingServerRequest,
  heapPerSession,
  sessionSetup,
} from "./scenarios/memory.mjs";
import {
  HTTP_2026,
  STDIO_2026,
  STDIO_2026_CLIENT,
  connectOverHttp,
  connectRequests,
  httpClientContenders,
  oursHttpChild,
} from "./scenarios/stateless.mjs";
import { STDIO, STDIO_JSON_SCHEMA_TOOL } from "./scenarios/stdio.mjs";

// The SDKs' HTTP clients add an abort listener per request to one long-lived signal, and Node warns
// at every one past its limit: each kind of warning is printed once, then counted.
const warnings = new Map();
process.removeAllListeners("warning");
process.on("warning", (warning) => {
  const count = warnings.get(warning.name) ?? 0;
  if (count === 0) console.warn(`(warning, shown once) ${warning.name}: ${warning.message}`);
  warnings.set(warning.name, count + 1);
});

const QUICK = process.env.BENCH_QUICK === "1";
const ONLY = process.env.BENCH_ONLY;
const REPS = QUICK ? 3 : 7;
const scale = (n) => (QUICK ? Math.max(1, Math.round(n / 10)) : n);
const NAMES = ["ours", "sdk1", "sdk2", "limit"];

/** Connects every contender, warms it up, then times `work` interleaved; child CPU (stdio) is added. */
async function throughput(contenders, work, iterations, { childCpu = false } = {}) {
  const connections = {};
  for (const [name, connect] of Object.entries(contenders)) connections[name] = await connect();
  for (const connection of Object.values(connections)) await work(connection, Math.min(200, iterations)); // warm-up
  const samples = await interleave(connections, REPS, async (_name, connection) => {
    const childBefore = childCpu ? await connection.cpu() : 0;
    const sample = await timed(() => work(connection, iterations));
    if (childCpu) sample.cpuMs += ((await connection.cpu()) - childBefore) / 1000;
    return sample;
  });
  for (const connection of Object.values(connections)) await connection.close();
  return samples;
}

/** spawn → initialize → first call, `count` times per repetition; CPU is ours plus the child's whole life. */
async function coldStart(contenders, count) {
  const samples = await interleave(contenders, REPS, async (_name, connect) => {
    let wallMs = 0;
    let cpuMs = 0;
    for (let i = 0; i < count; i++) {
      let connection;
      const sample = await timed(async () => {
        connection = await connect();
        await connection.call({ text: "first" });
      });
      wallMs += sample.wallMs;
      cpuMs += sample.cpuMs + (await connection.cpu()) / 1000;
      await connection.close();
    }
    return { wallMs, cpuMs };
  });
  return samples;
}

/** A setup-time run: `count` sessions set up per repetition, closed after each. */
async function setupTimes(count, names = NAMES, table) {
  const setups = Object.fromEntries(names.map((name) => [name, sessionSetup(name, table)]));
  for (const setup of Object.values(setups)) {
    await setup.run(Math.min(50, count)); // warm-up
    await setup.close();
  }
  return interleave(setups, REPS, async (_name, setup) => {
    const sample = await timed(() => setup.run(count));
    await setup.close();
    return sample;
  });
}

const payload = (bytes) => ({ text: "x".repeat(bytes) });
const echo = (bytes) => (c, n) => sequentialCalls(c, n, payload(bytes));
const inFlight = (k) => (c, n) => concurrentCalls(c, n, k, payload(16));
const pings = (c, n) => sequentialPings(c, n);

// The stdio 2026-07-28 rows also time our child in the session era, by the same client.
const VS_SESSION = { extra: [["ours", "session", "ours 2026-07-28 / ours session era"]] };
// Our client's rows: the same child, only this process's CPU; and its connect, the probe against the handshake.
const VS_SESSION_CLIENT = { extra: [["ours", "session", "our client 2026-07-28 / our client session era"]] };
const VS_HANDSHAKE = { extra: [["ours", "session", "connect: server/discover probe / initialize handshake"]] };
// Our client over Streamable HTTP: one server child per row (`servers/ours-http.mjs`), only this process's CPU.
const VS_SESSION_HTTP_CLIENT = {
  extra: [
    ["ours", "session", "our client 2026-07-28 / our client session era (JSON answers)"],
    ["ours", "session-sse", "our client 2026-07-28 / our client session era (SSE answers, the handler's default)"],
  ],
};
/** Runs `run(child)` against a fresh server child of ours over HTTP, and ends the child. */
const withHttpChild = (run) => async () => {
  const child = await oursHttpChild();
  try {
    return await run(child);
  } finally {
    await child.close();
  }
};
// The requests each connect makes over HTTP, counted once (outside the timing) by the connect row.
let httpConnectRequests;
const requestList = ({ connect, after, close }) =>
  `connect ${connect.length} (${connect.join(", ")})${after.length > 0 ? `, then ${after.join(", ")}` : ""}; ` +
  `close ${close.length}${close.length > 0 ? ` (${close.join(", ")})` : ""}`;
const HTTP_HANDSHAKE = {
  ...VS_HANDSHAKE,
  note: () =>
    httpConnectRequests
      ? `HTTP requests: probe: ${requestList(httpConnectRequests.ours)}; handshake: ${requestList(httpConnectRequests.session)}`
      : undefined,
};

/**
 * [title, unit, how it runs, { extra: [[a, b, label]], note: () => text }?] — `run` returns per-contender samples; per-unit figures divide
 * by `per`; a note is printed under the tables.
 */
const scenarios = [
  ["in-process: sequential tools/call (echo)", scale(20000), () => throughput(IN_PROCESS, echo(16), scale(20000))],
  ["in-process: 64 in flight tools/call (echo)", scale(19200), () => throughput(IN_PROCESS, inFlight(64), scale(19200))],
  ["in-process: sequential ping", scale(30000), () => throughput(IN_PROCESS, pings, scale(30000))],
  [
    "in-process: sequential tools/call (echo), three pass-through client layers",
    scale(20000),
    () => throughput(CLIENT_LAYERS, echo(16), scale(20000)),
    { extra: [["layers3", "ours", "ours with 3 pass-through client layers / ours without"]] },
  ],
  [
    "in-process: sequential tools/call (echo), three pass-through server layers",
    scale(20000),
    () => throughput(SERVER_LAYERS, echo(16), scale(20000)),
    { extra: [["layers3", "ours", "ours with 3 pass-through server layers / ours without"]] },
  ],
  ["in-process: 1 KB argument", scale(10000), () => throughput(IN_PROCESS, echo(1024), scale(10000))],
  ["in-process: 64 KB argument", scale(300), () => throughput(IN_PROCESS, echo(64 * 1024), scale(300))],
  ["in-process: 1 MB argument", scale(20), () => throughput(IN_PROCESS, echo(1024 * 1024), scale(20))],
  ["stdio: spawn → initialize → first call", QUICK ? 1 : 2, () => coldStart(STDIO, QUICK ? 1 : 2)],
  [
    "stdio: spawn → initialize → first call, our tool in JSON Schema",
    QUICK ? 1 : 2,
    () => coldStart(STDIO_JSON_SCHEMA_TOOL, QUICK ? 1 : 2),
  ],
  ["stdio: sequential tools/call (echo)", scale(3000), () => throughput(STDIO, echo(16), scale(3000), { childCpu: true })],
  ["stdio: 64 in flight tools/call (echo)", scale(6400), () => throughput(STDIO, inFlight(64), scale(6400), { childCpu: true })],
  ["stdio: 1 KB argument", scale(2000), () => throughput(STDIO, echo(1024), scale(2000), { childCpu: true })],
  ["stdio: 64 KB argument", scale(200), () => throughput(STDIO, echo(64 * 1024), scale(200), { childCpu: true })],
  ["stdio: 1 MB argument", scale(20), () => throughput(STDIO, echo(1024 * 1024), scale(20), { childCpu: true })],
  [
    "stdio 2026-07-28: sequential tools/call (echo)",
    scale(3000),
    () => throughput(STDIO_2026, echo(16), scale(3000), { childCpu: true }),
    VS_SESSION,
  ],
  [
    "stdio 2026-07-28: 64 in flight tools/call (echo)",
    scale(6400),
    () => throughput(STDIO_2026, inFlight(64), scale(6400), { childCpu: true }),
    VS_SESSION,
  ],
  [
    "stdio 2026-07-28, our client: sequential tools/call (echo)",
    scale(3000),
    () => throughput(STDIO_2026_CLIENT, echo(16), scale(3000)),
    VS_SESSION_CLIENT,
  ],
  [
    "stdio 2026-07-28, our client: 64 in flight tools/call (echo)",
    scale(6400),
    () => throughput(STDIO_2026_CLIENT, inFlight(64), scale(6400)),
    VS_SESSION_CLIENT,
  ],
  [
    "2026-07-28, our client: connect in memory (probe)",
    scale(500),
    () => setupTimes(scale(500), ["ours", "session"], CONNECT_BY_ERA),
    VS_HANDSHAKE,
  ],
  [
    "Streamable HTTP 2026-07-28, our client: sequential tools/call (echo)",
    scale(1000),
    withHttpChild((child) => throughput(httpClientContenders(child), echo(16), scale(1000))),
    VS_SESSION_HTTP_CLIENT,
  ],
  [
    "Streamable HTTP 2026-07-28, our client: 16 in flight tools/call (echo)",
    scale(1600),
    withHttpChild((child) => throughput(httpClientContenders(child), inFlight(16), scale(1600))),
    VS_SESSION_HTTP_CLIENT,
  ],
  [
    "Streamable HTTP 2026-07-28, our client: connect (probe)",
    scale(300),
    withHttpChild(async (child) => {
      const samples = await setupTimes(scale(300), ["ours", "session"], connectOverHttp(child));
      httpConnectRequests = await connectRequests(child);
      return samples;
    }),
    HTTP_HANDSHAKE,
  ],
  ...[
    ["sse", "Streamable HTTP, SSE answers"],
    ["json", "Streamable HTTP, JSON answers"],
    ["legacy", "legacy HTTP+SSE"],
  ].flatMap(([mode, label]) => [
    [`HTTP ${label}: sequential tools/call (echo)`, scale(1000), () => throughput(httpContenders(mode), echo(16), scale(1000))],
    [`HTTP ${label}: 16 in flight tools/call (echo)`, scale(1600), () => throughput(httpContenders(mode), inFlight(16), scale(1600))],
  ]),
  ["HTTP Streamable HTTP, 2026-07-28: sequential tools/call (echo)", scale(1000), () => throughput(HTTP_2026, echo(16), scale(1000))],
  ["HTTP Streamable HTTP, 2026-07-28: 16 in flight tools/call (echo)", scale(1600), () => throughput(HTTP_2026, inFlight(16), scale(1600))],
  [
    "HTTP Streamable HTTP, JSON answers: sequential, ours over the platform fetch",
    scale(1000),
    () => throughput(httpContenders("json", { platformFetch: true }), echo(16), scale(1000)),
  ],
  ["memory: session set-up, client + server, connect + initialize, in-memory", scale(500), () => setupTimes(scale(500))],
];

/** How each contender is measured — KiB per unit, the median over a few runs. */
const memory = [
  {
    title: "memory: heap per pending request, server side (KiB)",
    measure: (name) => heapPerPendingServerRequest(name, QUICK ? 500 : 2000),
  },
  {
    title: "memory: heap per pending request, client side (KiB)",
    measure: (name) => heapPerPendingClientRequest(name, QUICK ? 500 : 2000),
  },
  { title: "memory: heap per connected session on one server (KiB)", measure: (name) => heapPerSession(name, QUICK ? 200 : 1000) },
  {
    title: "memory: heap per connected in-memory session, client + server (KiB)",
    measure: (name) => heapPerPair(name, QUICK ? 200 : 1000),
  },
];

const selected = (title) => !ONLY || title.includes(ONLY);
const f = (x) => (x === undefined || Number.isNaN(x) ? "n/a" : x.toFixed(2));
const pair = (r) => (r ? `${f(r.cpu)} · ${f(r.wall)}` : "n/a");
const perUnit = (r, name) => {
  if (r.kind === "memory") return f(r.kib[name]);
  const value = r.cpuMsPer[name];
  if (value === undefined) return "n/a";
  return r.title.startsWith("stdio: spawn") || r.title.startsWith("memory: session") ? `${value.toFixed(2)} ms` : (value * 1000).toFixed(1);
};
const results = [];
const started = performance.now();

for (const [title, per, run, { extra = [], note } = {}] of scenarios) {
  if (!selected(title)) continue;
  const samples = await run();
  const has = (name) => name in samples;
  const ratio = (a, b) => (has(a) && has(b) ? ratios(samples, a, b) : undefined);
  const row = {
    title,
    kind: "time",
    per,
    cpuMsPer: Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, median(list.map((s) => s.cpuMs)) / per])),
    wallMsPer: Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, median(list.map((s) => s.wallMs)) / per])),
    oursVsLimit: ratio("ours", "limit"),
    oursVsSdk1: ratio("ours", "sdk1"),
    oursVsSdk2: ratio("ours", "sdk2"),
    sdk1VsLimit: ratio("sdk1", "limit"),
    sdk2VsLimit: ratio("sdk2", "limit"),
  };
  if (extra.length > 0) row.extra = extra.map(([a, b, label]) => ({ label, a, b, ...ratio(a, b) }));
  if (note?.()) row.note = note();
  results.push(row);
  console.log(
    `${title}: ours/limit cpu ${f(row.oursVsLimit?.cpu)}× · ours/sdk1 ${f(row.oursVsSdk1?.cpu)}× · ` +
      `ours/sdk2 ${f(row.oursVsSdk2?.cpu)}× · sdk1/limit ${f(row.sdk1VsLimit?.cpu)}× · sdk2/limit ${f(row.sdk2VsLimit?.cpu)}×`,
  );
  for (const e of row.extra ?? [])
    console.log(`  ${e.label}: cpu ${f(e.cpu)}× · wall ${f(e.wall)}× (CPU per unit: ${perUnit(row, e.a)} · ${perUnit(row, e.b)})`);
  if (row.note) console.log(`  ${row.note}`);
}

for (const { title, measure } of memory) {
  if (!selected(title)) continue;
  const kib = {};
  for (const name of NAMES) {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await measure(name));
    kib[name] = median(runs);
  }
  const row = {
    title,
    kind: "memory",
    kib,
    oursVsLimit: kib.ours / kib.limit,
    oursVsSdk1: kib.ours / kib.sdk1,
    oursVsSdk2: kib.ours / kib.sdk2,
    sdk1VsLimit: kib.sdk1 / kib.limit,
    sdk2VsLimit: kib.sdk2 / kib.limit,
  };
  results.push(row);
  console.log(`${title}: ours ${f(kib.ours)} · sdk1 ${f(kib.sdk1)} · sdk2 ${f(kib.sdk2)} · limit ${f(kib.limit)}`);
}

const elapsedS = (performance.now() - started) / 1000;
const tableRow = (cells) => `| ${cells.join(" | ")} |`;
const table = [
  tableRow([
    "scenario",
    "ours/limit (cpu · wall)",
    "ours/SDK 1.x (cpu · wall)",
    "ours/SDK 2.x (cpu · wall)",
    "SDK 1.x/limit (cpu)",
    "SDK 2.x/limit (cpu)",
    "per call, CPU µs (or KiB, ms): ours · SDK 1.x · SDK 2.x · limit",
  ]),
  "| --- | --- | --- | --- | --- | --- | --- |",
  ...results.map((r) => {
    const perCall = NAMES.map((n) => perUnit(r, n)).join(" · ");
    return tableRow(
      r.kind === "memory"
        ? [r.title, f(r.oursVsLimit), f(r.oursVsSdk1), f(r.oursVsSdk2), f(r.sdk1VsLimit), f(r.sdk2VsLimit), perCall]
        : [r.title, pair(r.oursVsLimit), pair(r.oursVsSdk1), pair(r.oursVsSdk2), f(r.sdk1VsLimit?.cpu), f(r.sdk2VsLimit?.cpu), perCall],
    );
  }),
].join("\n");
const extraRows = results.flatMap((r) =>
  (r.extra ?? []).map((e) => `| ${r.title} | ${e.label} | ${pair(e)} | ${perUnit(r, e.a)} · ${perUnit(r, e.b)} |`),
);
const extraTable =
  extraRows.length === 0
    ? ""
    : ["| scenario | comparison | ratio (cpu · wall) | per call, CPU µs |", "| --- | --- | --- | --- |", ...extraRows].join("\n");
const rowNotes = results.filter((r) => r.note).map((r) => `- ${r.title}: ${r.note}`);
const tables = [table, extraTable, rowNotes.join("\n")].filter((part) => part !== "").join("\n\n");
const notes = [
  "CPU time is this process's user + system time; over stdio the child's CPU time (read with a `cpu` tool before and after) is " +
    "added, and for spawn → first call the child's whole life.",
  "HTTP: server and client in this process on 127.0.0.1; the limit is node:http answering a JSON POST with a JSON body, called with " +
    "node:http (kept-alive); our client goes over `nodeFetch()` of our Node entry (one row over the platform fetch), the SDKs' over " +
    "the platform fetch, their default. SDK 2.x's web-standard server transport is served through the same node:http bridge as ours; " +
    "SDK 2.x has no legacy HTTP+SSE server (n/a).",
  "2026-07-28 rows: every contender is called by one raw client (`impls/stateless-client.mjs`: the request with its `_meta`, over " +
    "HTTP with `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` on node:http kept-alive; over stdio as lines), so only the server " +
    "differs. HTTP: ours is `streamableHttpHandler` served by `serveHttp`; SDK 2.x's `createMcpHandler` (a server from its factory per " +
    "request, as it documents) through the same node:http bridge; the limit the same node:http server as above, answering what the " +
    "other two answer. Stdio: ours, SDK 2.x's `serveStdio` child and the limit's child; the second table compares our child with " +
    "itself in the session era (initialize, then plain tools/call) under the same line client.",
  'Our client\'s 2026-07-28 rows ("…, our client"): the other way round, every contender calls our server (serving both eras), so ' +
    "only the client differs, and only this process's CPU is counted. Stdio: our child. Streamable HTTP: our server in a child " +
    "(`servers/ours-http.mjs`, `streamableHttpHandler` served by `serveHttp` on 127.0.0.1), our client over `nodeFetch()`, SDK 2.x's " +
    "`Client` (pinned to 2026-07-28) over the platform fetch, the limit the raw 2026 client over node:http; `session` is our client " +
    "pinned to the session era against the handler with `enableJsonResponse` (JSON answers, as the stateless era's), `session-sse` " +
    "against the handler's default (SSE answers). The connect rows time a new client's connect (over HTTP with its own `nodeFetch()`, " +
    "so its own TCP connection): the server/discover probe against the initialize handshake.",
  "Memory: heap used after forced GC, per unit; the server side is driven by a bare JSON-RPC driver, the client side calls a server " +
    "end that never answers; memory ratios are of the medians of 3 runs.",
];
mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
if (!ONLY) {
  writeFileSync(
    new URL("./results/latest.json", import.meta.url),
    JSON.stringify(
      { date: new Date().toISOString(), node: process.version, quick: QUICK, repetitions: REPS, elapsedSeconds: elapsedS, results },
      null,
      2,
    ),
  );
  writeFileSync(
    new URL("./results/latest.md", import.meta.url),
    `# Benchmark results\n\nNode ${process.version}, ${REPS} repetitions, ` +
      `medians of per-repetition ratios (lower is better for ours), ${elapsedS.toFixed(0)} s.\n\n` +
      `${tables}\n\n${notes.map((n) => `- ${n}`).join("\n")}\n`,
  );
}
console.log(`\n${tables}\n\n(${elapsedS.toFixed(0)} s)`);
for (const [name, count] of warnings) console.log(`${name}: ${count} warnings`);

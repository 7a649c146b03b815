#!/usr/bin/env node
// `npm run bench`: ours, the official SDK 1.x and 2.x, and the physical limit, interleaved in one
// process; reports medians of per-repetition ratios. Writes bench/results/latest.{json,md}.
import { mkdirSync, writeFileSync } from "node:fs";
import { interleave, ratios, timed, median } from "./lib/measure.mjs";
import { IN_PROCESS, concurrentCalls, sequentialCalls, sequentialPings } from "./scenarios/in-process.mjs";

const QUICK = process.env.BENCH_QUICK === "1";
const REPS = QUICK ? 3 : 7;
const scale = (n) => (QUICK ? Math.max(1, Math.round(n / 10)) : n);

async function inProcessScenario(title, work, iterations) {
  const connections = {};
  for (const [name, connect] of Object.entries(IN_PROCESS)) connections[name] = await connect();
  for (const connection of Object.values(connections)) await work(connection, Math.min(200, iterations)); // warm-up
  const samples = await interleave(connections, REPS, (_name, connection) => timed(() => work(connection, iterations)));
  for (const connection of Object.values(connections)) await connection.close();
  return { title, iterations, samples };
}

const payload = (bytes) => ({ text: "x".repeat(bytes) });
const scenarios = [
  ["in-process: sequential tools/call (echo)", (c, n) => sequentialCalls(c, n, payload(16)), scale(5000)],
  ["in-process: 64 in flight tools/call (echo)", (c, n) => concurrentCalls(c, n, 64, payload(16)), scale(6400)],
  ["in-process: sequential ping", (c, n) => sequentialPings(c, n), scale(5000)],
  ["in-process: 1 KB argument", (c, n) => sequentialCalls(c, n, payload(1024)), scale(2000)],
  ["in-process: 64 KB argument", (c, n) => sequentialCalls(c, n, payload(64 * 1024)), scale(300)],
  ["in-process: 1 MB argument", (c, n) => sequentialCalls(c, n, payload(1024 * 1024)), scale(20)],
];

const results = [];
for (const [title, work, iterations] of scenarios) {
  const { samples } = await inProcessScenario(title, work, iterations);
  const row = {
    title,
    iterations,
    cpuMsPerCall: Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, median(list.map((s) => s.cpuMs)) / iterations])),
    oursVsLimit: ratios(samples, "ours", "limit"),
    oursVsSdk1: ratios(samples, "ours", "sdk1"),
    oursVsSdk2: ratios(samples, "ours", "sdk2"),
    sdk1VsLimit: ratios(samples, "sdk1", "limit"),
    sdk2VsLimit: ratios(samples, "sdk2", "limit"),
  };
  results.push(row);
  console.log(`${title}: ours/limit cpu ${row.oursVsLimit.cpu.toFixed(2)}× · ours/sdk1 cpu ${row.oursVsSdk1.cpu.toFixed(2)}× · ours/sdk2 cpu ${row.oursVsSdk2.cpu.toFixed(2)}× · sdk1/limit ${row.sdk1VsLimit.cpu.toFixed(2)}× · sdk2/limit ${row.sdk2VsLimit.cpu.toFixed(2)}×`);
}

const f = (x) => x.toFixed(2);
const table = [
  "| scenario | ours/limit (cpu · wall) | ours/SDK 1.x (cpu · wall) | ours/SDK 2.x (cpu · wall) | SDK 1.x/limit (cpu) | SDK 2.x/limit (cpu) | µs CPU per call: ours · SDK1 · SDK2 · limit |",
  "| --- | --- | --- | --- | --- | --- | --- |",
  ...results.map((r) => {
    const us = (name) => (r.cpuMsPerCall[name] * 1000).toFixed(1);
    return `| ${r.title} | ${f(r.oursVsLimit.cpu)} · ${f(r.oursVsLimit.wall)} | ${f(r.oursVsSdk1.cpu)} · ${f(r.oursVsSdk1.wall)} | ${f(r.oursVsSdk2.cpu)} · ${f(r.oursVsSdk2.wall)} | ${f(r.sdk1VsLimit.cpu)} | ${f(r.sdk2VsLimit.cpu)} | ${us("ours")} · ${us("sdk1")} · ${us("sdk2")} · ${us("limit")} |`;
  }),
].join("\n");
mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
writeFileSync(new URL("./results/latest.json", import.meta.url), JSON.stringify({ date: new Date().toISOString(), node: process.version, quick: QUICK, repetitions: REPS, results }, null, 2));
writeFileSync(new URL("./results/latest.md", import.meta.url), `# Benchmark results\n\nNode ${process.version}, ${REPS} repetitions, medians of per-repetition ratios (lower is better for ours).\n\n${table}\n`);
console.log(`\n${table}`);

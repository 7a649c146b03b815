#!/usr/bin/env node
// A standalone loop for `node --cpu-prof bench/profile.mjs <ours|sdk1|sdk2|limit> <echo|ping> [count]`:
// one contender, in-process, so a profile shows only its hot path. Prints µs per call (CPU).
import { IN_PROCESS, sequentialCalls, sequentialPings } from "./scenarios/in-process.mjs";

const [name = "ours", what = "echo", countText = "50000"] = process.argv.slice(2);
const count = Number(countText);
const connection = await IN_PROCESS[name]();
const work = what === "ping" ? () => sequentialPings(connection, count) : () => sequentialCalls(connection, count, { text: "x".repeat(16) });
await work(); // warm-up
const before = process.cpuUsage();
await work();
const cpu = process.cpuUsage(before);
console.log(`${name} ${what}: ${((cpu.user + cpu.system) / count).toFixed(2)} µs CPU per call`);
await connection.close();

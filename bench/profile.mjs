#!/usr/bin/env node
// A standalone loop for `node --cpu-prof bench/profile.mjs <contender> <what> [count]`, so a profile
// shows only one contender's hot path. Prints µs per call (CPU).
//   echo | ping      ours, sdk1, sdk2 or limit in-process (client and server).
//   http-sse | http-json  ours, sdk1, sdk2 or limit: the session-era Streamable HTTP rows (SSE or JSON answers),
//                    server and client in this process.
//   http-2026        ours, sdk2 or limit: the 2026-07-28 HTTP row, server and the shared raw client in this process.
//   lines-2026       ours only: our server in-process, fed the stdio 2026-07-28 row's JSON lines (no child).
//   lines-session    the same lines in the session era (initialize, then plain tools/call).
//   http-2026-client ours (auto: the stateless era), session, session-sse, sdk2 or limit: the client side of
//                    the rows "Streamable HTTP 2026-07-28, our client", our server in a child (not profiled).
//   setup            ours, sdk1, sdk2 or limit: the session set-up row (a client connecting in-process,
//                    initialize and initialized), `count` set-ups kept open, then closed.
import { IN_PROCESS, sequentialCalls, sequentialPings } from "./scenarios/in-process.mjs";
import { httpContenders } from "./scenarios/http.mjs";
import { HTTP_2026, httpClientContenders, oursHttpChild } from "./scenarios/stateless.mjs";
import { oursLines } from "./impls/ours.mjs";
import { sessionSetup } from "./scenarios/memory.mjs";
import { sessionStdioClient, statelessStdioClient } from "./impls/stateless-client.mjs";

const [name = "ours", what = "echo", countText = "50000"] = process.argv.slice(2);
const count = Number(countText);
if (what === "setup") {
  const setups = sessionSetup(name);
  await setups.run(count); // warm-up
  await setups.close();
  const before = process.cpuUsage();
  await setups.run(count);
  const cpu = process.cpuUsage(before);
  await setups.close();
  console.log(`${name} setup: ${((cpu.user + cpu.system) / count).toFixed(2)} µs CPU per set-up`);
  process.exit(0);
}
const connect =
  {
    "http-sse": () => httpContenders("sse")[name](),
    "http-json": () => httpContenders("json")[name](),
    "http-2026": () => HTTP_2026[name](),
    "lines-2026": async () => statelessStdioClient(await oursLines()),
    "lines-session": async () => sessionStdioClient(await oursLines()),
    "http-2026-client": async () => {
      const child = await oursHttpChild();
      const connection = await httpClientContenders(child)[name]();
      return { ...connection, close: async () => (await connection.close(), await child.close()) };
    },
  }[what] ?? IN_PROCESS[name];
const connection = await connect();
const work =
  what === "ping" ? () => sequentialPings(connection, count) : () => sequentialCalls(connection, count, { text: "x".repeat(16) });
await work(); // warm-up
const before = process.cpuUsage();
await work();
const cpu = process.cpuUsage(before);
console.log(`${name} ${what}: ${((cpu.user + cpu.system) / count).toFixed(2)} µs CPU per call`);
await connection.close();

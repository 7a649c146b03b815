#!/usr/bin/env node
// The fixture server for the server scenarios of @modelcontextprotocol/conformance 0.1.16 (2025
// sessions) and 0.2.0-alpha.12 (2026-07-28, stateless): fixtures.mjs's MCPServer over Streamable HTTP
// on 127.0.0.1:$PORT, path /mcp. One handler serves both eras; each request is routed by its own era.
//
//   PORT=3001 node conformance/server.mjs       (PORT unset or 0: a free port)
//   npm run --silent conformance:server
//
// Prints its URL on stderr ("… listening on http://127.0.0.1:<port>/mcp"); stops on SIGTERM/SIGINT.
import { streamableHttpHandler } from "@suaveplan/mcp";
import { serveHttp } from "@suaveplan/mcp/node";
import { createFixtureServer } from "./fixtures.mjs";

const HOST = "127.0.0.1";
const PATH = "/mcp";
const port = Number(process.env.PORT ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`conformance fixture server: PORT must be a TCP port, got ${JSON.stringify(process.env.PORT)}`);
  process.exit(2);
}

const log = (...parts) => console.error("[conformance-server]", ...parts);

let handler;
const server = createFixtureServer({
  // test_reconnection (SEP-1699): end the SSE stream of the POST this call came on, keep the call
  // (a session's stream only: a stateless-era request has no stream to resume).
  closeRequestStream: (ctx) => (ctx.session ? handler.closeSSEStream(ctx.session.id, ctx.requestId) : false),
});

// Stateful sessions, SSE answers, the default in-memory event store (Last-Event-ID replay) and the
// default DNS-rebinding protection: Host and Origin must be loopback names (dns-rebinding-protection).
handler = streamableHttpHandler(server, { path: PATH });

const served = await serveHttp(handler, { port, host: HOST });
const url = new URL(PATH, served.url).href;
log(`listening on ${url} (pid ${process.pid})`);

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping`);
  const force = setTimeout(() => {
    log("did not stop within 5 s; exiting");
    process.exit(1);
  }, 5000);
  force.unref();
  try {
    await handler.close();
    await served.close();
  } finally {
    clearTimeout(force);
    process.exit(0);
  }
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));

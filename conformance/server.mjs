#!/usr/bin/env node
// The fixture server for the server scenarios of @modelcontextprotocol/conformance 0.1.16 (2025
// sessions) and 0.2.0-alpha.12 (2026-07-28, stateless): fixtures.mjs's MCPServer over Streamable HTTP
// on 127.0.0.1:$PORT, path /mcp. One handler serves both eras; each request is routed by its own era.
//
//   PORT=3001 node conformance/server.mjs       (PORT unset or 0: a free port)
//   npm run --silent conformance:server
//
// Prints its URL on stderr ("… listening on http://127.0.0.1:<port>/mcp"); stops on SIGTERM/SIGINT.
//
// Cluster mode (conformance/cluster.mjs starts three behind a proxy): CLUSTER=on with REDIS_SOCKET,
// PREFIX and INSTANCE shares sessions (sessionCluster), events, changes, tasks and request-state keys
// on Redis, and also prints {"port":…,"instance":…} on stdout, as the cluster suite's instances do.
import { sessionCluster, streamableHttpHandler } from "@suaveplan/mcp";
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

const cluster = process.env.CLUSTER === "on" ? await clusterStores() : undefined;

let handler;
const server = createFixtureServer(
  {
    // test_reconnection (SEP-1699): end the SSE stream of the POST this call came on, keep the call
    // (a session's stream only: a stateless-era request has no stream to resume).
    closeRequestStream: (ctx) => (ctx.session ? handler.closeSSEStream(ctx.session.id, ctx.requestId) : false),
  },
  cluster?.shared,
);

// Stateful sessions, SSE answers, the default in-memory event store (Last-Event-ID replay) and the
// default DNS-rebinding protection: Host and Origin must be loopback names (dns-rebinding-protection).
handler = streamableHttpHandler(server, { path: PATH, ...cluster?.handler });
// Subscribed from here on (the server listens to its feed): a change another process publishes is heard.
await cluster?.shared.changeFeed.ready();

const served = await serveHttp(handler, { port, host: HOST });
const url = new URL(PATH, served.url).href;
log(`listening on ${url} (pid ${process.pid})`);
if (cluster) process.stdout.write(`${JSON.stringify({ port: Number(new URL(served.url).port), instance: process.env.INSTANCE })}\n`);

/** The Redis stores of a cluster instance, on a node-redis client of the socket. */
async function clusterStores() {
  const { createClient } = await import("redis");
  const { RedisChangeFeed, RedisEventStore, RedisInstanceBus, RedisRequestStateKeys, RedisSessionDirectory, RedisTaskStore } =
    await import("@suaveplan/mcp/redis");
  const client = createClient({ socket: { path: process.env.REDIS_SOCKET } });
  client.on("error", (error) => log(`redis: ${error.message}`));
  await client.connect();
  const prefix = process.env.PREFIX ?? "conformance:";
  const changeFeed = new RedisChangeFeed({ client, prefix });
  return {
    shared: {
      changeFeed,
      requestState: { keys: new RedisRequestStateKeys({ client, prefix }) },
      taskStore: new RedisTaskStore({ client, prefix }),
    },
    handler: {
      eventStore: new RedisEventStore({ client, prefix }),
      cluster: sessionCluster({
        instance: process.env.INSTANCE,
        directory: new RedisSessionDirectory({ client, prefix }),
        bus: new RedisInstanceBus({ client, prefix }),
        leaseMs: 2_000,
      }),
    },
  };
}

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

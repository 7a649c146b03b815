// Runs the runtime suite in this process on whatever runtime runs it:
//   node runtimes/cli.mjs  ·  bun runtimes/cli.mjs  ·  deno run --allow-net --allow-read --allow-env runtimes/cli.mjs
// It imports the built package (dist/; `npm run build` first) and serves HTTP with the runtime's own
// server: Bun.serve and Deno.serve take the handler's fetch as it is; Node goes through serveHttp
// from @suaveplan/mcp/node. Exits 1 on any failure; the last line is "N passed, N failed".
import * as z from "zod";
import * as client from "../dist/entries/client.js";
import * as httpServer from "../dist/entries/http-server.js";
import * as server from "../dist/entries/server.js";
import * as mcp from "../dist/index.js";
import { createHarness } from "./harness.mjs";
import { registerSuite } from "./suite.mjs";

const runtime = globalThis.Bun ? "bun" : globalThis.Deno ? "deno" : "node";
const version =
  runtime === "bun" ? globalThis.Bun.version : runtime === "deno" ? globalThis.Deno.version.deno : globalThis.process.versions.node;

const servers = [];
if (runtime === "bun") {
  servers.push({
    label: "Bun.serve",
    async serve(handler) {
      const bunServer = globalThis.Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handler.fetch, idleTimeout: 0 });
      return { url: `http://127.0.0.1:${bunServer.port}/`, close: () => bunServer.stop(true) };
    },
  });
} else if (runtime === "deno") {
  servers.push({
    label: "Deno.serve",
    async serve(handler) {
      const { promise, resolve } = Promise.withResolvers();
      const denoServer = globalThis.Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: resolve }, handler.fetch);
      const { port } = await promise;
      return {
        url: `http://127.0.0.1:${port}/`,
        close: async () => {
          await denoServer.shutdown();
        },
      };
    },
  });
} else {
  const { serveHttp } = await import("../dist/node/index.js");
  servers.push({ label: "serveHttp (@suaveplan/mcp/node)", serve: (handler) => serveHttp(handler, { port: 0 }) });
}

console.log(`runtime suite on ${runtime} ${version}`);
const filter = (runtime === "deno" ? globalThis.Deno.env.get("RUNTIME_SUITE_FILTER") : globalThis.process.env.RUNTIME_SUITE_FILTER) ?? "";
const harness = createHarness({ filter });
// What this runtime makes of the package's `imports` map (this file is in the package's scope, as dist/ is).
const defaultFetchModule = import.meta.resolve("#default-fetch");
registerSuite(harness, { mcp, sides: { server, httpServer, client }, z, runtime, servers, defaultFetchModule });
const { failed } = await harness.run(`${runtime} ${version}`);
if (runtime === "deno") globalThis.Deno.exit(failed ? 1 : 0);
else globalThis.process.exit(failed ? 1 : 0);

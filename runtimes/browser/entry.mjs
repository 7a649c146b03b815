// The runtime suite inside a Chromium page: bundled by runtimes/browser.mjs from the BUILT package
// (dist/index.js, the universal entry, and the side entries) and zod, with no Node built-in and no polyfill. Client and
// server run inside the page (in-memory, stdio over web streams, the handler's fetch in-process);
// the client also reaches servers on 127.0.0.1 across origins, named in the page's query string.
import * as z from "zod";
import * as client from "../../dist/entries/client.js";
import * as httpServer from "../../dist/entries/http-server.js";
import * as server from "../../dist/entries/server.js";
import * as mcp from "../../dist/index.js";
import { createHarness } from "../harness.mjs";
import { registerSuite } from "../suite.mjs";

const params = new URL(location.href).searchParams;
const remote = params
  .getAll("remote")
  .map((url) => ({ label: `a server on 127.0.0.1 across origins (CORS: allowedOrigins names this page), ${url}`, url }));
const refused = params
  .getAll("refused")
  .map((url) => ({ label: `a server on 127.0.0.1 whose allowedOrigins leaves this page out, ${url},`, url }));

const lines = [];
const harness = createHarness({
  log: (line) => {
    lines.push(line);
    console.log(line);
  },
});
console.log(`runtime suite on chromium ${navigator.userAgent}`);
registerSuite(harness, { mcp, sides: { server, httpServer, client }, z, runtime: "chromium", servers: [], remote, refused });
harness.run("chromium").then(
  (result) => {
    globalThis.mcpSuiteResult = { ...result, lines };
  },
  (error) => {
    globalThis.mcpSuiteResult = { passed: 0, failed: 1, assertions: 0, failures: [{ name: "harness", error: String(error) }], lines };
  },
);

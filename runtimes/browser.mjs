// Runs the runtime suite in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core;
// no browser download): bundles runtimes/browser/entry.mjs with Vite from the BUILT package, serves
// the page from 127.0.0.1, serves two MCP servers on 127.0.0.1 from this Node process on other ports
// (so the page reaches them across origins: one whose `allowedOrigins` names the page, one whose
// doesn't), opens the page, and prints what it reports. Exits 1 on any failure or on no result
// within the time limit. `npm run build` first.
//
//   node runtimes/browser.mjs            CHROMIUM=/path/to/chromium to use another binary
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { build } from "vite";
import * as z from "zod";
import * as mcp from "../dist/index.js";
import { serveHttp } from "../dist/node/index.js";
import { makeWalkServer } from "./suite.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const outDir = join(here, ".out", "browser");
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const RESULT_TIMEOUT_MS = 120_000;

// ---- the bundle: no Node built-in may be resolved ---------------------------------------------------
const nodeBuiltins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
await build({
  configFile: false,
  logLevel: "warn",
  plugins: [
    {
      name: "no-node-builtins",
      enforce: "pre",
      resolveId(id, importer) {
        if (nodeBuiltins.has(id) || id.startsWith("node:"))
          throw new Error(`the browser bundle imports the Node built-in "${id}" (from ${importer})`);
        return null;
      },
    },
  ],
  build: {
    outDir,
    emptyOutDir: true,
    target: "es2022",
    minify: false,
    copyPublicDir: false,
    lib: { entry: join(here, "browser", "entry.mjs"), formats: ["es"], fileName: () => "suite.js" },
  },
});
// The suite and the chunks it loads on demand (the library's schemas come with the first connection).
const files = { "/": { type: "text/html; charset=utf-8", body: await readFile(join(here, "browser", "index.html")) } };
for (const name of await readdir(outDir, { recursive: true })) {
  if (name.endsWith(".js"))
    files[`/${name.split(sep).join("/")}`] = { type: "text/javascript; charset=utf-8", body: await readFile(join(outDir, name)) };
}

// ---- the page's origin, and two MCP servers on other ports ------------------------------------------
const pageServer = createServer((request, response) => {
  const file = files[new URL(request.url ?? "/", "http://127.0.0.1").pathname];
  if (file) response.writeHead(200, { "content-type": file.type, "cache-control": "no-store" }).end(file.body);
  else response.writeHead(request.url === "/favicon.ico" ? 204 : 404).end();
});
await new Promise((resolve) => pageServer.listen(0, "127.0.0.1", resolve));
const pageOrigin = `http://127.0.0.1:${pageServer.address().port}`;

const { server } = makeWalkServer({ mcp, z, runtime: "node" });
const allowed = mcp.streamableHttpHandler(server, { path: "/mcp", allowedOrigins: [pageOrigin] });
const allowedHttp = await serveHttp(allowed, { port: 0 });
const { server: other } = makeWalkServer({ mcp, z, runtime: "node" });
const refused = mcp.streamableHttpHandler(other, { path: "/mcp", allowedOrigins: ["http://127.0.0.1:1"] });
const refusedHttp = await serveHttp(refused, { port: 0 });

const page = new URL("/", pageOrigin);
page.searchParams.append("remote", new URL("/mcp", allowedHttp.url).href);
page.searchParams.append("refused", new URL("/mcp", refusedHttp.url).href);

// ---- Chromium ---------------------------------------------------------------------------------------
const profile = await mkdtemp(join(tmpdir(), "suaveplan-chromium-"));
let context;
let result;
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    timeout: 60_000,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const tab = context.pages()[0] ?? (await context.newPage());
  tab.on("console", (message) => console.log(message.text()));
  tab.on("pageerror", (error) => console.log(`page error: ${error.message}`));
  await tab.goto(page.href);
  await tab.waitForFunction(() => globalThis.mcpSuiteResult !== undefined, undefined, { timeout: RESULT_TIMEOUT_MS, polling: 100 });
  result = await tab.evaluate(() => {
    const { passed, failed, assertions } = globalThis.mcpSuiteResult;
    return { passed, failed, assertions };
  });
  console.log(`chromium ${context.browser()?.version() ?? ""} (${executablePath}): ${result.assertions} assertions`);
} catch (error) {
  console.log(`the browser suite did not finish: ${error.message}`);
} finally {
  await context?.close().catch(() => undefined);
  await rm(profile, { recursive: true, force: true });
  await allowed.close();
  await refused.close();
  await allowedHttp.close();
  await refusedHttp.close();
  await new Promise((resolve) => pageServer.close(resolve));
}
// The page printed its own "N passed, N failed"; this is the verdict of the whole run.
if (!result) console.log("0 passed, 1 failed");
process.exit(result && result.failed === 0 && result.passed > 0 ? 0 : 1);

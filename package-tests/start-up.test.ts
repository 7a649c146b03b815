// What a fresh process pays to import the installed package. A stdio server imports the server and the
// Node entries and never serves HTTP, spawns a child or opens a browser: no entry may load Node's HTTP
// or child-process modules at import (the Node entry loads them when first used), and the server entry
// loads none of the client's or the HTTP handlers' code, nor the client entry the server's or the JSON
// Schema validator (src/entries/entries.md). Node's own records say what was loaded: its list of
// built-in modules, and for our files a loader hook that sees every module Node loads.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CONSUMER } from "./support/paths.js";

const PACKAGE_DIST = "/node_modules/@suaveplan/mcp/dist/";

// Runs in Node's hooks thread: keeps each URL it is asked to load, and gives the list when asked.
const RECORDING_HOOKS = `let loaded = [];
export function initialize({ port }) {
  port.on("message", () => port.postMessage(loaded));
  port.unref();
}
export function load(url, context, next) {
  loaded.push(url);
  return next(url, context);
}
`;

const IMPORTING = `import { register } from "node:module";
import { MessageChannel } from "node:worker_threads";
const { port1, port2 } = new MessageChannel();
register("./recording-hooks.mjs", import.meta.url, { data: { port: port2 }, transferList: [port2] });
for (const entry of process.argv.slice(2)) await import(entry);
const files = await new Promise((resolve) => { port1.once("message", resolve); port1.postMessage("list"); });
port1.close();
const builtins = process.moduleLoadList.filter((name) => name.startsWith("NativeModule "));
console.log(JSON.stringify({ files, builtins }));
`;

/** What importing `entries` in a fresh process loads: our files (under dist/) and Node's built-in modules. */
function importing(...entries: string[]): { files: string[]; code: string; builtins: string[] } {
  writeFileSync(join(CONSUMER, "recording-hooks.mjs"), RECORDING_HOOKS);
  writeFileSync(join(CONSUMER, "start-up.mjs"), IMPORTING);
  const output = execFileSync(process.execPath, ["start-up.mjs", ...entries], { cwd: CONSUMER, encoding: "utf8", timeout: 60_000 });
  const { files, builtins } = JSON.parse(output) as { files: string[]; builtins: string[] };
  const ours = files.filter((url) => url.includes(PACKAGE_DIST));
  return {
    files: ours.map((url) => url.slice(url.indexOf(PACKAGE_DIST) + PACKAGE_DIST.length)).toSorted(),
    code: ours.map((url) => readFileSync(fileURLToPath(url), "utf8")).join("\n"),
    builtins,
  };
}

/** The names among `names` that the loaded code holds (names are kept in the build). */
const found = (code: string, names: string[]): string[] => names.filter((name) => code.includes(name));

const NODE_NETWORK_OR_PROCESSES = /^NativeModule (?:https?|child_process|_http_\w+)$/;

describe("importing the installed tarball", () => {
  it("loads no node:http, node:https or node:child_process for the universal and Node entries", () => {
    const { builtins, files } = importing("@suaveplan/mcp", "@suaveplan/mcp/node");
    // The list is Node's own record of the built-in modules loaded so far: the check reads something that can be there.
    expect(builtins).toContain("NativeModule path");
    expect(builtins.filter((name) => NODE_NETWORK_OR_PROCESSES.test(name))).toEqual([]);
    expect(files).toContain("index.js");
  });

  it("a stdio server (the server and Node entries) loads none of the client's code, the HTTP handlers, the JOSE code or the proxy", () => {
    const { builtins, files, code } = importing("@suaveplan/mcp/server", "@suaveplan/mcp/node");
    expect(builtins.filter((name) => NODE_NETWORK_OR_PROCESSES.test(name))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(["entries/server.js", "node/index.js"]));
    expect(files.filter((file) => /^shared\/(?:client|auth|http-server|proxy)-/.test(file))).toEqual([]);
    expect(code).toMatch(/\bMCPServer=class\b|\bclass MCPServer\b/);
    const elsewhere = [
      "MCPClient",
      "Authorizer",
      "streamableHttpHandler",
      "sessionCluster",
      "jwtVerifier",
      "verifyJwt",
      "signJwt",
      "proxyClient",
    ];
    expect(found(code, elsewhere)).toEqual([]);
  });

  it("a client (the client entry) loads none of the server's code and not the JSON Schema validator until asked", () => {
    const { files, code } = importing("@suaveplan/mcp/client");
    expect(files).toContain("entries/client.js");
    expect(files.filter((file) => /^shared\/(?:server|http-server|json-schema|proxy)-/.test(file))).toEqual([]);
    expect(code).toMatch(/\bMCPClient=class\b|\bclass MCPClient\b/);
    expect(found(code, ["MCPServer", "streamableHttpHandler", "function compileJsonSchema", "serverTasks"])).toEqual([]);
  });

  it("an HTTP server (the server and HTTP server entries) loads the handlers and the resource server, not the client", () => {
    const { files, code } = importing("@suaveplan/mcp/server", "@suaveplan/mcp/http-server");
    expect(files).toEqual(expect.arrayContaining(["entries/server.js", "entries/http-server.js"]));
    expect(files.filter((file) => /^shared\/(?:client|proxy)-/.test(file))).toEqual([]);
    const wanted = ["streamableHttpHandler", "jwtVerifier", "sessionCluster"];
    expect(found(code, wanted)).toEqual(wanted);
    expect(found(code, ["MCPClient", "Authorizer", "proxyClient"])).toEqual([]);
  });
});

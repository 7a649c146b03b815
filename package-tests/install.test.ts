// The packed tarball installed in a scratch project (by the global setup), imported on each entry by
// a fresh Node process, and type-checked by a consumer's TypeScript under both module resolutions a
// user may have: a file missing from `files`, a broken subpath or a broken .d.ts fails here.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONSUMER, ROOT } from "./support/paths.js";

const run = (command: string, args: string[]): string => execFileSync(command, args, { cwd: CONSUMER, encoding: "utf8", timeout: 60_000 });

describe("the packed tarball in a scratch project", () => {
  it("imports the universal entry, the Node entry and the Redis entry, each with its API", () => {
    writeFileSync(
      join(CONSUMER, "imports.mjs"),
      `import * as mcp from "@suaveplan/mcp";
import * as node from "@suaveplan/mcp/node";
import * as redis from "@suaveplan/mcp/redis";
import manifest from "@suaveplan/mcp/package.json" with { type: "json" };
const shape = (module) => Object.fromEntries(Object.entries(module).map(([name, value]) => [name, typeof value]).sort());
const resolved = import.meta.resolve("@suaveplan/mcp");
console.log(JSON.stringify({ universal: shape(mcp), node: shape(node), redis: shape(redis), version: manifest.version, resolved }));
`,
    );
    const { universal, node, redis, version, resolved } = JSON.parse(run(process.execPath, ["imports.mjs"])) as Record<
      string,
      Record<string, string>
    > & { version: string; resolved: string };
    expect(resolved).toContain("/consumer/node_modules/@suaveplan/mcp/dist/index.js");
    expect(version).toBe("0.1.0");
    expect(universal).toMatchObject({
      MCPServer: "function",
      MCPClient: "function",
      JsonRpcDispatcher: "function",
      InMemoryTransport: "function",
      StdioTransport: "function",
      StreamableHttpTransport: "function",
      HttpSseTransport: "function",
      connectHttp: "function",
      streamableHttpHandler: "function",
      sseHttpHandler: "function",
      sessionCluster: "function",
      InMemorySessionDirectory: "function",
      InMemoryInstanceBus: "function",
      PROTOCOL_VERSIONS: "object",
    });
    expect(node).toEqual({
      ChildProcessTransport: "function",
      loopbackInteraction: "function",
      nodeFetch: "function",
      serveHttp: "function",
      serveStdio: "function",
      sourceOf: "function",
      spawnStdioServer: "function",
      stdioTransportFor: "function",
      toNodeHandler: "function",
      writableOf: "function",
    });
    expect(redis).toEqual({
      RedisChangeFeed: "function",
      RedisEventStore: "function",
      RedisInstanceBus: "function",
      RedisRequestStateKeys: "function",
      RedisSessionDirectory: "function",
      RedisTaskStore: "function",
      redisCommands: "function",
    });
  });

  it("imports the side entries: each export the universal entry's own object, and with the proxy all of it", () => {
    writeFileSync(
      join(CONSUMER, "sides.mjs"),
      `import * as mcp from "@suaveplan/mcp";
import * as server from "@suaveplan/mcp/server";
import * as httpServer from "@suaveplan/mcp/http-server";
import * as client from "@suaveplan/mcp/client";
const sides = { server, httpServer, client };
const foreign = Object.entries(sides).flatMap(([side, module]) =>
  Object.entries(module).filter(([name, value]) => mcp[name] !== value).map(([name]) => side + "." + name));
const covered = new Set(Object.values(sides).flatMap((module) => Object.keys(module)));
const names = Object.fromEntries(Object.entries(sides).map(([side, module]) => [side, Object.keys(module)]));
console.log(JSON.stringify({ foreign, uncovered: Object.keys(mcp).filter((name) => !covered.has(name)), names }));
`,
    );
    const { foreign, uncovered, names } = JSON.parse(run(process.execPath, ["sides.mjs"])) as {
      foreign: string[];
      uncovered: string[];
      names: Record<"server" | "httpServer" | "client", string[]>;
    };
    expect(foreign).toEqual([]);
    expect(uncovered.toSorted()).toEqual(["proxy", "proxyClient"]);
    const serverSide = ["MCPServer", "StdioTransport", "InMemoryTransport", "serverTasks", "mount", "MCPError"];
    expect(names.server).toEqual(expect.arrayContaining(serverSide));
    expect(names.server.filter((name) => ["MCPClient", "streamableHttpHandler", "Authorizer", "connectHttp"].includes(name))).toEqual([]);
    expect(names.httpServer).toEqual(expect.arrayContaining(["streamableHttpHandler", "sseHttpHandler", "sessionCluster", "jwtVerifier"]));
    expect(names.httpServer.filter((name) => ["MCPServer", "MCPClient"].includes(name))).toEqual([]);
    const clientSide = ["MCPClient", "connectHttp", "StreamableHttpTransport", "Authorizer", "MCPClientGroup"];
    expect(names.client).toEqual(expect.arrayContaining(clientSide));
    expect(names.client.filter((name) => ["MCPServer", "streamableHttpHandler", "compileJsonSchema"].includes(name))).toEqual([]);
  });

  it("serves and answers through the installed package: a client and a server over the in-memory pair", () => {
    writeFileSync(
      join(CONSUMER, "roundtrip.mjs"),
      `import { InMemoryTransport, MCPServer } from "@suaveplan/mcp/server";
import { MCPClient } from "@suaveplan/mcp/client";
const server = new MCPServer({ name: "installed", version: "1.0.0" });
server.tool("hello", {}, () => ({ content: [{ type: "text", text: "hello from the tarball" }] }));
const [clientEnd, serverEnd] = InMemoryTransport.pair();
await server.start(serverEnd);
const client = new MCPClient({ name: "consumer", version: "1.0.0" }, { telemetry: null });
await client.connect(clientEnd);
const result = await client.callTool("hello");
await client.close();
console.log(result.content[0].text);
`,
    );
    expect(run(process.execPath, ["roundtrip.mjs"]).trim()).toBe("hello from the tarball");
  });

  it("sends with nodeFetch on Node when the client is built without options, and with a fetch that replaced the platform's", () => {
    writeFileSync(
      join(CONSUMER, "default-fetch.mjs"),
      `import { subscribe } from "node:diagnostics_channel";
import { MCPClient, MCPServer, connectHttp, streamableHttpHandler } from "@suaveplan/mcp";
import { serveHttp } from "@suaveplan/mcp/node";
const counts = { platform: 0, nodeHttp: 0, replaced: 0 };
subscribe("undici:request:create", () => counts.platform++);
subscribe("http.client.request.start", () => counts.nodeHttp++);
const server = new MCPServer({ name: "installed", version: "1.0.0" });
server.tool("hello", {}, () => ({ content: [{ type: "text", text: "hello" }] }));
const handler = streamableHttpHandler(server);
const served = await serveHttp(handler, { port: 0 });
const client = new MCPClient({ name: "consumer", version: "1.0.0" }, { telemetry: null });
await connectHttp(client, new URL("/mcp", served.url));
await client.callTool("hello");
const fast = { ...counts };
const original = globalThis.fetch;
globalThis.fetch = (url, init) => (counts.replaced++, original(url, init));
await client.callTool("hello");
globalThis.fetch = original;
await client.close();
await handler.close();
await served.close();
console.log(JSON.stringify({ fast, after: counts }));
`,
    );
    const { fast, after } = JSON.parse(run(process.execPath, ["default-fetch.mjs"])) as Record<"fast" | "after", Record<string, number>>;
    expect(fast?.platform).toBe(0);
    expect(fast?.nodeHttp).toBeGreaterThanOrEqual(3);
    // One call through the replacement, which went out through the platform fetch, and none through node:http.
    expect(after).toEqual({ platform: 1, nodeHttp: fast?.nodeHttp, replaced: 1 });
  });

  for (const [label, options] of [
    ["nodenext", { module: "nodenext", moduleResolution: "nodenext" }],
    ["bundler", { module: "esnext", moduleResolution: "bundler" }],
  ] as const) {
    it(`type-checks a consumer of the universal entry with no Node types at all (moduleResolution ${label})`, () => {
      expect(
        typeCheck(
          `universal-${label}`,
          options,
          [],
          `import {
  MCPClient, MCPServer, StreamableHttpTransport, streamableHttpHandler, type CallToolResult, type Transport,
} from "@suaveplan/mcp";
const server = new MCPServer({ name: "typed", version: "1.0.0" });
export const handler: { fetch(request: Request): Promise<Response> } = streamableHttpHandler(server);
export const client = new MCPClient({ name: "typed", version: "1.0.0" });
export async function call(transport: Transport = new StreamableHttpTransport("http://127.0.0.1/mcp")): Promise<CallToolResult> {
  await client.connect(transport);
  return client.callTool("x", { a: 1 });
}
// @ts-expect-error a path that is not in the exports map must not resolve
export const hidden = import("@suaveplan/mcp/dist/index.js");
`,
        ),
      ).toBe("");
    });

    it(`type-checks a consumer of the side entries with no Node types (moduleResolution ${label})`, () => {
      expect(
        typeCheck(
          `sides-${label}`,
          options,
          [],
          `import { MCPServer, type ServerRequest } from "@suaveplan/mcp/server";
import { protectedResource, streamableHttpHandler } from "@suaveplan/mcp/http-server";
import { MCPClient, StreamableHttpTransport, type CallToolResult } from "@suaveplan/mcp/client";
import * as universal from "@suaveplan/mcp";
const server: universal.MCPServer = new MCPServer({ name: "typed", version: "1.0.0" });
export const seen: (request: ServerRequest) => string = (request) => request.method;
export const handler: { fetch(request: Request): Promise<Response> } = streamableHttpHandler(server);
export const resource: typeof universal.protectedResource = protectedResource;
export async function call(client: universal.MCPClient = new MCPClient({ name: "typed", version: "1.0.0" })): Promise<CallToolResult> {
  await client.connect(new StreamableHttpTransport("http://127.0.0.1/mcp"));
  return client.callTool("x", { a: 1 });
}
`,
        ),
      ).toBe("");
    });

    it(`type-checks a consumer of the Node entry with Node's types (moduleResolution ${label})`, () => {
      expect(
        typeCheck(
          `node-${label}`,
          options,
          ["node"],
          `import { MCPServer, streamableHttpHandler } from "@suaveplan/mcp";
import { serveHttp, spawnStdioServer, type ServedHttp } from "@suaveplan/mcp/node";
const server = new MCPServer({ name: "typed", version: "1.0.0" });
export const served: Promise<ServedHttp> = serveHttp(streamableHttpHandler(server), { port: 0 });
export const child = spawnStdioServer({ command: process.execPath, args: ["server.mjs"] });
`,
        ),
      ).toBe("");
    });
  }
});

/**
 * tsc on one consumer file (what it printed: nothing when all is well); skipLibCheck off, so the package's own .d.ts files are checked too.
 */
function typeCheck(name: string, options: object, types: string[], source: string): string {
  writeFileSync(join(CONSUMER, `${name}.ts`), source);
  writeFileSync(
    join(CONSUMER, `tsconfig-${name}.json`),
    JSON.stringify({
      compilerOptions: {
        ...options,
        target: "es2022",
        lib: ["es2023", "dom"],
        types,
        typeRoots: [join(ROOT, "node_modules/@types")],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
      },
      files: [`${name}.ts`],
    }),
  );
  try {
    return run(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", `tsconfig-${name}.json`]);
  } catch (error) {
    throw new Error(`tsc failed for ${name}:\n${String((error as { stdout?: string }).stdout ?? error)}`, { cause: error });
  }
}

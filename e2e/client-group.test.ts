// MCPClientGroup over an `mcpServers` configuration as a desktop host writes it, with real servers:
// the example weather server as a stdio child, our MCPServer over Streamable HTTP on 127.0.0.1, and a
// stdio child that dies on its first tool call (or one that fails before it connects). The merged,
// prefixed list; calls routed to the right server; the broken server isolated with an error naming
// it while the other two keep answering; and close() leaving no child running.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { MCP_CODES, MCPClientGroup, MCPServer, streamableHttpHandler, type MCPClientGroupEventMap } from "../src/index.js";
import { serveHttp, stdioTransportFor, type ChildProcessTransport } from "../src/node/index.js";

const weatherServer = fileURLToPath(new URL("../examples/weather-server.mjs", import.meta.url));
const diesAfterCall = fileURLToPath(new URL("./fixtures/dies-after-call.mjs", import.meta.url));
const failsAtOnce = fileURLToPath(new URL("./fixtures/crashing-server.mjs", import.meta.url));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

/** Our MCPServer behind streamableHttpHandler on 127.0.0.1 (a free port); stopped after the test. */
async function httpServer(): Promise<string> {
  const server = new MCPServer({ name: "notes", version: "1.0.0" }, { telemetry: null });
  server.tool("lookup", { description: "Looks a note up" }, (args) => ({
    content: [{ type: "text", text: `note ${String(args["id"])} from http` }],
  }));
  const handler = streamableHttpHandler(server);
  const http = await serveHttp(handler, { port: 0, host: "127.0.0.1" });
  cleanups.push(async () => {
    await handler.close();
    await http.close();
  });
  return new URL("/mcp", http.url).href;
}

/** A group over `servers`; the children it starts are kept to check their PIDs, and killed after the test if still running. */
function groupOf(servers: Record<string, unknown>): { group: MCPClientGroup; children: Map<string, ChildProcessTransport> } {
  const children = new Map<string, ChildProcessTransport>();
  const group = new MCPClientGroup(
    { mcpServers: servers },
    {
      clientInfo: { name: "group-e2e", version: "1.0.0" },
      clientOptions: { telemetry: null },
      transportFor: stdioTransportFor({ onSpawn: (server, child) => children.set(server, child) }),
    },
  );
  cleanups.push(async () => {
    await group.close();
    for (const child of children.values()) {
      if (isRunning(child.pid as number)) process.kill(child.pid as number, "SIGKILL");
      await child.exited;
    }
  });
  return { group, children };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const textOf = (result: { content: readonly unknown[] }) => (result.content[0] as { text: string }).text;
const node = (script: string) => ({ command: process.execPath, args: [script] });

describe("a group of MCP servers from an mcpServers configuration", () => {
  it("merges three servers' tools, routes calls, isolates the one that dies, and stops every child on close", async () => {
    const url = await httpServer();
    const { group, children } = groupOf({
      weather: node(weatherServer),
      notes: { type: "http", url },
      flaky: { type: "stdio", ...node(diesAfterCall) },
    });
    const closed: MCPClientGroupEventMap["serverClosed"][] = [];
    group.on("serverClosed", (event) => closed.push(event));

    const result = await group.connect();
    expect(result.connected).toEqual(["weather", "notes", "flaky"]);
    expect(result.failures.size).toBe(0);
    expect([...children.keys()].toSorted()).toEqual(["flaky", "weather"]);
    for (const child of children.values()) expect(isRunning(child.pid as number)).toBe(true);
    expect((await group.listTools()).map((tool) => tool.name)).toEqual([
      "weather__forecast",
      "weather__to_fahrenheit",
      "notes__lookup",
      "flaky__status",
      "flaky__work",
    ]);

    await expect(group.callTool("weather__to_fahrenheit", { celsius: 100 })).resolves.toMatchObject({
      structuredContent: { fahrenheit: 212 },
    });
    expect(textOf(await group.callTool("notes__lookup", { id: 7 }))).toBe("note 7 from http");
    expect(textOf(await group.callTool("flaky__status"))).toBe("alive");
    expect(JSON.parse((await group.readResource("weather://cities/oslo/today")).contents[0]?.text as string)).toEqual({
      city: "oslo",
      celsius: 4,
    });

    // The flaky server dies in the middle of a call: the call says which server and why.
    const error = await group.callTool("flaky__work").catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED, data: { server: "flaky" } });
    expect((error as Error).message).toMatch(/^MCP server "flaky" is gone: .*exited with code 4.*fatal: out of widgets/);
    await children.get("flaky")?.exited;
    expect(isRunning(children.get("flaky")?.pid as number)).toBe(false);
    expect(closed.map((event) => event.server)).toEqual(["flaky"]);
    expect(closed[0]?.error.message).toContain('MCP server "flaky" closed its connection');
    expect(group.connected).toEqual(["weather", "notes"]);
    expect(group.failures.get("flaky")).toBe(closed[0]?.error);

    // The other two keep answering; the dead one is out of the list and refused by name.
    expect((await group.listTools()).map((tool) => tool.name)).toEqual(["weather__forecast", "weather__to_fahrenheit", "notes__lookup"]);
    await expect(group.callTool("flaky__status")).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_CLOSED,
      message: expect.stringContaining('MCP server "flaky" is not connected'),
    });
    await expect(group.callTool("weather__to_fahrenheit", { celsius: 0 })).resolves.toMatchObject({
      structuredContent: { fahrenheit: 32 },
    });
    expect(textOf(await group.callTool("notes__lookup", { id: 8 }))).toBe("note 8 from http");
    await expect(group.callTool("nowhere__tool")).rejects.toMatchObject({
      code: MCP_CODES.NOT_FOUND,
      message: expect.stringContaining('"nowhere__tool"'),
    });

    await group.close();
    await group.close();
    for (const child of children.values()) expect(() => process.kill(child.pid as number, 0)).toThrow(/ESRCH/);
    expect(group.connected).toEqual([]);
  });

  it("keeps the servers that connect when one fails before it does, and says why", async () => {
    const url = await httpServer();
    const { group, children } = groupOf({ weather: node(weatherServer), notes: { url }, broken: node(failsAtOnce) });
    const failed: MCPClientGroupEventMap["serverFailed"][] = [];
    group.on("serverFailed", (event) => failed.push(event));

    const result = await group.connect();
    expect(result.connected).toEqual(["weather", "notes"]);
    expect([...result.failures.keys()]).toEqual(["broken"]);
    expect(result.failures.get("broken")?.message).toMatch(
      /^MCP server "broken" did not connect: .*exited with code 3.*WEATHER_API_KEY is not set/,
    );
    expect(failed.map((event) => event.server)).toEqual(["broken"]);
    expect(isRunning(children.get("broken")?.pid as number)).toBe(false);

    expect((await group.listTools()).map((tool) => tool.name)).toEqual(["weather__forecast", "weather__to_fahrenheit", "notes__lookup"]);
    expect(textOf(await group.callTool("notes__lookup", { id: 1 }))).toBe("note 1 from http");
    await expect(group.callTool("broken__anything")).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_CLOSED,
      message: expect.stringContaining('MCP server "broken" is not connected'),
    });

    await group.close();
    for (const child of children.values()) expect(() => process.kill(child.pid as number, 0)).toThrow(/ESRCH/);
  });
});

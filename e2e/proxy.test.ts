// The proxy end to end: the example weather server as a stdio child, reached through proxy() and
// mounted under "weather", and an in-process MCPServer mounted under "notes", behind one Streamable
// HTTP endpoint on 127.0.0.1. The official SDK 1.x client (session era) and our MCPClient in the
// stateless era both list the prefixed tools of both parts and call one of each; then the child is
// killed by its PID: its tools answer with an error naming it, while the notes part keeps answering.
// The gateway logs its tools/call with callLog, and the notes part refuses ids over 100 in a layer
// of its own (to the gateway, its tool's failure): both run for both eras' calls.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  MCP_CODES,
  MCPClient,
  MCPError,
  MCPServer,
  callLog,
  mount,
  proxy,
  proxyClient,
  StreamableHttpTransport,
  streamableHttpHandler,
  type CallLogEntry,
} from "../src/index.js";
import { serveHttp } from "../src/node/index.js";
import { spawnNodeChild } from "./support/children.js";

const weatherScript = fileURLToPath(new URL("../examples/weather-server.mjs", import.meta.url));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

const TOOLS = ["weather_forecast", "weather_to_fahrenheit", "notes_lookup"];
const textOf = (result: Record<string, unknown>) => (result["content"] as { text: string }[])[0]?.text;

/** The gateway: the weather child through the proxy, and the notes server, mounted behind one endpoint. */
async function gateway(calls: CallLogEntry[] = []) {
  const child = await spawnNodeChild([weatherScript], (cleanup) => cleanups.push(cleanup));
  const upstream = proxyClient({ name: "gateway", version: "1.0.0" }, { telemetry: null });
  await upstream.connect(child);
  const proxied = await proxy(upstream, { upstreamName: "weather-child" });
  const notes = new MCPServer({ name: "notes", version: "1.0.0" }, { telemetry: null });
  // The mounted part's own layer: a note id over 100 is refused before the handler runs.
  notes.use("tools/call", (next) => (request, context) => {
    if (Number(request.params.arguments?.["id"]) > 100) throw new MCPError(MCP_CODES.INVALID_PARAMS, "notes go up to 100");
    return next(request, context);
  });
  notes.tool("lookup", { inputSchema: { type: "object", properties: { id: { type: "number" } }, required: ["id"] } }, ({ id }) => ({
    content: [{ type: "text", text: `note ${String(id)}` }],
  }));
  const front = new MCPServer({ name: "gateway", version: "1.0.0" }, { telemetry: null }).use(
    "tools/call",
    callLog((entry) => calls.push(entry)),
  );
  await mount(front, "weather", proxied.server);
  await mount(front, "notes", notes);
  const handler = streamableHttpHandler(front);
  const http = await serveHttp(handler, { port: 0, host: "127.0.0.1" });
  cleanups.push(async () => {
    await handler.close();
    await http.close();
    await proxied.close();
  });
  return { url: new URL("/mcp", http.url), child };
}

describe("a proxy behind one Streamable HTTP endpoint", () => {
  it("serves a stdio child and an in-process server to both eras, and isolates the child when it dies", async () => {
    const calls: CallLogEntry[] = [];
    const { url, child } = await gateway(calls);
    const sdk = new Client({ name: "sdk-1", version: "1.0.0" });
    await sdk.connect(new StreamableHTTPClientTransport(url));
    cleanups.push(() => sdk.close());
    const ours = new MCPClient({ name: "ours", version: "1.0.0" }, { era: "stateless", telemetry: null });
    await ours.connect(new StreamableHttpTransport(url));
    cleanups.push(() => ours.close());
    expect(ours.era).toBe("stateless");

    expect((await sdk.listTools()).tools.map((tool) => tool.name)).toEqual(TOOLS);
    expect((await ours.listAllTools()).map((tool) => tool.name)).toEqual(TOOLS);
    expect((await sdk.callTool({ name: "weather_to_fahrenheit", arguments: { celsius: 100 } })).structuredContent).toEqual({
      fahrenheit: 212,
    });
    expect((await ours.callTool("weather_to_fahrenheit", { celsius: 0 })).structuredContent).toEqual({ fahrenheit: 32 });
    expect(textOf(await sdk.callTool({ name: "notes_lookup", arguments: { id: 1 } }))).toBe("note 1");
    expect(textOf(await ours.callTool("notes_lookup", { id: 2 }))).toBe("note 2");
    // The gateway's layers and the mounted part's run for both eras' calls; to the gateway, a part's refusal is its tool's failure
    // (isError).
    const refusals = [
      await sdk.callTool({ name: "notes_lookup", arguments: { id: 101 } }),
      await ours.callTool("notes_lookup", { id: 102 }),
    ];
    expect(refusals.map((result) => [result.isError, textOf(result)])).toEqual([
      [true, expect.stringContaining("notes go up to 100")],
      [true, expect.stringContaining("notes go up to 100")],
    ]);
    expect(calls.map((entry) => [entry.target, entry.era, entry.outcome])).toEqual([
      ["weather_to_fahrenheit", "session", "ok"],
      ["weather_to_fahrenheit", "stateless", "ok"],
      ["notes_lookup", "session", "ok"],
      ["notes_lookup", "stateless", "ok"],
      ["notes_lookup", "session", "ok"],
      ["notes_lookup", "stateless", "ok"],
    ]);

    process.kill(child.pid as number, "SIGKILL");
    await child.exited;
    const closed = expect.stringContaining("The upstream server weather-child is closed (MCP.TRANSPORT_CLOSED)");
    await expect(sdk.callTool({ name: "weather_to_fahrenheit", arguments: { celsius: 1 } })).rejects.toMatchObject({ message: closed });
    await expect(ours.callTool("weather_to_fahrenheit", { celsius: 1 })).rejects.toMatchObject({
      message: closed,
      data: { code: "MCP.TRANSPORT_CLOSED", upstream: "weather-child" },
    });
    expect(textOf(await sdk.callTool({ name: "notes_lookup", arguments: { id: 3 } }))).toBe("note 3");
    expect(textOf(await ours.callTool("notes_lookup", { id: 4 }))).toBe("note 4");
    await expect(ours.ping()).resolves.toBeUndefined();
  });
});

// The watching layers on a real client in both eras: a log entry per request with its method, target,
// era and outcome (never its arguments or result), and the time each request took.
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { MCPClient } from "../../client/mcp-client/mcp-client.js";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import { callLog, timing, type CallLogEntry } from "./observe.js";

const SECRET = "sk-live-0123456789abcdef";

async function connected(era: "session" | "stateless", layers: (server: MCPServer) => void = () => undefined): Promise<MCPClient> {
  const server = new MCPServer({ name: "observe", version: "1.0.0" }, { telemetry: null });
  layers(server);
  server.tool("login", {}, (args) => ({ content: [{ type: "text", text: `token ${JSON.stringify(args)} ${SECRET}` }] }));
  server.resource("readme", "file:///readme", {}, (uri) => ({ contents: [{ uri, text: SECRET }] }));
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  await server.start(serverEnd);
  const client = new MCPClient({ name: "observe-client", version: "1.0.0" }, { era, telemetry: null });
  await client.connect(clientEnd);
  return client;
}

describe.each(["session", "stateless"] as const)("callLog and timing, %s era", (era) => {
  it("logs each request's method, target, era, duration and outcome, and nothing of its arguments or result", async () => {
    const client = await connected(era);
    const entries: CallLogEntry[] = [];
    client
      .use(callLog((entry) => entries.push(entry)))
      .use("prompts/get", () => () => Promise.reject(new MCPError(MCP_CODES.NOT_FOUND, `no prompt ${SECRET}`)));
    const before = performance.now();
    await client.callTool("login", { password: SECRET });
    await client.readResource("file:///readme");
    await expect(client.getPrompt("missing")).rejects.toMatchObject({ code: MCP_CODES.NOT_FOUND });
    // Each duration is of its own request: none can be longer than all of them together.
    const elapsed = performance.now() - before;
    expect(entries.every((entry) => entry.durationMs <= elapsed)).toBe(true);
    const byMethod = (method: string) => entries.find((entry) => entry.method === method);
    expect(byMethod("tools/call")).toEqual({ method: "tools/call", target: "login", era, durationMs: expect.any(Number), outcome: "ok" });
    expect(byMethod("resources/read")).toEqual({
      method: "resources/read",
      target: "file:///readme",
      era,
      durationMs: expect.any(Number),
      outcome: "ok",
    });
    expect(byMethod("prompts/get")).toEqual({
      method: "prompts/get",
      target: "missing",
      era,
      durationMs: expect.any(Number),
      outcome: "error",
      error: MCP_CODES.NOT_FOUND,
    });
    expect(byMethod("tools/list")).not.toHaveProperty("target");
    expect(entries.every((entry) => entry.durationMs >= 0)).toBe(true);
    expect(JSON.stringify(entries)).not.toContain(SECRET);
    await client.close();
  });

  it("names an error that is no MCPError by its name, or by its type", async () => {
    const client = await connected(era);
    const entries: CallLogEntry[] = [];
    client
      .use(callLog((entry) => entries.push(entry)))
      .use("resources/list", () => () => Promise.reject(new TypeError("boom")))
      .use("prompts/list", () => () => Promise.reject("a string"));
    await expect(client.listResources()).rejects.toBeInstanceOf(TypeError);
    await expect(client.listPrompts()).rejects.toBe("a string");
    expect(entries.map((entry) => [entry.method, entry.outcome, entry.error])).toEqual([
      ["resources/list", "error", "TypeError"],
      ["prompts/list", "error", "string"],
    ]);
    await client.close();
  });

  it("records the time of every request, failed ones too", async () => {
    const client = await connected(era);
    const times: [string, number, string | undefined][] = [];
    client
      .use(timing((method, ms, target) => times.push([method, ms, target])))
      .use("prompts/list", () => () => Promise.reject(new MCPError(MCP_CODES.TIMEOUT, "slow")));
    const before = performance.now();
    await client.callTool("login", {});
    await expect(client.listPrompts()).rejects.toMatchObject({ code: MCP_CODES.TIMEOUT });
    const elapsed = performance.now() - before;
    expect(times.every(([, ms]) => ms <= elapsed)).toBe(true);
    expect(times.map(([method, , target]) => [method, target]).filter(([method]) => method !== "tools/list")).toEqual([
      ["tools/call", "login"],
      ["prompts/list", undefined],
    ]);
    expect(times.every(([, ms]) => ms >= 0)).toBe(true);
    await client.close();
  });
});

describe.each(["session", "stateless"] as const)("callLog and timing on a server, %s era", (era) => {
  it("log what the server served, its handlers' failures too, without arguments or results", async () => {
    const entries: CallLogEntry[] = [];
    const times: [string, string | undefined][] = [];
    const client = await connected(era, (server) => {
      server.tool("fail", {}, () => {
        throw new MCPError(MCP_CODES.NOT_FOUND, `nothing for ${SECRET}`);
      });
      server.use(callLog((entry) => entries.push(entry))).use(
        "tools/call",
        timing((method, _ms, target) => times.push([method, target])),
      );
    });
    await client.callTool("login", { password: SECRET });
    await client.readResource("file:///readme");
    await expect(client.getPrompt("missing")).rejects.toMatchObject({ code: MCP_CODES.INVALID_PARAMS });
    const served = entries.filter((entry) => entry.method !== "tools/list");
    expect(served).toEqual([
      // What the server answers itself is logged too: the era's first request.
      { method: era === "session" ? "initialize" : "server/discover", era, durationMs: expect.any(Number), outcome: "ok" },
      { method: "tools/call", target: "login", era, durationMs: expect.any(Number), outcome: "ok" },
      { method: "resources/read", target: "file:///readme", era, durationMs: expect.any(Number), outcome: "ok" },
      { method: "prompts/get", target: "missing", era, durationMs: expect.any(Number), outcome: "error", error: MCP_CODES.INVALID_PARAMS },
    ]);
    // A tool's failure is its result (isError), not the request's: the log says the request was served.
    await client.callTool("fail", {});
    expect(entries.at(-1)).toMatchObject({ method: "tools/call", target: "fail", outcome: "ok" });
    expect(times).toEqual([
      ["tools/call", "login"],
      ["tools/call", "fail"],
    ]);
    expect(JSON.stringify(entries)).not.toContain(SECRET);
    await client.close();
  });
});

describe("callLog's target", () => {
  it("is a string name or URI only", async () => {
    const entries: CallLogEntry[] = [];
    const layer = callLog((entry) => entries.push(entry))((request) => Promise.resolve(request as never));
    const context = { era: "session", protocolVersion: "2025-11-25", options: undefined } as const;
    await layer({ method: "prompts/get", params: { name: 7 } }, context);
    await layer({ method: "resources/read", params: { uri: "file:///x" } }, context);
    expect(entries.map((entry) => entry.target)).toEqual([undefined, "file:///x"]);
  });
});

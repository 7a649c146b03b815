// The engine through the public entry: a server end and a client end of JsonRpcDispatcher joined by
// the in-memory pair negotiate each revision and run a tool call with progress, then close cleanly.
import { describe, expect, it } from "vitest";
import * as mcp from "../src/index.js";
import {
  InMemoryTransport,
  JsonRpcDispatcher,
  MCP_CODES,
  PROTOCOL_VERSIONS,
  isProtocolVersion,
  type ProtocolVersion,
} from "../src/index.js";
import * as schemas from "../src/schemas/index.js";
import * as telemetry from "../src/telemetry/index.js";

async function serve(transport: InMemoryTransport): Promise<JsonRpcDispatcher> {
  const server = new JsonRpcDispatcher({ side: "server", telemetry: null });
  server.setRequestHandler("initialize", (params) => {
    const asked = (params as { protocolVersion: string }).protocolVersion;
    const version: ProtocolVersion = isProtocolVersion(asked) ? asked : "2025-11-25";
    server.setProtocolVersion(version);
    return { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: "e2e", version: "1.0.0" } };
  });
  server.setRequestHandler("ping", () => ({}));
  server.setRequestHandler("tools/list", () => ({ tools: [{ name: "add", inputSchema: { type: "object" } }] }));
  server.setRequestHandler("tools/call", async (params, context) => {
    const { a, b } = (params as { arguments: { a: number; b: number } }).arguments;
    await context.progress(1, 1);
    return { content: [{ type: "text", text: String(a + b) }] };
  });
  await server.connect(transport);
  return server;
}

describe("the universal entry", () => {
  it("exports the engine's public surface", () => {
    for (const name of [
      "JsonRpcDispatcher",
      "InMemoryTransport",
      "MCPError",
      "JsonRpcError",
      "EventBus",
      "METRIC_NAMES",
      "INSTRUMENTATION_SCOPE",
      "MCP_CODES",
      "JSONRPC_ERROR_CODES",
      "METHODS",
      "NOTIFICATIONS",
      "PROTOCOL_VERSIONS",
      "LATEST_PROTOCOL_VERSION",
      "LOGGING_LEVELS",
      "toMCPError",
      "toWireError",
    ]) {
      expect(mcp).toHaveProperty(name);
    }
  });

  it("leaves zod schemas to @suaveplan/mcp/schemas and the OpenTelemetry glue to /telemetry (loaded at connect, when in use)", () => {
    for (const name of ["codecFor", "CODECS", "validate", "JsonRpcRequestSchema", "revision20251125"]) {
      expect(mcp).not.toHaveProperty(name);
      expect(schemas).toHaveProperty(name);
    }
    for (const name of ["Telemetry", "defaultTelemetry"]) {
      expect(mcp).not.toHaveProperty(name);
      expect(telemetry).toHaveProperty(name);
    }
  });

  it.each(PROTOCOL_VERSIONS)("negotiates %s and calls a tool with progress", async (version) => {
    const [clientEnd, serverEnd] = InMemoryTransport.pair();
    const server = await serve(serverEnd);
    const client = new JsonRpcDispatcher({ side: "client", telemetry: null, protocolVersion: version });
    await client.connect(clientEnd);
    const init = (await client.request("initialize", {
      protocolVersion: version,
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
    })) as { protocolVersion: string };
    expect(init.protocolVersion).toBe(version);
    expect(server.codec.version).toBe(version);
    await expect(client.request("ping")).resolves.toEqual({});
    await expect(client.request("tools/list")).resolves.toMatchObject({ tools: [{ name: "add" }] });
    const progress: unknown[] = [];
    const result = await client.request(
      "tools/call",
      { name: "add", arguments: { a: 2, b: 3 } },
      { onProgress: (update) => progress.push(update.progress) },
    );
    expect(result).toEqual({ content: [{ type: "text", text: "5" }] });
    expect(progress).toEqual([1]);
    await client.close();
    await expect(client.request("ping")).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    await Promise.resolve();
    expect(server.closed).toBe(true);
  });
});

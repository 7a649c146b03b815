import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, it } from "vitest";
import { JsonRpcDispatcher, MCP_CODES } from "../src/index.js";
import { sdkPair } from "./support/sdk-bridge.js";

describe("the SDK bridge (test support)", () => {
  it("lets our dispatcher complete a handshake with an SDK server and call its tool", async () => {
    const server = new McpServer({ name: "sdk-server", version: "1.0.0" });
    server.registerTool("hello", { description: "says hello" }, () => ({ content: [{ type: "text", text: "hello" }] }));
    const { ours, sdk } = sdkPair();
    await server.connect(sdk);
    const client = new JsonRpcDispatcher({ side: "client", telemetry: null });
    await client.connect(ours);
    const init = await client.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "ours", version: "1" },
    });
    expect(init).toMatchObject({ protocolVersion: "2025-11-25", serverInfo: { name: "sdk-server" } });
    await client.notify("notifications/initialized");
    await expect(client.request("tools/call", { name: "hello", arguments: {} })).resolves.toMatchObject({ content: [{ text: "hello" }] });
    await client.close();
    await expect(client.request("ping")).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
  });

  it("lets an SDK client ping our dispatcher, and refuses sends once the SDK end closed", async () => {
    const { ours, sdk } = sdkPair();
    const server = new JsonRpcDispatcher({ side: "server", telemetry: null });
    server.setRequestHandler("initialize", () => ({
      protocolVersion: "2025-11-25",
      capabilities: {},
      serverInfo: { name: "ours", version: "1" },
    }));
    server.setRequestHandler("ping", () => ({}));
    await server.connect(ours);
    const client = new Client({ name: "sdk-client", version: "1.0.0" });
    await client.connect(sdk);
    await expect(client.ping()).resolves.toEqual({});
    await client.close();
    await expect(ours.send({})).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    await ours.close();
  });
});

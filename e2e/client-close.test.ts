// Closing: pending calls reject with MCP.TRANSPORT_CLOSED, whoever closes; the client's own state
// (iterators here; listeners and caches in src/client/mcp-client/mcp-client.test.ts) goes with the connection.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { connectToSdk, until } from "../src/client/mcp-client/mcp-client.test-helpers.js";
import { MCP_CODES, type MCPError } from "../src/index.js";

function hangingServer(): { server: McpServer; started: () => number } {
  const server = new McpServer({ name: "hanging", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
  let started = 0;
  server.registerTool("hang", {}, () => {
    started++;
    return new Promise(() => {});
  });
  return { server, started: () => started };
}

describe("MCPClient close", () => {
  it("rejects pending calls with MCP.TRANSPORT_CLOSED and tells close listeners once", async () => {
    const { server, started } = hangingServer();
    const client = await connectToSdk(server);
    const closes: { error?: MCPError }[] = [];
    client.on("close", (event) => closes.push(event));
    const pending = [client.callTool("hang"), client.callTool("hang", { again: true })];
    await until(() => started() === 2);
    await client.close();
    for (const call of pending) await expect(call).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    expect(closes).toEqual([{}]);
    expect(client.connected).toBe(false);
    await client.close();
    expect(closes).toHaveLength(1);
    await expect(client.callTool("hang")).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
  });

  it("rejects pending calls when the server closes the connection", async () => {
    const { server, started } = hangingServer();
    const client = await connectToSdk(server);
    let closed = 0;
    client.on("close", () => closed++);
    const call = client.callTool("hang");
    await until(() => started() === 1);
    await server.close();
    await expect(call).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    expect(closed).toBe(1);
  });

  it("stops an iterator waiting for its next page", async () => {
    const server = new Server({ name: "slow-pages", version: "1.0.0" }, { capabilities: { tools: {} } });
    let releaseSecondPage: (() => void) | undefined;
    let listCalls = 0;
    server.setRequestHandler(ListToolsRequestSchema, async (request) => {
      listCalls++;
      if (request.params?.cursor === undefined)
        return { tools: [{ name: "first", inputSchema: { type: "object" as const } }], nextCursor: "next" };
      await new Promise<void>((resolve) => {
        releaseSecondPage = resolve;
      });
      return { tools: [] };
    });
    const client = await connectToSdk(server);
    const iterator = client.tools();
    expect(await iterator.next()).toEqual({ done: false, value: { name: "first", inputSchema: { type: "object" } } });
    const secondPage = iterator.next();
    await until(() => listCalls === 2);
    await client.close();
    await expect(secondPage).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    releaseSecondPage?.();
  });
});

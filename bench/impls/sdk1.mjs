import * as z from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { serializing } from "./wire.mjs";

export async function sdk1InProcess() {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: "text", text }] }));
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serializing(serverEnd));
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(serializing(clientEnd));
  return {
    call: (args) => client.callTool({ name: "echo", arguments: args }),
    ping: () => client.ping(),
    close: () => client.close(),
  };
}

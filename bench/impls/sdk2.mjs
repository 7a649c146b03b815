import * as z from "zod";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { serializing } from "./wire.mjs";

export async function sdk2InProcess() {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }));
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

import * as z from "zod";
import { InMemoryTransport, MCPClient, MCPServer } from "@suaveplan/mcp";

export function oursServer() {
  const server = new MCPServer({ name: "bench", version: "1.0.0" });
  server.tool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }));
  return server;
}

export async function oursInProcess(server = oursServer()) {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  await server.start(serverEnd);
  const client = new MCPClient({ name: "bench", version: "1.0.0" });
  await client.connect(clientEnd);
  return {
    call: (args) => client.callTool("echo", args),
    ping: () => client.ping(),
    close: () => client.close(),
  };
}

import { randomUUID } from "node:crypto";
import * as z from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { listen } from "./http-util.mjs";
import { cpuResult } from "./limit.mjs";
import { sdkConnection } from "./sdk-connection.mjs";
import { serializing } from "./wire.mjs";

export function sdk1Server() {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: "text", text }] }));
  server.registerTool("cpu", {}, () => cpuResult());
  return server;
}

export async function sdk1InProcess() {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await sdk1Server().connect(serializing(serverEnd));
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(serializing(clientEnd));
  return sdkConnection(client);
}

export async function sdk1Stdio(script) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [script], stderr: "inherit" }));
  return sdkConnection(client);
}

/** mode: "sse" (Streamable HTTP, SSE answers), "json" (Streamable HTTP, JSON answers), "legacy" (HTTP+SSE). */
export async function sdk1Http(mode) {
  const sessions = new Map();
  const served =
    mode === "legacy"
      ? await listen(async (request, response) => {
          if (request.method === "GET") {
            const transport = new SSEServerTransport("/messages", response);
            sessions.set(transport.sessionId, transport);
            await sdk1Server().connect(transport);
            return;
          }
          const transport = sessions.get(new URL(request.url, "http://127.0.0.1").searchParams.get("sessionId"));
          await transport.handlePostMessage(request, response);
        })
      : await listen(async (request, response) => {
          const id = request.headers["mcp-session-id"];
          let transport = typeof id === "string" ? sessions.get(id) : undefined;
          if (!transport) {
            transport = new StreamableHTTPServerTransport({
              sessionIdGenerator: () => randomUUID(),
              enableJsonResponse: mode === "json",
              onsessioninitialized: (sid) => void sessions.set(sid, transport),
            });
            await sdk1Server().connect(transport);
          }
          await transport.handleRequest(request, response);
        });
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(
    mode === "legacy"
      ? new SSEClientTransport(new URL("/sse", served.url))
      : new StreamableHTTPClientTransport(new URL("/mcp", served.url)),
  );
  return sdkConnection(client, {
    close: async () => {
      for (const transport of sessions.values()) await transport.close();
      await served.close();
    },
  });
}

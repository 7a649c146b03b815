import * as z from "zod";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createMcpHandler, InMemoryTransport, McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { serveHttp } from "@suaveplan/mcp/node";
import { servedHandler } from "./http-util.mjs";
import { cpuResult } from "./limit.mjs";
import { sdkConnection } from "./sdk-connection.mjs";
import { serializing } from "./wire.mjs";

export function sdk2Server() {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }));
  server.registerTool("cpu", {}, () => cpuResult());
  return server;
}

export async function sdk2InProcess() {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await sdk2Server().connect(serializing(serverEnd));
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(serializing(clientEnd));
  return sdkConnection(client);
}

/** `pin`: a revision the client speaks only (2026-07-28: the stateless era). */
export async function sdk2Stdio(script, { pin } = {}) {
  const client = new Client({ name: "bench", version: "1.0.0" }, pin === undefined ? {} : { versionNegotiation: { mode: { pin } } });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [script], stderr: "inherit" }));
  return sdkConnection(client);
}

/**
 * SDK 2.x's client over Streamable HTTP (the platform fetch, its default) to a server already listening at `url`; `pin` as for `sdk2Stdio`.
 */
export async function sdk2StreamableHttp(url, { pin } = {}) {
  const client = new Client({ name: "bench", version: "1.0.0" }, pin === undefined ? {} : { versionNegotiation: { mode: { pin } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return sdkConnection(client);
}

/**
 * mode: "sse" or "json" (Streamable HTTP). SDK 2.x has no Node server adapter in its packages and no
 * legacy HTTP+SSE server: its web-standard transport is served through the same node:http bridge as ours.
 */
export async function sdk2Http(mode) {
  const sessions = new Map();
  const fetch = async (request) => {
    const id = request.headers.get("mcp-session-id");
    let transport = id ? sessions.get(id) : undefined;
    if (!transport) {
      transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        enableJsonResponse: mode === "json",
        onsessioninitialized: (sid) => void sessions.set(sid, transport),
      });
      await sdk2Server().connect(transport);
    }
    return transport.handleRequest(request);
  };
  const served = await serveHttp(fetch, { port: 0 });
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", served.url)));
  return sdkConnection(client, {
    close: async () => {
      for (const transport of sessions.values()) await transport.close();
      await served.close();
    },
  });
}

/**
 * SDK 2.x for the 2026-07-28 rows: `createMcpHandler` with its documented per-request server factory.
 * It is a web-standard handler; the SDK's Node adapter (`toNodeHandler` of `@modelcontextprotocol/node`)
 * is not among our dependencies, so it is served through the same node:http bridge as the rows above.
 */
export function sdk2StatelessHttp() {
  return servedHandler(createMcpHandler(() => sdk2Server()));
}

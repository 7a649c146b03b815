// The whole walk over real HTTP on 127.0.0.1: our client ↔ our server through Streamable HTTP
// (SSE answers and JSON answers) and legacy HTTP+SSE, and two clients on one server kept apart.
import { afterEach, describe, expect, it, vi } from "vitest";
import { HttpSseTransport, connectHttp, sseHttpHandler, streamableHttpHandler, type MCPServer } from "../src/index.js";
import { serveHttp, type ServedHttp } from "../src/node/index.js";
import { walk, walkClient, walkServer } from "./support/walk.js";

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const closable of open.splice(0).toReversed()) await closable.close();
});

async function served(handler: { fetch(request: Request): Promise<Response>; close(): Promise<void> }, path: string): Promise<string> {
  const http: ServedHttp = await serveHttp(handler, { port: 0 });
  open.push(handler, http);
  return new URL(path, http.url).href;
}

function streamable(server: MCPServer, enableJsonResponse: boolean) {
  return streamableHttpHandler(server, { enableJsonResponse });
}

describe("our client ↔ our server over HTTP", () => {
  it.each([
    ["Streamable HTTP with SSE answers", "2025-11-25", false],
    ["Streamable HTTP with JSON answers", "2025-06-18", true],
    ["Streamable HTTP on 2025-03-26", "2025-03-26", false],
  ] as const)("walks the whole surface over %s", async (_label, version, json) => {
    const { server, started } = walkServer();
    const url = await served(streamable(server, json), "/mcp");
    const client = walkClient(version);
    open.push(client);
    const transport = await connectHttp(client, url);
    expect(transport.sessionId).toMatch(/^[0-9a-f]{64}$/);
    await walk(client, server, started, version, { progressBeforeResult: !json });
  });

  it("walks the whole surface over legacy HTTP+SSE (2024-11-05), found by the fallback", async () => {
    const { server, started } = walkServer();
    const url = await served(sseHttpHandler(server, {}), "/sse");
    const client = walkClient("2024-11-05");
    open.push(client);
    const transport = await connectHttp(client, url);
    expect(transport).toBeInstanceOf(HttpSseTransport);
    await walk(client, server, started, "2024-11-05");
  });

  it("keeps two clients of one server apart: logs, subscriptions and cancellations", async () => {
    const { server, started } = walkServer();
    const url = await served(streamable(server, false), "/mcp");
    const first = walkClient("2025-11-25");
    const second = walkClient("2025-11-25");
    open.push(first, second);
    await connectHttp(first, url);
    await connectHttp(second, url);
    const logs = { first: [] as unknown[], second: [] as unknown[] };
    const updates = { first: [] as string[], second: [] as string[] };
    first.on("log", (message) => logs.first.push(message.data));
    second.on("log", (message) => logs.second.push(message.data));
    first.on("resourceUpdated", ({ uri }) => updates.first.push(uri));
    second.on("resourceUpdated", ({ uri }) => updates.second.push(uri));
    await first.setLoggingLevel("error");
    await second.subscribeResource("memo://note");
    await server.log("warning", "only the second hears this");
    await server.markResourceUpdated("memo://note");
    await vi.waitFor(() => expect(logs.second).toEqual(["only the second hears this"]));
    await vi.waitFor(() => expect(updates.second).toEqual(["memo://note"]));
    expect(logs.first).toEqual([]);
    expect(updates.first).toEqual([]);
    const controller = new AbortController();
    const cancelled = first.callTool("wait", {}, { signal: controller.signal }).catch(() => "cancelled");
    void second.callTool("wait").catch(() => undefined);
    await vi.waitFor(() => expect(started).toHaveLength(2));
    controller.abort();
    await expect(cancelled).resolves.toBe("cancelled");
    await vi.waitFor(() => expect(started.filter((signal) => signal.aborted)).toHaveLength(1));
  });
});

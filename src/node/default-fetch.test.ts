import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";

import { defaultFetch } from "#default-fetch";
import { MCPClient } from "../client/mcp-client/mcp-client.js";
import { MCPServer } from "../server/mcp-server/mcp-server.js";
import { connectHttp } from "../transport/http-client/http-fallback.js";
import { fetchOf } from "../transport/http-client/http-options.js";
import { TAKES_CANCEL_SIGNALS } from "../transport/http-client/request-cancel.js";
import { HttpSseTransport, StreamableHttpTransport } from "../transport/http-client/index.js";
import { defaultFetch as platformDefault, platformFetch } from "../transport/http-client/platform-fetch.js";
import { sseHttpHandler, streamableHttpHandler } from "../transport/http-server/index.js";
import { toNodeHandler } from "./http-bridge.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

/** An MCP server over node:http on 127.0.0.1 that records each request's headers. */
async function mcpServer(kind: "streamable" | "sse" = "streamable"): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const server = new MCPServer({ name: "default-fetch", version: "1.0.0" });
  server.tool("echo", {}, () => ({ content: [{ type: "text", text: "echoed" }] }));
  const handler = kind === "streamable" ? streamableHttpHandler(server) : sseHttpHandler(server);
  const toNode = toNodeHandler(handler);
  const seen: IncomingHttpHeaders[] = [];
  const http = createServer((request, response) => {
    seen.push(request.headers);
    toNode(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    await handler.close();
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
  });
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, seen };
}

/** Counts the requests the platform fetch (undici) and node:http start while `run` runs, without replacing either. */
async function requestsDuring(run: () => Promise<void>): Promise<{ platform: number; nodeHttp: number }> {
  const counts = { platform: 0, nodeHttp: 0 };
  const onPlatform = (): void => void counts.platform++;
  const onNodeHttp = (): void => void counts.nodeHttp++;
  subscribe("undici:request:create", onPlatform);
  subscribe("http.client.request.start", onNodeHttp);
  try {
    await run();
  } finally {
    unsubscribe("undici:request:create", onPlatform);
    unsubscribe("http.client.request.start", onNodeHttp);
  }
  return counts;
}

async function callEcho(client: MCPClient): Promise<string> {
  const result = await client.callTool("echo");
  return (result.content[0] as { text: string }).text;
}

describe("the HTTP client transports' default fetch on Node (#default-fetch)", () => {
  it("resolves to the Node module under vitest, with the platform module's signature", () => {
    expect(defaultFetch).not.toBe(platformDefault);
    expect(platformDefault()).toBe(platformFetch);
    // nodeFetch marks itself as taking the transports' light cancel signals; the platform fetch does not.
    expect((defaultFetch() as { [TAKES_CANCEL_SIGNALS]?: true })[TAKES_CANCEL_SIGNALS]).toBe(true);
    expect(defaultFetch()).toBe(defaultFetch());
    expect(fetchOf({})).toBe(defaultFetch());
  });

  it("connectHttp without options sends every request with nodeFetch over node:http, never the platform fetch", async () => {
    const { url, seen } = await mcpServer();
    const client = new MCPClient({ name: "node-default", version: "1.0.0" }, { telemetry: null });
    let text = "";
    const counts = await requestsDuring(async () => {
      const transport = await connectHttp(client, url);
      expect(transport).toBeInstanceOf(StreamableHttpTransport);
      text = await callEcho(client);
      await client.close();
    });
    expect(text).toBe("echoed");
    expect(counts.platform).toBe(0);
    expect(counts.nodeHttp).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    // undici's fetch adds these to every request; node:http sends only what it is given.
    expect(seen.filter((headers) => headers["sec-fetch-mode"] !== undefined || headers["user-agent"] !== undefined)).toEqual([]);
  });

  it("reads the legacy transport's event stream through the default too (HTTP+SSE, GET and POSTs)", async () => {
    const { url, seen } = await mcpServer("sse");
    const client = new MCPClient({ name: "node-default-sse", version: "1.0.0" }, { telemetry: null });
    const counts = await requestsDuring(async () => {
      await client.connect(new HttpSseTransport(url));
      expect(await callEcho(client)).toBe("echoed");
      await client.close();
    });
    expect(counts.platform).toBe(0);
    expect(counts.nodeHttp).toBeGreaterThanOrEqual(3);
    expect(seen.filter((headers) => headers["user-agent"] !== undefined)).toEqual([]);
  });

  it("honours a globalThis.fetch replaced after the package loaded (a test's mock, a polyfill), at each request", async () => {
    const { url, seen } = await mcpServer();
    const client = new MCPClient({ name: "mocked", version: "1.0.0" }, { telemetry: null });
    await connectHttp(client, url);
    const before = seen.length;
    const original = globalThis.fetch;
    const mock = vi.fn((input: string | URL | Request, init?: RequestInit) => original(input, init));
    vi.stubGlobal("fetch", mock);
    try {
      expect(defaultFetch()).toBe(platformFetch);
      const counts = await requestsDuring(async () => {
        expect(await callEcho(client)).toBe("echoed");
      });
      expect(mock).toHaveBeenCalledTimes(seen.length - before);
      // The channels count both ways: the mock's requests went out through the platform fetch.
      expect(counts).toEqual({ platform: seen.length - before, nodeHttp: 0 });
      expect(mock.mock.calls[0]?.[1]?.signal).toBeInstanceOf(AbortSignal);
    } finally {
      vi.unstubAllGlobals();
    }
    // The process's own fetch back in place: the fast path again.
    const counts = await requestsDuring(async () => {
      expect(await callEcho(client)).toBe("echoed");
    });
    expect(counts).toEqual({ platform: 0, nodeHttp: 1 });
    await client.close();
  });

  it("leaves a fetchImpl given by the caller in charge", async () => {
    const { url } = await mcpServer();
    const given = vi.fn(platformFetch);
    const client = new MCPClient({ name: "given", version: "1.0.0" }, { telemetry: null });
    await connectHttp(client, url, { fetchImpl: given });
    expect(await callEcho(client)).toBe("echoed");
    await client.close();
    expect(given.mock.calls.length).toBeGreaterThanOrEqual(3);
  });
});

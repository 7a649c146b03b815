// Our MCPClient over our legacy HTTP+SSE client transport, against the official SDK's
// SSEServerTransport on a real HTTP server (127.0.0.1): reading the stream with fetch and our
// parser, and with the `eventsource` package's EventSource; and the fallback from Streamable HTTP.
import { EventSource } from "eventsource";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCPClient, MCP_CODES, type MCPClientOptions } from "../src/index.js";
import { HttpSseTransport, connectHttp, type HttpSseTransportOptions } from "../src/transport/http-client/index.js";
import { startSseServer, type RunningServer } from "./support/sdk-http-servers.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

const CLIENT_OPTIONS: MCPClientOptions = {
  // These tests are about the session era over HTTP (its session id, GET stream, resumption): no stateless-era probe first.
  era: "session",
  telemetry: null,
  sampling: () => ({ role: "assistant", content: { type: "text", text: "sampled" }, model: "test-model" }),
  roots: [{ uri: "file:///legacy", name: "legacy" }],
};

async function server(): Promise<RunningServer> {
  const running = await startSseServer();
  cleanups.push(() => running.close());
  return running;
}

async function connected(running: RunningServer, options: HttpSseTransportOptions = {}) {
  const transport = new HttpSseTransport(running.url, options);
  const client = new MCPClient({ name: "sse-interop", version: "1.0.0" }, CLIENT_OPTIONS);
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport };
}

async function driveEverything(client: MCPClient, running: RunningServer): Promise<void> {
  const progress: number[] = [];
  await expect(client.callTool("count", { to: 2 }, { onProgress: (update) => progress.push(update.progress) })).resolves.toMatchObject({
    content: [{ text: "counted to 2" }],
  });
  expect(progress).toEqual([1, 2]);
  const controller = new AbortController();
  const waiting = client.callTool("wait-for-cancel", {}, { signal: controller.signal });
  await vi.waitFor(() => expect(running.probe.started).toEqual(["wait-for-cancel"]));
  controller.abort();
  await expect(waiting).rejects.toMatchObject({ code: MCP_CODES.REQUEST_CANCELLED });
  await vi.waitFor(() => expect(running.probe.cancelled).toEqual(["wait-for-cancel"]));
  await expect(client.readResource("test://counter")).resolves.toMatchObject({ contents: [{ text: "42" }] });
  const updates: string[] = [];
  client.on("resourceUpdated", (update) => updates.push(update.uri));
  await client.subscribeResource("test://counter");
  await running.probe.servers[0]?.server.sendResourceUpdated({ uri: "test://counter" });
  await vi.waitFor(() => expect(updates).toEqual(["test://counter"]));
  await expect(client.getPrompt("greet", { name: "Cy" })).resolves.toMatchObject({ messages: [{ content: { text: "Hello, Cy!" } }] });
  await expect(client.callTool("ask-model", { question: "hi" })).resolves.toMatchObject({
    content: [{ text: expect.stringContaining("sampled") }],
  });
  await expect(client.callTool("ask-roots")).resolves.toMatchObject({ content: [{ text: "file:///legacy" }] });
}

describe("our client ↔ the SDK's HTTP+SSE server", () => {
  it("drives tools with progress and cancellation, subscriptions, prompts and server requests, reading the stream with fetch", async () => {
    const running = await server();
    const { client, transport } = await connected(running, { headers: { authorization: "Bearer legacy" } });
    expect(transport.endpoint).toMatch(/\/messages\?sessionId=/);
    expect(running.sessions.has(transport.sessionId as string)).toBe(true);
    await driveEverything(client, running);
    for (const request of running.probe.requests) expect(request.headers.authorization).toBe("Bearer legacy");
  });

  it("does the same through the eventsource package's EventSource", async () => {
    const running = await server();
    const { client, transport } = await connected(running, { eventSourceImpl: EventSource });
    expect(running.probe.requests[0]).toMatchObject({ method: "GET", headers: { accept: "text/event-stream" } });
    expect(transport.sessionId).toEqual(expect.any(String));
    await driveEverything(client, running);
  });

  it("closes the client with an error when the server drops the stream", async () => {
    const running = await server();
    const { client, transport } = await connected(running);
    const closed = new Promise<unknown>((resolve) => client.on("close", ({ error }) => resolve(error)));
    await running.sessions.get(transport.sessionId as string)?.close();
    await expect(closed).resolves.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: expect.stringContaining("HTTP+SSE cannot resume a session"),
    });
    expect(client.connected).toBe(false);
  });

  it("is what connectHttp falls back to when the server refuses the Streamable HTTP POST", async () => {
    const running = await server();
    const client = new MCPClient({ name: "sse-interop", version: "1.0.0" }, CLIENT_OPTIONS);
    const transport = await connectHttp(client, running.url);
    cleanups.push(() => client.close());
    expect(transport).toBeInstanceOf(HttpSseTransport);
    expect(running.probe.requests.slice(0, 2).map((request) => [request.method, request.url])).toEqual([
      ["POST", "/sse"],
      ["GET", "/sse"],
    ]);
    await expect(client.callTool("count", { to: 1 })).resolves.toMatchObject({ content: [{ text: "counted to 1" }] });
  });
});

// The official SDK's HTTP clients against our web-standard handlers, over real HTTP on 127.0.0.1:
// StreamableHTTPClientTransport (SSE answers, JSON answers, stateless) and the legacy
// SSEClientTransport, each driven by the SDK `Client` through tools with progress and cancellation,
// resources with subscriptions, prompts, and the server's own requests (sampling, elicitation, roots).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { MCPServer } from "../src/index.js";
import { serveHttp } from "../src/node/index.js";
import { sseHttpHandler, streamableHttpHandler, type HttpHandler, type StreamableHttpHandler, type StreamableHttpOptions } from "../src/transport/http-server/index.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the server saw happen, for the assertions the client cannot make. */
interface Observed {
  cancelled: string[];
}

function interopServer(observed: Observed, handlerRef: { current?: StreamableHttpHandler }): MCPServer {
  const server = new MCPServer({ name: "interop-http", version: "1.0.0" });
  server.tool("count", { inputSchema: z.object({ to: z.number().int() }) }, async ({ to }, ctx) => {
    for (let step = 1; step <= to; step++) await ctx.progress(step, to, `counted ${step}`);
    // The SDK's legacy SSE client handles notifications a microtask later than responses: a last
    // progress read in the same chunk as the answer would find its handler gone. Real tools work between.
    await sleep(20);
    return { content: [{ type: "text", text: `counted to ${to}` }] };
  });
  server.tool("hold", {}, async (_args, ctx) => {
    await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
    observed.cancelled.push(String(ctx.signal.reason instanceof Error ? ctx.signal.reason.message : ctx.signal.reason));
    return { content: [{ type: "text", text: "too late" }] };
  });
  server.tool("ask-model", {}, async (_args, ctx) => {
    const answer = await ctx.createMessage({ messages: [{ role: "user", content: { type: "text", text: "6 x 7?" } }], maxTokens: 5 });
    return { content: [{ type: "text", text: `model: ${(answer.content as { text: string }).text}` }] };
  });
  server.tool("ask-user", {}, async (_args, ctx) => {
    const answer = await ctx.elicitInput({ message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } });
    return { content: [{ type: "text", text: `user: ${answer.action} ${JSON.stringify(answer.content)}` }] };
  });
  server.tool("roots", {}, async (_args, ctx) => ({ content: [{ type: "text", text: (await ctx.listRoots()).roots.map((root) => root.uri).join(",") }] }));
  server.tool("poll-me", {}, async (_args, ctx) => {
    await ctx.progress(1, 2, "before the poll");
    const closed = await handlerRef.current?.closeSSEStream(ctx.session.id, ctx.requestId);
    await sleep(30);
    await ctx.progress(2, 2, "after the poll");
    return { content: [{ type: "text", text: `stream closed mid-call: ${closed}` }] };
  });
  server.resource("config", "config://app", { mimeType: "application/json" }, (uri) => ({ contents: [{ uri, text: '{"mode":"dark"}' }] }));
  server.prompt("greet", { arguments: { name: { required: true } } }, ({ name }) => ({ messages: [{ role: "user", content: { type: "text", text: `Hello, ${name}!` } }] }));
  return server;
}

type Flavour = "streamable" | "streamable-json" | "legacy-sse";

interface Connected {
  readonly client: Client;
  readonly transport: SdkTransport;
  readonly server: MCPServer;
  readonly handler: HttpHandler;
  readonly observed: Observed;
  readonly notifications: { updated: string[]; logs: unknown[]; toolsChanged: number };
  /** Every HTTP exchange: "METHOD status" plus " resume" for a GET with Last-Event-ID. */
  readonly exchanges: string[];
}

async function connect(flavour: Flavour, options: StreamableHttpOptions = {}): Promise<Connected> {
  const observed: Observed = { cancelled: [] };
  const handlerRef: { current?: StreamableHttpHandler } = {};
  const server = interopServer(observed, handlerRef);
  let handler: HttpHandler;
  if (flavour === "legacy-sse") handler = sseHttpHandler(server);
  else {
    const streamable = streamableHttpHandler(server, { ...options, ...(flavour === "streamable-json" ? { enableJsonResponse: true } : {}) });
    handlerRef.current = streamable;
    handler = streamable;
  }
  const exchanges: string[] = [];
  const served = await serveHttp(async (request) => {
    const response = await handler.fetch(request);
    exchanges.push(`${request.method} ${response.status}${request.headers.has("last-event-id") ? " resume" : ""}`);
    return response;
  }, { port: 0 });
  cleanups.push(async () => {
    await handler.close();
    await served.close();
  });
  const url = new URL(served.url);
  const transport = flavour === "legacy-sse" ? new SSEClientTransport(url) : new StreamableHTTPClientTransport(url);
  const client = new Client({ name: "sdk-interop", version: "1.0.0" }, { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: "assistant", content: { type: "text", text: "42" }, model: "interop-model" }));
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
  const notifications = { updated: [] as string[], logs: [] as unknown[], toolsChanged: 0 };
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void notifications.updated.push(notification.params.uri));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void notifications.logs.push(notification.params.data));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void notifications.toolsChanged++);
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport, server, handler, observed, notifications, exchanges };
}

/** Server-initiated traffic needs the client's GET stream (Streamable HTTP); wait until it is there. */
async function untilListening(connected: Connected): Promise<void> {
  await expect.poll(async () => {
    await connected.server.log("debug", "probe");
    return connected.notifications.logs.length;
  }).toBeGreaterThan(0);
}

describe.each<Flavour>(["streamable", "streamable-json", "legacy-sse"])("the SDK client over %s", (flavour) => {
  it("calls tools with progress, and cancels one the server is still working on", async () => {
    const connected = await connect(flavour);
    const { client } = connected;
    // In JSON mode, what a tool sends before its answer travels on the client's GET stream.
    if (flavour === "streamable-json") await untilListening(connected);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["count", "hold", "ask-model", "ask-user", "roots", "poll-me"]);
    const progress: number[] = [];
    const result = await client.callTool({ name: "count", arguments: { to: 3 } }, undefined, { onprogress: (update) => void progress.push(update.progress) });
    expect(result.content).toEqual([{ type: "text", text: "counted to 3" }]);
    expect(progress).toEqual([1, 2, 3]);
    const abort = new AbortController();
    const held = client.callTool({ name: "hold" }, undefined, { signal: abort.signal });
    await sleep(50);
    abort.abort(new Error("user pressed stop"));
    await expect(held).rejects.toThrow("user pressed stop");
    await expect.poll(() => connected.observed.cancelled).toEqual([expect.stringContaining("user pressed stop")]);
    await expect(client.ping()).resolves.toEqual({});
  });

  it("reads and subscribes to resources, gets prompts, and hears list changes and logs", async () => {
    const connected = await connect(flavour);
    const { client, server } = connected;
    if (flavour !== "legacy-sse") await untilListening(connected);
    expect((await client.listResources()).resources).toEqual([expect.objectContaining({ uri: "config://app", name: "config" })]);
    expect((await client.readResource({ uri: "config://app" })).contents).toEqual([{ uri: "config://app", text: '{"mode":"dark"}' }]);
    await client.subscribeResource({ uri: "config://app" });
    await server.markResourceUpdated("config://app");
    await expect.poll(() => connected.notifications.updated).toEqual(["config://app"]);
    await client.unsubscribeResource({ uri: "config://app" });
    await server.markResourceUpdated("config://app");
    expect((await client.getPrompt({ name: "greet", arguments: { name: "Ada" } })).messages).toEqual([{ role: "user", content: { type: "text", text: "Hello, Ada!" } }]);
    server.tool("late", {}, () => ({ content: [] }));
    await expect.poll(() => connected.notifications.toolsChanged).toBe(1);
    await server.log("warning", "from the server");
    await expect.poll(() => connected.notifications.logs).toContainEqual("from the server");
    expect(connected.notifications.updated).toEqual(["config://app"]);
  });

  it("answers the server's own requests: sampling, elicitation and roots", async () => {
    const connected = await connect(flavour);
    const { client } = connected;
    if (flavour === "streamable-json") await untilListening(connected);
    expect((await client.callTool({ name: "ask-model" })).content).toEqual([{ type: "text", text: "model: 42" }]);
    expect((await client.callTool({ name: "ask-user" })).content).toEqual([{ type: "text", text: 'user: accept {"name":"Ada"}' }]);
    expect((await client.callTool({ name: "roots" })).content).toEqual([{ type: "text", text: "file:///work" }]);
  });
});

describe("Streamable HTTP specifics with the SDK client", () => {
  it("SEP-1699: the server ends the POST stream mid-call; the client polls back with Last-Event-ID and gets the rest", async () => {
    const { client } = await connect("streamable", { retryMs: 20 });
    const progress: string[] = [];
    const result = await client.callTool({ name: "poll-me" }, undefined, { onprogress: (update) => void progress.push(update.message as string) });
    expect(result.content).toEqual([{ type: "text", text: "stream closed mid-call: true" }]);
    expect(progress).toEqual(["before the poll", "after the poll"]);
  });

  it("polls through every answer when the server limits each SSE connection (maxSseConnectionMs)", async () => {
    const { client } = await connect("streamable", { retryMs: 10, maxSseConnectionMs: 40 });
    const progress: number[] = [];
    const result = await client.callTool({ name: "count", arguments: { to: 2 } }, undefined, { onprogress: (update) => void progress.push(update.progress) });
    expect(result.content).toEqual([{ type: "text", text: "counted to 2" }]);
    await sleep(100);
    expect((await client.callTool({ name: "ask-model" })).content).toEqual([{ type: "text", text: "model: 42" }]);
    expect(progress).toEqual([1, 2]);
  });

  it("a cancelled call's stream ends; the client polls it back once and is told (204) that nothing more will come", async () => {
    const connected = await connect("streamable", { retryMs: 20 });
    const abort = new AbortController();
    const held = connected.client.callTool({ name: "hold" }, undefined, { signal: abort.signal });
    await sleep(50);
    abort.abort(new Error("stop"));
    await expect(held).rejects.toThrow("stop");
    await sleep(300);
    expect(connected.exchanges.filter((exchange) => exchange.endsWith("resume"))).toEqual(["GET 204 resume"]);
  });

  it("ends the session with DELETE when the client terminates it", async () => {
    const { transport, handler } = await connect("streamable");
    expect(handler.sessionCount).toBe(1);
    await (transport as StreamableHTTPClientTransport).terminateSession();
    expect(handler.sessionCount).toBe(0);
  });

  it("serves the SDK client in stateless mode: tools, resources and prompts, no session kept", async () => {
    const { client, handler, transport } = await connect("streamable", { sessions: "stateless" });
    expect((transport as StreamableHTTPClientTransport).sessionId).toBeUndefined();
    const progress: number[] = [];
    expect((await client.callTool({ name: "count", arguments: { to: 2 } }, undefined, { onprogress: (update) => void progress.push(update.progress) })).content).toEqual([{ type: "text", text: "counted to 2" }]);
    expect(progress).toEqual([1, 2]);
    expect((await client.readResource({ uri: "config://app" })).contents).toHaveLength(1);
    expect((await client.getPrompt({ name: "greet", arguments: { name: "Bo" } })).messages).toHaveLength(1);
    await expect.poll(() => handler.sessionCount).toBe(0);
  });
});

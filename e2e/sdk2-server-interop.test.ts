// Our MCPClient against the official SDK 2.x server (@modelcontextprotocol/server) in the 2025
// session era, over every transport the SDK offers a server: its in-memory linked pair (bridged),
// stdio (a child process serving through the SDK's serveStdio), and Streamable HTTP on 127.0.0.1 —
// WebStandardStreamableHTTPServerTransport with sessions (SSE answers, JSON answers) and
// createMcpHandler's stateless 2025 serving. SDK 2.x has no HTTP+SSE server.
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import {
  createMcpHandler,
  WebStandardStreamableHTTPServerTransport,
  type EventStore,
  type JSONRPCMessage,
  type WebStandardStreamableHTTPServerTransportOptions,
} from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCPClient, MCP_CODES } from "../src/index.js";
import { serveHttp, spawnStdioServer } from "../src/node/index.js";
import { StreamableHttpTransport } from "../src/transport/http-client/index.js";
import { sdk2Server } from "./fixtures/sdk2-server.mjs";
import { sdk2Pair } from "./support/sdk2-bridge.js";

const sdk2ServerScript = fileURLToPath(new URL("./fixtures/sdk2-server.mjs", import.meta.url));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

interface Heard {
  readonly logs: unknown[];
  readonly updates: string[];
  /** The server's requests our client answered, in order. */
  readonly asked: string[];
  toolsChanged: number;
}

function ourClient(): { client: MCPClient; heard: Heard } {
  const heard: Heard = { logs: [], updates: [], asked: [], toolsChanged: 0 };
  const client = new MCPClient(
    { name: "our-client", version: "1.0.0" },
    {
      protocolVersion: "2025-11-25",
      telemetry: null,
      sampling: () => (heard.asked.push("sampling"), { role: "assistant", content: { type: "text", text: "42" }, model: "test-model" }),
      elicitation: { form: () => (heard.asked.push("elicitation"), { action: "accept", content: { name: "Ada" } }) },
      roots: () => (heard.asked.push("roots"), [{ uri: "file:///work", name: "work" }]),
    },
  );
  client.on("log", (message) => void heard.logs.push(message.data));
  client.on("resourceUpdated", ({ uri }) => void heard.updates.push(uri));
  client.on("toolsListChanged", () => void heard.toolsChanged++);
  cleanups.push(() => client.close());
  return { client, heard };
}

/** Serves `fetch` on 127.0.0.1, noting each exchange as "METHOD status", plus " resume" for a GET with Last-Event-ID. */
async function served(fetch: (request: Request) => Promise<Response>, exchanges: string[] = []): Promise<string> {
  const http = await serveHttp(
    async (request) => {
      const response = await fetch(request);
      exchanges.push(`${request.method} ${response.status}${request.headers.has("last-event-id") ? " resume" : ""}`);
      return response;
    },
    { port: 0 },
  );
  cleanups.push(() => http.close());
  return new URL("/mcp", http.url).href;
}

/** The SDK's web-standard Streamable HTTP transport with sessions: one transport and McpServer per session. */
function sessionful(
  options: WebStandardStreamableHTTPServerTransportOptions,
  sessions: Map<string, WebStandardStreamableHTTPServerTransport>,
) {
  cleanups.push(async () => {
    for (const transport of sessions.values()) await transport.close();
  });
  return async (request: Request): Promise<Response> => {
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId !== null)
      return (await sessions.get(sessionId)?.handleRequest(request)) ?? new Response("no such session", { status: 404 });
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
      onsessionclosed: (id) => void sessions.delete(id),
      ...options,
    });
    await sdk2Server().connect(transport);
    return transport.handleRequest(request);
  };
}

/**
 * An EventStore for the SDK's transport, which ships none; ids are positions, so replays keep the order
 * (the SDK 1.x example store sorts its ids, which misorders events stored in the same millisecond).
 */
class OrderedEventStore implements EventStore {
  readonly #events: Array<{ readonly streamId: string; readonly message: JSONRPCMessage }> = [];

  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    this.#events.push({ streamId, message });
    return Promise.resolve(String(this.#events.length - 1));
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const position = Number(lastEventId);
    const streamId = this.#events[position]?.streamId ?? "";
    for (const [index, event] of this.#events.entries())
      if (index > position && event.streamId === streamId) await send(String(index), event.message);
    return streamId;
  }
}

type Flavour = "in-memory" | "stdio" | "streamable-sse" | "streamable-json";

async function connect(flavour: Flavour): Promise<{ client: MCPClient; heard: Heard }> {
  const connected = ourClient();
  if (flavour === "stdio") {
    await connected.client.connect(await spawnStdioServer({ command: process.execPath, args: [sdk2ServerScript] }));
    return connected;
  }
  if (flavour === "in-memory") {
    const server = sdk2Server();
    const { ours, sdk } = sdk2Pair();
    await server.connect(sdk);
    cleanups.push(() => server.close());
    await connected.client.connect(ours);
    return connected;
  }
  const exchanges: string[] = [];
  const url = await served(sessionful({ enableJsonResponse: flavour === "streamable-json" }, new Map()), exchanges);
  await connected.client.connect(new StreamableHttpTransport(url));
  // What the server sends on its own goes out on the client's GET stream, and is dropped until that is open.
  await vi.waitFor(() => expect(exchanges).toContain("GET 200"));
  return connected;
}

const TOOLS = ["count", "poll", "wait-for-cancel", "ask-model", "ask-user", "ask-roots", "ask-user-later", "log", "add-tool", "touch"];

/**
 * What every transport carries, sessions or not: the handshake, tools with progress and structured output, resources, prompts, completion.
 */
async function requestsAndAnswers(client: MCPClient, { jsonAnswers = false } = {}): Promise<void> {
  expect(client.serverInfo).toEqual({ name: "sdk2-server", version: "2.0.0" });
  expect(client.instructions).toBe("an SDK 2.x server");
  expect(client.serverCapabilities).toEqual({
    logging: {},
    completions: {},
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
  });
  expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(TOOLS);
  const progress: unknown[] = [];
  const counted = await client.callTool(
    "count",
    { to: 2 },
    { onProgress: ({ progress: step, total, message }) => void progress.push({ step, total, message }) },
  );
  expect(counted).toEqual({ content: [{ type: "text", text: "counted to 2" }], structuredContent: { counted: 2 } });
  // SDK 2.x drops what a handler sends tied to its call when it answers with JSON (the GET stream would carry it).
  const expectedProgress = jsonAnswers
    ? []
    : [
        { step: 1, total: 2, message: "step 1" },
        { step: 2, total: 2, message: "step 2" },
      ];
  expect(progress).toEqual(expectedProgress);

  expect(await client.listAllResources()).toEqual([{ uri: "memo://note", name: "note", mimeType: "text/plain" }]);
  expect(await client.listAllResourceTemplates()).toEqual([{ name: "item", uriTemplate: "memo://items/{id}", mimeType: "text/plain" }]);
  expect(await client.readResource("memo://note")).toEqual({
    contents: [{ uri: "memo://note", mimeType: "text/plain", text: "remember" }],
  });
  expect(await client.readResource("memo://items/7")).toEqual({ contents: [{ uri: "memo://items/7", text: "item 7" }] });

  expect(await client.listAllPrompts()).toEqual([
    { name: "greet", description: "Greets someone", arguments: [{ name: "name", required: true }] },
  ]);
  expect(await client.getPrompt("greet", { name: "Ada" })).toEqual({
    messages: [{ role: "user", content: { type: "text", text: "Hello, Ada!" } }],
  });
  expect(await client.complete({ type: "ref/prompt", name: "greet" }, { name: "name", value: "A" })).toEqual({
    completion: { values: ["Ada", "Alan"], total: 2, hasMore: false },
  });
  expect(await client.complete({ type: "ref/resource", uri: "memo://items/{id}" }, { name: "id", value: "1" })).toEqual({
    completion: { values: ["1", "12"], total: 2, hasMore: false },
  });
}

/** The server's own requests: on the call's stream (roots/list through ctx.mcpReq.send, the input_required shim) or on the GET stream. */
async function serverRequests(client: MCPClient): Promise<void> {
  expect(await client.callTool("ask-model")).toEqual({ content: [{ type: "text", text: "model test-model: 42" }] });
  expect(await client.callTool("ask-user")).toEqual({ content: [{ type: "text", text: 'user: accept {"name":"Ada"}' }] });
  expect(await client.callTool("ask-roots")).toEqual({ content: [{ type: "text", text: "file:///work" }] });
  // A 2026-style input_required result, turned by the SDK's shim into an elicitation/create to a 2025 client.
  expect(await client.callTool("ask-user-later")).toEqual({ content: [{ type: "text", text: 'shim: {"name":"Ada"}' }] });
}

/**
 * SDK 2.x drops a request tied to a call it answers with JSON (so does the shim's elicitation): the roots/list
 * never leaves the server. A sampling request it sends after that on the GET stream arrives, alone.
 */
async function serverRequestsWithJsonAnswers(client: MCPClient, heard: Heard): Promise<void> {
  expect(await client.callTool("ask-model")).toEqual({ content: [{ type: "text", text: "model test-model: 42" }] });
  expect(await client.callTool("ask-user")).toEqual({ content: [{ type: "text", text: 'user: accept {"name":"Ada"}' }] });
  const stop = new AbortController();
  const lost = client.callTool("ask-roots", {}, { signal: stop.signal });
  await vi.waitFor(() => expect(heard.logs).toEqual(["asking for roots"]));
  expect(await client.callTool("ask-model")).toEqual({ content: [{ type: "text", text: "model test-model: 42" }] });
  stop.abort();
  await expect(lost).rejects.toMatchObject({ code: MCP_CODES.REQUEST_CANCELLED });
}

/** What needs a session besides: cancellation, logging levels, list_changed and subscriptions. */
async function sessionTraffic(client: MCPClient, heard: Heard): Promise<void> {
  heard.logs.splice(0);
  const controller = new AbortController();
  const waiting = client.callTool("wait-for-cancel", {}, { signal: controller.signal });
  await vi.waitFor(() => expect(heard.logs).toEqual(["waiting"]));
  controller.abort(new Error("user pressed stop"));
  await expect(waiting).rejects.toMatchObject({ code: MCP_CODES.REQUEST_CANCELLED });
  await vi.waitFor(() => expect(heard.logs).toEqual(["waiting", "cancelled: user pressed stop"]));

  await client.setLoggingLevel("warning");
  await client.callTool("log");
  await vi.waitFor(() => expect(heard.logs).toEqual(["waiting", "cancelled: user pressed stop", "an error line"]));

  await client.callTool("add-tool");
  await vi.waitFor(() => expect(heard.toolsChanged).toBe(1));
  expect((await client.listAllTools()).map((tool) => tool.name)).toEqual([...TOOLS, "late"]);

  await client.subscribeResource("memo://note");
  expect(await client.callTool("touch")).toEqual({ content: [{ type: "text", text: "touched: memo://note" }] });
  await vi.waitFor(() => expect(heard.updates).toEqual(["memo://note"]));
  await client.unsubscribeResource("memo://note");
  expect(await client.callTool("touch")).toEqual({ content: [{ type: "text", text: "touched: " }] });
}

describe.each<Flavour>(["in-memory", "stdio", "streamable-sse", "streamable-json"])(
  "our client ↔ the SDK 2.x server over %s",
  (flavour) => {
    it("initializes on 2025-11-25 and drives tools, resources, prompts and completion", async () => {
      const { client } = await connect(flavour);
      expect(client.protocolVersion).toBe("2025-11-25");
      await requestsAndAnswers(client, { jsonAnswers: flavour === "streamable-json" });
    });

    it("answers sampling, elicitation and roots, cancels, and hears logs, list changes and resource updates", async () => {
      const { client, heard } = await connect(flavour);
      const json = flavour === "streamable-json";
      await (json ? serverRequestsWithJsonAnswers(client, heard) : serverRequests(client));
      expect(heard.asked).toEqual(json ? ["sampling", "elicitation", "sampling"] : ["sampling", "elicitation", "roots", "elicitation"]);
      expect(heard.logs).toEqual(["asking for roots"]);
      await sessionTraffic(client, heard);
    });
  },
);

describe("our client ↔ the SDK 2.x server over Streamable HTTP: sessions and stateless serving", () => {
  it("ends the session with DELETE when the client closes", async () => {
    const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
    const url = await served(sessionful({}, sessions));
    const { client } = ourClient();
    const transport = new StreamableHttpTransport(url);
    await client.connect(transport);
    expect([...sessions.keys()]).toEqual([transport.sessionId]);
    await client.close();
    expect(sessions.size).toBe(0);
  });

  it("SEP-1699: polls a call whose SSE stream the server ended, resuming with Last-Event-ID, losing nothing", async () => {
    const exchanges: string[] = [];
    const url = await served(sessionful({ eventStore: new OrderedEventStore(), retryInterval: 10 }, new Map()), exchanges);
    const { client } = ourClient();
    await client.connect(new StreamableHttpTransport(url, { openGetStream: false }));
    const progress: number[] = [];
    expect(await client.callTool("poll", {}, { onProgress: (update) => void progress.push(update.progress) })).toEqual({
      content: [{ type: "text", text: "polled" }],
    });
    expect(progress).toEqual([1, 2]);
    expect(exchanges.filter((exchange) => exchange.startsWith("GET"))).toEqual(["GET 200 resume"]);
  });

  it("is served statelessly by createMcpHandler (a fresh McpServer per request, no session, GET refused)", async () => {
    const handler = createMcpHandler(() => sdk2Server());
    cleanups.push(() => handler.close());
    const exchanges: string[] = [];
    const url = await served(handler.fetch, exchanges);
    const { client } = ourClient();
    const transport = new StreamableHttpTransport(url);
    await client.connect(transport);
    expect(transport.sessionId).toBeUndefined();
    expect(client.protocolVersion).toBe("2025-11-25");
    await requestsAndAnswers(client);
    await vi.waitFor(() => expect(exchanges).toContain("GET 405"));
    expect(client.connected).toBe(true);
  });
});

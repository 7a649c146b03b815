// The official SDK 2.x client (@modelcontextprotocol/client) against our MCPServer in the 2025
// session era, over every transport the SDK offers a client: its in-memory linked pair (bridged),
// stdio (StdioClientTransport spawning our server as a child process), Streamable HTTP on 127.0.0.1
// (our handler with SSE answers, JSON answers, and stateless) and the legacy HTTP+SSE transport.
import { fileURLToPath } from "node:url";
import {
  Client,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type JSONRPCMessage,
  type Transport as Sdk2Transport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCPServer, sseHttpHandler, streamableHttpHandler, type HttpHandler } from "../src/index.js";
import { serveHttp } from "../src/node/index.js";
import { ourServer } from "./fixtures/our-server.mjs";
import { sdk2Pair } from "./support/sdk2-bridge.js";

const ourServerScript = fileURLToPath(new URL("./fixtures/our-server.mjs", import.meta.url));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

interface Heard {
  readonly logs: unknown[];
  readonly updates: string[];
  /** Our server's requests the SDK client answered, in order. */
  readonly asked: string[];
  /** What reached the client's transport, before the client dispatched it: progress notifications and results. */
  readonly wire: string[];
  toolsChanged: number;
}

function sdk2Client(): { client: Client; heard: Heard } {
  const heard: Heard = { logs: [], updates: [], asked: [], wire: [], toolsChanged: 0 };
  // The 2025 session era: the plain initialize handshake (no server/discover probe).
  const client = new Client(
    { name: "sdk2-client", version: "2.0.0" },
    { capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } }, versionNegotiation: { mode: "legacy" } },
  );
  client.setRequestHandler(
    "sampling/createMessage",
    () => (heard.asked.push("sampling"), { role: "assistant", content: { type: "text", text: "42" }, model: "test-model" }),
  );
  client.setRequestHandler("elicitation/create", () => (heard.asked.push("elicitation"), { action: "accept", content: { name: "Ada" } }));
  client.setRequestHandler("roots/list", () => (heard.asked.push("roots"), { roots: [{ uri: "file:///work", name: "work" }] }));
  client.setNotificationHandler("notifications/message", (notification) => void heard.logs.push(notification.params.data));
  client.setNotificationHandler("notifications/resources/updated", (notification) => void heard.updates.push(notification.params.uri));
  client.setNotificationHandler("notifications/tools/list_changed", () => void heard.toolsChanged++);
  cleanups.push(() => client.close());
  return { client, heard };
}

function onTheWire(message: JSONRPCMessage): string | undefined {
  if ("result" in message) return `result ${String(message.id)}`;
  if ("method" in message && message.method === "notifications/progress") return `progress ${JSON.stringify(message.params)}`;
  return undefined;
}

/** Connects, then notes the progress notifications and results the transport hands the client. */
async function connectThrough(transport: Sdk2Transport): Promise<{ client: Client; heard: Heard }> {
  const connected = sdk2Client();
  await connected.client.connect(transport);
  const dispatch = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const noted = onTheWire(message);
    if (noted !== undefined) connected.heard.wire.push(noted);
    dispatch?.(message, extra);
  };
  return connected;
}

/** Serves `handler` on 127.0.0.1, noting each exchange as "METHOD status". */
async function served(handler: HttpHandler, exchanges: string[] = []): Promise<URL> {
  const http = await serveHttp(
    async (request) => {
      const response = await handler.fetch(request);
      exchanges.push(`${request.method} ${response.status}`);
      return response;
    },
    { port: 0 },
  );
  cleanups.push(async () => {
    await handler.close();
    await http.close();
  });
  return new URL(http.url);
}

type Flavour = "in-memory" | "stdio" | "streamable-sse" | "streamable-json" | "legacy-sse";

async function connect(flavour: Flavour): Promise<{ client: Client; heard: Heard }> {
  if (flavour === "stdio")
    return connectThrough(new StdioClientTransport({ command: process.execPath, args: [ourServerScript], stderr: "pipe" }));
  const server = ourServer(MCPServer);
  if (flavour === "in-memory") {
    const { ours, sdk } = sdk2Pair();
    await server.start(ours);
    cleanups.push(() => server.close());
    return connectThrough(sdk);
  }
  if (flavour === "legacy-sse") return connectThrough(new SSEClientTransport(await served(sseHttpHandler(server))));
  const exchanges: string[] = [];
  const url = await served(streamableHttpHandler(server, { enableJsonResponse: flavour === "streamable-json" }), exchanges);
  const connected = await connectThrough(new StreamableHTTPClientTransport(url));
  // What the server sends on its own goes out on the client's GET stream; it is there once answered.
  await vi.waitFor(() => expect(exchanges).toContain("GET 200"));
  return connected;
}

const TOOLS = ["count", "wait-for-cancel", "ask-model", "ask-user", "ask-roots", "log", "add-tool", "touch"];

/** The handshake, tools with progress and structured output, resources, prompts, completion. */
async function requestsAndAnswers(client: Client, heard: Heard, { jsonAnswers = false } = {}): Promise<void> {
  expect(client.getProtocolEra()).toBe("legacy");
  expect(client.getServerVersion()).toEqual({ name: "our-server", version: "1.0.0" });
  expect(client.getInstructions()).toBe("our server");
  expect(client.getServerCapabilities()).toEqual({
    logging: {},
    completions: {},
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
  });
  expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(TOOLS);
  heard.wire.splice(0);
  const progress: unknown[] = [];
  const counted = await client.callTool({ name: "count", arguments: { to: 2 } }, { onprogress: (update) => void progress.push(update) });
  expect(counted).toEqual({ content: [{ type: "text", text: "counted to 2" }], structuredContent: { counted: 2 } });
  const callId = heard.wire.find((noted) => noted.startsWith("result "))?.slice("result ".length) ?? "";
  const steps = [1, 2].map((step) => ({ progress: step, total: 2, message: `step ${step}` }));
  const sent = [...steps.map((step) => `progress ${JSON.stringify({ progressToken: Number(callId), ...step })}`), `result ${callId}`];
  // With JSON answers, our server sends a call's progress on the GET stream, where it may come after the answer.
  const arrival = (noted: readonly string[]) => (jsonAnswers ? noted.toSorted() : noted);
  await vi.waitFor(() => expect(arrival(heard.wire)).toEqual(arrival(sent)));
  // SDK 2.x dispatches a notification a microtask after it was read but a result at once, dropping the call's
  // progress handler: progress read together with the answer (one stdio or SSE chunk) never reaches the callback.
  expect(progress).toEqual(steps.slice(0, progress.length));

  expect((await client.listResources()).resources).toEqual([{ uri: "memo://note", name: "note", mimeType: "text/plain" }]);
  expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
    { name: "item", uriTemplate: "memo://items/{id}", mimeType: "text/plain" },
  ]);
  expect(await client.readResource({ uri: "memo://note" })).toEqual({
    contents: [{ uri: "memo://note", mimeType: "text/plain", text: "remember" }],
  });
  expect(await client.readResource({ uri: "memo://items/7" })).toEqual({ contents: [{ uri: "memo://items/7", text: "item 7" }] });

  expect((await client.listPrompts()).prompts).toEqual([
    { name: "greet", description: "Greets someone", arguments: [{ name: "name", required: true }] },
  ]);
  expect(await client.getPrompt({ name: "greet", arguments: { name: "Ada" } })).toEqual({
    messages: [{ role: "user", content: { type: "text", text: "Hello, Ada!" } }],
  });
  const names = await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "A" } });
  expect(names).toEqual({ completion: { values: ["Ada", "Alan"], total: 2, hasMore: false } });
  const ids = await client.complete({ ref: { type: "ref/resource", uri: "memo://items/{id}" }, argument: { name: "id", value: "1" } });
  expect(ids).toEqual({ completion: { values: ["1", "12"], total: 2, hasMore: false } });
}

/** Our server's requests, cancellation, logging levels, list_changed and subscriptions. */
async function sessionTraffic(client: Client, heard: Heard): Promise<void> {
  expect(await client.callTool({ name: "ask-model" })).toEqual({ content: [{ type: "text", text: "model test-model: 42" }] });
  expect(await client.callTool({ name: "ask-user" })).toEqual({ content: [{ type: "text", text: 'user: accept {"name":"Ada"}' }] });
  expect(await client.callTool({ name: "ask-roots" })).toEqual({ content: [{ type: "text", text: "file:///work" }] });

  // Cancelled from the progress callback: the call is running, and the SDK takes our progress while it waits.
  const controller = new AbortController();
  const progress: unknown[] = [];
  const stop = (update: unknown) => (progress.push(update), controller.abort(new Error("user pressed stop")));
  const waiting = client.callTool({ name: "wait-for-cancel" }, { signal: controller.signal, onprogress: stop });
  await expect(waiting).rejects.toThrow("user pressed stop");
  expect(progress).toEqual([{ progress: 0, total: 1, message: "waiting" }]);
  // SDK 2.x sends the abort reason as String(reason).
  await vi.waitFor(() => expect(heard.logs).toEqual(["cancelled: The peer cancelled tools/call: Error: user pressed stop"]));

  await client.setLoggingLevel("warning");
  await client.callTool({ name: "log" });
  await vi.waitFor(() =>
    expect(heard.logs).toEqual(["cancelled: The peer cancelled tools/call: Error: user pressed stop", "an error line"]),
  );

  await client.callTool({ name: "add-tool" });
  await vi.waitFor(() => expect(heard.toolsChanged).toBe(1));
  expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([...TOOLS, "late"]);

  await client.subscribeResource({ uri: "memo://note" });
  expect(await client.callTool({ name: "touch" })).toEqual({ content: [{ type: "text", text: "touched: memo://note" }] });
  await vi.waitFor(() => expect(heard.updates).toEqual(["memo://note"]));
  await client.unsubscribeResource({ uri: "memo://note" });
  expect(await client.callTool({ name: "touch" })).toEqual({ content: [{ type: "text", text: "touched: " }] });
}

describe.each<Flavour>(["in-memory", "stdio", "streamable-sse", "streamable-json", "legacy-sse"])(
  "the SDK 2.x client ↔ our server over %s",
  (flavour) => {
    it("initializes on 2025-11-25 and drives tools, resources, prompts and completion", async () => {
      const { client, heard } = await connect(flavour);
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      await requestsAndAnswers(client, heard, { jsonAnswers: flavour === "streamable-json" });
    });

    it("answers sampling, elicitation and roots, cancels, and hears logs, list changes and resource updates", async () => {
      const { client, heard } = await connect(flavour);
      await sessionTraffic(client, heard);
      expect(heard.asked).toEqual(["sampling", "elicitation", "roots"]);
    });
  },
);

describe("the SDK 2.x client ↔ our server over Streamable HTTP: sessions and stateless serving", () => {
  it("ends the session with DELETE when the client terminates it", async () => {
    const handler = streamableHttpHandler(ourServer(MCPServer));
    const exchanges: string[] = [];
    const transport = new StreamableHTTPClientTransport(await served(handler, exchanges));
    await connectThrough(transport);
    expect(transport.sessionId).toMatch(/^[0-9a-f]{64}$/);
    expect(handler.sessionCount).toBe(1);
    await transport.terminateSession();
    expect(handler.sessionCount).toBe(0);
    expect(exchanges.at(-1)).toBe("DELETE 204");
  });

  it("is served statelessly: a session per POST, none kept", async () => {
    const handler = streamableHttpHandler(ourServer(MCPServer), { sessions: "stateless" });
    const transport = new StreamableHTTPClientTransport(await served(handler));
    const { client, heard } = await connectThrough(transport);
    expect(transport.sessionId).toBeUndefined();
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    await requestsAndAnswers(client, heard);
    await vi.waitFor(() => expect(handler.sessionCount).toBe(0));
  });
});

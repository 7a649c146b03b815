// The official SDK 2.x client pinned to protocol revision 2026-07-28 (the stateless era) against our
// MCPServer, over Streamable HTTP on 127.0.0.1 (our serveHttp) and over stdio (our server in a child
// process): discovery, tools with progress and structured output, input_required rounds answered by
// the SDK client's own elicitation, sampling and roots handlers, resources, templates, prompts,
// completion, subscriptions/listen, and caching hints. Then one server object serves an SDK 1.x
// client in the 2025 session era and the 2.x client in the stateless era at the same time.
import { fileURLToPath } from "node:url";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Client, StreamableHTTPClientTransport, type JSONRPCMessage, type Transport as Sdk2Transport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCPServer, streamableHttpHandler, type HttpHandler } from "../src/index.js";
import { serveHttp } from "../src/node/index.js";
import { CACHE, dualEraServer } from "./fixtures/dual-era-server.mjs";

const serverScript = fileURLToPath(new URL("./fixtures/dual-era-server.mjs", import.meta.url));
const SERVER_INFO = { "io.modelcontextprotocol/serverInfo": { name: "dual-era", version: "1.0.0" } };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

interface Heard {
  /** The inputs the SDK client's handlers gave, in order: "elicitation Your name?", "sampling", "roots". */
  readonly asked: string[];
  /** What the client sent (method, and for a retry the inputResponses' keys) and what reached its transport (progress, results). */
  readonly sent: string[];
  readonly wire: string[];
  readonly updates: string[];
  toolsChanged: number;
}

function modernClient(): { client: Client; heard: Heard } {
  const heard: Heard = { asked: [], sent: [], wire: [], updates: [], toolsChanged: 0 };
  const client = new Client(
    { name: "sdk2-modern", version: "2.0.0" },
    { capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  client.setRequestHandler("elicitation/create", (request) => {
    heard.asked.push(`elicitation ${request.params.message}`);
    return request.params.message === "Your name?"
      ? { action: "accept", content: { name: "Ada" } }
      : { action: "accept", content: { ok: true } };
  });
  client.setRequestHandler(
    "sampling/createMessage",
    () => (heard.asked.push("sampling"), { role: "assistant", content: { type: "text", text: "42" }, model: "test-model" }),
  );
  client.setRequestHandler("roots/list", () => (heard.asked.push("roots"), { roots: [{ uri: "file:///work", name: "work" }] }));
  client.setNotificationHandler("notifications/resources/updated", (notification) => void heard.updates.push(notification.params.uri));
  client.setNotificationHandler("notifications/tools/list_changed", () => void heard.toolsChanged++);
  cleanups.push(() => client.close());
  return { client, heard };
}

function sentNote(message: JSONRPCMessage): string | undefined {
  if (!("method" in message) || !("id" in message)) return undefined;
  const params = message.params;
  const responses = params?.["inputResponses"] as Record<string, unknown> | undefined;
  const retry = responses ? ` ${Object.keys(responses).join(",")} ${typeof params?.["requestState"]}` : "";
  return `${message.method}${typeof params?.["name"] === "string" ? ` ${params["name"]}` : ""}${retry}`;
}

function wireNote(message: JSONRPCMessage): string | undefined {
  if ("result" in message) return `result ${String(message.id)}`;
  if ("method" in message && message.method === "notifications/progress") return `progress ${JSON.stringify(message.params)}`;
  return undefined;
}

/** Connects, then notes the requests the client sends and the progress and results its transport hands it. */
async function connectThrough(transport: Sdk2Transport): Promise<{ client: Client; heard: Heard }> {
  const connected = modernClient();
  await connected.client.connect(transport);
  const { heard } = connected;
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const noted = sentNote(message);
    if (noted !== undefined) heard.sent.push(noted);
    return send(message, options);
  };
  const dispatch = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const noted = wireNote(message);
    if (noted !== undefined) heard.wire.push(noted);
    dispatch?.(message, extra);
  };
  return connected;
}

/** Serves `handler` on 127.0.0.1, noting each exchange as "METHOD Mcp-Method status". */
async function served(handler: HttpHandler, exchanges: string[] = []): Promise<URL> {
  const http = await serveHttp(
    async (request) => {
      const response = await handler.fetch(request);
      exchanges.push(`${request.method} ${request.headers.get("mcp-method") ?? "-"} ${response.status}`);
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

type Flavour = "streamable-http" | "stdio";

async function connect(flavour: Flavour): Promise<{ client: Client; heard: Heard; server?: MCPServer }> {
  if (flavour === "stdio")
    return connectThrough(new StdioClientTransport({ command: process.execPath, args: [serverScript], stderr: "pipe" }));
  const server = dualEraServer(MCPServer);
  return { ...(await connectThrough(new StreamableHTTPClientTransport(await served(streamableHttpHandler(server))))), server };
}

describe.each<Flavour>(["streamable-http", "stdio"])("the SDK 2.x client pinned to 2026-07-28 ↔ our server over %s", (flavour) => {
  it("discovers the server, calls a tool with progress and structured output, reads resources, gets prompts, completes", async () => {
    const { client, heard } = await connect(flavour);
    expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual(["modern", "2026-07-28"]);
    expect(client.getServerVersion()).toEqual({ name: "dual-era", version: "1.0.0" });
    expect(client.getInstructions()).toBe("both eras");
    expect(client.getServerCapabilities()).toEqual({
      logging: {},
      completions: {},
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
    });

    const tools = await client.listTools();
    expect({ ...tools, tools: tools.tools.map((tool) => tool.name) }).toEqual({
      tools: ["count", "interview", "add-tool", "touch"],
      ...CACHE.lists,
      _meta: SERVER_INFO,
    });

    heard.wire.splice(0);
    const progress: unknown[] = [];
    const counted = await client.callTool({ name: "count", arguments: { to: 2 } }, { onprogress: (update) => void progress.push(update) });
    expect(counted).toEqual({ content: [{ type: "text", text: "counted to 2" }], structuredContent: { counted: 2 }, _meta: SERVER_INFO });
    const callId = heard.wire.find((noted) => noted.startsWith("result "))?.slice("result ".length) ?? "";
    const steps = [1, 2].map((step) => ({ progress: step, total: 2, message: `step ${step}` }));
    expect(heard.wire).toEqual([
      ...steps.map((step) => `progress ${JSON.stringify({ progressToken: Number(callId), ...step })}`),
      `result ${callId}`,
    ]);
    // SDK 2.x dispatches a notification a microtask after it was read but a result at once: progress
    // read in the same chunk as the answer never reaches the callback.
    expect(progress).toEqual(steps.slice(0, progress.length));

    const resources = await client.listResources();
    expect([resources.resources, resources.ttlMs, resources.cacheScope]).toEqual([
      [{ uri: "memo://note", name: "note", mimeType: "text/plain" }],
      CACHE.note.ttlMs,
      "private",
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { name: "item", uriTemplate: "memo://items/{id}", mimeType: "text/plain" },
    ]);
    const note = await client.readResource({ uri: "memo://note" });
    expect(note).toEqual({
      contents: [{ uri: "memo://note", mimeType: "text/plain", text: "remember" }],
      ...CACHE.note,
      _meta: SERVER_INFO,
    });
    expect(await client.readResource({ uri: "memo://items/7" })).toEqual({
      contents: [{ uri: "memo://items/7", text: "item 7" }],
      ttlMs: 0,
      cacheScope: "private",
      _meta: SERVER_INFO,
    });

    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((prompt) => prompt.name)).toEqual(["greet", "tour"]);
    expect(await client.getPrompt({ name: "greet", arguments: { name: "Ada" } })).toEqual({
      messages: [{ role: "user", content: { type: "text", text: "Hello, Ada!" } }],
      _meta: SERVER_INFO,
    });
    const names = await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "A" } });
    expect(names).toEqual({ completion: { values: ["Ada", "Alan"], total: 2, hasMore: false }, _meta: SERVER_INFO });
    const ids = await client.complete({ ref: { type: "ref/resource", uri: "memo://items/{id}" }, argument: { name: "id", value: "1" } });
    expect(ids).toEqual({ completion: { values: ["1", "12"], total: 2, hasMore: false }, _meta: SERVER_INFO });

    // The hints are honoured: within their ttl, the lists and the note come from the SDK's cache, not the server.
    heard.sent.splice(0);
    expect((await client.listTools()).tools).toEqual(tools.tools);
    expect(await client.readResource({ uri: "memo://note" })).toEqual(note);
    await client.readResource({ uri: "memo://items/7" });
    expect(heard.sent).toEqual(["resources/read"]);
  });

  it("answers input_required rounds through its own elicitation, sampling and roots handlers", async () => {
    const { client, heard } = await connect(flavour);
    heard.sent.splice(0);
    const interviewed = await client.callTool({ name: "interview", arguments: {} });
    expect(interviewed).toEqual({
      content: [{ type: "text", text: "stateless: Ada asked test-model, got 42, in file:///work; sent: true" }],
      structuredContent: { era: "stateless", name: "Ada", answer: "42", sent: true },
      _meta: SERVER_INFO,
    });
    // Three inputs in the first round, the fourth (which needs the first) in the second; the answers of the first round travel in
    // requestState.
    expect(heard.asked).toEqual(["elicitation Your name?", "sampling", "roots", "elicitation Send to Ada?"]);
    expect(heard.sent).toEqual([
      "tools/call interview",
      "tools/call interview name,model,roots string",
      "tools/call interview confirm string",
    ]);

    heard.sent.splice(0);
    expect(await client.getPrompt({ name: "tour" })).toEqual({
      messages: [{ role: "user", content: { type: "text", text: "Tour file:///work" } }],
      _meta: SERVER_INFO,
    });
    expect(heard.sent).toEqual(["prompts/get tour", "prompts/get tour roots-0 string"]);
  });

  it("listens: hears list_changed when a tool is registered, resources/updated after markResourceUpdated; closes its stream", async () => {
    const { client, heard } = await connect(flavour);
    await client.listTools();
    const subscription = await client.listen({
      toolsListChanged: true,
      promptsListChanged: true,
      resourceSubscriptions: ["memo://note", "memo://café"],
    });
    expect(subscription.honoredFilter).toEqual({
      toolsListChanged: true,
      promptsListChanged: true,
      resourceSubscriptions: ["memo://note", "memo://café"],
    });

    expect(await client.callTool({ name: "add-tool", arguments: {} })).toEqual({ content: [], _meta: SERVER_INFO });
    await vi.waitFor(() => expect(heard.toolsChanged).toBe(1));
    // The notification evicted the cached list: the SDK asks again and sees the new tool.
    heard.sent.splice(0);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["count", "interview", "add-tool", "touch", "late"]);
    expect(heard.sent).toEqual(["tools/list"]);

    // Over HTTP the uri is mirrored into Mcp-Param-Resource-Uri, base64-encoded when not plain ASCII.
    expect(await client.callTool({ name: "touch", arguments: { uri: "memo://café" } })).toEqual({
      content: [{ type: "text", text: "touched memo://café" }],
      _meta: SERVER_INFO,
    });
    expect(await client.callTool({ name: "touch", arguments: { uri: "memo://elsewhere" } })).toEqual({
      content: [{ type: "text", text: "touched memo://elsewhere" }],
      _meta: SERVER_INFO,
    });
    expect(await client.callTool({ name: "touch", arguments: { uri: "memo://note" } })).toEqual({
      content: [{ type: "text", text: "touched memo://note" }],
      _meta: SERVER_INFO,
    });
    await vi.waitFor(() => expect(heard.updates).toEqual(["memo://café", "memo://note"]));

    await subscription.close();
    expect(await subscription.closed).toBe("local");
  });
});

interface LegacyHeard {
  readonly asked: string[];
  readonly updates: string[];
  toolsChanged: number;
}

/**
 * An SDK 1.x client of the 2025 session era whose answer to "Your name?" waits for `mayAnswer`; `asked` resolves once the server asked it.
 */
function legacyClient(mayAnswer: Promise<void>): { legacy: LegacyClient; heard: LegacyHeard; asked: Promise<void> } {
  const heard: LegacyHeard = { asked: [], updates: [], toolsChanged: 0 };
  let nameAsked!: () => void;
  const asked = new Promise<void>((resolve) => (nameAsked = resolve));
  const legacy = new LegacyClient(
    { name: "sdk1-session", version: "1.0.0" },
    { capabilities: { sampling: {}, elicitation: {}, roots: {} } },
  );
  legacy.setRequestHandler(ElicitRequestSchema, async (request) => {
    heard.asked.push(`elicitation ${request.params.message}`);
    if (request.params.message !== "Your name?") return { action: "decline" };
    nameAsked();
    await mayAnswer;
    return { action: "accept", content: { name: "Grace" } };
  });
  legacy.setRequestHandler(
    CreateMessageRequestSchema,
    async () => (heard.asked.push("sampling"), { role: "assistant", content: { type: "text", text: "41" }, model: "legacy-model" }),
  );
  legacy.setRequestHandler(ListRootsRequestSchema, async () => (heard.asked.push("roots"), { roots: [{ uri: "file:///legacy" }] }));
  legacy.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void heard.updates.push(notification.params.uri));
  legacy.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.toolsChanged++);
  cleanups.push(() => legacy.close());
  return { legacy, heard, asked };
}

describe("the SDK 2.x client pinned to 2026-07-28 ↔ our server over Streamable HTTP: headers", () => {
  it("lets the SDK mirror a tool's x-mcp-header argument: refused without it (-32020), it lists the tools and retries", async () => {
    const exchanges: string[] = [];
    const { client } = await connectThrough(
      new StreamableHTTPClientTransport(await served(streamableHttpHandler(dualEraServer(MCPServer)), exchanges)),
    );
    expect(await client.callTool({ name: "touch", arguments: { uri: "memo://café" } })).toEqual({
      content: [{ type: "text", text: "touched memo://café" }],
      _meta: SERVER_INFO,
    });
    expect(exchanges).toEqual(["POST server/discover 200", "POST tools/call 400", "POST tools/list 200", "POST tools/call 200"]);
  });
});

describe("one MCPServer object, both eras at once, over Streamable HTTP", () => {
  it("serves SDK 1.x session and SDK 2.x stateless clients side by side: input, list changes and resource updates cross eras", async () => {
    const server = dualEraServer(MCPServer);
    const handler = streamableHttpHandler(server);
    const exchanges: string[] = [];
    const url = await served(handler, exchanges);
    let answer!: () => void;
    const { legacy, heard: legacyHeard, asked } = legacyClient(new Promise((resolve) => (answer = resolve)));
    const legacyTransport = new LegacyHttpTransport(url);
    await legacy.connect(legacyTransport);
    expect([legacyTransport.protocolVersion, legacyTransport.sessionId]).toEqual(["2025-11-25", expect.stringMatching(/^[0-9a-f]{64}$/)]);
    // What the server sends the session on its own goes out on the client's GET stream; it is there once answered.
    await vi.waitFor(() => expect(exchanges).toContain("GET - 200"));
    const { client, heard } = await connectThrough(new StreamableHTTPClientTransport(url));
    expect(client.getProtocolEra()).toBe("modern");

    // The session client's call waits in its elicitation handler, a real request from the server, while the stateless client runs the same
    // tool through both its rounds.
    const legacyCall = legacy.callTool({ name: "interview", arguments: {} });
    await asked;
    expect(await client.callTool({ name: "interview", arguments: {} })).toMatchObject({
      structuredContent: { era: "stateless", name: "Ada", answer: "42", sent: true },
    });
    expect(heard.asked).toEqual(["elicitation Your name?", "sampling", "roots", "elicitation Send to Ada?"]);
    answer();
    expect(await legacyCall).toEqual({
      content: [{ type: "text", text: "session: Grace asked legacy-model, got 41, in file:///legacy; sent: false" }],
      structuredContent: { era: "session", name: "Grace", answer: "41", sent: false },
    });
    expect(legacyHeard.asked.toSorted()).toEqual(["elicitation Send to Grace?", "elicitation Your name?", "roots", "sampling"]);
    expect(handler.sessionCount).toBe(1);

    await legacy.subscribeResource({ uri: "memo://note" });
    const subscription = await client.listen({ toolsListChanged: true, resourceSubscriptions: ["memo://note"] });
    // The session client registers a tool: both hear of it, each in its era's way.
    await legacy.callTool({ name: "add-tool", arguments: {} });
    await vi.waitFor(() => expect([legacyHeard.toolsChanged, heard.toolsChanged]).toEqual([1, 1]));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("late");
    expect(await legacy.callTool({ name: "late", arguments: {} })).toEqual({ content: [{ type: "text", text: "late" }] });
    // The stateless client touches the note: the subscribed session and the listen stream both hear it.
    await client.callTool({ name: "touch", arguments: { uri: "memo://note" } });
    await vi.waitFor(() => expect([legacyHeard.updates, heard.updates]).toEqual([["memo://note"], ["memo://note"]]));

    // Closing the server ends the listen stream with its result: a graceful end for the SDK.
    await server.close();
    expect(await subscription.closed).toBe("graceful");
  });
});

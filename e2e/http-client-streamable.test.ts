// Our MCPClient over our Streamable HTTP client transport, against the official SDK's
// StreamableHTTPServerTransport on a real HTTP server (127.0.0.1): stateful with SSE answers,
// JSON-response mode, and resumable (SEP-1699 polling).
import { InMemoryEventStore } from "@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCPClient, MCP_CODES, type MCPClientOptions, type MCPError } from "../src/index.js";
import {
  StreamableHttpTransport,
  connectHttp,
  isSessionExpired,
  type StreamableHttpTransportOptions,
} from "../src/transport/http-client/index.js";
import { startStreamableServer, type RunningServer, type StreamableServerOptions } from "./support/sdk-http-servers.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

const CLIENT_OPTIONS: MCPClientOptions = {
  // These tests are about the session era over HTTP (its session id, GET stream, resumption): no stateless-era probe first.
  era: "session",
  telemetry: null,
  sampling: (params) => ({
    role: "assistant",
    content: { type: "text", text: `echo ${JSON.stringify(params.messages[0]?.content)}` },
    model: "test-model",
  }),
  roots: [{ uri: "file:///work", name: "work" }],
};

async function server(options: StreamableServerOptions = {}): Promise<RunningServer> {
  const running = await startStreamableServer(options);
  cleanups.push(() => running.close());
  return running;
}

async function connected(running: RunningServer, transportOptions: StreamableHttpTransportOptions = {}) {
  const transport = new StreamableHttpTransport(running.url, transportOptions);
  const client = new MCPClient({ name: "http-interop", version: "1.0.0" }, CLIENT_OPTIONS);
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport };
}

const requestsOf = (running: RunningServer, method: string) => running.probe.requests.filter((request) => request.method === method);

describe("our client ↔ the SDK's Streamable HTTP server (stateful, SSE answers)", () => {
  it("initializes a session, sends its id and the negotiated version, and opens the GET stream", async () => {
    const running = await server();
    const { client, transport } = await connected(running);
    expect(client.serverInfo?.name).toBe("sdk-http-server");
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await vi.waitFor(() => expect(requestsOf(running, "GET")).toHaveLength(1));
    await client.ping();
    const [initialize, ...later] = running.probe.requests;
    expect(initialize?.headers["mcp-session-id"]).toBeUndefined();
    for (const request of later)
      expect(request.headers).toMatchObject({ "mcp-session-id": transport.sessionId, "mcp-protocol-version": "2025-11-25" });
  });

  it("calls tools with progress, and cancels one the server is running", async () => {
    const running = await server();
    const { client } = await connected(running);
    const progress: number[] = [];
    const counted = await client.callTool("count", { to: 3 }, { onProgress: (update) => progress.push(update.progress) });
    expect(counted.content).toEqual([{ type: "text", text: "counted to 3" }]);
    expect(progress).toEqual([1, 2, 3]);
    const controller = new AbortController();
    const waiting = client.callTool("wait-for-cancel", {}, { signal: controller.signal });
    await vi.waitFor(() => expect(running.probe.started).toEqual(["wait-for-cancel"]));
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: MCP_CODES.REQUEST_CANCELLED });
    await vi.waitFor(() => expect(running.probe.cancelled).toEqual(["wait-for-cancel"]));
    await expect(client.callTool("count", { to: 1 })).resolves.toMatchObject({ content: [{ text: "counted to 1" }] });
  });

  it("reads and subscribes to a resource, and hears its update on the GET stream", async () => {
    const running = await server();
    const { client } = await connected(running);
    await vi.waitFor(() => expect(requestsOf(running, "GET")).toHaveLength(1));
    await expect(client.readResource("test://counter")).resolves.toMatchObject({ contents: [{ uri: "test://counter", text: "42" }] });
    const updates: string[] = [];
    client.on("resourceUpdated", (update) => updates.push(update.uri));
    await client.subscribeResource("test://counter");
    expect(running.probe.subscriptions).toEqual(new Set(["test://counter"]));
    await running.probe.servers[0]?.server.sendResourceUpdated({ uri: "test://counter" });
    await vi.waitFor(() => expect(updates).toEqual(["test://counter"]));
    await client.unsubscribeResource("test://counter");
    expect(running.probe.subscriptions.size).toBe(0);
  });

  it("gets prompts", async () => {
    const { client } = await connected(await server());
    expect((await client.listAllPrompts()).map((prompt) => prompt.name)).toEqual(["greet"]);
    await expect(client.getPrompt("greet", { name: "Ada" })).resolves.toMatchObject({
      messages: [{ role: "user", content: { type: "text", text: "Hello, Ada!" } }],
    });
  });

  it("answers the server's requests: on a call's stream (sampling, roots) and on the GET stream", async () => {
    const running = await server();
    const { client } = await connected(running);
    await expect(client.callTool("ask-model", { question: "hi" })).resolves.toMatchObject({
      content: [{ text: expect.stringContaining('echo {\\"type\\":\\"text\\",\\"text\\":\\"hi\\"}') }],
    });
    await expect(client.callTool("ask-roots")).resolves.toMatchObject({ content: [{ text: "file:///work" }] });
    await vi.waitFor(() => expect(requestsOf(running, "GET")).toHaveLength(1));
    await expect(running.probe.servers[0]?.server.listRoots()).resolves.toEqual({ roots: [{ uri: "file:///work", name: "work" }] });
    await expect(client.callTool("ask-model-aside")).resolves.toMatchObject({ content: [{ text: expect.stringContaining("aside") }] });
  });

  it("ends the session with DELETE on close", async () => {
    const running = await server();
    const { client, transport } = await connected(running);
    expect(running.sessions.size).toBe(1);
    await client.close();
    expect(requestsOf(running, "DELETE")).toMatchObject([{ headers: { "mcp-session-id": transport.sessionId } }]);
    await vi.waitFor(() => expect(running.sessions.size).toBe(0));
  });

  it("fails calls with a clear error, and closes, when the server ends the session", async () => {
    const running = await server();
    const { client, transport } = await connected(running, { openGetStream: false });
    let closedWith: MCPError | undefined;
    client.on("close", ({ error }) => (closedWith = error));
    await running.sessions.get(transport.sessionId as string)?.close();
    const error = (await client.ping().catch((thrown: unknown) => thrown)) as MCPError;
    expect(error.code).toBe(MCP_CODES.TRANSPORT_CLOSED);
    expect(isSessionExpired(error.cause)).toBe(true);
    expect(isSessionExpired(closedWith)).toBe(true);
    expect(client.connected).toBe(false);
    // A new client starts a new session.
    const again = await connected(running);
    expect(again.transport.sessionId).not.toBe(transport.sessionId);
  });
});

describe("our client ↔ the SDK's Streamable HTTP server: a session the server ended", () => {
  it("goes on in a new session when renewSession is on", async () => {
    const running = await server();
    const renewed: Array<string | undefined> = [];
    const { client, transport } = await connected(running, {
      renewSession: true,
      onSessionRenewed: (sessionId) => renewed.push(sessionId),
      reconnection: { initialDelayMs: 20 },
    });
    await vi.waitFor(() => expect(requestsOf(running, "GET")).toHaveLength(1));
    const first = transport.sessionId as string;
    await running.sessions.get(first)?.close();
    await client.ping();
    expect(transport.sessionId).not.toBe(first);
    expect(renewed).toEqual([transport.sessionId]);
    expect([...running.sessions.keys()]).toEqual([transport.sessionId]);
    const progress: number[] = [];
    await expect(client.callTool("count", { to: 2 }, { onProgress: (update) => progress.push(update.progress) })).resolves.toMatchObject({
      content: [{ text: "counted to 2" }],
    });
    expect(progress).toEqual([1, 2]);
    // The GET stream comes back in the new session.
    await vi.waitFor(
      () => expect(requestsOf(running, "GET").filter((get) => get.headers["mcp-session-id"] === transport.sessionId)).toHaveLength(1),
      { timeout: 3000 },
    );
    expect(client.connected).toBe(true);
  });
});

describe("our client ↔ the SDK's Streamable HTTP server (JSON-response mode)", () => {
  it("takes JSON answers for calls, cancels, and still hears the server on the GET stream", async () => {
    const running = await server({ enableJsonResponse: true });
    const { client } = await connected(running);
    await expect(client.callTool("count", { to: 2 })).resolves.toMatchObject({ content: [{ text: "counted to 2" }] });
    const posts = running.probe.requests.filter((request) => request.method === "POST");
    expect(posts.length).toBeGreaterThan(0);
    await expect(client.readResource("test://counter")).resolves.toMatchObject({ contents: [{ text: "42" }] });
    await expect(client.getPrompt("greet", { name: "Bo" })).resolves.toMatchObject({ messages: [{ content: { text: "Hello, Bo!" } }] });
    await vi.waitFor(() => expect(requestsOf(running, "GET")).toHaveLength(1));
    const updates: string[] = [];
    client.on("resourceUpdated", (update) => updates.push(update.uri));
    await client.subscribeResource("test://counter");
    await running.probe.servers[0]?.server.sendResourceUpdated({ uri: "test://counter" });
    await vi.waitFor(() => expect(updates).toEqual(["test://counter"]));
    await expect(client.callTool("ask-model-aside")).resolves.toMatchObject({ content: [{ text: expect.stringContaining("aside") }] });
    const controller = new AbortController();
    const waiting = client.callTool("wait-for-cancel", {}, { signal: controller.signal });
    await vi.waitFor(() => expect(running.probe.started).toEqual(["wait-for-cancel"]));
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: MCP_CODES.REQUEST_CANCELLED });
    await vi.waitFor(() => expect(running.probe.cancelled).toEqual(["wait-for-cancel"]));
  });
});

describe("our client ↔ the SDK's Streamable HTTP server (resumable, SEP-1699)", () => {
  it("polls a call whose stream the server closed early, with GET and Last-Event-ID after its retry, losing nothing", async () => {
    const running = await server({ eventStore: new InMemoryEventStore(), retryInterval: 20 });
    const { client } = await connected(running, { openGetStream: false });
    const progress: number[] = [];
    await expect(client.callTool("poll", {}, { onProgress: (update) => progress.push(update.progress) })).resolves.toMatchObject({
      content: [{ text: "polled" }],
    });
    expect(progress).toEqual([1, 2]);
    const resumes = requestsOf(running, "GET");
    expect(resumes.length).toBeGreaterThan(0);
    for (const resume of resumes) expect(resume.headers["last-event-id"]).toEqual(expect.any(String));
  });

  it("is what connectHttp picks for a Streamable HTTP server", async () => {
    const running = await server();
    const client = new MCPClient({ name: "http-interop", version: "1.0.0" }, CLIENT_OPTIONS);
    const transport = await connectHttp(client, running.url);
    cleanups.push(() => client.close());
    expect(transport).toBeInstanceOf(StreamableHttpTransport);
    await expect(client.callTool("count", { to: 1 })).resolves.toMatchObject({ content: [{ text: "counted to 1" }] });
  });
});

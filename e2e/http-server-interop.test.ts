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
import { MCPServer, type HandlerContext } from "../src/index.js";
import { serveHttp } from "../src/node/index.js";
import {
  InMemoryEventStore,
  sseHttpHandler,
  streamableHttpHandler,
  type HttpHandler,
  type StoredEvent,
  type StreamRef,
  type StreamableHttpHandler,
  type StreamableHttpOptions,
} from "../src/transport/http-server/index.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

interface Progress {
  readonly progress: number;
  readonly message?: string | undefined;
}

/** Values in the order they came; `until` resolves as soon as they satisfy a condition. */
class Log<T> {
  readonly values: T[] = [];
  readonly #waiters = new Set<() => void>();

  push(value: T): void {
    this.values.push(value);
    for (const waiter of this.#waiters) waiter();
  }

  until(holds: (values: readonly T[]) => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (!holds(this.values)) return;
        this.#waiters.delete(check);
        resolve();
      };
      this.#waiters.add(check);
      check();
    });
  }
}

/** The default event store, logging what each GET with Last-Event-ID resumes after: that event's data ("" for a priming event). */
class ResumeLog extends InMemoryEventStore {
  readonly resumedAfter = new Log<string>();
  readonly #data = new Map<string, string>();

  override append(stream: StreamRef, event: StoredEvent): void {
    this.#data.set(event.id, event.data);
    super.append(stream, event);
  }

  override eventsAfter(stream: StreamRef, eventId: string): readonly StoredEvent[] | undefined {
    this.resumedAfter.push(this.#data.get(eventId) ?? "");
    return super.eventsAfter(stream, eventId);
  }
}

/** What the server saw happen and what the client heard, for the tools to wait on and the assertions the client cannot make. */
interface Observed {
  readonly cancelled: string[];
  /** Calls of `hold` the server entered. */
  holding: number;
  /** Progress the tools sent to a client that asked for it. */
  sent: number;
  /** Progress the client heard (through `Connected.onprogress`). */
  readonly heard: Log<Progress>;
  readonly events: ResumeLog;
}

async function report(ctx: HandlerContext, observed: Observed, progress: number, total: number, message: string): Promise<void> {
  await ctx.progress(progress, total, message);
  if (ctx.meta?.["progressToken"] !== undefined) observed.sent++;
}

/**
 * A tool answers once the client heard all its progress: the SDK's legacy SSE client handles a
 * notification a microtask after a response read in the same chunk, and with JSON answers progress
 * comes on another connection than the answer; either way it could find its handler gone.
 */
function heardAll(observed: Observed): Promise<void> {
  return observed.heard.until((heard) => heard.length === observed.sent);
}

function interopServer(observed: Observed, handlerRef: { current?: StreamableHttpHandler }): MCPServer {
  const server = new MCPServer({ name: "interop-http", version: "1.0.0" });
  server.tool("count", { inputSchema: z.object({ to: z.number().int() }) }, async ({ to }, ctx) => {
    for (let step = 1; step <= to; step++) await report(ctx, observed, step, to, `counted ${step}`);
    await heardAll(observed);
    return { content: [{ type: "text", text: `counted to ${to}` }] };
  });
  server.tool("hold", {}, async (_args, ctx) => {
    observed.holding++;
    await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
    observed.cancelled.push(String(ctx.signal.reason instanceof Error ? ctx.signal.reason.message : ctx.signal.reason));
    return { content: [{ type: "text", text: "too late" }] };
  });
  server.tool("ask-model", {}, async (_args, ctx) => {
    const answer = await ctx.createMessage({ messages: [{ role: "user", content: { type: "text", text: "6 x 7?" } }], maxTokens: 5 });
    return { content: [{ type: "text", text: `model: ${(answer.content as { text: string }).text}` }] };
  });
  server.tool("ask-user", {}, async (_args, ctx) => {
    const answer = await ctx.elicitInput({
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    return { content: [{ type: "text", text: `user: ${answer.action} ${JSON.stringify(answer.content)}` }] };
  });
  server.tool("roots", {}, async (_args, ctx) => ({
    content: [{ type: "text", text: (await ctx.listRoots()).roots.map((root) => root.uri).join(",") }],
  }));
  server.tool("poll-me", {}, async (_args, ctx) => {
    await report(ctx, observed, 1, 2, "before the poll");
    const closed = await handlerRef.current?.closeSSEStream(ctx.session?.id ?? "", ctx.requestId);
    // Sent while the client is away: it comes with the replay when the client polls back.
    await report(ctx, observed, 2, 2, "after the poll");
    await heardAll(observed);
    return { content: [{ type: "text", text: `stream closed mid-call: ${closed}` }] };
  });
  // Outlasts maxSseConnectionMs: goes on once the client came back for this call's stream, which the server cut.
  server.tool("outlast", {}, async (_args, ctx) => {
    await report(ctx, observed, 1, 2, "before the cut");
    await observed.events.resumedAfter.until((resumed) => resumed.some((data) => data.includes("before the cut")));
    // At once: the SDK client resumes a stream cut again only if that connection brought an event id.
    await report(ctx, observed, 2, 2, "after the cut");
    await heardAll(observed);
    return { content: [{ type: "text", text: "outlasted the connection" }] };
  });
  server.resource("config", "config://app", { mimeType: "application/json" }, (uri) => ({ contents: [{ uri, text: '{"mode":"dark"}' }] }));
  server.prompt("greet", { arguments: { name: { required: true } } }, ({ name }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Hello, ${name}!` } }],
  }));
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
  /** The `onprogress` of a call: what it hears goes to `observed.heard`. */
  readonly onprogress: (update: Progress) => void;
}

async function connect(flavour: Flavour, options: StreamableHttpOptions = {}): Promise<Connected> {
  const observed: Observed = { cancelled: [], holding: 0, sent: 0, heard: new Log(), events: new ResumeLog() };
  const handlerRef: { current?: StreamableHttpHandler } = {};
  const server = interopServer(observed, handlerRef);
  let handler: HttpHandler;
  if (flavour === "legacy-sse") handler = sseHttpHandler(server);
  else {
    const streamable = streamableHttpHandler(server, {
      eventStore: observed.events,
      ...options,
      ...(flavour === "streamable-json" ? { enableJsonResponse: true } : {}),
    });
    handlerRef.current = streamable;
    handler = streamable;
  }
  const exchanges: string[] = [];
  const served = await serveHttp(
    async (request) => {
      const response = await handler.fetch(request);
      exchanges.push(`${request.method} ${response.status}${request.headers.has("last-event-id") ? " resume" : ""}`);
      return response;
    },
    { port: 0 },
  );
  cleanups.push(async () => {
    await handler.close();
    await served.close();
  });
  const url = new URL(served.url);
  const transport = flavour === "legacy-sse" ? new SSEClientTransport(url) : new StreamableHTTPClientTransport(url);
  const client = new Client(
    { name: "sdk-interop", version: "1.0.0" },
    { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: "assistant",
    content: { type: "text", text: "42" },
    model: "interop-model",
  }));
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
  const notifications = { updated: [] as string[], logs: [] as unknown[], toolsChanged: 0 };
  client.setNotificationHandler(
    ResourceUpdatedNotificationSchema,
    (notification) => void notifications.updated.push(notification.params.uri),
  );
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void notifications.logs.push(notification.params.data));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void notifications.toolsChanged++);
  await client.connect(transport);
  cleanups.push(() => client.close());
  const onprogress = ({ progress, message }: Progress): void => observed.heard.push({ progress, message });
  return { client, transport, server, handler, observed, notifications, exchanges, onprogress };
}

/** The GETs that resumed a stream, with their status. */
function resumes(connected: Connected): string[] {
  return connected.exchanges.filter((exchange) => exchange.endsWith("resume"));
}

/** Server-initiated traffic needs the client's GET stream (Streamable HTTP); wait until it is there. */
async function untilListening(connected: Connected): Promise<void> {
  await expect
    .poll(async () => {
      await connected.server.log("debug", "probe");
      return connected.notifications.logs.length;
    })
    .toBeGreaterThan(0);
}

describe.each<Flavour>(["streamable", "streamable-json", "legacy-sse"])("the SDK client over %s", (flavour) => {
  it("calls tools with progress, and cancels one the server is still working on", async () => {
    const connected = await connect(flavour);
    const { client } = connected;
    // In JSON mode, what a tool sends before its answer travels on the client's GET stream.
    if (flavour === "streamable-json") await untilListening(connected);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "count",
      "hold",
      "ask-model",
      "ask-user",
      "roots",
      "poll-me",
      "outlast",
    ]);
    const result = await client.callTool({ name: "count", arguments: { to: 3 } }, undefined, { onprogress: connected.onprogress });
    expect(result.content).toEqual([{ type: "text", text: "counted to 3" }]);
    expect(connected.observed.heard.values.map((update) => update.progress)).toEqual([1, 2, 3]);
    const abort = new AbortController();
    const held = client.callTool({ name: "hold" }, undefined, { signal: abort.signal });
    await expect.poll(() => connected.observed.holding).toBe(1);
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
    expect((await client.getPrompt({ name: "greet", arguments: { name: "Ada" } })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Hello, Ada!" } },
    ]);
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
    const connected = await connect("streamable", { retryMs: 20 });
    const result = await connected.client.callTool({ name: "poll-me" }, undefined, { onprogress: connected.onprogress });
    expect(result.content).toEqual([{ type: "text", text: "stream closed mid-call: true" }]);
    expect(connected.observed.heard.values.map((update) => update.message)).toEqual(["before the poll", "after the poll"]);
    expect(resumes(connected)).toEqual(["GET 200 resume"]);
  });

  it("polls through every answer when the server limits each SSE connection (maxSseConnectionMs)", async () => {
    const connected = await connect("streamable", { retryMs: 10, maxSseConnectionMs: 40 });
    const { client, observed } = connected;
    // The GET stream outlives the limit: the server cuts it, and the client comes back after its priming event.
    await expect.poll(() => observed.events.resumedAfter.values.length).toBeGreaterThan(0);
    expect(observed.events.resumedAfter.values[0]).toBe("");
    expect(resumes(connected)[0]).toBe("GET 200 resume");
    expect(
      (await client.callTool({ name: "count", arguments: { to: 2 } }, undefined, { onprogress: connected.onprogress })).content,
    ).toEqual([{ type: "text", text: "counted to 2" }]);
    expect((await client.callTool({ name: "ask-model" })).content).toEqual([{ type: "text", text: "model: 42" }]);
    // A call that outlives the limit: its POST stream is cut too, and the client polls the rest back.
    expect((await client.callTool({ name: "outlast" }, undefined, { onprogress: connected.onprogress })).content).toEqual([
      { type: "text", text: "outlasted the connection" },
    ]);
    expect(observed.heard.values).toEqual([
      { progress: 1, message: "counted 1" },
      { progress: 2, message: "counted 2" },
      { progress: 1, message: "before the cut" },
      { progress: 2, message: "after the cut" },
    ]);
  });

  it("a cancelled call's stream ends; the client polls it back once and is told (204) that nothing more will come", async () => {
    const connected = await connect("streamable", { retryMs: 20 });
    const abort = new AbortController();
    const held = connected.client.callTool({ name: "hold" }, undefined, { signal: abort.signal });
    await expect.poll(() => connected.observed.holding).toBe(1);
    abort.abort(new Error("stop"));
    await expect(held).rejects.toThrow("stop");
    await expect.poll(() => resumes(connected)).toEqual(["GET 204 resume"]);
    // The poll that was told 204 is not repeated: a later exchange comes after it alone.
    await expect(connected.client.ping()).resolves.toEqual({});
    expect(connected.exchanges.slice(connected.exchanges.indexOf("GET 204 resume"))).toEqual(["GET 204 resume", "POST 200"]);
  });

  it("ends the session with DELETE when the client terminates it", async () => {
    const { transport, handler } = await connect("streamable");
    expect(handler.sessionCount).toBe(1);
    await (transport as StreamableHTTPClientTransport).terminateSession();
    expect(handler.sessionCount).toBe(0);
  });

  it("serves the SDK client in stateless mode: tools, resources and prompts, no session kept", async () => {
    const connected = await connect("streamable", { sessions: "stateless" });
    const { client, handler, transport } = connected;
    expect((transport as StreamableHTTPClientTransport).sessionId).toBeUndefined();
    expect(
      (await client.callTool({ name: "count", arguments: { to: 2 } }, undefined, { onprogress: connected.onprogress })).content,
    ).toEqual([{ type: "text", text: "counted to 2" }]);
    expect(connected.observed.heard.values.map((update) => update.progress)).toEqual([1, 2]);
    expect((await client.readResource({ uri: "config://app" })).contents).toHaveLength(1);
    expect((await client.getPrompt({ name: "greet", arguments: { name: "Bo" } })).messages).toHaveLength(1);
    await expect.poll(() => handler.sessionCount).toBe(0);
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { ServerSession } from "../../server/mcp-server/session.js";
import type { TransportReceiver } from "../transport/transport.types.js";
import type { EventStore, StreamRef } from "./event-store.js";
import type { HttpHandler } from "./http-server.types.js";
import {
  Gate,
  SseReader,
  errorOf,
  httpRequest,
  initializeMessage,
  messagesOf,
  notification,
  openSession,
  rpc,
  testServer,
} from "./http-server.test-helpers.js";
import { InMemoryEventStore, sseHttpHandler, streamableHttpHandler } from "./index.js";
import { LegacySseTransport } from "./legacy-sse-transport.js";
import { eventStreamOf } from "./fetch-exchange.js";
import { OutboundStream, type StreamSettings } from "./outbound-stream.js";
import { SessionRegistry } from "./session-registry.js";
import { HttpSessionTransport } from "./session-transport.js";

const handlers: HttpHandler[] = [];
afterEach(async () => {
  for (const handler of handlers.splice(0)) await handler.close();
});

const ref = (sessionId: string, streamId: string): StreamRef => ({ sessionId, streamId });

function receiver(): TransportReceiver & { closed: number; messages: unknown[] } {
  const state = { closed: 0, messages: [] as unknown[] };
  return Object.assign(state, {
    onMessage: (message: unknown) => void state.messages.push(message),
    onMalformed: () => undefined,
    onClose: () => void state.closed++,
  });
}

function sessionTransport(events?: StreamSettings["events"]): HttpSessionTransport {
  return new HttpSessionTransport("session-1", {
    events,
    keepAliveMs: 0,
    retryMs: 1000,
    maxConnectionMs: undefined,
    onActivity: () => undefined,
  });
}

describe("HttpSessionTransport: the Transport contract", () => {
  it("starts once, and not after close", async () => {
    const transport = sessionTransport();
    await transport.start(receiver());
    await expect(transport.start(receiver())).rejects.toMatchObject({ code: "MCP.ALREADY_CONNECTED" });
    const closed = sessionTransport();
    await closed.close();
    await expect(closed.start(receiver())).rejects.toMatchObject({ code: "MCP.TRANSPORT_CLOSED" });
  });

  it("rejects sends after close and messages with no JSON form; closes once", async () => {
    const transport = sessionTransport();
    const peer = receiver();
    await transport.start(peer);
    await expect(transport.send({ jsonrpc: "2.0", method: "x", params: { big: 1n } })).rejects.toMatchObject({
      code: "MCP.TRANSPORT_ERROR",
      message: expect.stringContaining("not serialisable"),
    });
    await transport.close();
    await transport.close();
    expect(peer.closed).toBe(1);
    await expect(transport.send({ jsonrpc: "2.0", method: "x" })).rejects.toMatchObject({ code: "MCP.TRANSPORT_CLOSED" });
  });

  it("routes each member of a batch; drops what nobody waits for; fails a request that has nowhere to go", async () => {
    const transport = sessionTransport();
    await transport.start(receiver());
    const stream = new SseReader(eventStreamOf(transport.openRequestStream([1, 2], false)));
    await transport.send([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
    expect(await stream.rest()).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
    await expect(transport.send({ jsonrpc: "2.0", id: 3, result: {} })).resolves.toBeUndefined();
    await expect(transport.send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })).resolves.toBeUndefined();
    await expect(transport.send({ jsonrpc: "2.0", method: "notifications/progress" }, { relatedRequestId: 1 })).resolves.toBeUndefined();
    await expect(transport.send({ jsonrpc: "2.0", id: 9, method: "roots/list" }, { relatedRequestId: 1 })).rejects.toMatchObject({
      code: "MCP.TRANSPORT_ERROR",
      message: expect.stringContaining("is over"),
    });
  });

  it("routes by the kind its sender gives, without classifying the message again", async () => {
    const transport = sessionTransport();
    await transport.start(receiver());
    const stream = new SseReader(eventStreamOf(transport.openRequestStream([1], false)));
    // Told it is a notification about request 1, a response-shaped message rides on that request's stream and answers nothing.
    await transport.send({ jsonrpc: "2.0", id: 1, result: { first: true } }, { kind: "notification", relatedRequestId: 1 });
    await transport.send({ jsonrpc: "2.0", id: 1, result: {} }, { kind: "response" });
    expect(await stream.rest()).toEqual([
      { jsonrpc: "2.0", id: 1, result: { first: true } },
      { jsonrpc: "2.0", id: 1, result: {} },
    ]);
    await expect(transport.send({ jsonrpc: "2.0", method: "roots/list" }, { kind: "request", relatedRequestId: 1 })).rejects.toMatchObject({
      code: "MCP.TRANSPORT_ERROR",
    });
  });

  it("closes cleanly even when the event store fails to forget the session", async () => {
    const failing: EventStore = {
      append: () => undefined,
      eventsAfter: () => undefined,
      dropSession: () => Promise.reject(new Error("store offline")),
    };
    const transport = sessionTransport({ store: failing, sessionId: "session-1" });
    const peer = receiver();
    await transport.start(peer);
    await expect(transport.close()).resolves.toBeUndefined();
    expect(peer.closed).toBe(1);
  });
});

function settingsWith(store: EventStore): StreamSettings {
  return { events: { store, sessionId: "s" }, keepAliveMs: 0, retryMs: 1000, maxConnectionMs: undefined };
}

describe("OutboundStream with a store that fails or is slow", () => {
  it("sends what the store fails to keep, with its id, and refuses a resume across that hole", async () => {
    const memory = new InMemoryEventStore();
    let down = false;
    const flaky: EventStore = {
      append: (where, event) => (down ? Promise.reject(new Error("disk full")) : memory.append(where, event)),
      eventsAfter: (where, id) => memory.eventsAfter(where, id),
      dropSession: () => undefined,
    };
    const stream = new OutboundStream("1", settingsWith(flaky), [1, 2], () => undefined);
    const reader = new SseReader(eventStreamOf(stream.connect(true)));
    expect(await reader.next()).toMatchObject({ id: "1_0" });
    await stream.forward('{"jsonrpc":"2.0","method":"a"}', false);
    down = true;
    await expect(stream.forward('{"jsonrpc":"2.0","method":"b"}', false)).resolves.toBeUndefined();
    down = false;
    await stream.forward('{"jsonrpc":"2.0","method":"c"}', false);
    expect((await reader.next())?.id).toBe("1_1");
    expect((await reader.next())?.id).toBe("1_2");
    expect((await reader.next())?.id).toBe("1_3");
    expect(memory.eventsAfter(ref("s", "1"), "1_1")?.map((event) => event.id)).toEqual(["1_3"]);
    await expect(stream.resume("1_1")).resolves.toBeUndefined();
    await expect(stream.resume("1_0")).resolves.toBeUndefined();
    const resumed = await stream.resume("1_3");
    expect(resumed).toBeDefined();
  });

  it("writes nothing to a connection its client left before the priming event was stored", async () => {
    const memory = new InMemoryEventStore();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow: EventStore = {
      append: async (where, event) => (await held, memory.append(where, event)),
      eventsAfter: (where, id) => memory.eventsAfter(where, id),
      dropSession: () => undefined,
    };
    const events: string[] = [];
    const stream = new OutboundStream("1", settingsWith(slow), [1], (_stream, event) => events.push(event));
    const body = eventStreamOf(stream.connect(true));
    await body.cancel();
    release();
    await stream.respond(1, '{"jsonrpc":"2.0","id":1,"result":{}}');
    await expect.poll(() => events).toEqual(["client-gone", "answered"]);
    expect(memory.eventsAfter(ref("s", "1"), "1_0")).toEqual([{ id: "1_1", data: '{"jsonrpc":"2.0","id":1,"result":{}}' }]);
  });
});

describe("LegacySseTransport: the Transport contract", () => {
  it("starts once, rejects sends after close and messages with no JSON form, closes once", async () => {
    const transport = new LegacySseTransport("legacy-1", 0);
    const peer = receiver();
    await transport.start(peer);
    await expect(transport.start(receiver())).rejects.toMatchObject({ code: "MCP.ALREADY_CONNECTED" });
    await expect(transport.send({ value: 1n })).rejects.toMatchObject({ code: "MCP.TRANSPORT_ERROR" });
    await transport.close();
    await transport.close();
    expect(peer.closed).toBe(1);
    await expect(transport.send({ jsonrpc: "2.0", method: "x" })).rejects.toMatchObject({ code: "MCP.TRANSPORT_CLOSED" });
  });
});

describe("SessionRegistry", () => {
  it("closes a session that finished opening after the registry was closed, and refuses it", async () => {
    let finishStart!: () => void;
    const server = new MCPServer({ name: "slow", version: "1" });
    const slowServer = {
      start: async (transport: LegacySseTransport): Promise<ServerSession> => (
        await new Promise<void>((resolve) => (finishStart = resolve)),
        server.start(transport)
      ),
    };
    const registry = new SessionRegistry<LegacySseTransport>(slowServer, { maxSessions: 10, idleTimeoutMs: Infinity });
    const opening = registry.open("x", new LegacySseTransport("x", 0), undefined);
    expect(registry.size).toBe(1);
    await registry.closeAll();
    finishStart();
    expect(await opening).toBeUndefined();
    await expect.poll(() => server.sessions.size).toBe(0);
    expect(registry.size).toBe(0);
  });
});

describe("edge cases of the handlers", () => {
  it("refuses a declared Content-Length over the limit unread", async () => {
    const handler = streamableHttpHandler(testServer(), { maxBodyBytes: 10 });
    handlers.push(handler);
    const response = await handler.fetch(httpRequest({ body: rpc(1, "ping"), headers: { "content-length": "5000" } }));
    expect(response.status).toBe(413);
  });

  it("ignores a notifications/cancelled that names no request", async () => {
    const handler = streamableHttpHandler(testServer());
    handlers.push(handler);
    const session = await openSession(handler);
    expect((await handler.fetch(httpRequest({ body: notification("notifications/cancelled", { reason: "no id" }), session }))).status).toBe(
      202,
    );
    expect(await messagesOf(await handler.fetch(httpRequest({ body: rpc(1, "ping"), session })))).toMatchObject([{ id: 1 }]);
  });

  it("refuses a bad body in stateless mode too", async () => {
    const handler = streamableHttpHandler(testServer(), { sessions: "stateless" });
    handlers.push(handler);
    const response = await handler.fetch(httpRequest({ body: "{" }));
    expect(await errorOf(response)).toMatchObject({ code: -32700 });
  });

  it("serves the legacy stream on the configured path, posting to that path when no endpoint is set", async () => {
    const handler = sseHttpHandler(testServer(), { path: "/events" });
    handlers.push(handler);
    const stream = new SseReader(
      (await handler.fetch(new Request("http://127.0.0.1/events", { headers: { accept: "text/event-stream" } }))).body,
    );
    expect((await stream.next())?.data).toMatch(/^\/events\?sessionId=/);
    await stream.cancel();
  });

  it("replays a later priming event when the GET stream was reopened in between", async () => {
    const handler = streamableHttpHandler(testServer());
    handlers.push(handler);
    const session = await openSession(handler);
    const first = new SseReader((await handler.fetch(httpRequest({ method: "GET", session }))).body);
    const firstPriming = await first.next();
    await first.cancel();
    const second = new SseReader((await handler.fetch(httpRequest({ method: "GET", session }))).body);
    const secondPriming = await second.next();
    await second.cancel();
    const resumed = new SseReader(
      (await handler.fetch(httpRequest({ method: "GET", session, headers: { "last-event-id": firstPriming?.id as string } }))).body,
    );
    expect(await resumed.next()).toEqual({ id: secondPriming?.id, data: "" });
    await resumed.cancel();
  });

  it("sends no priming event on a stream opened before initialize was answered", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const gate = new Gate();
    const handler = streamableHttpHandler(
      testServer(gate, { authorize: async ({ method }) => (method === "initialize" ? (await held, true) : true) }),
    );
    handlers.push(handler);
    const init = await handler.fetch(httpRequest({ body: initializeMessage() }));
    const session = init.headers.get("mcp-session-id") as string;
    const early = await handler.fetch(httpRequest({ body: rpc(1, "ping"), session }));
    release();
    expect(await messagesOf(init)).toMatchObject([{ id: 0, result: {} }]);
    // Its only event is its answer, and its client holds no id of it: nothing could resume it, so the answer has no id.
    expect(await new SseReader(early.body).allEvents()).toEqual([{ event: "message", data: expect.stringContaining('"id":1') }]);
  });
});

describe("a JSON-answered POST whose client left before its messages were handed on", () => {
  it("is answered at once, and its stateless session closed, without waiting for the tool", async () => {
    const gate = new Gate();
    const handler = streamableHttpHandler(testServer(gate), { sessions: "stateless", enableJsonResponse: true });
    const left = new AbortController();
    left.abort();
    const response = await handler.fetch(httpRequest({ body: rpc(1, "tools/call", { name: "wait", arguments: {} }), signal: left.signal }));
    expect(response.status).toBe(404);
    await expect.poll(() => handler.sessionCount).toBe(0);
    gate.open();
    await handler.close();
  });
});

import { afterEach, describe, expect, it, vi } from "vitest";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { StoredEvent, StreamRef } from "./event-store.js";
import type { StreamableHttpHandler, StreamableHttpOptions } from "./http-server.types.js";
import { Gate, SseReader, httpRequest, messagesOf, openSession, rpc, type SseEventRead } from "./http-server.test-helpers.js";
import { InMemoryEventStore, streamableHttpHandler } from "./index.js";

const handlers: StreamableHttpHandler[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const handler of handlers.splice(0)) await handler.close();
});

/** A server whose `relay` tool reports progress 1, waits for the gate, then reports 2 and 3 and answers. */
function relayServer(gate: Gate, failures: unknown[] = []): MCPServer {
  const server = new MCPServer({ name: "relay", version: "1.0.0" });
  server.tool("relay", {}, async (_args, ctx) => {
    await ctx.progress(1, 3);
    gate.entered++;
    await gate.opened;
    await ctx.progress(2, 3);
    await ctx.progress(3, 3);
    try {
      await ctx.createMessage(
        { messages: [{ role: "user", content: { type: "text", text: "still there?" } }], maxTokens: 1 },
        { timeoutMs: 1000 },
      );
    } catch (error) {
      failures.push(error);
    }
    return { content: [{ type: "text", text: "relayed" }] };
  });
  return server;
}

function handlerOf(gate: Gate, options: StreamableHttpOptions = {}, failures: unknown[] = []): StreamableHttpHandler {
  const handler = streamableHttpHandler(relayServer(gate, failures), options);
  handlers.push(handler);
  return handler;
}

const relayCall = (id: number) => rpc(id, "tools/call", { name: "relay", _meta: { progressToken: `t${id}` } });
const progressOf = (event: SseEventRead | undefined) =>
  (JSON.parse(event?.data ?? "{}") as { params?: { progress?: number } }).params?.progress;

describe("resumption with Last-Event-ID", () => {
  it("replays what a dropped POST stream missed — nothing lost, nothing twice — and ends it after the response", async () => {
    const gate = new Gate();
    const failures: unknown[] = [];
    const handler = handlerOf(gate, {}, failures);
    const session = await openSession(handler);
    const first = new SseReader((await handler.fetch(httpRequest({ body: relayCall(1), session }))).body);
    const priming = await first.next();
    expect(priming).toEqual({ id: expect.stringMatching(/_0$/), retry: 1000, data: "" });
    const one = await first.next();
    expect(progressOf(one)).toBe(1);
    await first.cancel();
    gate.open();
    // The tool runs to its end (its sampling attempt fails: no capability) while nobody is connected.
    await expect.poll(() => failures.length).toBe(1);
    const resumed = await handler.fetch(httpRequest({ method: "GET", session, headers: { "last-event-id": one?.id as string } }));
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get("content-type")).toBe("text/event-stream");
    const rest = await new SseReader(resumed.body).allEvents();
    expect(rest.map((event) => progressOf(event) ?? JSON.parse(event.data as string).result?.content[0].text)).toEqual([2, 3, "relayed"]);
    expect(new Set([priming?.id, one?.id, ...rest.map((event) => event.id)]).size).toBe(5);
  });

  it("resumes again and again: each connection picks up after the last event it saw", async () => {
    const gate = new Gate();
    const handler = handlerOf(gate);
    const session = await openSession(handler);
    const first = new SseReader((await handler.fetch(httpRequest({ body: relayCall(1), session }))).body);
    await first.next();
    const one = await first.next();
    await first.cancel();
    const again = new SseReader(
      (await handler.fetch(httpRequest({ method: "GET", session, headers: { "last-event-id": one?.id as string } }))).body,
    );
    gate.open();
    const two = await again.next();
    expect(progressOf(two)).toBe(2);
    await again.cancel();
    const last = await handler.fetch(httpRequest({ method: "GET", session, headers: { "last-event-id": two?.id as string } }));
    expect(
      (await messagesOf(last)).map((message) => (message as { params?: { progress: number } }).params?.progress ?? message["id"]),
    ).toEqual([3, 1]);
  });

  it("lets a client take its stream over while the old connection still looks open", async () => {
    const gate = new Gate();
    const handler = handlerOf(gate);
    const session = await openSession(handler);
    const old = new SseReader((await handler.fetch(httpRequest({ body: relayCall(1), session }))).body);
    const priming = await old.next();
    await old.next();
    const taken = new SseReader(
      (await handler.fetch(httpRequest({ method: "GET", session, headers: { "last-event-id": priming?.id as string } }))).body,
    );
    expect(progressOf(await taken.next())).toBe(1);
    expect(await old.next()).toBeUndefined();
    gate.open();
    expect((await taken.rest()).map((message) => message["id"] ?? (message as { params: { progress: number } }).params.progress)).toEqual([
      2, 3, 1,
    ]);
  });

  it("resumes the GET stream too: what the server sent while it was gone is replayed, then it goes on live", async () => {
    const server = relayServer(new Gate());
    const handler = streamableHttpHandler(server);
    handlers.push(handler);
    const session = await openSession(handler);
    const get = new SseReader((await handler.fetch(httpRequest({ method: "GET", session }))).body);
    const priming = await get.next();
    await get.cancel();
    await server.log("info", "while away 1");
    await server.log("info", "while away 2");
    const back = new SseReader(
      (await handler.fetch(httpRequest({ method: "GET", session, headers: { "last-event-id": priming?.id as string } }))).body,
    );
    expect((await back.nextMessage())?.["params"]).toMatchObject({ data: "while away 1" });
    expect((await back.nextMessage())?.["params"]).toMatchObject({ data: "while away 2" });
    await server.log("info", "live again");
    expect((await back.nextMessage())?.["params"]).toMatchObject({ data: "live again" });
    expect((await handler.fetch(httpRequest({ method: "GET", session }))).status).toBe(409);
    await back.cancel();
  });

  it("400 for a Last-Event-ID it never issued, or whose events the store no longer holds", async () => {
    const gate = new Gate();
    const store = new InMemoryEventStore({ maxEvents: 2 });
    const handler = handlerOf(gate, { eventStore: store });
    const session = await openSession(handler);
    for (const id of ["nonsense", "_1", "ffffffff.9_0"]) {
      const response = await handler.fetch(httpRequest({ method: "GET", session, headers: { "last-event-id": id } }));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining("unknown or expired") } });
    }
    const call = new SseReader((await handler.fetch(httpRequest({ body: relayCall(1), session }))).body);
    const priming = await call.next();
    gate.open();
    await call.rest();
    expect(store.size).toBe(2);
    expect((await handler.fetch(httpRequest({ method: "GET", session, headers: { "last-event-id": priming?.id as string } }))).status).toBe(
      400,
    );
  });

  it.each(["2024-11-05", "2025-03-26", "2025-06-18"])(
    "sends no priming event to %s clients, nor ends their streams to poll, but still ids every message",
    async (version) => {
      const gate = new Gate();
      const handler = handlerOf(gate, { maxSseConnectionMs: 1 });
      const session = await openSession(handler, version);
      const reader = new SseReader((await handler.fetch(httpRequest({ body: relayCall(1), session }))).body);
      const first = await reader.next();
      expect(await handler.closeSSEStream(session, 1)).toBe(false);
      gate.open();
      const events = [first as SseEventRead, ...(await reader.allEvents())];
      expect(events.every((event) => event.data !== "" && event.id !== undefined && event.event === "message")).toBe(true);
      expect(events).toHaveLength(4);
    },
  );

  it("keeps order with a store that answers asynchronously", async () => {
    const gate = new Gate();
    gate.open();
    const memory = new InMemoryEventStore();
    const slow = {
      append: async (ref: StreamRef, event: StoredEvent) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        memory.append(ref, event);
      },
      eventsAfter: async (ref: StreamRef, id: string) => memory.eventsAfter(ref, id),
      dropSession: async (id: string) => memory.dropSession(id),
    };
    const handler = handlerOf(gate, { eventStore: slow });
    const session = await openSession(handler);
    const messages = await messagesOf(await handler.fetch(httpRequest({ body: relayCall(1), session })));
    expect(messages.map((message) => (message as { params?: { progress: number } }).params?.progress ?? "response")).toEqual([
      1,
      2,
      3,
      "response",
    ]);
  });
});

describe("without an event store", () => {
  it("drops what a gone POST stream would have carried and fails its server-to-client requests at once", async () => {
    const gate = new Gate();
    const failures: unknown[] = [];
    const handler = handlerOf(gate, { eventStore: false }, failures);
    const session = await openSession(handler, "2025-11-25", { sampling: {} });
    const call = new SseReader((await handler.fetch(httpRequest({ body: relayCall(1), session }))).body);
    const first = await call.next();
    expect(first?.id).toBeUndefined();
    expect(progressOf(first)).toBe(1);
    await call.cancel();
    gate.open();
    await expect
      .poll(() => failures)
      .toEqual([expect.objectContaining({ code: "MCP.TRANSPORT_ERROR", message: expect.stringContaining("stream for it is gone") })]);
    expect(await handler.closeSSEStream(session)).toBe(false);
  });
});

describe("SEP-1699: the server ends a stream, the client polls it back", () => {
  it("closeSSEStream ends a POST stream after a retry field; the request goes on and its answer waits for the client", async () => {
    const gate = new Gate();
    const handler = handlerOf(gate, { retryMs: 250 });
    const session = await openSession(handler);
    const call = new SseReader((await handler.fetch(httpRequest({ body: relayCall(4), session }))).body);
    expect(await call.next()).toMatchObject({ retry: 250, data: "" });
    const one = await call.next();
    expect(await handler.closeSSEStream(session, 4)).toBe(true);
    expect(await call.allEvents()).toEqual([{ retry: 250 }]);
    gate.open();
    const back = await handler.fetch(httpRequest({ method: "GET", session, headers: { "last-event-id": one?.id as string } }));
    expect((await messagesOf(back)).at(-1)).toMatchObject({ id: 4, result: { content: [{ text: "relayed" }] } });
  });

  it("closes nothing it could not resume: unknown session or request, no cursor without a store", async () => {
    const gate = new Gate();
    const handler = handlerOf(gate, { eventStore: false });
    const session = await openSession(handler);
    const call = new SseReader((await handler.fetch(httpRequest({ body: relayCall(1), session }))).body);
    await call.next();
    expect(await handler.closeSSEStream(session, 1)).toBe(false);
    expect(await handler.closeSSEStream(session, 999)).toBe(false);
    expect(await handler.closeSSEStream("no-such-session", 1)).toBe(false);
    gate.open();
    expect((await call.rest()).at(-1)).toMatchObject({ id: 1 });
  });

  it("closeSSEStream without a request id ends the GET stream, which the client resumes", async () => {
    const server = relayServer(new Gate());
    const handler = streamableHttpHandler(server);
    handlers.push(handler);
    const session = await openSession(handler);
    const get = new SseReader((await handler.fetch(httpRequest({ method: "GET", session }))).body);
    const priming = await get.next();
    expect(await handler.closeSSEStream(session)).toBe(true);
    expect(await get.allEvents()).toEqual([{ retry: 1000 }]);
    await server.log("info", "after the poll");
    const back = new SseReader(
      (await handler.fetch(httpRequest({ method: "GET", session, headers: { "last-event-id": priming?.id as string } }))).body,
    );
    expect((await back.nextMessage())?.["params"]).toMatchObject({ data: "after the poll" });
    await back.cancel();
  });

  it("maxSseConnectionMs ends every connection after that long; polling collects the whole answer", async () => {
    const gate = new Gate();
    const handler = handlerOf(gate, { maxSseConnectionMs: 30, retryMs: 5 });
    const session = await openSession(handler);
    const collected: SseEventRead[] = [];
    let events = await new SseReader((await handler.fetch(httpRequest({ body: relayCall(9), session }))).body).allEvents();
    gate.open();
    for (let poll = 0; poll < 20 && !collected.some((event) => event.data?.includes('"id":9')); poll++) {
      collected.push(...events.filter((event) => event.data));
      if (collected.some((event) => event.data?.includes('"id":9'))) break;
      const cursor = events.toReversed().find((event) => event.id !== undefined)?.id ?? collected.at(-1)?.id;
      events = await new SseReader(
        (await handler.fetch(httpRequest({ method: "GET", session, headers: { "last-event-id": cursor as string } }))).body,
      ).allEvents();
    }
    expect(collected.map((event) => progressOf(event) ?? "response")).toEqual([1, 2, 3, "response"]);
  });
});

describe("keep-alive and expiry", () => {
  it("writes a keep-alive comment every keepAliveMs and leaves no timer once the client is gone", async () => {
    vi.useFakeTimers();
    const handler = handlerOf(new Gate(), { keepAliveMs: 1000, sessionIdleTimeoutMs: Infinity, eventStore: false });
    const session = await openSession(handler);
    const get = new SseReader((await handler.fetch(httpRequest({ method: "GET", session }))).body);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(await get.next()).toEqual({ comment: "keep-alive" });
    vi.advanceTimersByTime(1000);
    expect(await get.next()).toEqual({ comment: "keep-alive" });
    await get.cancel();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("sends no keep-alive with keepAliveMs 0", async () => {
    vi.useFakeTimers();
    const handler = handlerOf(new Gate(), { keepAliveMs: 0, sessionIdleTimeoutMs: Infinity });
    const session = await openSession(handler);
    const get = new SseReader((await handler.fetch(httpRequest({ method: "GET", session }))).body);
    // The priming event is kept on the next turn; then no timer is left.
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
    await get.cancel();
  });

  it("expires a session idle for sessionIdleTimeoutMs: no request, no open stream", async () => {
    vi.useFakeTimers();
    const handler = handlerOf(new Gate(), { sessionIdleTimeoutMs: 1000, keepAliveMs: 0 });
    const session = await openSession(handler);
    vi.advanceTimersByTime(900);
    await messagesOf(await handler.fetch(httpRequest({ body: rpc(1, "ping"), session })));
    vi.advanceTimersByTime(900);
    expect(handler.sessionCount).toBe(1);
    vi.advanceTimersByTime(100);
    await vi.waitFor(() => expect(handler.sessionCount).toBe(0));
    expect((await handler.fetch(httpRequest({ body: rpc(2, "ping"), session }))).status).toBe(404);
  });

  it("does not expire a session while its client holds a stream open, and counts from when it closes", async () => {
    vi.useFakeTimers();
    const handler = handlerOf(new Gate(), { sessionIdleTimeoutMs: 1000, keepAliveMs: 0, eventStore: false });
    const session = await openSession(handler);
    const get = new SseReader((await handler.fetch(httpRequest({ method: "GET", session }))).body);
    vi.advanceTimersByTime(5000);
    expect(handler.sessionCount).toBe(1);
    vi.advanceTimersByTime(500);
    await get.cancel();
    vi.advanceTimersByTime(999);
    expect(handler.sessionCount).toBe(1);
    vi.advanceTimersByTime(1);
    await vi.waitFor(() => expect(handler.sessionCount).toBe(0));
  });
});

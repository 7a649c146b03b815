import { afterEach, describe, expect, it } from "vitest";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { StreamableHttpHandler, StreamableHttpOptions } from "./http-server.types.js";
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
import { streamableHttpHandler } from "./index.js";

const handlers: StreamableHttpHandler[] = [];
afterEach(async () => {
  for (const handler of handlers.splice(0)) await handler.close();
});

function handlerOf(options: StreamableHttpOptions, server: MCPServer = testServer()): StreamableHttpHandler {
  const handler = streamableHttpHandler(server, options);
  handlers.push(handler);
  return handler;
}

/** What the `report` tool sends while it works: progress, a log, progress. */
const REPORTED = [
  { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: 1, total: 2, message: "half" } },
  { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } },
  { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: 2, total: 2, message: "all" } },
];

function reportingServer(): MCPServer {
  const server = testServer();
  server.tool("report", {}, async (_args, ctx) => {
    await ctx.progress(1, 2, "half");
    await ctx.log("info", "working");
    await ctx.progress(2, 2, "all");
    return { content: [{ type: "text", text: "reported" }] };
  });
  return server;
}

describe("stateless mode", () => {
  it("serves each POST on a fresh session, without a session id, and closes it once answered", async () => {
    const server = testServer();
    const handler = handlerOf({ sessions: "stateless" }, server);
    const response = await handler.fetch(
      httpRequest({
        body: rpc(1, "tools/call", { name: "steps", arguments: { count: 1 }, _meta: { progressToken: 1 } }),
        version: "2025-11-25",
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(await messagesOf(response)).toMatchObject([
      { method: "notifications/progress" },
      { id: 1, result: { content: [{ text: "1 steps" }] } },
    ]);
    await expect.poll(() => handler.sessionCount).toBe(0);
    expect(server.sessions.size).toBe(0);
  });

  it("answers initialize too (no session id), and any request in JSON mode", async () => {
    const handler = handlerOf({ sessions: "stateless", enableJsonResponse: true });
    const init = await handler.fetch(httpRequest({ body: initializeMessage("2025-06-18") }));
    expect(init.headers.get("mcp-session-id")).toBeNull();
    expect(await init.json()).toMatchObject({ result: { protocolVersion: "2025-06-18" } });
    const list = await handler.fetch(httpRequest({ body: rpc(2, "tools/list"), version: "2025-06-18" }));
    expect(list.headers.get("content-type")).toBe("application/json");
    expect(await list.json()).toMatchObject({ id: 2, result: { tools: expect.any(Array) } });
    expect(handler.sessionCount).toBe(0);
  });

  it("reads the revision from MCP-Protocol-Version, else assumes 2025-03-26 (which allows batches)", async () => {
    const handler = handlerOf({ sessions: "stateless" });
    const batch = [rpc(1, "ping"), rpc(2, "ping")];
    expect(await messagesOf(await handler.fetch(httpRequest({ body: batch })))).toHaveLength(2);
    const refused = await handler.fetch(httpRequest({ body: batch, version: "2025-11-25" }));
    expect(refused.status).toBe(400);
    expect(await errorOf(refused)).toMatchObject({ code: -32600, message: expect.stringContaining("2025-11-25") });
    const unknown = await handler.fetch(httpRequest({ body: rpc(1, "ping"), version: "1999-01-01" }));
    expect(unknown.status).toBe(400);
    const supported = "2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25";
    expect(await errorOf(unknown)).toEqual({
      code: -32000,
      message: `Bad Request: unsupported MCP-Protocol-Version "1999-01-01" (supported: ${supported})`,
    });
  });

  it("acknowledges notifications and responses alone with 202; GET and DELETE are 405", async () => {
    const handler = handlerOf({ sessions: "stateless" });
    expect((await handler.fetch(httpRequest({ body: notification("notifications/initialized") }))).status).toBe(202);
    expect(handler.sessionCount).toBe(0);
    const get = await handler.fetch(httpRequest({ method: "GET" }));
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, OPTIONS");
    expect((await handler.fetch(httpRequest({ method: "DELETE" }))).status).toBe(405);
    expect(await handler.closeSSEStream("anything")).toBe(false);
  });

  it("refuses with 403 when authorize refuses the session's initialize, 500 when it fails otherwise", async () => {
    const refusing = handlerOf({ sessions: "stateless" }, testServer(new Gate(), { authorize: ({ method }) => method !== "initialize" }));
    const refused = await refusing.fetch(httpRequest({ body: rpc(1, "tools/list") }));
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toMatchObject({ code: -32001 });
    const failing = handlerOf(
      { sessions: "stateless" },
      testServer(new Gate(), { authorize: () => Promise.reject(new Error("policy store down")) }),
    );
    const failed = await failing.fetch(httpRequest({ body: rpc(1, "tools/list") }));
    expect(failed.status).toBe(500);
    expect(await errorOf(failed)).toMatchObject({ message: expect.stringContaining("policy store down") });
    expect(refusing.sessionCount + failing.sessionCount).toBe(0);
  });

  it("closes the fresh session when its client goes away mid-answer", async () => {
    const gate = new Gate();
    const server = testServer(gate);
    const handler = handlerOf({ sessions: "stateless" }, server);
    const stream = new SseReader((await handler.fetch(httpRequest({ body: rpc(1, "tools/call", { name: "wait" }) }))).body);
    await expect.poll(() => gate.entered).toBe(1);
    expect(server.sessions.size).toBe(1);
    await stream.cancel();
    await expect.poll(() => server.sessions.size).toBe(0);
    expect(handler.sessionCount).toBe(0);
  });

  it("bounds the sessions serving POSTs at once (503) and answers 503 when closed mid-way", async () => {
    const gate = new Gate();
    const handler = handlerOf({ sessions: "stateless", maxSessions: 1 }, testServer(gate));
    const held = handler.fetch(httpRequest({ body: rpc(1, "tools/call", { name: "wait" }) }));
    await expect.poll(() => gate.entered).toBe(1);
    expect((await handler.fetch(httpRequest({ body: rpc(2, "ping") }))).status).toBe(503);
    gate.open();
    await messagesOf(await held);
  });

  it("answers 503 when the handler closes while a fresh session is being initialized", async () => {
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const handler = handlerOf({ sessions: "stateless" }, testServer(new Gate(), { authorize: async () => (await blocked, true) }));
    const pending = handler.fetch(httpRequest({ body: rpc(1, "ping") }));
    await expect.poll(() => handler.sessionCount).toBe(1);
    await handler.close();
    release();
    expect((await pending).status).toBe(503);
  });
});

describe("JSON responses", () => {
  it("sends what a handler emits before its answer on the GET stream, when the client has one", async () => {
    const handler = handlerOf({ enableJsonResponse: true });
    const session = await openSession(handler, "2025-11-25", { sampling: {} });
    const get = new SseReader((await handler.fetch(httpRequest({ method: "GET", session }))).body);
    await get.next();
    const pending = handler.fetch(httpRequest({ body: rpc(1, "tools/call", { name: "ask" }), session }));
    const sampling = await get.nextMessage();
    expect(sampling).toMatchObject({ method: "sampling/createMessage" });
    const answer = {
      jsonrpc: "2.0",
      id: sampling?.["id"],
      result: { role: "assistant", content: { type: "text", text: "yes" }, model: "m" },
    };
    expect((await handler.fetch(httpRequest({ body: answer, session }))).status).toBe(202);
    expect(await (await pending).json()).toMatchObject({
      id: 1,
      result: { content: [{ text: 'model said {"type":"text","text":"yes"}' }] },
    });
    await get.cancel();
  });

  it("sends a request's progress and logs on the GET stream, in order, and only its response in the JSON body", async () => {
    const handler = handlerOf({ enableJsonResponse: true }, reportingServer());
    const session = await openSession(handler);
    const get = new SseReader((await handler.fetch(httpRequest({ method: "GET", session }))).body);
    const answer = await handler.fetch(
      httpRequest({ body: rpc(1, "tools/call", { name: "report", _meta: { progressToken: "t" } }), session }),
    );
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(await answer.json()).toEqual({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "reported" }] } });
    expect([await get.nextMessage(), await get.nextMessage(), await get.nextMessage()]).toEqual(REPORTED);
    await handler.fetch(httpRequest({ body: rpc(2, "tools/call", { name: "report" }), session }));
    // Without a progress token only the log goes out, and nothing else was left on the stream before it.
    expect(await get.nextMessage()).toEqual(REPORTED[1]);
    await get.cancel();
  });

  it("drops a request's progress and logs when the client has no GET stream, and still answers", async () => {
    const server = reportingServer();
    const handler = handlerOf({ enableJsonResponse: true }, server);
    const session = await openSession(handler);
    const answer = await handler.fetch(
      httpRequest({ body: rpc(1, "tools/call", { name: "report", _meta: { progressToken: "t" } }), session }),
    );
    expect(await answer.json()).toEqual({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "reported" }] } });
    const get = new SseReader((await handler.fetch(httpRequest({ method: "GET", session }))).body);
    await server.log("warning", "later");
    expect(await get.nextMessage()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level: "warning", data: "later" },
    });
    await get.cancel();
  });

  it("answers 202 when every request of the POST was cancelled", async () => {
    const gate = new Gate();
    const handler = handlerOf({ enableJsonResponse: true }, testServer(gate));
    const session = await openSession(handler);
    const pending = handler.fetch(httpRequest({ body: rpc("w", "tools/call", { name: "wait" }), session }));
    await expect.poll(() => gate.entered).toBe(1);
    await handler.fetch(
      httpRequest({ body: notification("notifications/cancelled", { requestId: "w", reason: "changed my mind" }), session }),
    );
    const response = await pending;
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it("stops waiting when the client goes away, and the late answer goes nowhere", async () => {
    const gate = new Gate();
    const handler = handlerOf({ enableJsonResponse: true }, testServer(gate));
    const session = await openSession(handler);
    const client = new AbortController();
    const pending = handler.fetch(httpRequest({ body: rpc(1, "tools/call", { name: "wait" }), session, signal: client.signal }));
    await expect.poll(() => gate.entered).toBe(1);
    client.abort();
    expect((await pending).status).toBe(404);
    gate.open();
    expect(await messagesOf(await handler.fetch(httpRequest({ body: rpc(2, "ping"), session })))).toMatchObject([{ id: 2, result: {} }]);
  });
});

describe("cancellation over SSE", () => {
  it("ends a POST stream whose only request the client cancelled: no response is due", async () => {
    const gate = new Gate();
    const handler = handlerOf({}, testServer(gate));
    const session = await openSession(handler);
    const stream = new SseReader((await handler.fetch(httpRequest({ body: rpc(3, "tools/call", { name: "wait" }), session }))).body);
    await expect.poll(() => gate.entered).toBe(1);
    await handler.fetch(httpRequest({ body: notification("notifications/cancelled", { requestId: 3 }), session }));
    const events = await stream.allEvents();
    expect(events).toEqual([{ id: expect.any(String), retry: 1000, data: "" }]);
    gate.open();
    await handler.fetch(httpRequest({ body: notification("notifications/cancelled", { requestId: 3 }), session }));
    // A client that polls the ended stream back is told, the SSE way (204), that nothing more will come.
    const polled = await handler.fetch(httpRequest({ method: "GET", session, headers: { "last-event-id": events[0]?.id as string } }));
    expect(polled.status).toBe(204);
    expect(polled.headers.get("mcp-session-id")).toBe(session);
  });
});

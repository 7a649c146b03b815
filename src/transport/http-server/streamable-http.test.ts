import { afterEach, describe, expect, it } from "vitest";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { StreamableHttpHandler, StreamableHttpOptions } from "./http-server.types.js";
import {
  Gate,
  SseReader,
  URL_BASE,
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

function handlerOf(options: StreamableHttpOptions = {}, server: MCPServer = testServer()): StreamableHttpHandler {
  const handler = streamableHttpHandler(server, options);
  handlers.push(handler);
  return handler;
}

describe("POST: initialize and sessions", () => {
  it("answers initialize on an SSE stream and assigns an unguessable session id", async () => {
    const handler = handlerOf();
    const response = await handler.fetch(httpRequest({ body: initializeMessage() }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toBe("no-cache, no-transform");
    const id = response.headers.get("mcp-session-id") as string;
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(await messagesOf(response)).toMatchObject([
      { id: 0, result: { protocolVersion: "2025-11-25", serverInfo: { name: "http-test-server" } } },
    ]);
    expect(handler.sessionCount).toBe(1);
    const other = await openSession(handler);
    expect(other).not.toBe(id);
    expect(handler.sessionCount).toBe(2);
  });

  it("answers with JSON when enableJsonResponse is set", async () => {
    const handler = handlerOf({ enableJsonResponse: true });
    const response = await handler.fetch(httpRequest({ body: initializeMessage("2025-06-18") }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("mcp-session-id")).toMatch(/^[0-9a-f]{64}$/);
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-06-18" } });
  });

  it("acknowledges a POST of only notifications or responses with 202 and no body", async () => {
    const handler = handlerOf();
    const session = await openSession(handler);
    const response = await handler.fetch(httpRequest({ body: notification("notifications/roots/list_changed"), session }));
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
    const answer = await handler.fetch(httpRequest({ body: { jsonrpc: "2.0", id: 99, result: {} }, session }));
    expect(answer.status).toBe(202);
  });

  it("requires Mcp-Session-Id after initialize (400) and refuses an unknown one (404)", async () => {
    const handler = handlerOf();
    const missing = await handler.fetch(httpRequest({ body: rpc(1, "ping") }));
    expect(missing.status).toBe(400);
    expect(missing.headers.get("content-type")).toBe("application/json");
    expect(await errorOf(missing)).toMatchObject({ code: -32000, message: expect.stringContaining("Mcp-Session-Id") });
    const unknown = await handler.fetch(httpRequest({ body: rpc(1, "ping"), session: "f".repeat(64) }));
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toMatchObject({ message: "Session not found" });
  });

  it("refuses initialize carrying a session id: it opens a new session", async () => {
    const handler = handlerOf();
    const session = await openSession(handler);
    const response = await handler.fetch(httpRequest({ body: initializeMessage(), session }));
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: -32600 });
  });

  it("drops a session whose initialize failed, once it is answered", async () => {
    const handler = handlerOf({}, testServer(new Gate(), { authorize: ({ method }) => method !== "initialize" }));
    const response = await handler.fetch(httpRequest({ body: initializeMessage() }));
    expect(await messagesOf(response)).toMatchObject([{ id: 0, error: { code: -32001 } }]);
    await expect.poll(() => handler.sessionCount).toBe(0);
  });

  it("refuses a new session past maxSessions with 503", async () => {
    const handler = handlerOf({ maxSessions: 1 });
    await openSession(handler);
    const response = await handler.fetch(httpRequest({ body: initializeMessage() }));
    expect(response.status).toBe(503);
    expect(handler.sessionCount).toBe(1);
  });

  it("serves a tool call on the session's POST stream: progress first, then the response, then the end", async () => {
    const handler = handlerOf();
    const session = await openSession(handler);
    const response = await handler.fetch(
      httpRequest({ body: rpc(7, "tools/call", { name: "steps", arguments: { count: 2 }, _meta: { progressToken: "p" } }), session }),
    );
    expect(response.headers.get("mcp-session-id")).toBe(session);
    expect(await messagesOf(response)).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 1, total: 2, message: "step 1" } },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 2, total: 2, message: "step 2" } },
      { jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "2 steps" }] } },
    ]);
  });
});

describe("POST: what is refused, with which status", () => {
  it.each([
    ["no JSON", "text/event-stream"],
    ["no SSE", "application/json"],
    ["a q=0 refusal", "application/json, text/event-stream;q=0"],
    ["a q=0 refusal after a space", "application/json; q=0, text/event-stream"],
  ])("406 when the Accept header has %s", async (_case, accept) => {
    const response = await handlerOf().fetch(httpRequest({ body: initializeMessage(), headers: { accept } }));
    expect(response.status).toBe(406);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await errorOf(response)).toEqual({
      code: -32000,
      message: "Not Acceptable: the client must accept both application/json and text/event-stream",
    });
  });

  it.each(["*/*", "application/*, text/*"])("accepts the wildcard Accept %s", async (accept) => {
    expect((await handlerOf().fetch(httpRequest({ body: initializeMessage(), headers: { accept } }))).status).toBe(200);
  });

  it("accepts a request without Accept header (anything is acceptable)", async () => {
    const request = new Request(URL_BASE, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(initializeMessage()),
    });
    expect((await handlerOf().fetch(request)).status).toBe(200);
  });

  it.each([["text/plain"], ["application/jsonx"]])("415 for Content-Type %s", async (type) => {
    const response = await handlerOf().fetch(httpRequest({ body: initializeMessage(), headers: { "content-type": type } }));
    expect(response.status).toBe(415);
    expect(await errorOf(response)).toEqual({ code: -32000, message: "Unsupported Media Type: Content-Type must be application/json" });
  });

  it("415 without Content-Type; a charset parameter is fine", async () => {
    const handler = handlerOf();
    const bare = new Request(URL_BASE, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream" },
      body: new TextEncoder().encode("{}"),
    });
    expect((await handler.fetch(bare)).status).toBe(415);
    expect(
      (await handler.fetch(httpRequest({ body: initializeMessage(), headers: { "content-type": "Application/JSON; charset=utf-8" } })))
        .status,
    ).toBe(200);
  });

  it("413 for a body over maxBodyBytes, declared or streamed", async () => {
    const handler = handlerOf({ maxBodyBytes: 100 });
    const declared = await handler.fetch(httpRequest({ body: { jsonrpc: "2.0", method: "x".repeat(200) } }));
    expect(declared.status).toBe(413);
    expect(await errorOf(declared)).toMatchObject({ code: -32000, message: expect.stringContaining("100 bytes") });
    let pulls = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        pulls++;
        controller.enqueue(new TextEncoder().encode(" ".repeat(40)));
      },
    });
    const streamed = new Request(URL_BASE, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      body: endless,
      duplex: "half",
    });
    expect((await handler.fetch(streamed)).status).toBe(413);
    expect(pulls).toBeLessThan(10);
  });

  it.each([
    ["malformed JSON", "{nope"],
    ["an empty body", ""],
  ])("400 with -32700 for %s", async (_case, body) => {
    const response = await handlerOf().fetch(httpRequest({ body }));
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: -32700, message: expect.stringContaining("Parse error") });
  });

  it("400 with -32700 for bytes that are not UTF-8, and for a body without a stream", async () => {
    const handler = handlerOf();
    const bytes = new Request(URL_BASE, {
      method: "POST",
      headers: { accept: "*/*", "content-type": "application/json" },
      body: new Uint8Array([0x7b, 0xff, 0x7d]),
    });
    expect(await errorOf(await handler.fetch(bytes))).toMatchObject({ code: -32700 });
    const noBody = new Request(URL_BASE, { method: "POST", headers: { accept: "*/*", "content-type": "application/json" } });
    expect(await errorOf(await handler.fetch(noBody))).toMatchObject({ code: -32700, message: expect.stringContaining("empty") });
  });

  it.each([
    ["not JSON-RPC", { jsonrpc: "1.0", id: 1, method: "ping" }, "jsonrpc"],
    ["an empty batch", [], "empty batch"],
    ["a batch with an invalid member", [rpc(1, "ping"), 42], "object"],
    ["twice the same id", [rpc(1, "ping"), rpc(1, "ping")], "twice"],
    ["initialize in a batch", [initializeMessage(), notification("notifications/initialized")], "alone"],
  ])("400 with -32600 for %s", async (_case, body, detail) => {
    const response = await handlerOf().fetch(httpRequest({ body }));
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: -32600, message: expect.stringContaining(detail) });
  });

  it("400 for a request id already in progress in the session", async () => {
    const gate = new Gate();
    const handler = handlerOf({}, testServer(gate));
    const session = await openSession(handler);
    const first = await handler.fetch(httpRequest({ body: rpc(5, "tools/call", { name: "wait" }), session }));
    await expect.poll(() => gate.entered).toBe(1);
    const again = await handler.fetch(httpRequest({ body: rpc(5, "ping"), session }));
    expect(again.status).toBe(400);
    expect(await errorOf(again)).toMatchObject({ code: -32600, message: expect.stringContaining("in progress") });
    gate.open();
    expect(await messagesOf(first)).toMatchObject([{ id: 5, result: { content: [{ text: expect.stringContaining("waited") }] } }]);
  });

  it("405 with Allow for a method it does not serve", async () => {
    const response = await handlerOf().fetch(httpRequest({ method: "PUT", body: "{}" }));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST, DELETE, OPTIONS");
    expect(await errorOf(response)).toMatchObject({ code: -32000 });
    const odd = await handlerOf().fetch(new Request(URL_BASE, { method: "constructor" }));
    expect(odd.status).toBe(405);
  });

  it("404 outside the configured path", async () => {
    const handler = handlerOf({ path: "/mcp" });
    const elsewhere = await handler.fetch(httpRequest({ url: "http://127.0.0.1/other", body: initializeMessage() }));
    expect(elsewhere.status).toBe(404);
    expect(await errorOf(elsewhere)).toEqual({ code: -32000, message: "Not Found" });
    expect((await handler.fetch(httpRequest({ body: initializeMessage() }))).status).toBe(200);
  });

  it("503 once the handler is closed, and its sessions are gone", async () => {
    const handler = handlerOf();
    const session = await openSession(handler);
    await handler.close();
    expect(handler.sessionCount).toBe(0);
    const response = await handler.fetch(httpRequest({ body: rpc(1, "ping"), session }));
    expect(response.status).toBe(503);
    expect(await errorOf(response)).toEqual({ code: -32000, message: "Service Unavailable: this MCP endpoint is closed" });
  });

  it("500, never an unanswered request, when serving fails unexpectedly", async () => {
    const broken = {
      servesSessions: true,
      statelessVersions: [],
      start: () => Promise.reject(new Error("no more sessions today")),
    } as unknown as MCPServer;
    const response = await handlerOf({}, broken).fetch(httpRequest({ body: initializeMessage() }));
    expect(response.status).toBe(500);
    expect(await errorOf(response)).toMatchObject({ code: -32603, message: expect.stringContaining("no more sessions today") });
  });
});

describe("MCP-Protocol-Version", () => {
  it("400 for a revision it does not speak, before and after initialize", async () => {
    const handler = handlerOf();
    for (const version of ["invalid-protocol-version", "2000-01-01", "2099-01-01"]) {
      expect((await handler.fetch(httpRequest({ body: initializeMessage(), version }))).status).toBe(400);
    }
    const session = await openSession(handler);
    const response = await handler.fetch(httpRequest({ body: rpc(1, "ping"), session, version: "2099-01-01" }));
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ message: expect.stringContaining("unsupported MCP-Protocol-Version") });
  });

  it("serves a supported revision other than the one negotiated, and an absent header, by the session's revision", async () => {
    const handler = handlerOf();
    const session = await openSession(handler, "2025-06-18");
    const other = await handler.fetch(httpRequest({ body: rpc(1, "ping"), session, version: "2025-03-26" }));
    expect(other.status).toBe(200);
    expect(await messagesOf(other)).toMatchObject([{ id: 1, result: {} }]);
    const absent = await handler.fetch(httpRequest({ body: rpc(2, "ping"), session }));
    expect(await messagesOf(absent)).toMatchObject([{ id: 2, result: {} }]);
  });

  it("allows batches only in a 2025-03-26 session, answering each request", async () => {
    const handler = handlerOf();
    const modern = await openSession(handler, "2025-11-25");
    const refused = await handler.fetch(httpRequest({ body: [rpc(1, "ping"), rpc(2, "ping")], session: modern }));
    expect(refused.status).toBe(400);
    expect(await errorOf(refused)).toMatchObject({ code: -32600, message: expect.stringContaining("batches") });
    const older = await openSession(handler, "2025-03-26");
    const batch = await handler.fetch(
      httpRequest({
        body: [
          rpc(1, "ping"),
          notification("notifications/roots/list_changed"),
          rpc(2, "tools/call", { name: "echo", arguments: { text: "b" } }),
        ],
        session: older,
      }),
    );
    expect(await messagesOf(batch)).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 1, result: {} }), expect.objectContaining({ id: 2 })]),
    );
  });

  it("answers a batch in JSON mode with an array in request order", async () => {
    const handler = handlerOf({ enableJsonResponse: true });
    const session = await openSession(handler, "2025-03-26");
    const response = await handler.fetch(
      httpRequest({ body: [rpc("a", "tools/call", { name: "steps", arguments: { count: 3 } }), rpc("b", "ping")], session }),
    );
    expect(await response.json()).toMatchObject([
      { id: "a", result: { content: [{ text: "3 steps" }] } },
      { id: "b", result: {} },
    ]);
  });
});

describe("GET: the session's own stream", () => {
  it("needs a session (400 / 404) and an Accept that admits SSE (406)", async () => {
    const handler = handlerOf();
    expect((await handler.fetch(httpRequest({ method: "GET" }))).status).toBe(400);
    expect((await handler.fetch(httpRequest({ method: "GET", session: "nope" }))).status).toBe(404);
    const session = await openSession(handler);
    expect((await handler.fetch(httpRequest({ method: "GET", session, headers: { accept: "application/json" } }))).status).toBe(406);
  });

  it("opens one stream per session (409 for a second) that carries what the server starts", async () => {
    const server = testServer();
    const handler = handlerOf({ eventStore: false }, server);
    const session = await openSession(handler);
    const response = await handler.fetch(httpRequest({ method: "GET", session }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("mcp-session-id")).toBe(session);
    const second = await handler.fetch(httpRequest({ method: "GET", session }));
    expect(second.status).toBe(409);
    const stream = new SseReader(response.body);
    await server.log("warning", "disk almost full");
    expect(await stream.nextMessage()).toMatchObject({
      method: "notifications/message",
      params: { level: "warning", data: "disk almost full" },
    });
    await stream.cancel();
    const again = await handler.fetch(httpRequest({ method: "GET", session }));
    expect(again.status).toBe(200);
    await new SseReader(again.body).cancel();
  });

  it("fails a server-to-client request at once when the client has no GET stream, and drops notifications", async () => {
    const server = testServer();
    const handler = handlerOf({}, server);
    await openSession(handler, "2025-11-25", { sampling: {} });
    const [serverSession] = [...server.sessions];
    await expect(serverSession?.createMessage({ messages: [], maxTokens: 1 })).rejects.toMatchObject({
      code: "MCP.TRANSPORT_ERROR",
      message: expect.stringContaining("no GET stream"),
    });
    await expect(server.log("info", "nobody listens")).resolves.toBeUndefined();
  });

  it("ignores Last-Event-ID without an event store and opens the stream", async () => {
    const handler = handlerOf({ eventStore: false });
    const session = await openSession(handler);
    const response = await handler.fetch(httpRequest({ method: "GET", session, headers: { "last-event-id": "0_1" } }));
    expect(response.status).toBe(200);
    await new SseReader(response.body).cancel();
  });
});

describe("DELETE", () => {
  it("ends the session: 204, its streams close, then 404", async () => {
    const handler = handlerOf();
    const session = await openSession(handler);
    const stream = new SseReader((await handler.fetch(httpRequest({ method: "GET", session }))).body);
    const response = await handler.fetch(httpRequest({ method: "DELETE", session }));
    expect(response.status).toBe(204);
    expect(await stream.allEvents()).toEqual([{ id: expect.stringMatching(/^[0-9a-f]{8}\.1_0$/), retry: 1000, data: "" }]);
    expect(handler.sessionCount).toBe(0);
    expect((await handler.fetch(httpRequest({ body: rpc(1, "ping"), session }))).status).toBe(404);
    expect((await handler.fetch(httpRequest({ method: "DELETE", session }))).status).toBe(404);
    expect((await handler.fetch(httpRequest({ method: "DELETE" }))).status).toBe(400);
  });

  it("answers 404 to a JSON request waiting on a session that ends", async () => {
    const gate = new Gate();
    const handler = handlerOf({ enableJsonResponse: true }, testServer(gate));
    const session = await openSession(handler);
    const pending = handler.fetch(httpRequest({ body: rpc(1, "tools/call", { name: "wait" }), session }));
    await expect.poll(() => gate.entered).toBe(1);
    await handler.fetch(httpRequest({ method: "DELETE", session }));
    expect((await pending).status).toBe(404);
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { HttpHandler, SseHttpOptions } from "./http-server.types.js";
import { SseReader, errorOf, initializeMessage, notification, rpc, testServer } from "./http-server.test-helpers.js";
import { sseHttpHandler } from "./index.js";

const handlers: HttpHandler[] = [];
const readers: SseReader[] = [];
afterEach(async () => {
  for (const reader of readers.splice(0)) if (!reader.ended) await reader.cancel();
  for (const handler of handlers.splice(0)) await handler.close();
});

function handlerOf(options: SseHttpOptions = {}, server: MCPServer = testServer()): HttpHandler {
  const handler = sseHttpHandler(server, options);
  handlers.push(handler);
  return handler;
}

function open(handler: HttpHandler, url = "http://127.0.0.1/sse", headers: Record<string, string> = {}): Promise<Response> {
  return handler.fetch(new Request(url, { headers: { accept: "text/event-stream", ...headers } }));
}

function post(handler: HttpHandler, endpoint: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return handler.fetch(
    new Request(new URL(endpoint, "http://127.0.0.1"), {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    }),
  );
}

/** Opens a stream and reads its endpoint event. */
async function connect(handler: HttpHandler, url?: string): Promise<{ stream: SseReader; endpoint: string }> {
  const response = await open(handler, url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  const stream = new SseReader(response.body);
  readers.push(stream);
  const first = await stream.next();
  expect(first?.event).toBe("endpoint");
  return { stream, endpoint: first?.data as string };
}

describe("legacy HTTP+SSE (2024-11-05)", () => {
  it("opens with an endpoint event; POSTs there are acknowledged with 202 and answered on the stream", async () => {
    const handler = handlerOf();
    const { stream, endpoint } = await connect(handler);
    expect(endpoint).toMatch(/^\/sse\?sessionId=[0-9a-f]{64}$/);
    const accepted = await post(handler, endpoint, initializeMessage("2024-11-05"));
    expect(accepted.status).toBe(202);
    expect(await accepted.text()).toBe("Accepted");
    expect(await stream.next()).toMatchObject({ event: "message", data: expect.stringContaining('"protocolVersion":"2024-11-05"') });
    await post(handler, endpoint, notification("notifications/initialized"));
    await post(handler, endpoint, rpc(2, "tools/call", { name: "echo", arguments: { text: "over sse" } }));
    expect(await stream.nextMessage()).toMatchObject({ id: 2, result: { content: [{ text: "over sse" }] } });
    expect(handler.sessionCount).toBe(1);
  });

  it("advertises the configured endpoint and serves only the configured paths", async () => {
    const handler = handlerOf({ path: "/sse", endpoint: "/messages" });
    const { stream, endpoint } = await connect(handler);
    expect(endpoint).toMatch(/^\/messages\?sessionId=/);
    expect((await post(handler, endpoint, initializeMessage("2024-11-05"))).status).toBe(202);
    expect(await stream.nextMessage()).toMatchObject({ id: 0 });
    expect((await open(handler, "http://127.0.0.1/elsewhere")).status).toBe(404);
  });

  it("refuses what it cannot take: 400 without sessionId, 404 unknown, 406, 415, 400 batch, 400 bad version, 405", async () => {
    const handler = handlerOf();
    const { endpoint } = await connect(handler);
    expect((await post(handler, "/sse", rpc(1, "ping"))).status).toBe(400);
    expect((await post(handler, "/sse?sessionId=nope", rpc(1, "ping"))).status).toBe(404);
    expect((await open(handler, undefined, { accept: "application/json" })).status).toBe(406);
    expect((await post(handler, endpoint, rpc(1, "ping"), { "content-type": "text/plain" })).status).toBe(415);
    const batch = await post(handler, endpoint, [rpc(1, "ping"), rpc(2, "ping")]);
    expect(batch.status).toBe(400);
    expect(await errorOf(batch)).toMatchObject({ code: -32600, message: expect.stringContaining("2024-11-05") });
    expect((await post(handler, endpoint, rpc(1, "ping"), { "mcp-protocol-version": "2099-01-01" })).status).toBe(400);
    const deleted = await handler.fetch(new Request(new URL(endpoint, "http://127.0.0.1"), { method: "DELETE" }));
    expect(deleted.status).toBe(405);
    expect(deleted.headers.get("allow")).toBe("GET, POST, OPTIONS");
    expect((await post(handler, endpoint, "{broken")).status).toBe(400);
  });

  it("ends the session with its stream: a client that leaves frees it", async () => {
    const server = testServer();
    const handler = handlerOf({}, server);
    const { stream, endpoint } = await connect(handler);
    expect(server.sessions.size).toBe(1);
    await stream.cancel();
    await expect.poll(() => handler.sessionCount).toBe(0);
    expect(server.sessions.size).toBe(0);
    expect((await post(handler, endpoint, rpc(1, "ping"))).status).toBe(404);
  });

  it("bounds sessions (503), keeps them to their owner, and closes every stream on close", async () => {
    const handler = handlerOf({
      maxSessions: 1,
      authenticate: (request) => ({ authInfo: request.headers.get("x-user") }),
      sessionOwner: (user) => user as string,
    });
    const response = await open(handler, undefined, { "x-user": "alice" });
    const stream = new SseReader(response.body);
    const endpoint = (await stream.next())?.data as string;
    expect((await open(handler, undefined, { "x-user": "bob" })).status).toBe(503);
    expect((await post(handler, endpoint, rpc(1, "ping"), { "x-user": "bob" })).status).toBe(404);
    await handler.close();
    expect(await stream.next()).toBeUndefined();
    expect((await open(handler, undefined, { "x-user": "alice" })).status).toBe(503);
  });

  it("allows a batch once a 2025-03-26 session negotiated it, answering each request on the stream", async () => {
    const handler = handlerOf();
    const { stream, endpoint } = await connect(handler);
    await post(handler, endpoint, initializeMessage("2025-03-26"));
    await stream.nextMessage();
    expect((await post(handler, endpoint, [rpc(1, "ping"), rpc(2, "ping")])).status).toBe(202);
    const answers = [await stream.nextMessage(), await stream.nextMessage()];
    expect(answers.map((answer) => Number(answer?.["id"])).toSorted((a, b) => a - b)).toEqual([1, 2]);
  });
});

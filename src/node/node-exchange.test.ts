import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { connect } from "node:net";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import type { InboundContext } from "../transport/transport/transport.types.js";
import { ACCEPT_BOTH, Gate, initializeMessage, notification, rpc, testServer } from "../transport/http-server/http-server.test-helpers.js";
import { streamableHttpHandler } from "../transport/http-server/index.js";
import type { HttpExchange, HttpReply, StreamableHttpHandler, StreamableHttpOptions } from "../transport/http-server/http-server.types.js";
import { serveHttp } from "./http-serve.js";
import { NodeExchange } from "./node-exchange.js";

// Our handlers have `handle`, so `serveHttp` feeds them from node:http with no Request or Response:
// these tests drive that path over real sockets.

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

async function servedHandler(
  options: StreamableHttpOptions = {},
  server = testServer(),
): Promise<{ url: string; handler: StreamableHttpHandler }> {
  const handler = streamableHttpHandler(server, options);
  const served = await serveHttp(handler, { port: 0 });
  cleanups.push(async () => {
    await handler.close();
    await served.close();
  });
  return { url: `${served.url}mcp`, handler };
}

async function servedEndpoint(options: StreamableHttpOptions = {}, server = testServer()): Promise<string> {
  return (await servedHandler(options, server)).url;
}

interface Answer {
  readonly status: number;
  readonly statusMessage: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

type Outgoing = { method?: string; headers?: Record<string, string | string[]>; chunks?: ReadonlyArray<string | Uint8Array> };

/** A GET with exactly this target and Host, as a client could send them. */
function rawGet(port: string, path: string, host: string): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    httpRequest(
      { host: "127.0.0.1", port, path, setHost: false, headers: { host, accept: "text/event-stream" } },
      (response) => void read(response).then(resolve, reject),
    )
      .on("error", reject)
      .end();
  });
}

function read(response: IncomingMessage): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let body = "";
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => (body += chunk));
    response.on("end", () =>
      resolve({ status: response.statusCode as number, statusMessage: response.statusMessage as string, headers: response.headers, body }),
    );
    response.on("error", reject);
  });
}

/** One request whose body goes out in the given pieces (chunked when there are several). */
function send(url: string, outgoing: Outgoing = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: outgoing.method ?? "POST", headers: outgoing.headers },
      (response) => void read(response).then(resolve, reject),
    );
    request.on("error", reject);
    for (const chunk of outgoing.chunks ?? []) request.write(chunk);
    request.end();
  });
}

function openGet(url: string, session: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers: { accept: "text/event-stream", "mcp-session-id": session } }, resolve)
      .on("error", reject)
      .end();
  });
}

const POST_HEADERS = { "content-type": "application/json", accept: ACCEPT_BOTH };

async function openSession(url: string, extra: Record<string, string | string[]> = {}): Promise<string> {
  const opened = await send(url, { headers: { ...POST_HEADERS, ...extra }, chunks: [JSON.stringify(initializeMessage())] });
  expect(opened.status).toBe(200);
  const id = opened.headers["mcp-session-id"] as string;
  await send(url, {
    headers: { ...POST_HEADERS, "mcp-session-id": id },
    chunks: [JSON.stringify(notification("notifications/initialized"))],
  });
  return id;
}

describe("serveHttp with our handlers: the exchange read from node:http", () => {
  it("gives authenticate a Request and handlers every header, repeated ones joined", async () => {
    const seen: Array<{ method: string; url: string; cookie: string | null; inbound: InboundContext | undefined }> = [];
    const server = testServer(new Gate(), { authorize: ({ inbound }) => seen.push({ method: "", url: "", cookie: null, inbound }) > 0 });
    const url = await servedEndpoint(
      {
        authenticate: (request) => {
          seen.push({ method: request.method, url: request.url, cookie: request.headers.get("set-cookie"), inbound: undefined });
          return { authInfo: "caller" };
        },
      },
      server,
    );
    await openSession(url, { "set-cookie": ["a=1", "b=2"], "x-probe": "p" });
    expect(seen[0]).toEqual({ method: "POST", url, cookie: "a=1, b=2", inbound: undefined });
    expect(seen[1]?.inbound).toMatchObject({
      authInfo: "caller",
      headers: { "set-cookie": "a=1, b=2", "x-probe": "p", "content-type": "application/json" },
    });
  });

  it("answers JSON with its length, and reads a body that comes in pieces (also after a body that was not UTF-8)", async () => {
    const url = await servedEndpoint({ enableJsonResponse: true });
    const session = await openSession(url);
    expect(
      (await send(url, { headers: { ...POST_HEADERS, "mcp-session-id": session }, chunks: [new Uint8Array([0x7b, 0xc3, 0x7d])] })).status,
    ).toBe(400);
    const message = JSON.stringify(rpc(1, "tools/call", { name: "echo", arguments: { text: "héllo" } }));
    const bytes = new TextEncoder().encode(message);
    const answer = await send(url, {
      headers: { ...POST_HEADERS, "mcp-session-id": session },
      chunks: [bytes.subarray(0, 50), bytes.subarray(50)],
    });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-length"]).toBe(String(Buffer.byteLength(answer.body)));
    expect(JSON.parse(answer.body)).toMatchObject({ id: 1, result: { content: [{ type: "text", text: "héllo" }] } });
  });

  it("answers 400 (-32700) to a non-UTF-8 body, 413 to an oversized chunked body (and closes), serves HTTP/1.0 without Host", async () => {
    const url = await servedEndpoint({ maxBodyBytes: 100 });
    const notUtf8 = await send(url, { headers: POST_HEADERS, chunks: [new Uint8Array([0x7b, 0xff, 0x7d])] });
    expect(notUtf8.status).toBe(400);
    expect(JSON.parse(notUtf8.body)).toMatchObject({ error: { code: -32700 } });
    const tooLarge = await send(url, { headers: POST_HEADERS, chunks: ["[", "1,".repeat(40), "1,".repeat(40), "1]"] });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.connection).toBe("close");
    // HTTP/1.0 without Host is about this server (a loopback name), so it gets as far as the method's checks.
    const old = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(url).port), "127.0.0.1", () =>
        socket.write("GET /mcp HTTP/1.0\r\nAccept: text/event-stream\r\n\r\n"),
      );
      let received = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (received += chunk));
      socket.on("end", () => resolve(received));
      socket.on("error", reject);
    });
    expect(old).toMatch(/^HTTP\/1\.1 400 Bad Request[^]*Mcp-Session-Id header is required/);
  });

  it("refuses every target and Host that make no URL (400), also once a good Host let plain paths through", async () => {
    const url = await servedEndpoint({});
    const { port, host } = new URL(url);
    const invalid = { status: 400, body: expect.stringContaining("Invalid URL") };
    // The first request with this Host is parsed; the next plain paths with it need not be.
    expect((await rawGet(port, "/mcp", host)).status).toBe(400);
    expect((await rawGet(port, "/mcp?x=%zz#f", host)).body).toContain("Mcp-Session-Id header is required");
    expect(await rawGet(port, "/mcp", "[nonsense")).toMatchObject(invalid);
    // Targets that name a host of their own are parsed whatever the Host.
    for (const target of ["//[nonsense/mcp", "/\\[nonsense/mcp", "http://[nonsense/mcp", "//127.0.0.1:99999/mcp"])
      expect(await rawGet(port, target, host)).toMatchObject(invalid);
    expect((await rawGet(port, "/mcp", host)).body).toContain("Mcp-Session-Id header is required");
  });

  it("answers 400 when Host makes no URL, 500 when the reply cannot be written, and 500 when a handler throws", async () => {
    const url = await servedEndpoint({ authenticate: () => ({ refuse: 401, wwwAuthenticate: "Bearer\nbroken" }) });
    const { port } = new URL(url);
    const badHost = await rawGet(port, "/mcp", "[nonsense");
    expect(badHost.status).toBe(400);
    const unwritable = await send(url, { headers: POST_HEADERS, chunks: ["{}"] });
    expect(unwritable).toMatchObject({
      status: 500,
      statusMessage: "Internal Server Error",
      body: expect.stringContaining("Invalid character in header content"),
    });
    const throwing = {
      fetch: () => Promise.reject(new Error("unused")),
      handle: (_exchange: HttpExchange): Promise<HttpReply> => Promise.reject(new Error("core broke")),
    };
    const served = await serveHttp(throwing, { port: 0 });
    cleanups.push(() => served.close());
    expect(await send(served.url, { method: "GET" })).toMatchObject({ status: 500, body: expect.stringContaining("core broke") });
  });

  it("sends a stream's headers before its first event, so the client knows it is open", async () => {
    const url = await servedEndpoint({ eventStore: false });
    const session = await openSession(url);
    const response = await openGet(url, session);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/event-stream");
    response.destroy();
  });

  it("treats a stream whose client left while authenticate ran as gone: the session takes its next GET stream", async () => {
    const entered = new Gate();
    const gate = new Gate();
    let slow = false;
    const authenticate = async () => {
      if (slow) entered.open();
      if (slow) await gate.opened;
      return { authInfo: "a" };
    };
    const handler = streamableHttpHandler(testServer(), { eventStore: false, authenticate });
    // The slow GET as the server sees it: when its client is gone, and the handler's reply to it.
    let seen!: (leaving: { gone: Promise<void>; handled: Promise<HttpReply> }) => void;
    const leaving = new Promise<{ gone: Promise<void>; handled: Promise<HttpReply> }>((resolve) => (seen = resolve));
    const watched = {
      fetch: (request: Request) => handler.fetch(request),
      handle: (exchange: HttpExchange): Promise<HttpReply> => {
        if (!slow) return handler.handle(exchange);
        const gone = new Promise<void>((resolve) => exchange.onClientGone(resolve));
        const handled = handler.handle(exchange);
        seen({ gone, handled });
        return handled;
      },
    };
    const served = await serveHttp(watched, { port: 0 });
    cleanups.push(async () => {
      await handler.close();
      await served.close();
    });
    const url = `${served.url}mcp`;
    const session = await openSession(url);
    slow = true;
    const request = httpRequest(url, { headers: { accept: "text/event-stream", "mcp-session-id": session } });
    request.on("error", () => undefined);
    request.end();
    await entered.opened;
    const { gone, handled } = await leaving;
    request.destroy();
    await gone;
    slow = false;
    gate.open();
    // serveHttp awaited this reply first, so it has written it (and let go of the stream) when this await returns.
    await handled;
    const next = await openGet(url, session);
    expect(next.statusCode).toBe(200);
    next.destroy();
  });

  it("tells a JSON-answered POST its client left: a stateless session ends with it, before its tool does", async () => {
    const gate = new Gate();
    const { url, handler } = await servedHandler({ sessions: "stateless", enableJsonResponse: true }, testServer(gate));
    const request = httpRequest(url, { method: "POST", headers: POST_HEADERS });
    request.on("error", () => undefined);
    request.end(JSON.stringify(rpc(5, "tools/call", { name: "wait", arguments: {} })));
    await expect.poll(() => handler.sessionCount).toBe(1);
    request.destroy();
    await expect.poll(() => handler.sessionCount).toBe(0);
    gate.open();
  });

  it("ends a stream whose client stopped reading once more than the bound waits unsent", async () => {
    const server = testServer();
    const url = await servedEndpoint({}, server);
    const session = await openSession(url);
    const stalled = await openGet(url, session);
    stalled.pause();
    const closed = new Promise<void>((resolve) => stalled.once("close", () => resolve()));
    let received = 0;
    stalled.on("data", (data: Buffer) => (received += data.length));
    stalled.on("error", () => undefined);
    const live = [...server.sessions].find((candidate) => candidate.id === session);
    const chunk = "z".repeat(256 * 1024);
    // 24 MiB: more than the bound and what the sockets hold besides.
    for (let n = 0; n < 96; n++) await live?.log("info", chunk);
    // The server dropped that connection: the session takes a new GET stream instead of answering 409.
    const again = await openGet(url, session);
    expect(again.statusCode).toBe(200);
    again.destroy();
    // The stalled client's connection ends, having got far less than was logged.
    stalled.resume();
    await closed;
    expect(received).toBeLessThan(96 * chunk.length);
  });
});

describe("NodeExchange", () => {
  it("reports a body whose stream fails before its end, keeping nothing of it", async () => {
    const body = Object.assign(new PassThrough(), { method: "POST", url: "/mcp", headers: { host: "127.0.0.1" } });
    const exchange = new NodeExchange(body as unknown as IncomingMessage, {} as ServerResponse);
    const text = exchange.text(1024);
    body.write('{"jsonrpc":');
    body.destroy(new Error("aborted"));
    await expect(text).resolves.toEqual({ ok: false, tooLarge: false, detail: "aborted" });
  });
});

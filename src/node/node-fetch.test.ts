import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { Agent, createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod";

import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPClient } from "../client/mcp-client/mcp-client.js";
import { MCPServer } from "../server/mcp-server/mcp-server.js";
import { readText } from "../transport/http-client/body.js";
import { HttpSseTransport, StreamableHttpTransport, type FetchInit, type FetchResponse } from "../transport/http-client/index.js";
import { sseHttpHandler, streamableHttpHandler } from "../transport/http-server/index.js";
import { toNodeHandler } from "./http-bridge.js";
import { serveHttp } from "./http-serve.js";
import { nodeFetch } from "./node-fetch.js";

type Route = (request: IncomingMessage, response: ServerResponse, body: string) => void;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

/** Listens on 127.0.0.1 (closed, connections and all, after the test); resolves with the base URL. */
async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A node:http server on 127.0.0.1 answering each path with its route; it records the sockets it saw. */
async function serve(routes: Record<string, Route>): Promise<{ url: string; server: Server; ports: number[] }> {
  const ports: number[] = [];
  const server = createServer((request, response) => {
    ports.push(request.socket.remotePort as number);
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => (routes[request.url as string] as Route)(request, response, body));
  });
  return { url: await listening(server), server, ports };
}

const bodiless = (method: string): FetchInit => ({ method, headers: {}, signal: new AbortController().signal });
const init = (extra: Partial<FetchInit> = {}): FetchInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: '{"a":"é"}',
  signal: new AbortController().signal,
  ...extra,
});

async function bodyText(response: FetchResponse): Promise<string> {
  return (await readText(response, 1 << 30)).text;
}

interface WatchedAnswer {
  /** The body's text as it came from the socket so far (when asked to record it). */
  readonly arrived: () => string;
  /** What came first: the client stopped taking the body (a pause), or the body all came (its end). */
  readonly pausedOrEnded: Promise<"paused" | "ended">;
}

/**
 * Watches the next answer node:http's client receives, from the moment it is made: before nodeFetch
 * sees it, so these listeners run first and a chunk they saw has reached nodeFetch's body too.
 */
function watchNextAnswer(recordBody = false): Promise<WatchedAnswer> {
  return new Promise((resolve) => {
    const watch = (message: unknown): void => {
      unsubscribe("http.client.response.finish", watch);
      const incoming = (message as { response: IncomingMessage }).response;
      let arrived = "";
      if (recordBody) incoming.on("data", (chunk: Buffer) => (arrived += chunk.toString("utf8")));
      const paused = new Promise<"paused">((settle) => incoming.once("pause", () => settle("paused")));
      const ended = new Promise<"ended">((settle) => incoming.once("end", () => settle("ended")));
      resolve({ arrived: () => arrived, pausedOrEnded: Promise.race([paused, ended]) });
    };
    subscribe("http.client.response.finish", watch);
  });
}

describe("nodeFetch", () => {
  it("sends method, headers and body (with its byte length); answers status, headers and body over one kept-alive connection", async () => {
    const seen: Array<{ method: string | undefined; type: string | undefined; length: string | undefined; body: string }> = [];
    const { url, ports } = await serve({
      "/echo": (request, response, body) => {
        seen.push({ method: request.method, type: request.headers["content-type"], length: request.headers["content-length"], body });
        response
          .writeHead(201, "Made", { "content-type": "application/json", "set-cookie": ["a=1", "b=2"], "x-answer": "yes" })
          .end(JSON.stringify({ got: body }));
      },
    });
    const fetchImpl = nodeFetch();
    for (let round = 0; round < 2; round++) {
      const response = await fetchImpl(`${url}/echo`, init());
      expect([response.status, response.statusText, response.ok]).toEqual([201, "Made", true]);
      expect(response.headers.get("X-Answer")).toBe("yes");
      expect(response.headers.get("set-cookie")).toBe("a=1, b=2");
      expect(response.headers.get("absent")).toBeNull();
      expect(JSON.parse(await bodyText(response))).toEqual({ got: '{"a":"é"}' });
    }
    expect(seen).toEqual(Array.from({ length: 2 }, () => ({ method: "POST", type: "application/json", length: "10", body: '{"a":"é"}' })));
    expect(new Set(ports).size).toBe(1);
  });

  it("sends a request without a body (GET, DELETE) without a length, and says a refusal is not ok", async () => {
    const { url } = await serve({
      "/gone": (request, response) => response.writeHead(404).end(request.headers["content-length"] ?? "no length"),
    });
    const response = await nodeFetch()(`${url}/gone`, bodiless("DELETE"));
    expect([response.status, response.ok]).toEqual([404, false]);
    expect(await bodyText(response)).toBe("no length");
  });

  it("hands an event stream over chunk by chunk as it comes, holding the socket while nobody reads", async () => {
    let write: ((chunk: string) => void) | undefined;
    let end: (() => void) | undefined;
    const { url } = await serve({
      "/events": (_request, response) => {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.flushHeaders();
        write = (chunk) => response.write(chunk);
        end = () => response.end();
      },
    });
    const watched = watchNextAnswer(true);
    const response = await nodeFetch()(`${url}/events`, bodiless("GET"));
    const { arrived } = await watched;
    const reader = (response.body as NonNullable<FetchResponse["body"]>).getReader();
    const decoder = new TextDecoder();
    const first = reader.read();
    write?.("data: one\n\n");
    expect(decoder.decode((await first).value)).toBe("data: one\n\n");
    // Two chunks that came before anyone reads wait in order.
    write?.("data: two\n\n");
    write?.("data: three\n\n");
    await vi.waitFor(() => expect(arrived()).toContain("data: three\n\n"));
    let rest = "";
    end?.();
    for (let part = await reader.read(); !part.done; part = await reader.read()) rest += decoder.decode(part.value);
    expect(rest).toBe("data: two\n\ndata: three\n\n");
    await expect(reader.read()).resolves.toEqual({ done: true });
  });

  it("reads a body of many chunks whole, also when reading lags behind", async () => {
    const big = "x".repeat(4 * 1024 * 1024);
    const { url } = await serve({ "/big": (_request, response) => response.end(big) });
    const response = await nodeFetch()(`${url}/big`, bodiless("GET"));
    const reader = (response.body as NonNullable<FetchResponse["body"]>).getReader();
    let received = 0;
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      received += (part.value as Uint8Array).length;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(received).toBe(big.length);
  });

  it("holds a body nobody reads at the socket (the server's writes back up), then hands it all over once read", async () => {
    const chunk = "y".repeat(64 * 1024);
    const chunks = 1024; // 64 MiB: far more than the kernel's buffers hold
    let written = 0;
    let backedUp!: () => void;
    const blocked = new Promise<void>((resolve) => (backedUp = resolve));
    const { url } = await serve({
      "/flood": (_request, response) => {
        const more = (): void => {
          while (written < chunks) {
            written++;
            if (!response.write(chunk)) {
              backedUp();
              response.once("drain", more);
              return;
            }
          }
          response.end();
        };
        more();
      },
    });
    const watched = watchNextAnswer();
    const response = await nodeFetch()(`${url}/flood`, bodiless("GET"));
    // A client that took every chunk as it came would have the whole body before it paused, if ever.
    await expect((await watched).pausedOrEnded).resolves.toBe("paused");
    await blocked;
    expect(written).toBeLessThan(chunks / 2);
    const reader = (response.body as NonNullable<FetchResponse["body"]>).getReader();
    let received = 0;
    for (let part = await reader.read(); !part.done; part = await reader.read()) received += (part.value as Uint8Array).length;
    expect(received).toBe(chunk.length * chunks);
  });

  it("rejects the read when the server breaks the connection off mid-body", async () => {
    let breakOff: (() => void) | undefined;
    const { url } = await serve({
      "/broken": (_request, response) => {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.write("data: partial\n\n");
        breakOff = () => response.socket?.destroy();
      },
    });
    const response = await nodeFetch()(`${url}/broken`, bodiless("GET"));
    const reader = (response.body as NonNullable<FetchResponse["body"]>).getReader();
    expect((await reader.read()).done).toBe(false);
    breakOff?.();
    await expect(reader.read()).rejects.toThrow(/aborted|closed before/);
    // And a later read says the same.
    await expect(reader.read()).rejects.toThrow(/aborted|closed before/);
  });

  it("cancels a body still coming by closing its connection, and keeps a whole one's connection for the next request", async () => {
    let closed = false;
    const { url, ports } = await serve({
      "/endless": (request, response) => {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.write(": open\n\n");
        request.socket.once("close", () => (closed = true));
      },
      "/empty": (_request, response) => response.writeHead(202).end(),
    });
    const fetchImpl = nodeFetch();
    const endless = await fetchImpl(`${url}/endless`, bodiless("GET"));
    await endless.body?.cancel();
    await expect.poll(() => closed).toBe(true);
    const watched = watchNextAnswer();
    const empty = await fetchImpl(`${url}/empty`, init());
    // Cancelled once it is whole: its connection goes back to the pool.
    await expect((await watched).pausedOrEnded).resolves.toBe("ended");
    await empty.body?.cancel();
    await (await fetchImpl(`${url}/empty`, init())).body?.cancel();
    expect(ports[1]).toBe(ports[2]);
  });

  it("stops a request when its signal aborts, before it is sent, before the answer and while the body comes", async () => {
    const { url, ports } = await serve({
      "/slow": () => undefined,
      "/stream": (_request, response) => {
        response.writeHead(200);
        response.write("start");
      },
    });
    const fetchImpl = nodeFetch();
    const already = new AbortController();
    already.abort();
    await expect(fetchImpl(`${url}/slow`, init({ signal: already.signal }))).rejects.toMatchObject({ name: "AbortError" });
    expect(ports).toEqual([]);
    const before = new AbortController();
    const pending = fetchImpl(`${url}/slow`, init({ signal: before.signal }));
    before.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    const during = new AbortController();
    const response = await fetchImpl(`${url}/stream`, init({ signal: during.signal }));
    const reader = (response.body as NonNullable<FetchResponse["body"]>).getReader();
    await reader.read();
    during.abort();
    await expect(reader.read()).rejects.toThrow(/aborted/);
  });

  it("survives a server that answers before taking the body and drops the connection (errors after the answer)", async () => {
    const { url } = await serve({ "/ok": (_request, response) => response.end("fine") });
    const server = createServer((request, response) => {
      response.writeHead(413).end("too large", () => request.socket.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const agent = new Agent({ keepAlive: true });
    cleanups.push(() => Promise.resolve(agent.destroy()));
    const fetchImpl = nodeFetch({ httpAgent: agent });
    const huge = "x".repeat(16 * 1024 * 1024);
    const outcomes = await Promise.all(
      [1, 2, 3].map(() =>
        fetchImpl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, init({ body: huge })).then(
          (response) => String(response.status),
          (error: NodeJS.ErrnoException) => String(error.code),
        ),
      ),
    );
    for (const outcome of outcomes) expect(["413", "EPIPE", "ECONNRESET"]).toContain(outcome);
    // Every dropped connection closed at this end too (after its error, if it had one), and none of that threw.
    await vi.waitFor(() => expect({ ...agent.sockets, ...agent.freeSockets }).toEqual({}));
    expect(await bodyText(await fetchImpl(`${url}/ok`, init()))).toBe("fine");
  });

  it("rejects when nothing listens, on http: and https: alike", async () => {
    const { url, server } = await serve({});
    server.close();
    server.closeAllConnections();
    const fetchImpl = nodeFetch();
    await expect(fetchImpl(`${url}/`, init())).rejects.toMatchObject({ code: "ECONNREFUSED" });
    await expect(fetchImpl(`${url.replace("http:", "https:")}/`, init())).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });
});

function echoServer(): MCPServer {
  const server = new MCPServer({ name: "s", version: "1" });
  server.tool("echo", { inputSchema: z.object({ text: z.string() }) }, async ({ text }, context) => {
    await context.progress(1, 2);
    return { content: [{ type: "text", text }] };
  });
  return server;
}

describe("the HTTP client transports over nodeFetch", () => {
  it.each([
    [
      "Streamable HTTP, SSE answers",
      () => streamableHttpHandler(echoServer()),
      (url: URL) => new StreamableHttpTransport(url, { fetchImpl: nodeFetch() }),
    ],
    [
      "Streamable HTTP, JSON answers",
      () => streamableHttpHandler(echoServer(), { enableJsonResponse: true }),
      (url: URL) => new StreamableHttpTransport(url, { fetchImpl: nodeFetch() }),
    ],
    ["legacy HTTP+SSE", () => sseHttpHandler(echoServer()), (url: URL) => new HttpSseTransport(url, { fetchImpl: nodeFetch() })],
  ] as const)("%s: a tool call with progress, then a clean close", async (_label, handlerOf, transportOf) => {
    const handler = handlerOf();
    const served = await serveHttp(handler, { port: 0 });
    cleanups.push(async () => {
      await handler.close();
      await served.close();
    });
    const client = new MCPClient({ name: "c", version: "1" }, { era: "session" });
    await client.connect(transportOf(new URL("/mcp", served.url)));
    const progress: number[] = [];
    await expect(
      client.callTool("echo", { text: "hi" }, { onProgress: ({ progress: done }) => progress.push(done) }),
    ).resolves.toMatchObject({ content: [{ type: "text", text: "hi" }] });
    expect(progress).toEqual([1]);
    await client.close();
    await expect(client.callTool("echo", { text: "again" })).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
  });
});

/**
 * Serves `handler` on 127.0.0.1 but holds its `holdPost`-th POST unanswered: `held` settles when that
 * POST arrives, `heldGone` when its connection closes with nothing sent (the client stopped it).
 */
async function holdingOnePost(
  handler: Parameters<typeof toNodeHandler>[0],
  holdPost: number,
): Promise<{ url: URL; held: Promise<void>; heldGone: Promise<void> }> {
  const serveRequest = toNodeHandler(handler);
  let posts = 0;
  let arrived!: () => void;
  let gone!: () => void;
  const held = new Promise<void>((resolve) => (arrived = resolve));
  const heldGone = new Promise<void>((resolve) => (gone = resolve));
  const server = createServer((request, response) => {
    if (request.method !== "POST" || ++posts !== holdPost) {
      serveRequest(request, response);
      return;
    }
    response.once("close", () => {
      if (!response.writableFinished) gone();
    });
    arrived();
  });
  return { url: new URL(`${await listening(server)}/mcp`), held, heldGone };
}

describe("the transports' per-request cancel, handed to nodeFetch as it is", () => {
  it("a call given up stops its POST on the wire (Streamable HTTP, JSON answers)", async () => {
    const handler = streamableHttpHandler(echoServer(), { enableJsonResponse: true });
    cleanups.push(() => handler.close());
    // POSTs: initialize, notifications/initialized, then the call.
    const { url, held, heldGone } = await holdingOnePost(handler, 3);
    const client = new MCPClient({ name: "c", version: "1" }, { era: "session" });
    await client.connect(new StreamableHttpTransport(url, { fetchImpl: nodeFetch() }));
    cleanups.push(() => client.close());
    const givenUp = new AbortController();
    const call = client.callTool("echo", { text: "hi" }, { signal: givenUp.signal });
    await held;
    givenUp.abort();
    await expect(call).rejects.toMatchObject({ code: MCP_CODES.REQUEST_CANCELLED });
    await heldGone;
    await expect(client.callTool("echo", { text: "next" })).resolves.toMatchObject({ content: [{ type: "text", text: "next" }] });
  });

  it.each([
    [
      "Streamable HTTP",
      () => streamableHttpHandler(echoServer()),
      (url: URL) => new StreamableHttpTransport(url, { fetchImpl: nodeFetch() }),
    ],
    ["legacy HTTP+SSE", () => sseHttpHandler(echoServer()), (url: URL) => new HttpSseTransport(url, { fetchImpl: nodeFetch() })],
  ] as const)("%s: close() stops the POSTs still under way", async (_label, handlerOf, transportOf) => {
    const handler = handlerOf();
    cleanups.push(() => handler.close());
    const { url, held, heldGone } = await holdingOnePost(handler, 3);
    const client = new MCPClient({ name: "c", version: "1" }, { era: "session" });
    await client.connect(transportOf(url));
    const failure = client.callTool("echo", { text: "hi" }).then(
      () => "answered",
      (error: unknown) => error,
    );
    await held;
    await client.close();
    await heldGone;
    expect(await failure).toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
  });
});

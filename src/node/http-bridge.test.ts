import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Gate, initializeMessage, testServer } from "../transport/http-server/http-server.test-helpers.js";
import { sseHttpHandler, streamableHttpHandler } from "../transport/http-server/index.js";
import { serveHttp, type ServedHttp } from "./http-serve.js";
import type { FetchHandler } from "./http-bridge.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

async function served(handler: FetchHandler): Promise<ServedHttp> {
  const server = await serveHttp(handler, { port: 0 });
  cleanups.push(() => server.close());
  return server;
}

interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One request over a real socket with node:http (no fetch in between), read to its end. */
function send(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: options.method ?? "GET", headers: options.headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode as number, headers: response.headers, body }));
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(options.body);
  });
}

/** Raw bytes over TCP, for requests node:http would not let a client send; resolves with the status line. */
function sendRaw(url: string, text: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => socket.write(text));
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (received += chunk));
    socket.on("end", () => resolve(received.split("\r\n")[0] as string));
    socket.on("error", reject);
  });
}

describe("toNodeHandler", () => {
  it("hands the handler the method, URL, headers and streamed body, and writes its answer back", async () => {
    const seen: Array<{ method: string; url: string; header: string | null; body: string }> = [];
    const handler = async (request: Request) => {
      seen.push({ method: request.method, url: request.url, header: request.headers.get("x-probe"), body: await request.text() });
      return new Response("made", { status: 201, headers: { "x-answer": "yes" } });
    };
    const { url } = await served(handler);
    const answer = await send(`${url}path?q=1`, { method: "POST", headers: { "x-probe": "p" }, body: "payload" });
    expect(answer).toMatchObject({ status: 201, body: "made", headers: { "x-answer": "yes" } });
    expect(seen).toEqual([{ method: "POST", url: `${url}path?q=1`, header: "p", body: "payload" }]);
  });

  it("takes an object with fetch, answers bodiless responses, and keeps each Set-Cookie", async () => {
    const { url } = await served({
      fetch: async () =>
        new Response(null, {
          status: 202,
          headers: [
            ["set-cookie", "a=1"],
            ["set-cookie", "b=2"],
          ],
        }),
    });
    const answer = await send(url, { method: "DELETE" });
    expect(answer.status).toBe(202);
    expect(answer.headers["set-cookie"]).toEqual(["a=1", "b=2"]);
  });

  it("answers 400 to a request that cannot become a Request, and serves HTTP/1.0 without Host", async () => {
    const { url } = await served(async (request) => new Response(new URL(request.url).host));
    expect(await sendRaw(url, "GET / HTTP/1.1\r\nHost: [nonsense\r\nConnection: close\r\n\r\n")).toBe("HTTP/1.1 400 Bad Request");
    expect(await sendRaw(url, "TRACE / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")).toBe("HTTP/1.1 400 Bad Request");
    expect(await sendRaw(url, "GET / HTTP/1.0\r\n\r\n")).toBe("HTTP/1.1 200 OK");
  });

  it("answers 500 when the handler fails, and cuts the connection when its body fails mid-way", async () => {
    const failing = await served(() => Promise.reject(new Error("handler broke")));
    expect(await send(failing.url)).toMatchObject({ status: 500, body: expect.stringContaining("handler broke") });
    const breaking = await served(async () => {
      let step = 0;
      const body = new ReadableStream<Uint8Array>({
        pull: (controller) =>
          step++ === 0 ? controller.enqueue(new TextEncoder().encode("part")) : controller.error(new Error("body broke")),
      });
      return new Response(body);
    });
    await expect(send(breaking.url)).rejects.toThrow("aborted");
  });

  it("streams chunks as they come, and slows down for a slow reader instead of buffering everything", async () => {
    let produced = 0;
    const chunk = new Uint8Array(64 * 1024).fill(97);
    const { url } = await served(
      async () =>
        new Response(
          new ReadableStream<Uint8Array>({ pull: (controller) => (produced++ < 64 ? controller.enqueue(chunk) : controller.close()) }),
        ),
    );
    const received = await new Promise<number>((resolve, reject) => {
      httpRequest(url, (response) => {
        let total = 0;
        response.pause();
        setTimeout(() => {
          // While nobody read, the bridge waited for the socket to drain rather than pulling all 4 MiB.
          expect(produced).toBeLessThan(64);
          response.on("data", (data: Buffer) => (total += data.length));
          response.on("end", () => resolve(total));
          response.resume();
        }, 100);
      })
        .on("error", reject)
        .end();
    });
    expect(received).toBe(64 * chunk.length);
  });

  it("tells the handler a client went away: the request's signal aborts and the body is cancelled", async () => {
    const aborted = new Gate();
    const cancelled = new Gate();
    const { url } = await served(async (request) => {
      request.signal.addEventListener("abort", () => aborted.open());
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(new TextEncoder().encode("first\n")),
        cancel: () => {
          cancelled.open();
          throw new Error("cannot cancel cleanly");
        },
      });
      return new Response(body);
    });
    await new Promise<void>((resolve, reject) => {
      const outgoing = httpRequest(url, (response) => response.once("data", () => (outgoing.destroy(), resolve())));
      outgoing.on("error", reject).end();
    });
    await expect(Promise.all([aborted.opened, cancelled.opened])).resolves.toEqual([undefined, undefined]);
  });

  it("stops writing when the client leaves while the bridge waits for the socket to drain", async () => {
    const cancelled = new Gate();
    const chunk = new Uint8Array(256 * 1024);
    const { url } = await served(
      async () =>
        new Response(new ReadableStream<Uint8Array>({ pull: (controller) => controller.enqueue(chunk), cancel: () => cancelled.open() })),
    );
    await new Promise<void>((resolve, reject) => {
      const outgoing = httpRequest(url, (response) => {
        response.pause();
        setTimeout(() => (outgoing.destroy(), resolve()), 50);
      });
      outgoing.on("error", () => undefined);
      outgoing.on("close", () => undefined);
      outgoing.end();
      outgoing.once("error", reject);
    });
    await expect(cancelled.opened).resolves.toBeUndefined();
  });
});

describe("MCP handlers over real HTTP", () => {
  it("answers a Streamable HTTP initialize with its SSE stream and session id", async () => {
    const handler = streamableHttpHandler(testServer());
    cleanups.push(() => handler.close());
    const { url } = await served(handler);
    const answer = await send(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(initializeMessage()),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("text/event-stream");
    expect(answer.headers["mcp-session-id"]).toMatch(/^[0-9a-f]{64}$/);
    expect(answer.body).toContain('"protocolVersion":"2025-11-25"');
  });

  it("ends a legacy SSE session when its client disconnects", async () => {
    const handler = sseHttpHandler(testServer());
    cleanups.push(() => handler.close());
    const { url } = await served(handler);
    await new Promise<void>((resolve, reject) => {
      const outgoing = httpRequest(url, { headers: { accept: "text/event-stream" } }, (response) =>
        response.once("data", () => (outgoing.destroy(), resolve())),
      );
      outgoing.on("error", reject).end();
    });
    await expect.poll(() => handler.sessionCount).toBe(0);
  });
});

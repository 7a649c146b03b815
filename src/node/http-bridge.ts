import type { IncomingMessage, ServerResponse } from "node:http";
import { describeThrown } from "../error-codes/mcp-error.js";
import type { HttpExchange, HttpReply } from "../transport/http-server/http-server.types.js";
import { NodeExchange, writeReply } from "./node-exchange.js";

/** A web-standard handler: a function, or an object with `fetch` (what `streamableHttpHandler` returns). */
export type FetchHandler = ((request: Request) => Promise<Response>) | { fetch(request: Request): Promise<Response> };

/** A handler that also serves exchanges (`streamableHttpHandler`, `sseHttpHandler`): Node serves it without web objects. */
interface ExchangeHandler {
  handle(exchange: HttpExchange): Promise<HttpReply>;
}

/**
 * Serves a handler from `node:http`. Our handlers (they have `handle`) are fed straight from Node's
 * request and write straight to its response. Any other `fetch` handler gets a `Request` (its body
 * streamed, its signal aborted when the client goes away) and its `Response` is written back chunk
 * by chunk as it is produced — SSE events reach the client when they are sent, and a client that
 * disconnects cancels the body, releasing what the handler holds for it.
 */
export function toNodeHandler(handler: FetchHandler): (req: IncomingMessage, res: ServerResponse) => void {
  if (typeof handler === "object" && "handle" in handler && typeof handler.handle === "function") {
    const exchanges = handler as ExchangeHandler;
    return (req, res) => void serveExchange(exchanges, req, res);
  }
  const fetch = typeof handler === "function" ? handler : (request: Request) => handler.fetch(request);
  return (req, res) => void serve(fetch, req, res);
}

async function serveExchange(handler: ExchangeHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let exchange: NodeExchange;
  try {
    exchange = new NodeExchange(req, res);
  } catch (error) {
    badRequest(res, error);
    return;
  }
  try {
    writeReply(await handler.handle(exchange), res);
  } catch (error) {
    failed(res, error);
  }
}

async function serve(fetch: (request: Request) => Promise<Response>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const clientGone = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) clientGone.abort();
  });
  let request: Request;
  try {
    request = toRequest(req, clientGone.signal);
  } catch (error) {
    badRequest(res, error);
    return;
  }
  try {
    await writeResponse(await fetch(request), res);
  } catch (error) {
    failed(res, error);
  }
}

/** A handler that threw, or a reply Node refused to write: 500 while nothing is sent, else the connection ends. */
function failed(res: ServerResponse, error: unknown): void {
  if (res.headersSent) res.destroy(error as Error);
  else internalError(res, error);
}

function badRequest(res: ServerResponse, error: unknown): void {
  res.writeHead(400, "Bad Request", { "content-type": "text/plain" }).end(`Bad Request: ${describeThrown(error)}`);
}

function internalError(res: ServerResponse, error: unknown): void {
  res.writeHead(500, "Internal Server Error", { "content-type": "text/plain" }).end(`Internal Server Error: ${describeThrown(error)}`);
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  // A request without Host (HTTP/1.0) is about this server; one with a Host that is no host name is refused (400).
  const url = new URL(req.url as string, `http://${req.headers.host ?? "localhost"}`);
  const headers = new Headers();
  for (let index = 0; index < req.rawHeaders.length; index += 2)
    headers.append(req.rawHeaders[index] as string, req.rawHeaders[index + 1] as string);
  const method = req.method as string;
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(url, {
    method,
    headers,
    signal,
    ...(hasBody ? { body: process.getBuiltinModule("node:stream").Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  });
}

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const cookies: string[] = [];
  response.headers.forEach((value, name) => {
    if (name === "set-cookie") cookies.push(value);
    else res.setHeader(name, value);
  });
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  res.writeHead(response.status);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  // A body that fails to cancel has nothing left to tell anyone: its client is gone.
  res.once("close", () => void reader.cancel().catch(() => undefined));
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    if (!res.write(chunk.value)) await drained(res);
  }
  res.end();
}

/** Waits until the socket takes more (or is gone), so a slow client slows the handler instead of filling memory. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { describeThrown } from "../error-codes/mcp-error.js";

/** A web-standard handler: a function, or an object with `fetch` (what `streamableHttpHandler` returns). */
export type FetchHandler = ((request: Request) => Promise<Response>) | { fetch(request: Request): Promise<Response> };

/**
 * Serves a web-standard handler from `node:http`: the IncomingMessage becomes a `Request` (its body
 * streamed, its signal aborted when the client goes away) and the `Response` is written back chunk
 * by chunk as it is produced — SSE events reach the client when they are sent, and a client that
 * disconnects cancels the body, releasing what the handler holds for it.
 */
export function toNodeHandler(handler: FetchHandler): (req: IncomingMessage, res: ServerResponse) => void {
  const fetch = typeof handler === "function" ? handler : (request: Request) => handler.fetch(request);
  return (req, res) => void serve(fetch, req, res);
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
    res.writeHead(400, { "content-type": "text/plain" }).end(`Bad Request: ${describeThrown(error)}`);
    return;
  }
  try {
    await writeResponse(await fetch(request), res);
  } catch (error) {
    if (res.headersSent) res.destroy(error as Error);
    else res.writeHead(500, { "content-type": "text/plain" }).end(`Internal Server Error: ${describeThrown(error)}`);
  }
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  // A request without Host (HTTP/1.0) is about this server; one with a Host that is no host name is refused (400).
  const url = new URL(req.url as string, `http://${req.headers.host ?? "localhost"}`);
  const headers = new Headers();
  for (let index = 0; index < req.rawHeaders.length; index += 2) headers.append(req.rawHeaders[index] as string, req.rawHeaders[index + 1] as string);
  const method = req.method as string;
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(url, { method, headers, signal, ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {}) });
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

import type { IncomingMessage, ServerResponse } from "node:http";
import { describeThrown } from "../error-codes/mcp-error.js";
import type { BodyText, HttpExchange, HttpReply } from "../transport/http-server/http-server.types.js";

/**
 * A `node:http` request as a handler's core reads it, with no web objects: headers from Node's
 * parsed table, the body read from the stream itself, the client's departure from the response's
 * `close`. A `Request` is built only when `authenticate` asks for one.
 */
export class NodeExchange implements HttpExchange {
  readonly method: string;
  readonly url: URL;
  #request: Request | undefined;

  /** Throws when the request's Host and path make no URL (the caller answers 400). */
  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    this.method = req.method as string;
    // A request without Host (HTTP/1.0) is about this server.
    this.url = new URL(req.url as string, `http://${req.headers.host ?? "localhost"}`);
  }

  header(name: string): string | null {
    const value = this.req.headers[name];
    return value === undefined ? null : joined(value);
  }

  headers(): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(this.req.headers)) headers[name] = joined(value as string | string[]);
    return headers;
  }

  text(maxBytes: number): Promise<BodyText> {
    return readText(this.req, maxBytes, () => this.res.setHeader("connection", "close"));
  }

  onClientGone(listener: () => void): () => void {
    return whenClientGone(this.res, listener);
  }

  request(): Request {
    this.#request ??= new Request(this.url, { method: this.method, headers: this.headers() });
    return this.#request;
  }
}

function joined(value: string | string[]): string {
  return typeof value === "string" ? value : value.join(", ");
}

/** Calls `listener` when the response closes before it was all sent; returns what removes it. */
export function whenClientGone(res: ServerResponse, listener: () => void): () => void {
  const closed = () => {
    if (!res.writableFinished) listener();
  };
  res.once("close", closed);
  return () => res.off("close", closed);
}

/**
 * Reads the body whole as UTF-8. Past `maxBytes` it stops keeping what comes (the rest is
 * discarded) and `refuse` marks the connection to close after the answer.
 */
function readText(req: IncomingMessage, maxBytes: number, refuse: () => void): Promise<BodyText> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (result: BodyText) => {
      req.off("data", onData).off("end", onEnd).off("error", onError);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received <= maxBytes) chunks.push(chunk);
      else {
        refuse();
        finish({ ok: false, tooLarge: true });
      }
    };
    const onEnd = () => finish(decoded(chunks));
    // A connection lost mid-body is an "aborted" error here (Node emits it before "close").
    const onError = (error: unknown) => finish({ ok: false, tooLarge: false, detail: describeThrown(error) });
    req.on("data", onData).on("end", onEnd).on("error", onError);
  });
}

function decoded(chunks: Buffer[]): BodyText {
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)) };
  } catch (error) {
    return { ok: false, tooLarge: false, detail: describeThrown(error) };
  }
}

/**
 * Writes a reply: a text at once, with its length; an event stream as it is produced, holding no
 * more than its bound for a client that stops reading. What a stream gets in the same turn of the
 * event loop as its headers (a POST answered at once) leaves in one write.
 */
export function writeReply(reply: HttpReply, res: ServerResponse): void {
  const body = reply.body;
  if (typeof body !== "object") {
    res.writeHead(reply.status, body === undefined ? reply.headers : { ...reply.headers, "content-length": String(Buffer.byteLength(body)) });
    res.end(body);
    return;
  }
  res.writeHead(reply.status, reply.headers);
  res.cork();
  let written = false;
  setImmediate(() => {
    res.uncork();
    // Nothing written yet: the headers go now, so the client knows its stream is open.
    if (!written) res.flushHeaders();
  });
  const clientGone = body.open({
    write(text) {
      written = true;
      res.write(text);
      return res.writableLength;
    },
    end: () => {
      written = true;
      res.end();
    },
    abort: () => res.destroy(),
  });
  whenClientGone(res, clientGone);
}

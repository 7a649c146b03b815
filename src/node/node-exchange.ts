import type { IncomingMessage, ServerResponse } from "node:http";
import { describeThrown } from "../error-codes/mcp-error.js";
import type { BodyText, EventSink, HttpExchange, HttpReply } from "../transport/http-server/http-server.types.js";
import { withFields } from "../types/objects.js";

/**
 * A `node:http` request as a handler's core reads it, with no web objects: headers from Node's
 * parsed table, the body read from the stream itself, the client's departure from the response's
 * `close`. A `Request` is built only when `authenticate` asks for one.
 */
export class NodeExchange implements HttpExchange {
  readonly method: string;
  #url: URL | undefined;
  #request: Request | undefined;

  /** Throws when the request's Host and path make no URL (the caller answers 400). */
  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    this.method = req.method as string;
    // Most requests never read their URL: it is parsed here only when nothing cheaper tells it parses.
    if (!surelyParses(req.url as string, req.headers.host)) this.#url = parseUrl(req);
  }

  /** The request's URL, parsed when first read. */
  get url(): URL {
    this.#url ??= parseUrl(this.req);
    return this.#url;
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

function parseUrl(req: IncomingMessage): URL {
  const url = new URL(req.url as string, baseOf(req.headers.host));
  if (isPathOnly(req.url as string)) lastGoodHost = req.headers.host;
  return url;
}

/** A request without Host (HTTP/1.0) is about this server. */
function baseOf(host: string | undefined): string {
  return `http://${host ?? "localhost"}`;
}

/** The last Host that made a URL: the requests of one client all carry the same. */
let lastGoodHost: string | undefined;

/** Whether `target` parses against `host` for sure, with no parsing: a plain path, and a Host known good. */
function surelyParses(target: string, host: string | undefined): boolean {
  return host !== undefined && host === lastGoodHost && isPathOnly(target);
}

// A path, query and fragment cannot fail to parse; a target starting `//` or `/\` (after tabs and
// line breaks, which the parser drops) names a host of its own, which can.
const PATH_ONLY = /^\/(?![/\\])[^\t\n\r]*$/;

function isPathOnly(target: string): boolean {
  return PATH_ONLY.test(target);
}

/** A header of a node:http message as one text: repeated ones (an array) joined as `Headers` joins them. */
export function joined(value: string | string[]): string {
  return typeof value === "string" ? value : value.join(", ");
}

/** Calls `listener` when the response closes before it was all sent (at once if it has); returns what removes it. */
export function whenClientGone(res: ServerResponse, listener: () => void): () => void {
  const closed = () => {
    if (!res.writableFinished) listener();
  };
  res.once("close", closed);
  // The client may have left while the handler worked (a slow authenticate): "close" will not come again.
  if (res.closed) closed();
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

// Shared: decoding whole texts keeps no state between them.
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

function decoded(chunks: Buffer[]): BodyText {
  try {
    return { ok: true, text: strictUtf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)) };
  } catch (error) {
    return { ok: false, tooLarge: false, detail: describeThrown(error) };
  }
}

/**
 * Writes a reply: a text at once, with its length; an event stream as it is produced, holding no
 * more than its bound for a client that stops reading.
 */
export function writeReply(reply: HttpReply, res: ServerResponse): void {
  const body = reply.body;
  if (typeof body === "object") {
    whenClientGone(res, body.open(new NodeEventSink(reply, res)));
    return;
  }
  res.writeHead(
    reply.status,
    body === undefined ? reply.headers : withFields(reply.headers, { "content-length": String(Buffer.byteLength(body)) }),
  );
  res.end(body);
}

/**
 * An event stream written to a `ServerResponse`. What comes in the first turn of the event loop is
 * held and leaves with the headers: a stream that ends by then (a POST answered at once) is one
 * plain body with its length, like a JSON answer; one that goes on is sent chunk by chunk.
 */
class NodeEventSink implements EventSink {
  /** The text of the first turn, sent with the headers; undefined once they are sent. */
  #held: string | undefined = "";
  readonly #firstTurn: ReturnType<typeof setImmediate>;

  constructor(
    private readonly reply: HttpReply,
    private readonly res: ServerResponse,
  ) {
    this.#firstTurn = setImmediate(() => this.#start());
  }

  write(text: string): number {
    if (this.#held === undefined) {
      this.res.write(text);
      return this.res.writableLength;
    }
    this.#held += text;
    return this.#held.length;
  }

  end(): void {
    clearImmediate(this.#firstTurn);
    const held = this.#held;
    if (held === undefined) {
      this.res.end();
      return;
    }
    this.#held = undefined;
    this.res.writeHead(this.reply.status, withFields(this.reply.headers, { "content-length": String(Buffer.byteLength(held)) }));
    this.res.end(held);
  }

  abort(): void {
    clearImmediate(this.#firstTurn);
    this.res.destroy();
  }

  #start(): void {
    const held = this.#held as string;
    this.#held = undefined;
    this.res.writeHead(this.reply.status, this.reply.headers);
    // Nothing to send yet: the headers go alone, so the client knows its stream is open.
    if (held === "") this.res.flushHeaders();
    else this.res.write(held);
  }
}

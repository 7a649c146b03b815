// Test support for the HTTP server handlers: requests as clients build them, an SSE reader with
// bounded waits, and a server whose tools let a test hold requests open.
import * as z from "zod";
import { LATEST_PROTOCOL_VERSION } from "../../constants/index.js";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { MCPServerOptions } from "../../server/mcp-server/mcp-server.types.js";
import type { JsonRpcId } from "../../types/types.js";

export const URL_BASE = "http://127.0.0.1/mcp";
export const ACCEPT_BOTH = "application/json, text/event-stream";

export interface RequestParts {
  readonly method?: string;
  readonly body?: unknown;
  readonly session?: string;
  readonly version?: string;
  readonly headers?: Record<string, string>;
  readonly signal?: AbortSignal;
  readonly url?: string;
}

/** A request as a Streamable HTTP client sends it: JSON body, both media types accepted. */
export function httpRequest(parts: RequestParts = {}): Request {
  const method = parts.method ?? "POST";
  const headers: Record<string, string> = { accept: method === "POST" ? ACCEPT_BOTH : "text/event-stream" };
  if (method === "POST") headers["content-type"] = "application/json";
  if (parts.session !== undefined) headers["mcp-session-id"] = parts.session;
  if (parts.version !== undefined) headers["mcp-protocol-version"] = parts.version;
  const body = parts.body === undefined ? undefined : typeof parts.body === "string" ? parts.body : JSON.stringify(parts.body);
  return new Request(parts.url ?? URL_BASE, {
    method,
    headers: { ...headers, ...parts.headers },
    ...(body === undefined ? {} : { body }),
    ...(parts.signal ? { signal: parts.signal } : {}),
  });
}

export function rpc(id: JsonRpcId, method: string, params?: Record<string, unknown>): Record<string, unknown> {
  return params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
}

export function notification(method: string, params?: Record<string, unknown>): Record<string, unknown> {
  return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
}

export function initializeMessage(
  version: string = LATEST_PROTOCOL_VERSION,
  capabilities: Record<string, unknown> = {},
  id: JsonRpcId = 0,
): Record<string, unknown> {
  return rpc(id, "initialize", { protocolVersion: version, capabilities, clientInfo: { name: "test-client", version: "1.0.0" } });
}

/** Every read loop of a test ends: a stream that keeps sending is a failure, not a hang. */
const MAX_EVENTS_READ = 1000;

export interface SseEventRead {
  readonly event?: string;
  readonly id?: string;
  readonly retry?: number;
  readonly data?: string;
  readonly comment?: string;
}

/** Reads SSE events from a response body; every wait is bounded, so a missing event fails the test instead of hanging it. */
export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  #buffer = "";
  #ended = false;
  #reads = 0;

  constructor(body: ReadableStream<Uint8Array> | null) {
    if (!body) throw new Error("The response has no body");
    this.#reader = body.getReader();
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** The next event (comments included), or undefined once the stream ended. */
  async next(timeoutMs = 2000): Promise<SseEventRead | undefined> {
    if (++this.#reads > MAX_EVENTS_READ) throw new Error(`More than ${MAX_EVENTS_READ} SSE events: the stream does not end`);
    for (;;) {
      const boundary = this.#buffer.indexOf("\n\n");
      if (boundary >= 0) {
        const block = this.#buffer.slice(0, boundary);
        this.#buffer = this.#buffer.slice(boundary + 2);
        return parseBlock(block);
      }
      if (this.#ended) return undefined;
      const chunk = await withTimeout(this.#reader.read(), timeoutMs, "the next SSE event");
      if (chunk.done) this.#ended = true;
      else this.#buffer += this.#decoder.decode(chunk.value, { stream: true });
    }
  }

  /** The next event that carries a JSON-RPC message, parsed (priming events and comments skipped). */
  async nextMessage(timeoutMs = 2000): Promise<Record<string, unknown> | undefined> {
    for (let event = await this.next(timeoutMs); event !== undefined; event = await this.next(timeoutMs)) {
      if (event.data) return JSON.parse(event.data) as Record<string, unknown>;
    }
    return undefined;
  }

  /** Every message until the stream ends. */
  async rest(timeoutMs = 2000): Promise<Record<string, unknown>[]> {
    const messages: Record<string, unknown>[] = [];
    for (let message = await this.nextMessage(timeoutMs); message !== undefined; message = await this.nextMessage(timeoutMs))
      messages.push(message);
    return messages;
  }

  /** Every event (ids, priming, messages) until the stream ends. */
  async allEvents(timeoutMs = 2000): Promise<SseEventRead[]> {
    const events: SseEventRead[] = [];
    for (let event = await this.next(timeoutMs); event !== undefined; event = await this.next(timeoutMs)) events.push(event);
    return events;
  }

  /** The client goes away. */
  async cancel(): Promise<void> {
    await this.#reader.cancel();
  }
}

function parseBlock(block: string): SseEventRead {
  const event: { -readonly [K in keyof SseEventRead]: SseEventRead[K] } = {};
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) event.comment = line.slice(1).trim();
    const [field, ...rest] = line.split(":");
    const value = rest.join(":").replace(/^ /, "");
    if (field === "event") event.event = value;
    if (field === "id") event.id = value;
    if (field === "retry") event.retry = Number(value);
    if (field === "data") data.push(value);
  }
  if (data.length > 0) event.data = data.join("\n");
  return event;
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms waiting for ${what}`)), ms)),
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The JSON-RPC messages of an answer, whether it came as SSE or JSON. */
export async function messagesOf(response: Response): Promise<Record<string, unknown>[]> {
  if (response.headers.get("content-type") === "application/json") {
    const body = (await response.json()) as Record<string, unknown> | Record<string, unknown>[];
    return Array.isArray(body) ? body : [body];
  }
  return new SseReader(response.body).rest();
}

/** A promise a test settles by hand: holds a tool call open until released. */
export class Gate {
  readonly opened: Promise<void>;
  #open!: () => void;
  entered = 0;

  constructor() {
    this.opened = new Promise((resolve) => (this.#open = resolve));
  }

  open(): void {
    this.#open();
  }
}

/** A server with tools for the transport tests: echo, progress steps, a gate a test opens, and server-to-client calls. */
export function testServer(gate: Gate = new Gate(), options: MCPServerOptions = {}): MCPServer {
  const server = new MCPServer({ name: "http-test-server", version: "1.0.0" }, options);
  server.tool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }));
  server.tool("steps", { inputSchema: z.object({ count: z.number() }) }, async ({ count }, ctx) => {
    for (let step = 1; step <= count; step++) await ctx.progress(step, count, `step ${step}`);
    return { content: [{ type: "text", text: `${count} steps` }] };
  });
  server.tool("wait", {}, async (_args, ctx) => {
    gate.entered++;
    await ctx.progress(0, 1, "waiting");
    await gate.opened;
    return { content: [{ type: "text", text: `waited in ${ctx.session?.id}` }] };
  });
  server.tool("ask", {}, async (_args, ctx) => {
    const answer = await ctx.createMessage({ messages: [{ role: "user", content: { type: "text", text: "hi?" } }], maxTokens: 5 });
    return { content: [{ type: "text", text: `model said ${JSON.stringify(answer.content)}` }] };
  });
  server.resource("readme", "file:///readme.md", { mimeType: "text/markdown" }, (uri) => ({ contents: [{ uri, text: "# readme" }] }));
  return server;
}

/** Opens a session the way a client does (initialize, then notifications/initialized); resolves with its id. */
export async function openSession(
  handler: { fetch(request: Request): Promise<Response> },
  version: string = LATEST_PROTOCOL_VERSION,
  capabilities: Record<string, unknown> = {},
): Promise<string> {
  const response = await handler.fetch(httpRequest({ body: initializeMessage(version, capabilities) }));
  const id = response.headers.get("mcp-session-id");
  if (response.status !== 200 || id === null) throw new Error(`initialize failed: HTTP ${response.status}`);
  await messagesOf(response);
  const initialized = await handler.fetch(httpRequest({ body: notification("notifications/initialized"), session: id, version }));
  if (initialized.status !== 202) throw new Error(`notifications/initialized failed: HTTP ${initialized.status}`);
  return id;
}

/** The JSON-RPC error body of a refused HTTP request. */
export async function errorOf(response: Response): Promise<{ code: number; message: string }> {
  const body = (await response.json()) as { error: { code: number; message: string } };
  return body.error;
}

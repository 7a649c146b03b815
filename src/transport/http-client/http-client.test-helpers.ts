// Test doubles for the HTTP client transports: a scripted fetch that records every request, and
// builders for the responses and SSE events a server sends.
import type { MCPError } from "../../error-codes/mcp-error.js";
import type { TransportReceiver } from "../transport/transport.types.js";
import type { FetchInit, FetchLike } from "./http-options.js";

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  /** Lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly signal: AbortSignal;
  /** What the fetch was given, as it was given. */
  readonly init: FetchInit;
}

export type Answer = (request: SeenRequest) => Response | Promise<Response>;

/** What an unscripted request gets: GET has no stream (405), DELETE is fine, POST is a test bug. */
const DEFAULT_ANSWERS: Readonly<Record<string, Answer>> = {
  GET: () => new Response(null, { status: 405 }),
  DELETE: () => new Response(null, { status: 200 }),
};

/** A fetch double: answers each method from its own queue, in order, and records what it was asked. */
export class FakeServer {
  readonly requests: SeenRequest[] = [];
  readonly #queues = new Map<string, Answer[]>();

  /** Queues answers for the next requests of `method`. */
  on(method: string, ...answers: Answer[]): this {
    this.#queues.set(method, [...(this.#queues.get(method) ?? []), ...answers]);
    return this;
  }

  /** The requests of one method, in order. */
  sent(method: string): SeenRequest[] {
    return this.requests.filter((request) => request.method === method);
  }

  readonly fetch: FetchLike = async (url, init) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const method = init.method;
    const body = typeof init.body === "string" ? (JSON.parse(init.body) as unknown) : undefined;
    const request: SeenRequest = { method, url, headers, body, signal: init.signal, init };
    this.requests.push(request);
    const answer = this.#queues.get(method)?.shift() ?? DEFAULT_ANSWERS[method];
    if (!answer) return new Response(`no scripted answer for ${method}`, { status: 599 });
    return answer(request);
  };
}

const encoder = new TextEncoder();

/** A byte stream of the given chunks that then ends (or fails with `failure`). */
export function streamOf(chunks: readonly (string | Uint8Array)[], failure?: Error): ReadableStream<Uint8Array> {
  const queue = chunks.map((chunk) => (typeof chunk === "string" ? encoder.encode(chunk) : chunk));
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift();
      if (next) controller.enqueue(next);
      else if (failure) controller.error(failure);
      else controller.close();
    },
  });
}

/** A stream the test writes to by hand; `cancelled` tells whether the reader gave up on it. */
export function liveStream(): {
  stream: ReadableStream<Uint8Array>;
  push(text: string): void;
  end(): void;
  fail(error: Error): void;
  readonly cancelled: boolean;
} {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    start: (given) => {
      controller = given;
    },
    cancel: () => {
      cancelled = true;
    },
  });
  return {
    stream,
    push: (text) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
    fail: (error) => controller.error(error),
    get cancelled() {
      return cancelled;
    },
  };
}

export function jsonAnswer(body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json", ...headers } });
}

export function sseAnswer(body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}): Response {
  return new Response(typeof body === "string" ? streamOf([body]) : body, {
    status: 200,
    headers: { "content-type": "text/event-stream", ...headers },
  });
}

export function accepted(): Response {
  return new Response(null, { status: 202 });
}

/** One SSE event's text. */
export function sseEvent(fields: { id?: string; event?: string; data?: unknown; retry?: number }): string {
  let text = "";
  if (fields.event !== undefined) text += `event: ${fields.event}\n`;
  if (fields.id !== undefined) text += `id: ${fields.id}\n`;
  if (fields.retry !== undefined) text += `retry: ${fields.retry}\n`;
  if (fields.data !== undefined) text += `data: ${typeof fields.data === "string" ? fields.data : JSON.stringify(fields.data)}\n`;
  return `${text}\n`;
}

export const request = (id: number | string, method: string, params?: Record<string, unknown>) =>
  params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
export const notification = (method: string, params?: Record<string, unknown>) =>
  params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
export const result = (id: number | string, value: Record<string, unknown> = {}) => ({ jsonrpc: "2.0", id, result: value });
export const initializeRequest = (id: number | string = 1) =>
  request(id, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } });
export const initializeResult = (id: number | string = 1, protocolVersion = "2025-06-18") =>
  result(id, { protocolVersion, capabilities: {}, serverInfo: { name: "s", version: "1" } });

/** A receiver that records what it is given. */
export function recorder(): {
  messages: unknown[];
  malformed: MCPError[];
  closes: Array<MCPError | undefined>;
  receiver: TransportReceiver;
} {
  const messages: unknown[] = [];
  const malformed: MCPError[] = [];
  const closes: Array<MCPError | undefined> = [];
  const receiver: TransportReceiver = {
    onMessage: (message) => messages.push(message),
    onMalformed: (error) => malformed.push(error),
    onClose: (error) => closes.push(error),
  };
  return { messages, malformed, closes, receiver };
}

// The HTTP client transports' `fetch` on node:http / node:https: the same requests over keep-alive
// connections, answered with what the transports read (status, headers, a body read chunk by
// chunk) instead of web `Response` objects and streams, which cost more than the request itself.
import type { Agent, IncomingMessage, RequestOptions } from "node:http";
import type { Socket } from "node:net";
import type { ChunkReader, FetchBody, FetchInit, FetchLike, FetchResponse } from "../transport/http-client/index.js";
import { withFields } from "../types/objects.js";
import { TAKES_CANCEL_SIGNALS, type CancelSignal } from "../transport/http-client/request-cancel.js";
import { joined } from "./node-exchange.js";

export interface NodeFetchOptions {
  /** The agent for http: URLs (default: one with keep-alive, made by this `nodeFetch`). */
  readonly httpAgent?: Agent;
  /** The agent for https: URLs (default: one with keep-alive, made by this `nodeFetch`). */
  readonly httpsAgent?: Agent;
}

/**
 * A `fetchImpl` for `StreamableHttpTransport` and `HttpSseTransport` on Node: about a quarter of
 * the CPU per request of the platform `fetch` (bench/README.md). It takes the transports' light
 * per-request cancel as its signal (`TAKES_CANCEL_SIGNALS`); any `AbortSignal` works too.
 */
export function nodeFetch(options: NodeFetchOptions = {}): FetchLike {
  let httpAgent = options.httpAgent;
  let httpsAgent = options.httpsAgent;
  // The last URL's target: a transport posts to one URL (a cache per URL would grow with the legacy
  // transport's per-session endpoints).
  let lastUrl = "";
  let lastTarget: Target | undefined;
  // The modules are loaded here, not imported: a process that never makes a request never loads them.
  const targetOf = (url: string): Target => {
    const where = process.getBuiltinModule("node:url").urlToHttpOptions(new URL(url));
    if (where.protocol === "https:") {
      const https = process.getBuiltinModule("node:https");
      return { request: https.request, agent: (httpsAgent ??= new https.Agent({ keepAlive: true })), where };
    }
    const http = process.getBuiltinModule("node:http");
    return { request: http.request, agent: (httpAgent ??= new http.Agent({ keepAlive: true })), where };
  };
  const fetch: FetchLike = (url, init) => {
    if (url !== lastUrl || lastTarget === undefined) {
      lastTarget = targetOf(url);
      lastUrl = url;
    }
    return send(lastTarget, init);
  };
  return Object.assign(fetch, { [TAKES_CANCEL_SIGNALS]: true as const });
}

/** Where one URL's requests go: the module's `request`, its agent, and the URL as request options. */
interface Target {
  readonly request: typeof import("node:http").request;
  readonly agent: Agent;
  readonly where: RequestOptions;
}

function send({ request, agent, where }: Target, init: FetchInit): Promise<FetchResponse> {
  // Read as a CancelSignal only: that is what TAKES_CANCEL_SIGNALS promises.
  const signal: CancelSignal = init.signal;
  if (signal.aborted) return Promise.reject(aborted());
  return new Promise((resolve, reject) => {
    const headers =
      init.body === undefined ? init.headers : withFields(init.headers, { "content-length": String(Buffer.byteLength(init.body)) });
    // Fields named one by one: spreading the options urlToHttpOptions made (no prototype) costs more than the request.
    const requestOptions: RequestOptions = {
      protocol: where.protocol,
      hostname: where.hostname,
      port: where.port,
      path: where.path,
      auth: where.auth,
      method: init.method,
      headers,
      agent,
    };
    const outgoing = request(requestOptions, (incoming) => resolve(new NodeResponse(incoming)));
    outgoing.once("socket", guardSocket);
    // Our own listener, not the `signal` option: it does the same (an abort destroys the request and
    // breaks off its body) for a third of the CPU. Dropped when the request is done.
    const abort = (): void => void outgoing.destroy(aborted());
    signal.addEventListener("abort", abort, { once: true });
    outgoing.once("close", () => signal.removeEventListener("abort", abort));
    // `on`, not `once`: an error after the first (or after the answer) must find a listener too.
    outgoing.on("error", reject);
    outgoing.end(init.body);
  });
}

/** Sockets that have the listener below. */
const guardedSockets = new WeakSet<Socket>();

// Node's client takes its 'error' listener off a kept-alive socket once the answer has ended, a tick
// before the agent pools it: a write that fails then (the server answered early and dropped the
// connection while the request body still went out) would throw from the process. The request has
// its outcome by then; the error only needs somewhere to go (the socket is destroyed with it).
function guardSocket(socket: Socket): void {
  if (guardedSockets.has(socket)) return;
  guardedSockets.add(socket);
  socket.on("error", () => undefined);
}

function aborted(): DOMException {
  return new DOMException("The request was aborted", "AbortError");
}

class NodeResponse implements FetchResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body: FetchBody;

  constructor(incoming: IncomingMessage) {
    // An answer's message always has both (only a request's lacks them).
    this.status = incoming.statusCode as number;
    this.statusText = incoming.statusMessage as string;
    this.ok = this.status >= 200 && this.status < 300;
    this.headers = {
      get: (name) => {
        const value = incoming.headers[name.toLowerCase()];
        return value === undefined ? null : joined(value);
      },
    };
    this.body = new IncomingBody(incoming);
  }
}

type Waiter = { resolve(result: { done: boolean; value?: Uint8Array }): void; reject(error: unknown): void };

/** How much of a body may wait for its reader before the socket pauses. */
const QUEUED_BYTES_BOUND = 64 * 1024;

/**
 * An answer's body as a reader takes it: chunks queue while nobody reads (past a bound the socket
 * pauses), a break rejects the read.
 */
class IncomingBody implements FetchBody {
  readonly #incoming: IncomingMessage;
  readonly #queued: Uint8Array[] = [];
  #queuedBytes = 0;
  #ended = false;
  #failure: unknown;
  #waiter: Waiter | undefined;

  constructor(incoming: IncomingMessage) {
    this.#incoming = incoming;
    incoming.on("data", (chunk: Uint8Array) => this.#take(chunk));
    incoming.once("end", () => this.#finish(undefined));
    incoming.on("error", (error) => this.#finish(error));
    // Without "end", the connection broke off (or the body was cancelled) before the body was whole.
    incoming.once("close", () => {
      // Checked first: an error's stack costs more than the rest of a small answer.
      if (!this.#ended) this.#finish(new Error("The connection closed before the answer's body ended"));
    });
  }

  getReader(): ChunkReader {
    return { read: () => this.#read(), cancel: () => this.cancel() };
  }

  /** Stops reading: a body already whole leaves its connection to the pool; one still coming closes it. */
  cancel(): Promise<void> {
    if (!this.#incoming.complete) this.#incoming.destroy();
    else this.#incoming.resume();
    return Promise.resolve();
  }

  #take(chunk: Uint8Array): void {
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      waiter.resolve({ done: false, value: chunk });
      return;
    }
    this.#queued.push(chunk);
    this.#queuedBytes += chunk.byteLength;
    // Not at the first chunk: a small answer usually arrives before its reader asks, and a pause and
    // resume per answer costs more than the answer's own parsing.
    if (this.#queuedBytes > QUEUED_BYTES_BOUND) this.#incoming.pause();
  }

  /** The body ended, or broke off (once: "close" after either finds it ended). */
  #finish(failure: unknown): void {
    this.#ended = true;
    this.#failure = failure;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    if (!waiter) return;
    if (failure === undefined) waiter.resolve({ done: true });
    else waiter.reject(failure);
  }

  #read(): Promise<{ done: boolean; value?: Uint8Array }> {
    const chunk = this.#queued.shift();
    if (chunk) {
      this.#queuedBytes -= chunk.byteLength;
      if (this.#incoming.isPaused() && this.#queuedBytes <= QUEUED_BYTES_BOUND) this.#incoming.resume();
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.#ended) return this.#failure === undefined ? Promise.resolve({ done: true }) : Promise.reject(this.#failure);
    return new Promise((resolve, reject) => (this.#waiter = { resolve, reject }));
  }
}

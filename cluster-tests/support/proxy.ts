// The load balancer of the cluster suite: a small HTTP proxy on 127.0.0.1 in front of the server
// processes. It streams both ways (an SSE response reaches the client event by event, a request body
// is piped as it comes), keeps every header but the hop-by-hop ones, and chooses an upstream per
// request: in turn, by the instance tag of Mcp-Session-Id, or one pinned. An upstream that refuses
// the connection, or resets it before any response byte (a killed process), is skipped for the
// next, as nginx's `proxy_next_upstream error` does. It can cut a response part-way, abruptly.
// Only node:* imports: the throughput bench loads this file stripped of its types.
import { Agent, createServer, request as httpRequest, type ClientRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { StringDecoder } from "node:string_decoder";

export interface Upstream {
  /** The instance tag (`i1`); `mode = "tag"` routes a session id `<tag>.<…>` to it. */
  readonly tag: string;
  /** Where it listens; only its host and port are used, the request's path is kept. */
  readonly url: string;
}

export type ProxyMode = "alternate" | "tag" | { readonly pin: number };

/** Which responses a cut may take: every field given must match the request. */
export interface CutFilter {
  readonly method?: string;
  /** The request's path, query left out. */
  readonly path?: string;
  /** Request headers by lower-case name: `true` for present, else the value or a pattern it matches. */
  readonly headers?: Readonly<Record<string, string | RegExp | true>>;
}

/**
 * When a cut happens: once this many body bytes reached the client, or once the body so far (UTF-8) passes the test (the chunk that made it
 * pass is delivered).
 */
export type CutWhen = { readonly afterBytes: number } | { readonly afterText: (textSoFar: string) => boolean };

/** What the client of a cut response received before the break. */
export interface CutDone {
  readonly tag: string;
  readonly bytes: number;
  readonly text: string;
}

export interface Proxy {
  /** `http://127.0.0.1:<port>/`. */
  readonly url: string;
  mode: ProxyMode;
  /** Requests each upstream answered, by tag (counted when its response starts). */
  readonly counts: Readonly<Record<string, number>>;
  readonly upstreams: readonly Upstream[];
  /** Replaces the upstreams (after a restart: same tag, new port); requests in flight go on. */
  setUpstreams(upstreams: readonly Upstream[]): void;
  resetCounts(): void;
  /** Destroys the next response matching `filter` once `when` holds (a response in flight counts); resolves when it cut. */
  cutNext(when: CutWhen): Promise<CutDone>;
  cutNext(filter: CutFilter, when: CutWhen): Promise<CutDone>;
  /** Ends every socket, both sides, and stops listening. */
  close(): Promise<void>;
}

// Hop-by-hop headers are the connection's, not the message's: each side of the proxy has its own.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade"]);
const MAX_REPLAY_BYTES = 16 * 1024 * 1024;
const CLOSE_WAIT_MS = 2_000;

interface PendingCut {
  readonly filter: CutFilter;
  readonly when: CutWhen;
  readonly done: (cut: CutDone) => void;
}

/** A response on its way to the client. */
interface Flow {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly tag: string;
  readonly upstream: ClientRequest;
  /** Every body chunk relayed so far, kept (not copied) until the response ends, for `afterText`. */
  readonly chunks: Buffer[];
  bytes: number;
  decoded: number;
  text: string;
  decoder: StringDecoder | undefined;
  /** Cut: nothing more of the upstream's body reaches the client, even while the cut's last bytes are still being written. */
  cut: boolean;
}

interface State {
  upstreams: readonly Upstream[];
  mode: ProxyMode;
  turn: number;
  readonly counts: Record<string, number>;
  readonly agents: Map<string, Agent>;
  readonly cuts: PendingCut[];
  readonly attempts: Set<ClientRequest>;
}

export async function startProxy(upstreams: readonly Upstream[]): Promise<Proxy> {
  const state: State = {
    upstreams: [...upstreams],
    mode: "alternate",
    turn: 0,
    counts: {},
    agents: new Map(),
    cuts: [],
    attempts: new Set(),
  };
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => forward(state, req, res));
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const cutNext = (first: CutFilter | CutWhen, second?: CutWhen): Promise<CutDone> =>
    new Promise((done) =>
      state.cuts.push(
        second === undefined ? { filter: {}, when: first as CutWhen, done } : { filter: first as CutFilter, when: second, done },
      ),
    );
  return {
    url: `http://127.0.0.1:${port}/`,
    get mode() {
      return state.mode;
    },
    set mode(mode: ProxyMode) {
      state.mode = mode;
    },
    get counts() {
      return { ...state.counts };
    },
    get upstreams() {
      return state.upstreams;
    },
    setUpstreams(next) {
      state.upstreams = [...next];
    },
    resetCounts() {
      for (const tag of Object.keys(state.counts)) delete state.counts[tag];
    },
    cutNext,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const attempt of state.attempts) attempt.destroy();
      for (const socket of sockets) socket.destroy();
      for (const agent of state.agents.values()) agent.destroy();
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())]);
    },
  };
}

/** The upstreams to try, in order: the one the mode chooses, then the ones after it. */
function candidates(state: State, req: IncomingMessage): Upstream[] {
  const { upstreams, mode } = state;
  let first: number;
  if (typeof mode === "object") first = mode.pin;
  else {
    const sessionId = req.headers["mcp-session-id"];
    const dot = typeof sessionId === "string" ? sessionId.indexOf(".") : -1;
    const tagged = mode === "tag" && dot > 0 ? upstreams.findIndex(({ tag }) => tag === (sessionId as string).slice(0, dot)) : -1;
    first = tagged >= 0 ? tagged : state.turn++ % Math.max(upstreams.length, 1);
  }
  if (!Number.isInteger(first) || first < 0 || first >= upstreams.length) return [];
  return upstreams.map((_, index) => upstreams[(first + index) % upstreams.length] as Upstream);
}

function agentFor(state: State, url: URL): Agent {
  let agent = state.agents.get(url.host);
  if (agent === undefined) {
    // An agent per upstream with kept-alive connections: requests choose their upstream one by one.
    agent = new Agent({ keepAlive: true });
    state.agents.set(url.host, agent);
  }
  return agent;
}

function forwardedHeaders(raw: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < raw.length; index += 2) {
    if (!HOP_BY_HOP.has((raw[index] as string).toLowerCase())) kept.push(raw[index] as string, raw[index + 1] as string);
  }
  return kept;
}

function forward(state: State, req: IncomingMessage, res: ServerResponse): void {
  const order = candidates(state, req);
  const body = new ReplayableBody(req);
  let current: ClientRequest | undefined;
  let gone = false;
  res.once("close", () => {
    gone = !res.writableFinished;
    if (gone) current?.destroy();
  });
  const attempt = (index: number, freshConnection: boolean): void => {
    const upstream = order[index];
    if (gone) return;
    if (upstream === undefined) {
      if (!res.headersSent)
        res
          .writeHead(502, { "content-type": "text/plain" })
          .end(`proxy: no upstream answered (${order.map(({ tag }) => tag).join(", ") || "none to try"})`);
      return;
    }
    const url = new URL(upstream.url);
    const sent = httpRequest({
      host: url.hostname,
      port: url.port,
      method: req.method,
      path: req.url,
      headers: forwardedHeaders(req.rawHeaders),
      setHost: false,
      agent: freshConnection ? false : agentFor(state, url),
    });
    current = sent;
    state.attempts.add(sent);
    sent.once("close", () => state.attempts.delete(sent));
    let answered = false;
    sent.once("response", (upRes) => {
      answered = true;
      body.release();
      relay(
        state,
        { req, res, tag: upstream.tag, upstream: sent, chunks: [], bytes: 0, decoded: 0, text: "", decoder: undefined, cut: false },
        upRes,
      );
    });
    sent.on("error", () => {}); // what follows the first error (writes to a destroyed request) changes nothing
    sent.once("error", () => {
      if (answered) return; // the relay breaks the client's response
      // A kept-alive connection the upstream had closed meanwhile: once more on a new one. Refused or reset on a new one: the process is
      // gone.
      if (sent.reusedSocket && !freshConnection) attempt(index, true);
      else if (body.replayable) attempt(index + 1, false);
      else if (!res.headersSent)
        res.writeHead(502, { "content-type": "text/plain" }).end("proxy: upstream failed after a body too large to replay");
    });
    body.pipeTo(sent);
  };
  attempt(0, false);
}

/** A request body piped to the current upstream, and kept until one answers so a refused attempt can be replayed to the next. */
class ReplayableBody {
  readonly #kept: Buffer[] = [];
  #keptBytes = 0;
  #keeping = true;
  #ended = false;
  #target: ClientRequest | undefined;

  constructor(private readonly req: IncomingMessage) {
    req.on("data", (chunk: Buffer) => {
      if (this.#keeping) {
        this.#kept.push(chunk);
        this.#keptBytes += chunk.length;
        if (this.#keptBytes > MAX_REPLAY_BYTES) this.release();
      }
      const target = this.#target;
      if (target !== undefined && !target.write(chunk)) {
        req.pause();
        target.once("drain", () => req.resume());
      }
    });
    req.once("end", () => {
      this.#ended = true;
      this.#target?.end();
    });
  }

  /** Whether all of it is still kept: false once an upstream answered, or once it grew past what is kept. */
  get replayable(): boolean {
    return this.#keeping;
  }

  pipeTo(target: ClientRequest): void {
    this.#target = target;
    for (const chunk of this.#kept) target.write(chunk);
    if (this.#ended) target.end();
    else this.req.resume();
  }

  release(): void {
    this.#keeping = false;
    this.#kept.length = 0;
  }
}

function relay(state: State, flow: Flow, upRes: IncomingMessage): void {
  const { res } = flow;
  state.counts[flow.tag] = (state.counts[flow.tag] ?? 0) + 1;
  res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, forwardedHeaders(upRes.rawHeaders));
  upRes.on("error", () => {}); // a reset mid-body: "close" below breaks the client's response
  upRes.once("close", () => {
    if (!upRes.complete && !res.destroyed) res.destroy();
  });
  res.once("close", () => {
    if (!upRes.complete) flow.upstream.destroy();
  });
  upRes.once("end", () => {
    if (!res.destroyed) res.end();
  });
  flow.chunks.push(Buffer.alloc(0));
  if (cutIfDue(state, flow)) return;
  upRes.on("data", (chunk: Buffer) => {
    if (res.destroyed || flow.cut) return;
    flow.chunks.push(chunk);
    if (cutIfDue(state, flow)) return;
    flow.bytes += chunk.length;
    if (!res.write(chunk)) {
      upRes.pause();
      res.once("drain", () => upRes.resume());
    }
  });
}

function matches({ method, path, headers }: CutFilter, req: IncomingMessage): boolean {
  if (method !== undefined && method.toUpperCase() !== req.method) return false;
  if (path !== undefined && path !== (req.url ?? "").split("?")[0]) return false;
  for (const [name, expected] of Object.entries(headers ?? {})) {
    const value = req.headers[name];
    if (value === undefined) return false;
    const text = Array.isArray(value) ? value.join(", ") : value;
    if (expected !== true && (typeof expected === "string" ? text !== expected : !expected.test(text))) return false;
  }
  return true;
}

/** The body's text so far, the last chunk included: decoded once, then chunk by chunk. */
function textOf(flow: Flow): string {
  flow.decoder ??= new StringDecoder("utf8");
  for (; flow.decoded < flow.chunks.length; flow.decoded += 1) flow.text += flow.decoder.write(flow.chunks[flow.decoded] as Buffer);
  return flow.text;
}

/**
 * Whether a pending cut takes this response with its last chunk (empty: at its start); if so, delivers what the cut allows of that chunk
 * and breaks the connection.
 */
function cutIfDue(state: State, flow: Flow): boolean {
  if (state.cuts.length === 0) return false;
  const chunk = flow.chunks.at(-1) as Buffer;
  for (const [index, cut] of state.cuts.entries()) {
    if (!matches(cut.filter, flow.req)) continue;
    let delivered = chunk.length;
    if ("afterBytes" in cut.when) {
      if (flow.bytes + chunk.length < cut.when.afterBytes) continue;
      delivered = Math.max(0, cut.when.afterBytes - flow.bytes);
    } else if (!cut.when.afterText(textOf(flow))) continue;
    state.cuts.splice(index, 1);
    breakAfter(flow, delivered, cut);
    return true;
  }
  return false;
}

/**
 * Sends the first `delivered` bytes of the last chunk, then destroys the client's socket once they are written (no final chunk: the client
 * sees a break) and the upstream request.
 */
function breakAfter(flow: Flow, delivered: number, cut: PendingCut): void {
  const { res } = flow;
  flow.cut = true;
  const last = (flow.chunks.at(-1) as Buffer).subarray(0, delivered);
  flow.chunks[flow.chunks.length - 1] = last;
  flow.bytes += last.length;
  const text = Buffer.concat(flow.chunks).toString("utf8");
  const socket = res.socket;
  if (last.length > 0) res.write(last);
  else res.flushHeaders();
  const destroy = (): void => {
    socket?.destroy();
    res.destroy();
    flow.upstream.destroy();
    cut.done({ tag: flow.tag, bytes: flow.bytes, text });
  };
  if (socket === null || socket.destroyed) destroy();
  else socket.write("", destroy);
}

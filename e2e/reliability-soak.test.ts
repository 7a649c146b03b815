// A bounded soak: many clients at once over Streamable HTTP on 127.0.0.1 and over stdio framing,
// calls mixed with cancellations and timeouts. Every answer is counted on the wire: nothing lost,
// nothing twice, nothing crossed; afterwards nothing is left in any map. The HTTP event store's heap
// is measured across many ended sessions. `SOAK_CLIENTS` and
// `SOAK_CALLS` (per client) make it longer, `SOAK_HTTP_ROUNDS` runs more HTTP rounds.
import { getEventListeners } from "node:events";
import { queryObjects } from "node:v8";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import {
  InMemoryEventStore,
  MCPClient,
  MCPServer,
  StdioTransport,
  StreamableHttpTransport,
  streamableHttpHandler,
  type InboundContext,
  type SendOptions,
  type Transport,
  type TransportReceiver,
} from "../src/index.js";
import { serveHttp } from "../src/node/index.js";
import { JsonRpcDispatcher } from "../src/jsonrpc/dispatcher/dispatcher.js";
import { InflightRequest } from "../src/jsonrpc/dispatcher/incoming.js";
import { PendingRequest } from "../src/jsonrpc/dispatcher/outgoing.js";
import { ServerSession } from "../src/server/mcp-server/session.js";
import { heapAfterGc, liveTimers } from "./support/soak.js";

const CLIENTS = Number(process.env["SOAK_CLIENTS"]) || 64;
const CALLS = Number(process.env["SOAK_CALLS"]) || 60;
const WINDOW = 12;

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const closable of open.splice(0).toReversed()) await closable.close();
});

type Id = string | number;

/** Wraps a client transport and counts, per request id, what went out and what came back. */
class CountingTransport implements Transport {
  readonly requests = new Map<Id, string>();
  readonly answers = new Map<Id, number>();
  readonly cancels = new Set<Id>();
  constructor(readonly inner: Transport) {}
  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
  start(receiver: TransportReceiver): Promise<void> {
    return this.inner.start({
      onMessage: (message: unknown, context?: InboundContext) => {
        for (const item of Array.isArray(message) ? message : [message]) {
          const { id, method } = item as { id?: Id; method?: string };
          if (id !== undefined && method === undefined) this.answers.set(id, (this.answers.get(id) ?? 0) + 1);
        }
        receiver.onMessage(message, context);
      },
      onMalformed: (error) => receiver.onMalformed(error),
      onClose: (error) => receiver.onClose(error),
    });
  }
  send(message: unknown, options?: SendOptions): Promise<void> {
    const { id, method, params } = message as { id?: Id; method?: string; params?: { requestId?: Id } };
    if (id !== undefined && method !== undefined) this.requests.set(id, method);
    if (method === "notifications/cancelled" && params?.requestId !== undefined) this.cancels.add(params.requestId);
    return this.inner.send(message, options);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

function soakServer(): MCPServer {
  const server = new MCPServer({ name: "soak", version: "1" });
  server.tool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }));
  // Holds until cancelled: the cancellation and timeout paths end it.
  server.tool(
    "hold",
    {},
    (_args, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason as Error))),
  );
  server.tool("fail", {}, () => {
    throw "not an Error";
  });
  return server;
}

interface Tally {
  ok: number;
  cancelled: number;
  timedOut: number;
  failed: number;
  crossed: number;
}

/** A signal each client passes to every echo and fail call and never aborts: the library must take back the listener it adds per call. */
const longLived = new WeakMap<MCPClient, AbortSignal>();

/** Abort listeners left on the clients' long-lived signals (0 when no call leaked one). */
function leftListeners(clients: readonly MCPClient[]): number {
  return clients.reduce((sum, client) => sum + getEventListeners(longLived.get(client) as AbortSignal, "abort").length, 0);
}

/** One client's workload: echo calls checked against their own text, cancels, timeouts and failures. */
async function workload(client: MCPClient, who: number, tally: Tally): Promise<void> {
  longLived.set(client, new AbortController().signal);
  // WINDOW calls in flight per client at a time (each POST holds a socket until its answer).
  for (let start = 0; start < CALLS; start += WINDOW)
    await Promise.all(callsOf(client, who, tally, start, Math.min(CALLS, start + WINDOW)));
}

function callsOf(client: MCPClient, who: number, tally: Tally, from: number, to: number): Array<Promise<void>> {
  const signal = longLived.get(client) as AbortSignal;
  const calls: Array<Promise<void>> = [];
  for (let n = from; n < to; n++) {
    const kind = n % 6;
    if (kind === 0 || kind === 1 || kind === 2) {
      const text = `client ${who} call ${n}`;
      calls.push(
        client.callTool("echo", { text }, { signal }).then(
          (result) => void ((result.content[0] as { text: string }).text === text ? tally.ok++ : tally.crossed++),
          () => void tally.crossed++,
        ),
      );
    } else if (kind === 3) {
      const controller = new AbortController();
      const call = client.callTool("hold", {}, { signal: controller.signal });
      calls.push(
        call.then(
          () => void tally.crossed++,
          (error: { code?: string }) => void (error.code === "MCP.REQUEST_CANCELLED" ? tally.cancelled++ : tally.crossed++),
        ),
      );
      setTimeout(() => controller.abort(), 1);
    } else if (kind === 4) {
      calls.push(
        client.callTool("hold", {}, { timeoutMs: 5 }).then(
          () => void tally.crossed++,
          (error: { code?: string }) => void (error.code === "MCP.TIMEOUT" ? tally.timedOut++ : tally.crossed++),
        ),
      );
    } else {
      // A tool's throw (here not even an Error) is a tool result with isError, as the spec says.
      calls.push(
        client.callTool("fail", {}, { signal }).then(
          (result) => void (result.isError === true ? tally.failed++ : tally.crossed++),
          () => void tally.crossed++,
        ),
      );
    }
  }
  return calls;
}

/** Every request the client sent got exactly one answer, except those it cancelled or gave up on (at most one). */
function checkWire(transports: readonly CountingTransport[]): { requests: number; toolCalls: number } {
  let requests = 0;
  let toolCalls = 0;
  for (const transport of transports) {
    for (const [id] of transport.requests) {
      const count = transport.answers.get(id) ?? 0;
      requests++;
      if (transport.requests.get(id) === "tools/call") toolCalls++;
      // A request the client cancelled (or timed out) may or may not have been answered before the cancel arrived.
      expect(transport.cancels.has(id) ? [0, 1] : [1], `request ${String(id)} answered ${count} times`).toContain(count);
    }
    // No answer for an id that was never asked.
    for (const id of transport.answers.keys()) expect(transport.requests.has(id)).toBe(true);
  }
  return { requests, toolCalls };
}

const expectedTally = (rounds = 1): Tally => {
  const per = { ok: 0, cancelled: 0, timedOut: 0, failed: 0, crossed: 0 };
  for (let n = 0; n < CALLS; n++) {
    const kind = n % 6;
    if (kind <= 2) per.ok++;
    else if (kind === 3) per.cancelled++;
    else if (kind === 4) per.timedOut++;
    else per.failed++;
  }
  const times = CLIENTS * rounds;
  return { ok: per.ok * times, cancelled: per.cancelled * times, timedOut: per.timedOut * times, failed: per.failed * times, crossed: 0 };
};

/** The writing end of a byte pipe, as a stdio writable. */
function writableOf(stream: TransformStream<Uint8Array, Uint8Array>) {
  const writer = stream.writable.getWriter();
  return { write: (chunk: Uint8Array) => writer.write(chunk), close: () => writer.close() };
}

/** Bounded wait for the server side to let go of what the clients left. */
async function until(done: () => boolean, turns = 400): Promise<void> {
  for (let turn = 0; turn < turns && !done(); turn++) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("soak", () => {
  it(`${CLIENTS} clients × ${CALLS} calls × ${HTTP_ROUNDS} rounds, HTTP: nothing lost, twice, crossed, left; no heap growth`, async () => {
    const timersBefore = liveTimers();
    const server = soakServer();
    const handler = streamableHttpHandler(server);
    const http = await serveHttp(handler, { port: 0 });
    open.push(handler, http);
    expect(new URL(http.url).hostname).toBe("127.0.0.1");
    // The first round warms up what stays by design: compiled code, and the keep-alive connections
    // Node's fetch pools for this origin. Later rounds must leave nothing more.
    await httpRound(server, handler, http.url);
    const heapWarm = await heapAfterGc();
    for (let round = 2; round <= HTTP_ROUNDS; round++) await httpRound(server, handler, http.url);
    const grownBytes = (await heapAfterGc()) - heapWarm;
    console.info(
      `soak (HTTP): heap after GC grew ${(grownBytes / 1024).toFixed(0)} KiB ` +
        `over ${(HTTP_ROUNDS - 1) * CLIENTS * CALLS} calls after the warm-up round`,
    );
    // Not one object of the library outlives its round: clients, transports, sessions, dispatchers, requests.
    expect(liveInstances()).toEqual({
      MCPClient: 0,
      StreamableHttpTransport: 0,
      CountingTransport: 0,
      ServerSession: 0,
      JsonRpcDispatcher: 0,
      InflightRequest: 0,
      PendingRequest: 0,
    });
    expect(grownBytes).toBeLessThan(HTTP_HEAP_SLACK_BYTES);
    // No timer outlives the run: keep-alives, idle expiry, request timeouts, reconnection waits.
    await until(() => liveTimers() <= timersBefore);
    expect(liveTimers()).toBeLessThanOrEqual(timersBefore);
  }, 120_000);

  it(`${CLIENTS} clients × ${STDIO_ROUNDS} × ${CALLS} calls over stdio framing: nothing lost, twice, crossed or left`, async () => {
    const timersBefore = liveTimers();
    const server = soakServer();
    await stdioRun(server);
    await until(() => liveTimers() <= timersBefore);
    expect(liveTimers()).toBeLessThanOrEqual(timersBefore);
    // With every connection closed and nothing of the run referenced, nothing of the library is left.
    expect(liveInstances()).toEqual({
      MCPClient: 0,
      StreamableHttpTransport: 0,
      CountingTransport: 0,
      ServerSession: 0,
      JsonRpcDispatcher: 0,
      InflightRequest: 0,
      PendingRequest: 0,
    });
  }, 60_000);
});

describe("soak: the Streamable HTTP event store", () => {
  it("holds no memory for 200 000 sessions that ended while one old event stays", async () => {
    const store = new InMemoryEventStore();
    const cycle = (from: number, to: number) => {
      for (let session = from; session < to; session++) {
        store.append({ sessionId: `short${session}`, streamId: "post" }, { id: "p0", data: "" });
        store.append({ sessionId: `short${session}`, streamId: "post" }, { id: "p1", data: "an answer" });
        store.dropSession(`short${session}`);
      }
    };
    store.append({ sessionId: "long", streamId: "get" }, { id: "g0", data: "first" });
    cycle(0, 1000);
    const heapWarm = await heapAfterGc();
    cycle(1000, 201_000);
    const grownBytes = (await heapAfterGc()) - heapWarm;
    console.info(`soak (event store): heap after GC grew ${(grownBytes / 1024).toFixed(0)} KiB over 200 000 ended sessions`);
    // What it would hold if every ended session left a trace in the order of events: 400 000 entries, well over 8 MiB.
    expect(grownBytes).toBeLessThan(HEAP_SLACK_BYTES);
    expect(store.size).toBe(1);
    expect(store.eventsAfter({ sessionId: "long", streamId: "get" }, "g0")).toEqual([]);
  });
});

/** The stdio soak's clients and sessions live in this frame only, so that what is left afterwards is left by the library. */
async function stdioRun(server: MCPServer): Promise<void> {
  const transports: CountingTransport[] = [];
  const clients: MCPClient[] = [];
  const sessions: object[] = [];
  for (let who = 0; who < CLIENTS; who++) {
    const toServer = new TransformStream<Uint8Array, Uint8Array>();
    const toClient = new TransformStream<Uint8Array, Uint8Array>();
    sessions.push(await server.start(new StdioTransport({ readable: toServer.readable, writable: writableOf(toClient) })));
    const transport = new CountingTransport(new StdioTransport({ readable: toClient.readable, writable: writableOf(toServer) }));
    const client = new MCPClient({ name: `soak-${who}`, version: "1" });
    await client.connect(transport);
    transports.push(transport);
    clients.push(client);
  }
  expect(server.sessions.size).toBe(CLIENTS);
  const tally: Tally = { ok: 0, cancelled: 0, timedOut: 0, failed: 0, crossed: 0 };
  // The first round warms up (compiled code, caches); the heap is measured from there on, sessions
  // open, so it includes what CountingTransport records per call (two map entries, ≈ 90 bytes).
  await Promise.all(clients.map((client, who) => workload(client, who, tally)));
  const heapWarm = await heapAfterGc();
  for (let round = 1; round < STDIO_ROUNDS; round++) await Promise.all(clients.map((client, who) => workload(client, who, tally)));
  const grownBytes = (await heapAfterGc()) - heapWarm;
  console.info(
    `soak (stdio): heap after GC grew ${(grownBytes / 1024).toFixed(0)} KiB ` +
      `over ${(STDIO_ROUNDS - 1) * CLIENTS * CALLS} calls after the warm-up round`,
  );
  expect(grownBytes).toBeLessThan(HEAP_SLACK_BYTES);
  expect(tally).toEqual(expectedTally(STDIO_ROUNDS));
  expect(leftListeners(clients)).toBe(0);
  expect(checkWire(transports).toolCalls).toBe(STDIO_ROUNDS * CLIENTS * CALLS);
  // Nothing in flight on the server side once every caller has its outcome.
  await until(() => sessions.every((session) => pendingOf(session).incoming === 0));
  for (const session of sessions) expect(pendingOf(session)).toEqual({ outgoing: 0, incoming: 0 });
  await Promise.all(clients.map((client) => client.close()));
  await until(() => server.sessions.size === 0);
  expect(server.sessions.size).toBe(0);
}

/** Each stdio client runs the workload this many times over its one session (stdio is cheap: more calls for the same time). */
const STDIO_ROUNDS = 3;
const HTTP_ROUNDS = Number(process.env["SOAK_HTTP_ROUNDS"]) || 3;
/** Node's fetch keeps a pool of sockets per origin that close on their own clock: its part of the heap moves by a few MiB. */
const HTTP_HEAP_SLACK_BYTES = 4 * 1024 * 1024;

/** Live instances (after a full collection) of the classes a soak creates per client, session and request. */
function liveInstances(): Record<string, number> {
  const classes = {
    MCPClient,
    StreamableHttpTransport,
    CountingTransport,
    ServerSession,
    JsonRpcDispatcher,
    InflightRequest,
    PendingRequest,
  };
  return Object.fromEntries(Object.entries(classes).map(([name, type]) => [name, queryObjects(type, { format: "count" })]));
}

/** One round over HTTP: clients connect, run the workload, are checked on the wire, and leave; the server keeps nothing of them. */
async function httpRound(server: MCPServer, handler: ReturnType<typeof streamableHttpHandler>, url: string): Promise<void> {
  const transports: CountingTransport[] = [];
  const clients: MCPClient[] = [];
  for (let who = 0; who < CLIENTS; who++) {
    const transport = new CountingTransport(new StreamableHttpTransport(new URL("/mcp", url)));
    const client = new MCPClient({ name: `soak-${who}`, version: "1" });
    await client.connect(transport);
    transports.push(transport);
    clients.push(client);
  }
  expect(handler.sessionCount).toBe(CLIENTS);
  const tally: Tally = { ok: 0, cancelled: 0, timedOut: 0, failed: 0, crossed: 0 };
  await Promise.all(clients.map((client, who) => workload(client, who, tally)));
  expect(tally).toEqual(expectedTally());
  expect(leftListeners(clients)).toBe(0);
  const { requests, toolCalls } = checkWire(transports);
  expect(toolCalls).toBe(CLIENTS * CALLS);
  expect(requests).toBeGreaterThan(toolCalls); // initialize and tools/list besides
  // Each session's id is distinct: nobody shares one.
  expect(new Set(transports.map((transport) => transport.sessionId)).size).toBe(CLIENTS);
  for (const client of clients) await client.close();
  await until(() => handler.sessionCount === 0 && server.sessions.size === 0);
  expect(handler.sessionCount).toBe(0);
  expect(server.sessions.size).toBe(0);
}

/** Room for what a first run leaves behind legitimately (compiled code, schema caches); a per-call leak over the run is far larger. */
const HEAP_SLACK_BYTES = 2 * 1024 * 1024;

/** A session's dispatcher is private API: read its pending counts for the leak check. */
function pendingOf(session: object): { outgoing: number; incoming: number } {
  return (session as { dispatcher: { pendingCount: { outgoing: number; incoming: number } } }).dispatcher.pendingCount;
}

// Memory after forced GC, in this process:
// - heap per pending request held by a server: a bare driver (no client library) sends `tools/call`
//   of a tool that waits; measured once every call has reached the tool;
// - heap per pending request held by a client: the client calls a bare server end that answers
//   `initialize` and swallows everything else;
// - heap per connected session on one server: bare drivers run the handshake (initialize,
//   notifications/initialized) over an in-process link; the driver's link end is counted too;
// - session set-up time: a full client connecting to that server in-process (initialize round trip).
// SDK 1.x and 2.x serve one connection per McpServer, so a session there is a McpServer too.
import * as z from "zod";
import { Client as Sdk1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as Sdk1Link } from "@modelcontextprotocol/sdk/inMemory.js";
import { Client as Sdk2Client } from "@modelcontextprotocol/client";
import { InMemoryTransport as Sdk2Link } from "@modelcontextprotocol/server";
import { InMemoryTransport, MCPClient } from "@suaveplan/mcp";
import { forceGc } from "../lib/measure.mjs";
import { limitAnswer, limitClient } from "../impls/limit.mjs";
import { SESSION_ERA, oursServer } from "../impls/ours.mjs";
import { sdk1Server } from "../impls/sdk1.mjs";
import { sdk2Server } from "../impls/sdk2.mjs";
import { overTheWire } from "../impls/wire.mjs";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } },
};
const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };
const holdCall = (id) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "hold", arguments: { text: "x" } } });
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A shared gate: every `hold` tool waits on it; `arrived` counts the calls that reached a tool. */
function gate() {
  let open;
  const state = { arrived: 0, opened: new Promise((resolve) => (open = resolve)) };
  state.hold = async () => {
    state.arrived++;
    await state.opened;
    return { content: [{ type: "text", text: "released" }] };
  };
  state.open = () => open();
  return state;
}

function heapUsed() {
  forceGc();
  return process.memoryUsage().heapUsed;
}

// --- bare drivers: the far end of an in-process link, speaking raw JSON-RPC -------------------------

/** Ours: a server session on `server`, driven through the other end of an InMemoryTransport pair. */
async function oursDriven(server) {
  const [driverEnd, serverEnd] = InMemoryTransport.pair();
  let answered;
  const initialized = new Promise((resolve) => (answered = resolve));
  await driverEnd.start({ onMessage: (message) => message.id === 0 && answered(), onMalformed: () => undefined, onClose: () => undefined });
  await server.start(serverEnd);
  await driverEnd.send(INITIALIZE);
  await initialized;
  await driverEnd.send(INITIALIZED);
  return { send: (message) => driverEnd.send(message), close: () => driverEnd.close() };
}

/** The SDKs: one McpServer per connection, driven through the other end of their linked pair. */
async function sdkDriven(Link, server) {
  const [driverEnd, serverEnd] = Link.createLinkedPair();
  let answered;
  const initialized = new Promise((resolve) => (answered = resolve));
  driverEnd.onmessage = (message) => message.id === 0 && answered();
  await driverEnd.start();
  const send = serverEnd.send.bind(serverEnd);
  serverEnd.send = (message, options) => send(overTheWire(message), options);
  await server.connect(serverEnd);
  await driverEnd.send(overTheWire(INITIALIZE));
  await initialized;
  await driverEnd.send(overTheWire(INITIALIZED));
  return { send: (message) => driverEnd.send(overTheWire(message)), close: () => server.close() };
}

/** The limit's server end: parse, remember what the handler waits for, answer when it resolves. */
function limitDriven(handler) {
  const link = { closed: false };
  return {
    send: async (message) => {
      const text = JSON.stringify(message);
      const serve = async () => {
        const request = JSON.parse(text);
        if (request.id === undefined) return;
        const result = request.params?.name === "hold" ? await handler() : limitAnswer(request);
        if (!link.closed) JSON.stringify({ jsonrpc: "2.0", id: request.id, result });
      };
      queueMicrotask(() => void serve());
    },
    close: async () => {
      link.closed = true;
    },
  };
}

const withHold = (server, register) => {
  register(server);
  return server;
};

const SERVER_SIDE = {
  ours: async (g) => oursDriven(withHold(oursServer(), (s) => s.tool("hold", { inputSchema: z.object({ text: z.string() }) }, g.hold))),
  sdk1: async (g) =>
    sdkDriven(
      Sdk1Link,
      withHold(sdk1Server(), (s) => s.registerTool("hold", { inputSchema: { text: z.string() } }, g.hold)),
    ),
  sdk2: async (g) =>
    sdkDriven(
      Sdk2Link,
      withHold(sdk2Server(), (s) => s.registerTool("hold", { inputSchema: z.object({ text: z.string() }) }, g.hold)),
    ),
  limit: async (g) => limitDriven(g.hold),
};

/** KiB of heap per request pending in a server. */
export async function heapPerPendingServerRequest(name, count) {
  const g = gate();
  const driver = await SERVER_SIDE[name](g);
  for (let id = 1; id <= 50; id++) await driver.send(holdCall(-id)); // warm-up: the tool is compiled, lazy state exists
  while (g.arrived < 50) await settle();
  const before = heapUsed();
  for (let id = 1; id <= count; id++) await driver.send(holdCall(id));
  while (g.arrived < count + 50) await settle();
  const after = heapUsed();
  g.open();
  await settle();
  await driver.close();
  return (after - before) / count / 1024;
}

// --- clients calling a server that never answers ----------------------------------------------------

function sinkAnswer(message) {
  return message.method === "initialize" ? { jsonrpc: "2.0", id: message.id, result: limitAnswer(message) } : undefined;
}

const CLIENT_SIDE = {
  ours: async () => {
    const [clientEnd, sinkEnd] = InMemoryTransport.pair();
    await sinkEnd.start({
      onMessage: (message) => void (sinkAnswer(message) && sinkEnd.send(sinkAnswer(message))),
      onMalformed: () => undefined,
      onClose: () => undefined,
    });
    const client = new MCPClient({ name: "bench", version: "1.0.0" }, SESSION_ERA);
    await client.connect(clientEnd);
    return { call: () => client.callTool("echo", { text: "x" }), close: () => client.close() };
  },
  sdk1: async () => sdkClientToSink(Sdk1Link, Sdk1Client),
  sdk2: async () => sdkClientToSink(Sdk2Link, Sdk2Client),
  limit: async () => {
    const { connection } = limitClient(() => undefined);
    return { call: () => connection.call({ text: "x" }), close: async () => connection.pendingHeld().clear() };
  },
};

async function sdkClientToSink(Link, Client) {
  const [clientEnd, sinkEnd] = Link.createLinkedPair();
  sinkEnd.onmessage = (message) => void (sinkAnswer(message) && sinkEnd.send(overTheWire(sinkAnswer(message))));
  await sinkEnd.start();
  const send = clientEnd.send.bind(clientEnd);
  clientEnd.send = (message, options) => send(overTheWire(message), options);
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(clientEnd);
  return { call: () => client.callTool({ name: "echo", arguments: { text: "x" } }), close: () => client.close() };
}

/** KiB of heap per request a client is waiting on. */
export async function heapPerPendingClientRequest(name, count) {
  const client = await CLIENT_SIDE[name]();
  const waiting = [];
  for (let i = 0; i < 50; i++) waiting.push(client.call().catch(() => undefined));
  await settle();
  const before = heapUsed();
  for (let i = 0; i < count; i++) waiting.push(client.call().catch(() => undefined));
  await settle();
  const after = heapUsed();
  await client.close();
  await Promise.all(name === "limit" ? [] : waiting);
  return (after - before) / count / 1024;
}

// --- sessions ----------------------------------------------------------------------------------------

const SESSIONS = {
  ours: () => {
    const server = oursServer();
    return () => oursDriven(server);
  },
  sdk1: () => () => sdkDriven(Sdk1Link, sdk1Server()),
  sdk2: () => () => sdkDriven(Sdk2Link, sdk2Server()),
  limit: () => () => {
    // The limit's session: what initialize said, and the link's pending map.
    const sessions = [];
    return (async () => {
      const { connection, receive } = limitClient((text) =>
        queueMicrotask(() => {
          const request = JSON.parse(text);
          sessions.push({
            protocolVersion: request.params.protocolVersion,
            capabilities: request.params.capabilities,
            clientInfo: request.params.clientInfo,
          });
          const reply = JSON.stringify({ jsonrpc: "2.0", id: request.id, result: limitAnswer(request) });
          queueMicrotask(() => receive(reply));
        }),
      );
      await connection.initialize();
      return { connection, sessions, close: async () => undefined };
    })();
  },
};

/** KiB of heap per connected session on one server. */
export async function heapPerSession(name, count) {
  const open = SESSIONS[name]();
  const held = [];
  for (let i = 0; i < 20; i++) held.push(await open());
  const before = heapUsed();
  for (let i = 0; i < count; i++) held.push(await open());
  const after = heapUsed();
  for (const session of held) await session.close();
  return (after - before) / count / 1024;
}

/** Connected client + server pairs: a full client connected in memory to a server; closed by the returned function. */
const PAIRS = {
  ours: () => {
    const server = oursServer();
    return async () => {
      const [clientEnd, serverEnd] = InMemoryTransport.pair();
      await server.start(serverEnd);
      const client = new MCPClient({ name: "bench", version: "1.0.0" }, SESSION_ERA);
      await client.connect(clientEnd);
      return { close: () => client.close() };
    };
  },
  sdk1: () => async () => ({ close: await sdkSetup(Sdk1Link, Sdk1Client, sdk1Server()) }),
  sdk2: () => async () => ({ close: await sdkSetup(Sdk2Link, Sdk2Client, sdk2Server()) }),
  limit: () => SESSIONS.limit(),
};

/**
 * KiB of heap per connected client + server pair in memory (our server serves every pair, an SDK
 * McpServer serves one connection, so an SDK pair holds a McpServer too).
 */
export async function heapPerPair(name, count) {
  const open = PAIRS[name]();
  const held = [];
  for (let i = 0; i < 20; i++) held.push(await open());
  const before = heapUsed();
  for (let i = 0; i < count; i++) held.push(await open());
  const after = heapUsed();
  for (const pair of held) await pair.close();
  return (after - before) / count / 1024;
}

/** Our client connecting to our server in memory, with the client's `options`. */
function oursSetup(options) {
  return () => {
    const server = oursServer();
    return async () => {
      const [clientEnd, serverEnd] = InMemoryTransport.pair();
      await server.start(serverEnd);
      const client = new MCPClient({ name: "bench", version: "1.0.0" }, options);
      await client.connect(clientEnd);
      return () => client.close();
    };
  };
}

/**
 * Our client's connect in each era against the same server: the stateless era's probe (server/discover) against the handshake (initialize,
 * initialized).
 */
export const CONNECT_BY_ERA = { ours: oursSetup({}), session: oursSetup(SESSION_ERA) };

const SETUP = {
  ours: oursSetup(SESSION_ERA),
  sdk1: () => () => sdkSetup(Sdk1Link, Sdk1Client, sdk1Server()),
  sdk2: () => () => sdkSetup(Sdk2Link, Sdk2Client, sdk2Server()),
  limit: () => async () => {
    const link = await SESSIONS.limit()();
    return link.close;
  },
};

async function sdkSetup(Link, Client, server) {
  const [clientEnd, serverEnd] = Link.createLinkedPair();
  for (const end of [clientEnd, serverEnd]) {
    const send = end.send.bind(end);
    end.send = (message, options) => send(overTheWire(message), options);
  }
  await server.connect(serverEnd);
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(clientEnd);
  return () => client.close();
}

/** A function that sets up `count` sessions (a full client connecting in-process) and keeps them to close. */
/** Set-ups of a row: `setups[name]()` makes the connect function of each contender (the session-era row's by default). */
export function sessionSetup(name, setups = SETUP) {
  const connect = setups[name]();
  const open = [];
  return {
    run: async (count) => {
      for (let i = 0; i < count; i++) open.push(await connect());
    },
    close: async () => {
      for (const close of open.splice(0)) await close();
    },
  };
}

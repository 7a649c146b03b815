// MCPClientGroup over real MCPServers: in memory through `transportFor`, and over HTTP (Streamable
// HTTP and the legacy HTTP+SSE) through a fetch that hands requests to our handlers. Merged and
// prefixed lists, routing, servers that fail to connect or time out, a server whose connection
// closes later, forwarded events, listing failures, and closing.
import { afterEach, describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { FetchLike } from "../../transport/http-client/http-options.js";
import { sseHttpHandler } from "../../transport/http-server/sse-handler.js";
import { streamableHttpHandler } from "../../transport/http-server/streamable-handler.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import type { Transport, TransportReceiver } from "../../transport/transport/transport.types.js";
import type { MCPClientGroupEventMap, MCPClientGroupOptions } from "./group.types.js";
import { GROUP_META_KEY, MCPClientGroup } from "./server-group.js";

const CLIENT_INFO = { name: "group-test", version: "1.0.0" };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

/** A server whose `echo` says which server answered; `hang` waits until the connection goes. */
function testServer(name: string, options: { pageSize?: number; resources?: string[]; prompts?: boolean } = {}): MCPServer {
  const server = new MCPServer(
    { name, version: "1.0.0" },
    { telemetry: null, ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }) },
  );
  server.tool("echo", { description: `Echoes on ${name}` }, (args) => ({
    content: [{ type: "text", text: `${name}: ${JSON.stringify(args)}` }],
  }));
  server.tool(
    "hang",
    {},
    (_args, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener("abort", () => reject(new Error("aborted")))),
  );
  for (const uri of options.resources ?? [])
    server.resource(uri, uri, {}, (read) => ({ contents: [{ uri: read, text: `${uri} from ${name}` }] }));
  if (options.prompts)
    server.prompt("greet", { arguments: { who: { description: "whom" } } }, (args) => ({
      messages: [{ role: "user", content: { type: "text", text: `${name} greets ${args["who"] ?? "you"}` } }],
    }));
  return server;
}

async function inMemory(server: MCPServer): Promise<Transport> {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  await server.start(serverEnd);
  cleanups.push(() => server.close());
  return clientEnd;
}

function group(config: unknown, options: Partial<MCPClientGroupOptions> = {}): MCPClientGroup {
  const made = new MCPClientGroup(config, { clientInfo: CLIENT_INFO, clientOptions: { telemetry: null }, ...options });
  cleanups.push(() => made.close());
  return made;
}

function heard<E extends keyof MCPClientGroupEventMap>(target: MCPClientGroup, event: E): MCPClientGroupEventMap[E][] {
  const payloads: MCPClientGroupEventMap[E][] = [];
  target.on(event, (payload) => payloads.push(payload));
  return payloads;
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let settle: ((value: T) => void) | undefined;
  const promise = new Promise<T>((resolve) => (settle = resolve));
  return { promise, resolve: (value) => settle?.(value) };
}

const textOf = (result: { content: readonly unknown[] }) => (result.content[0] as { text: string }).text;

async function until(check: () => boolean): Promise<void> {
  for (let turns = 0; !check(); turns++) {
    if (turns > 500) throw new Error("never happened");
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Our handlers behind a fetch: port 8001 serves Streamable HTTP, 8002 HTTP+SSE; the headers of each request are kept. */
function httpServers(): { fetchImpl: FetchLike; headers: Headers[] } {
  const web = streamableHttpHandler(testServer("web", { resources: ["mem://web"] }));
  const legacy = sseHttpHandler(testServer("legacy"));
  cleanups.push(async () => {
    await web.close();
    await legacy.close();
  });
  const headers: Headers[] = [];
  const fetchImpl: FetchLike = (url, init) => {
    const request = new Request(url, init);
    headers.push(request.headers);
    return (new URL(url).port === "8001" ? web : legacy).fetch(request);
  };
  return { fetchImpl, headers };
}

const STDIO = { command: "in-memory" };

describe("MCPClientGroup", () => {
  it("connects every server, merges their lists under prefixes and routes each call to its server", async () => {
    const servers: Record<string, MCPServer> = {
      alpha: testServer("alpha", { pageSize: 1, resources: ["mem://shared", "mem://alpha"], prompts: true }),
      beta: testServer("beta", { resources: ["mem://shared"] }),
    };
    const { fetchImpl, headers } = httpServers();
    const config = {
      mcpServers: {
        alpha: STDIO,
        beta: STDIO,
        web: { url: "http://127.0.0.1:8001/mcp", headers: { "x-token": "t1" } },
        legacy: { type: "sse", url: "http://127.0.0.1:8002/sse" },
      },
    };
    const all = group(config, {
      transportFor: (name, entry) => (entry.type === "stdio" ? inMemory(servers[name] as MCPServer) : undefined),
      http: { fetchImpl },
    });
    expect(all.servers).toEqual(["alpha", "beta", "web", "legacy"]);
    expect(all.entry("web")).toEqual({ type: "http", url: "http://127.0.0.1:8001/mcp", headers: { "x-token": "t1" } });
    const connecting = all.connect();
    expect(all.connect()).toBe(connecting);
    await expect(connecting).resolves.toEqual({ connected: ["alpha", "beta", "web", "legacy"], failures: new Map() });
    expect(all.connected).toEqual(["alpha", "beta", "web", "legacy"]);
    expect(all.client("web")?.serverInfo?.name).toBe("web");
    expect(headers.some((seen) => seen.get("x-token") === "t1")).toBe(true);

    const tools = await all.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "alpha__echo",
      "alpha__hang",
      "beta__echo",
      "beta__hang",
      "web__echo",
      "web__hang",
      "legacy__echo",
      "legacy__hang",
    ]);
    expect(tools[2]).toMatchObject({ description: "Echoes on beta", _meta: { [GROUP_META_KEY]: { server: "beta", name: "echo" } } });
    for (const server of all.servers) expect(textOf(await all.callTool(`${server}__echo`, { n: 1 }))).toBe(`${server}: {"n":1}`);

    const prompts = await all.listPrompts();
    expect(prompts.map((prompt) => [prompt.name, prompt["_meta"]?.[GROUP_META_KEY]])).toEqual([
      ["alpha__greet", { server: "alpha", name: "greet" }],
    ]);
    expect((await all.getPrompt("alpha__greet", { who: "Ada" })).messages[0]?.content).toEqual({ type: "text", text: "alpha greets Ada" });

    const resources = await all.listResources();
    expect(resources.map((resource) => [resource.uri, resource["_meta"]?.[GROUP_META_KEY]])).toEqual([
      ["mem://shared", { server: "alpha", name: "mem://shared" }],
      ["mem://alpha", { server: "alpha", name: "mem://alpha" }],
      ["mem://shared", { server: "beta", name: "mem://shared" }],
      ["mem://web", { server: "web", name: "mem://web" }],
    ]);
    expect((await all.readResource("mem://shared")).contents[0]).toMatchObject({ text: "mem://shared from alpha" });
    expect((await all.readResource("mem://web")).contents[0]).toMatchObject({ text: "mem://web from web" });
  });

  it("lists the resources itself when a URI is not routed yet, and refuses unknown names and URIs naming them", async () => {
    const alpha = testServer("alpha", { resources: ["mem://alpha"] });
    const one = group({ mcpServers: { alpha: STDIO } }, { transportFor: () => inMemory(alpha) });
    await one.connect();
    expect((await one.readResource("mem://alpha")).contents[0]).toMatchObject({ text: "mem://alpha from alpha" });
    await expect(one.readResource("mem://nowhere")).rejects.toMatchObject({
      code: MCP_CODES.NOT_FOUND,
      message: 'No MCP server of the group lists the resource "mem://nowhere"',
    });
    await expect(one.callTool("echo")).rejects.toMatchObject({
      code: MCP_CODES.NOT_FOUND,
      message: expect.stringContaining('has the tool "echo": merged names are <server>__<tool> with a server among alpha'),
    });
    await expect(one.getPrompt("zeta__greet")).rejects.toMatchObject({
      code: MCP_CODES.NOT_FOUND,
      message: expect.stringContaining('the prompt "zeta__greet"'),
    });
    // A known server's unknown tool is the server's own answer, not renamed.
    const unknown = await one.callTool("alpha__nope").catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(MCPError);
    expect((unknown as MCPError).message).not.toContain("alpha");
  });

  it("takes another separator and refuses a server name that contains it", async () => {
    const alpha = testServer("alpha");
    const dotted = group({ mcpServers: { alpha: STDIO } }, { transportFor: () => inMemory(alpha), separator: "." });
    await dotted.connect();
    expect((await dotted.listTools()).map((tool) => tool.name)).toEqual(["alpha.echo", "alpha.hang"]);
    expect(textOf(await dotted.callTool("alpha.echo", {}))).toBe("alpha: {}");
    expect(() => new MCPClientGroup({ mcpServers: { "a.b": STDIO } }, { clientInfo: CLIENT_INFO, separator: "." })).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, data: { server: "a.b" } }),
    );
    expect(() => new MCPClientGroup({ mcpServers: { a: { command: "x", type: "ws" } } }, { clientInfo: CLIENT_INFO })).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS }),
    );
  });

  it("keeps the servers that connect when others fail to start, and says why each failed", async () => {
    const alpha = testServer("alpha");
    const failing = group(
      { mcpServers: { alpha: STDIO, broken: { command: "missing" }, unstarted: STDIO } },
      {
        transportFor: (name) => {
          if (name === "broken") throw new Error("spawn missing ENOENT");
          return name === "alpha" ? inMemory(alpha) : undefined;
        },
      },
    );
    await expect(failing.callTool("alpha__echo")).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_CLOSED,
      message: 'MCP server "alpha" is not connected: call connect() first',
    });
    const failed = heard(failing, "serverFailed");
    const result = await failing.connect();
    expect(result.connected).toEqual(["alpha"]);
    expect(result.failures.get("broken")).toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: 'MCP server "broken" did not connect: spawn missing ENOENT',
      data: { server: "broken" },
    });
    expect(result.failures.get("unstarted")).toMatchObject({
      code: MCP_CODES.INVALID_PARAMS,
      message: expect.stringContaining('MCP server "unstarted" did not connect: a stdio server is started by the group\'s transportFor'),
    });
    expect(failed.map((event) => event.server).toSorted()).toEqual(["broken", "unstarted"]);
    expect(failing.failures).toEqual(result.failures);
    expect((await failing.listTools()).map((tool) => tool.name)).toEqual(["alpha__echo", "alpha__hang"]);
    await expect(failing.callTool("broken__echo")).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_CLOSED,
      message: 'MCP server "broken" is not connected: MCP server "broken" did not connect: spawn missing ENOENT',
    });
  });

  it("gives up on a server that does not connect in time, and closes a transport that comes too late or fails", async () => {
    const { promise: late, resolve: deliver } = deferred<Transport>();
    const closed: string[] = [];
    const [silent] = InMemoryTransport.pair();
    const refusing: Transport = {
      start: () => Promise.reject(new Error("cannot start")),
      send: () => Promise.resolve(),
      close: () => (closed.push("refusing"), Promise.reject(new Error("cannot close either"))),
    };
    const slow = group(
      { mcpServers: { late: STDIO, silent: STDIO, refusing: STDIO } },
      {
        connectTimeoutMs: 30,
        clientOptions: { telemetry: null, probeTimeoutMs: 5 },
        transportFor: (name) => (name === "late" ? late : name === "silent" ? silent : refusing),
      },
    );
    const { failures } = await slow.connect();
    expect(failures.get("late")).toMatchObject({
      code: MCP_CODES.TIMEOUT,
      message: 'MCP server "late" did not connect: it did not start and connect within 30 ms',
    });
    expect(failures.get("silent")).toMatchObject({ code: MCP_CODES.TIMEOUT, data: { server: "silent" } });
    expect(failures.get("refusing")).toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: 'MCP server "refusing" did not connect: cannot start',
    });
    expect(closed).toEqual(["refusing"]);
    const [lateEnd] = InMemoryTransport.pair();
    const lateClosed = new Promise<void>((resolve) => (lateEnd.close = async () => resolve()));
    deliver(lateEnd);
    await lateClosed;
  });

  it.each([
    ["the server closes", undefined],
    ["the transport fails", new MCPError(MCP_CODES.TRANSPORT_ERROR, "pipe broke")],
  ])("drops a server whose connection closes (%s): its pending and later calls name it, the others answer", async (_how, failure) => {
    const alpha = testServer("alpha");
    const beta = testServer("beta");
    let alphaReceiver: TransportReceiver | undefined;
    const transportFor = async (name: string): Promise<Transport> => {
      if (name === "beta") return inMemory(beta);
      const inner = await inMemory(alpha);
      return {
        start: (receiver) => ((alphaReceiver = receiver), inner.start(receiver)),
        send: (message) => inner.send(message),
        close: () => inner.close(),
      };
    };
    const pair = group({ mcpServers: { alpha: STDIO, beta: STDIO } }, { transportFor });
    await pair.connect();
    const closedEvents = heard(pair, "serverClosed");
    const pending = pair.callTool("alpha__hang");
    if (failure === undefined) await alpha.close();
    else alphaReceiver?.onClose(failure);
    const error = await pending.catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      code: MCP_CODES.TRANSPORT_CLOSED,
      message: expect.stringMatching(/^MCP server "alpha" is gone: The connection closed/),
      data: { server: "alpha" },
    });
    await until(() => closedEvents.length === 1);
    const said =
      failure === undefined ? 'MCP server "alpha" closed its connection' : 'MCP server "alpha" closed its connection: pipe broke';
    expect(closedEvents[0]).toMatchObject({ server: "alpha", error: { code: MCP_CODES.TRANSPORT_CLOSED, message: said } });
    expect(pair.connected).toEqual(["beta"]);
    expect(pair.failures.get("alpha")).toBe(closedEvents[0]?.error);
    expect((await pair.listTools()).map((tool) => tool.name)).toEqual(["beta__echo", "beta__hang"]);
    await expect(pair.callTool("alpha__echo")).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_CLOSED,
      message: expect.stringContaining('MCP server "alpha" is not connected: MCP server "alpha" closed its connection'),
    });
    expect(textOf(await pair.callTool("beta__echo", { still: true }))).toBe('beta: {"still":true}');
  });

  it("drops a server whose connection closed before the group heard of it", async () => {
    const alpha = testServer("alpha");
    // Closes itself as the client finishes the session handshake, before connect() resolves.
    const dying = async (): Promise<Transport> => {
      const inner = await inMemory(alpha);
      let receiver: TransportReceiver | undefined;
      return {
        start: (given) => ((receiver = given), inner.start(given)),
        send: async (message) => {
          await inner.send(message);
          if ((message as { method?: string }).method === "notifications/initialized") receiver?.onClose(undefined);
        },
        close: () => inner.close(),
      };
    };
    const quick = group({ mcpServers: { alpha: STDIO } }, { clientOptions: { telemetry: null, era: "session" }, transportFor: dying });
    const closedEvents = heard(quick, "serverClosed");
    await quick.connect();
    expect(closedEvents.map((event) => event.server)).toEqual(["alpha"]);
    expect(quick.connected).toEqual([]);
  });

  it("forwards each server's changes with its name, and reports a server that fails to list", async () => {
    const alpha = testServer("alpha");
    const beta = testServer("beta", { prompts: true });
    // The session era: the notifications come as they are sent (the stateless era's listen stream opens after the listener).
    const pair = group(
      { mcpServers: { alpha: STDIO, beta: STDIO } },
      { clientOptions: { telemetry: null, era: "session" }, transportFor: (name) => inMemory(name === "alpha" ? alpha : beta) },
    );
    const before = heard(pair, "toolsListChanged");
    await pair.connect();
    const after = heard(pair, "promptsListChanged");
    heard(pair, "toolsListChanged");
    alpha.tool("added", {}, () => ({ content: [] }));
    beta.prompt("later", {}, () => ({ messages: [] }));
    await until(() => before.length === 1 && after.length === 1);
    expect(before[0]?.server).toBe("alpha");
    expect(after[0]?.server).toBe("beta");

    const failures = heard(pair, "listFailed");
    pair.client("beta")?.use("tools/list", () => () => Promise.reject(new MCPError(MCP_CODES.INTERNAL_ERROR, "listing broke")));
    expect((await pair.listTools()).map((tool) => tool.name)).toEqual(["alpha__echo", "alpha__hang", "alpha__added"]);
    expect(failures).toEqual([
      { server: "beta", error: expect.objectContaining({ code: MCP_CODES.INTERNAL_ERROR, message: "listing broke" }) },
    ]);
  });

  it("closes every client once, those still connecting too, and refuses to connect again", async () => {
    const alpha = testServer("alpha");
    const { promise: waiting, resolve: deliver } = deferred<Transport>();
    const closing = group(
      { mcpServers: { alpha: STDIO, slow: STDIO } },
      { transportFor: (name) => (name === "alpha" ? inMemory(alpha) : waiting) },
    );
    const connecting = closing.connect();
    await until(() => closing.connected.length === 1);
    const closedEvents = heard(closing, "serverClosed");
    const closed = closing.close();
    expect(closing.close()).toBe(closed);
    const [slowEnd, slowServerEnd] = InMemoryTransport.pair();
    await testServer("slow").start(slowServerEnd);
    deliver(slowEnd);
    await closed;
    expect((await connecting).failures.get("slow")).toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED, data: { server: "slow" } });
    expect(closing.connected).toEqual([]);
    expect(closedEvents).toEqual([]);
    await expect(closing.connect()).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_CLOSED,
      message: "This group of MCP servers is closed",
    });
    await expect(closing.callTool("alpha__echo")).rejects.toMatchObject({
      message: 'MCP server "alpha" is not connected: the group is closed',
    });
  });
});

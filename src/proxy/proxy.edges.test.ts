// proxy() beyond the era matrix: names under a prefix, a server of the caller's, the failures of the
// first and of later listings, an upstream that declares nothing, questions the session era cannot
// route (none or several proxied requests in flight), log messages outside a request, a plain client,
// and the helpers that shape what crosses the proxy.
import { describe, expect, it, vi } from "vitest";
import { MCPClient } from "../client/mcp-client/mcp-client.js";
import type { MCPError } from "../error-codes/mcp-error.js";
import { MCPServer } from "../server/mcp-server/mcp-server.js";
import type { HandlerContext } from "../server/mcp-server/mcp-server.types.js";
import { InMemoryTransport } from "../transport/in-memory/in-memory.js";
import { forwardInput, InputRouter, proxyClient } from "./input-router.js";
import { downstreamError, withoutEra } from "./proxy-entries.js";
import { proxy } from "./proxy.js";
import { chain, names, nextEvent, textOf, upstreamServer } from "./proxy.test-helpers.js";

async function connected(server: MCPServer, client = proxyClient({ name: "proxy", version: "1.0.0" }, { telemetry: null })) {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  await server.start(serverEnd);
  await client.connect(clientEnd);
  return client;
}

describe("proxy options", () => {
  it("names entries under a prefix, in a server of the caller's that close() leaves open", async () => {
    const server = new MCPServer({ name: "gateway", version: "1.0.0" }, { telemetry: null });
    server.tool("own", {}, () => ({ content: [] }));
    const { downstream, handle } = await chain("session", "session", { server, prefix: "up", separator: "." });
    expect(handle.server).toBe(server);
    expect(names(await downstream.listAllTools())).toEqual(["own", "up.echo", "up.report", "up.wait", "up.ask", "up.refuse", "up.fail"]);
    expect(names(await downstream.listAllPrompts())).toEqual(["up.greet"]);
    expect(names(await downstream.listAllResourceTemplates())).toEqual(["up.book"]);
    expect(textOf(await downstream.callTool("up.echo", { word: "hey" }))).toBe("hey (session)");
    await handle.close();
    expect(names(await downstream.listAllTools())).toEqual(["own"]);
  });

  it("gives a new server the upstream's instructions, or the info and options asked for", async () => {
    const upstream = upstreamServer({ instructions: "Ask politely" });
    const first = await proxy(await connected(upstream.server));
    expect(first.server.options.instructions).toBe("Ask politely");
    expect(first.server.info).toEqual({ name: "up", version: "1.0.0" });
    const second = await proxy(await connected(upstreamServer().server), {
      serverInfo: { name: "front", version: "2.0.0" },
      serverOptions: { pageSize: 1 },
    });
    expect(second.server.info).toEqual({ name: "front", version: "2.0.0" });
    expect(second.server.options).toEqual({ pageSize: 1 });
    const third = await proxy(await connected(upstreamServer().server));
    expect(third.server.options).toEqual({});
    await Promise.all([first.close(), second.close(), third.close()]);
  });

  it("refuses an upstream client that is not connected, or no longer", async () => {
    const refusal = { code: "MCP.NOT_INITIALIZED", message: "proxy: connect the upstream client first" };
    await expect(proxy(new MCPClient({ name: "x", version: "1" }))).rejects.toMatchObject(refusal);
    const closed = await connected(upstreamServer().server);
    await closed.close();
    await expect(proxy(closed)).rejects.toMatchObject(refusal);
  });

  it("closes the upstream client and its own server with close()", async () => {
    const upstream = await connected(upstreamServer().server);
    const handle = await proxy(upstream);
    await handle.close();
    expect(upstream.connected).toBe(false);
    expect(handle.server.closing.aborted).toBe(true);
  });

  it("offers the upstream every kind of input it forwards: sampling with tools and context, both elicitation modes, roots", async () => {
    const upstream = new MCPServer({ name: "up", version: "1.0.0" }, { telemetry: null });
    upstream.tool("capabilities", {}, (_args, ctx) => ({ content: [{ type: "text", text: JSON.stringify(ctx.client.capabilities) }] }));
    const client = await connected(upstream);
    const capabilities = JSON.parse(textOf(await client.callTool("capabilities"))) as Record<string, unknown>;
    expect(capabilities).toMatchObject({ sampling: { tools: {}, context: {} }, elicitation: { form: {}, url: {} }, roots: {} });
    await client.close();
  });

  it("fails when the first listing cannot be registered, and leaves nothing of the proxy in the server", async () => {
    const server = new MCPServer({ name: "gateway", version: "1.0.0" }, { telemetry: null });
    server.tool("echo", {}, () => ({ content: [] }));
    const upstream = upstreamServer();
    const client = await connected(upstream.server);
    await expect(proxy(client, { server })).rejects.toMatchObject({ code: "MCP.DUPLICATE_REGISTRATION" });
    expect(names(await listedTools(server))).toEqual(["echo"]);
  });

  it("reports what a later listing cannot register, to onError or to the server's onProtocolError", async () => {
    const heard: MCPError[] = [];
    const server = new MCPServer({ name: "gateway", version: "1.0.0" }, { telemetry: null, onProtocolError: (error) => heard.push(error) });
    const upstream = upstreamServer();
    const handle = await proxy(await connected(upstream.server), { server });
    server.tool("later", {}, () => ({ content: [] }));
    upstream.server.tool("later", {}, () => ({ content: [] }));
    await nextEvent<unknown>((listener) => server.changes.subscribe(listener));
    await vi.waitFor(() => expect(heard.map((error) => error.code)).toEqual(["MCP.DUPLICATE_REGISTRATION"]));
    const onError = vi.fn();
    const other = upstreamServer();
    const second = await proxy(await connected(other.server), {
      server: new MCPServer({ name: "g2", version: "1" }, { telemetry: null }),
      onError,
      prefix: "x",
    });
    second.server.tool("x_later", {}, () => ({ content: [] }));
    other.server.tool("later", {}, () => ({ content: [] }));
    await vi.waitFor(() => expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: "MCP.DUPLICATE_REGISTRATION" })));
    await Promise.all([handle.close(), second.close()]);
  });
});

/** Every tool a server lists, through a client of its own. */
async function listedTools(server: MCPServer) {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  await server.start(serverEnd);
  const client = new MCPClient({ name: "probe", version: "1" }, { telemetry: null });
  await client.connect(clientEnd);
  return client.listAllTools();
}

describe("upstreams that offer little", () => {
  it("registers nothing for an upstream that declares no lists and no logging", async () => {
    const [clientEnd, serverEnd] = InMemoryTransport.pair();
    const methods: string[] = [];
    await serverEnd.start({
      onMessage: (message) => {
        const { id, method } = message as { id?: number; method: string };
        methods.push(method);
        if (id !== undefined)
          void serverEnd.send({
            jsonrpc: "2.0",
            id,
            result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "bare", version: "0" } },
          });
      },
      onMalformed: () => undefined,
      onClose: () => undefined,
    });
    const client = new MCPClient({ name: "p", version: "1" }, { era: "session", telemetry: null });
    await client.connect(clientEnd);
    const handle = await proxy(client);
    expect(handle.server.capabilitiesFor({ version: "2025-06-18" } as never)).toEqual({ logging: {} });
    expect(methods).toEqual(["initialize", "notifications/initialized"]);
    await handle.close();
  });

  it("proxies prompts and templates without completions when the upstream has no completers", async () => {
    const server = new MCPServer({ name: "plain", version: "1" }, { telemetry: null });
    server.prompt("hello", { arguments: { who: {} } }, () => ({ messages: [] }));
    server.resourceTemplate("page", "pages://{n}", {}, (uri) => ({ contents: [{ uri, text: "page" }] }));
    const handle = await proxy(await connected(server));
    expect(handle.server.capabilitiesFor({ version: "2025-06-18", declaresCompletions: true } as never).completions).toBeUndefined();
    await handle.close();
  });

  it("works with a plain MCPClient, which declares no handlers: the upstream's questions are refused", async () => {
    const { server } = upstreamServer();
    const handle = await proxy(
      await connected(server, new MCPClient({ name: "plain", version: "1" }, { era: "session", telemetry: null })),
    );
    const down = await connected(handle.server, new MCPClient({ name: "down", version: "1" }, { telemetry: null }));
    expect(textOf(await down.callTool("echo", { word: "plain" }))).toBe("plain (session)");
    expect(await down.callTool("ask", {})).toMatchObject({ isError: true });
    await handle.close();
  });
});

describe("URL elicitation", () => {
  it("forwards an upstream's URL elicitation to a downstream client that takes them", async () => {
    const upstream = upstreamServer();
    upstream.server.tool("visit", {}, async (_args, ctx) => {
      const answer = await ctx.elicitInput({ mode: "url", message: "Sign in", url: "https://example.com/login", elicitationId: "e1" });
      return { content: [{ type: "text", text: answer.action }] };
    });
    const { handle } = await chain("session", "session", {}, upstream);
    const asked: unknown[] = [];
    const down = await connected(
      handle.server,
      new MCPClient(
        { name: "down", version: "1" },
        { telemetry: null, elicitation: { url: (params) => (asked.push(params.url), { action: "accept" }) } },
      ),
    );
    expect(textOf(await down.callTool("visit", {}))).toBe("accept");
    expect(asked).toEqual(["https://example.com/login"]);
    await handle.close();
  });
});

describe("what the session era cannot route", () => {
  it("refuses an upstream's question while several proxied requests are in flight", async () => {
    const { downstream, handle } = await chain("session", "session");
    const results = await Promise.all([downstream.callTool("ask", {}), downstream.callTool("ask", {})]);
    for (const result of results) {
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        "The proxy cannot forward elicitation/create: " +
          "2 proxied requests are in flight and elicitation/create does not say which one it belongs to",
      );
    }
    await handle.close();
  });

  it("refuses a question when no proxied request is in flight", async () => {
    await expect(new InputRouter().ask("roots/list", undefined, undefined)).rejects.toMatchObject({
      code: -32600,
      message: "The proxy cannot forward roots/list: no proxied request is in flight",
    });
  });

  it("sends a log message heard outside any proxied request to every session", async () => {
    const { downstream, upstream, handle } = await chain("session", "session");
    await downstream.setLoggingLevel("info");
    const logged = nextEvent((listener) => downstream.on("log", listener));
    await upstream.server.log("error", "disk full", "up");
    expect(await logged).toEqual({ level: "error", data: "disk full", logger: "up" });
    await handle.close();
  });
});

describe("what crosses the proxy", () => {
  it("forwards only the three kinds of questions", async () => {
    await expect(forwardInput({} as HandlerContext, "tasks/get", {})).rejects.toMatchObject({
      code: "MCP.METHOD_NOT_FOUND",
      message: "The proxy cannot forward tasks/get to its downstream client",
    });
  });

  it("drops the upstream era's fields of a result and keeps the rest of its _meta", () => {
    const result = {
      content: [],
      resultType: "complete",
      ttlMs: 5,
      cacheScope: "public",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "up" }, trace: "t" },
    };
    expect(withoutEra(result)).toEqual({ content: [], _meta: { trace: "t" } });
    expect(withoutEra({ content: [], _meta: { "io.modelcontextprotocol/serverInfo": {} } })).toEqual({ content: [] });
  });

  it("leaves what is no MCPError as it is", () => {
    const thrown = new TypeError("odd");
    expect(downstreamError(thrown, "up")).toBe(thrown);
  });
});

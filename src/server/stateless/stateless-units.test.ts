import { describe, expect, it, vi } from "vitest";

import { META_KEYS } from "../../constants/index.js";
import { InMemoryChangeFeed } from "../../stores/change-feed.js";
import { staticRequestStateKeys } from "../../stores/request-state-keys.js";
import { MCPServer } from "../mcp-server/mcp-server.js";
import { serveListen } from "./listen.js";
import { servedVersionOf } from "./request-meta.js";
import { StatelessHandlerContext } from "./stateless-context.js";
import { meta } from "./stateless.test-helpers.js";

const info = { name: "units", version: "1" };

describe("the request's _meta", () => {
  it("refuses a clientInfo that is not an implementation", async () => {
    const server = new MCPServer(info);
    const channel = { signal: new AbortController().signal, inbound: undefined, notify: () => Promise.resolve() };
    for (const clientInfo of ["me", { name: "x" }, { name: 1, version: "1" }]) {
      const answer = await server.serveStateless(1, "server/discover", { _meta: meta({ clientInfo: clientInfo as never }) }, channel);
      expect(answer).toMatchObject({ error: { code: -32602, message: expect.stringContaining("clientInfo") }, envelope: true });
    }
    let seen: unknown;
    server.tool("who", {}, (_args, ctx) => ((seen = [ctx.client, ctx.logLevel, ctx.protocolVersion]), { content: [] }));
    await server.serveStateless(2, "tools/call", { name: "who", _meta: meta({ logLevel: "error" }) }, channel);
    expect(seen).toEqual([{ info: { name: "test-client", version: "1.0.0" }, capabilities: {} }, "error", "2026-07-28"]);
  });

  it("refuses a version it speaks but does not serve, naming the ones it serves", () => {
    expect(() => servedVersionOf({ _meta: meta() }, [])).toThrow(
      expect.objectContaining({ code: -32022, data: { supported: [], requested: "2026-07-28" } }),
    );
  });
});

describe("InMemoryChangeFeed", () => {
  it("tells every listener, and reports the ones that threw together", async () => {
    const feed = new InMemoryChangeFeed();
    const heard: string[] = [];
    feed.subscribe(() => {
      throw new Error("first broke");
    });
    const stop = feed.subscribe((change) => heard.push(change.kind));
    await expect(feed.publish({ kind: "list", list: "tools" })).rejects.toMatchObject({
      errors: [expect.objectContaining({ message: "first broke" })],
    });
    expect(heard).toEqual(["list"]);
    stop();
    expect(feed.listenerCount).toBe(1);
  });
});

describe("MCPServer: stateless-era settings", () => {
  it("binds requestState to the principal: principalOf when given, else authInfo as JSON, else its text", () => {
    const server = new MCPServer(info);
    expect(server.principalOf(undefined)).toBeUndefined();
    expect(server.principalOf({ authInfo: { sub: "a" } })).toBe('{"sub":"a"}');
    expect(server.principalOf({ authInfo: { big: 1n } })).toBe("[object Object]");
    expect(server.principalOf({ authInfo: Symbol.for("who") })).toBe("Symbol(who)");
    expect(
      new MCPServer(info, { principalOf: (inbound) => `p:${String(inbound?.headers?.["x-user"])}` }).principalOf({
        headers: { "x-user": "u" },
      }),
    ).toBe("p:u");
  });

  it("reports a change feed that fails to take a change to onProtocolError, with no session", async () => {
    const changes = new InMemoryChangeFeed();
    changes.subscribe(() => {
      throw new Error("feed is down");
    });
    const reported: unknown[] = [];
    const server = new MCPServer(info, {
      changeFeed: changes,
      onProtocolError: (error, session) => reported.push([error.message, session]),
    });
    server.tool("t", {}, () => ({ content: [] }));
    await vi.waitFor(() => expect(reported).toEqual([["A change listener failed", undefined]]));
  });

  it("gives caching hints from the server's settings and the entries behind each result", () => {
    const server = new MCPServer(info, {
      cache: { discover: { ttlMs: 9, cacheScope: "public" }, read: { ttlMs: 3, cacheScope: "private" } },
    });
    server.resource("plain", "test://plain", {}, (uri) => ({ contents: [{ uri, text: "" }] }));
    server.resource("hinted", "test://hinted", { cache: { ttlMs: 50, cacheScope: "public" } }, (uri) => ({
      contents: [{ uri, text: "" }],
    }));
    server.resourceTemplate("items", "test://items/{id}", { cache: { ttlMs: 7, cacheScope: "private" } }, (uri) => ({
      contents: [{ uri, text: "" }],
    }));
    expect(server.cacheHintFor("server/discover", undefined)).toEqual({ ttlMs: 9, cacheScope: "public" });
    expect(server.cacheHintFor("resources/read", { uri: "test://plain" })).toEqual({ ttlMs: 3, cacheScope: "private" });
    expect(server.cacheHintFor("resources/read", { uri: "test://hinted" })).toEqual({ ttlMs: 50, cacheScope: "public" });
    expect(server.cacheHintFor("resources/read", { uri: "test://items/4" })).toEqual({ ttlMs: 7, cacheScope: "private" });
    expect(server.cacheHintFor("resources/templates/list", undefined)).toEqual({ ttlMs: 0, cacheScope: "private" });
    expect(server.cacheHintFor("resources/list", undefined)).toEqual({ ttlMs: 0, cacheScope: "private" });
    expect(new MCPServer(info).cacheHintFor("resources/read", { uri: "test://none" })).toEqual({ ttlMs: 0, cacheScope: "private" });
    expect(new MCPServer(info, { authorize: () => true }).cacheHintFor("tools/list", undefined)).toEqual({
      ttlMs: 0,
      cacheScope: "private",
    });
  });

  it("offers the key stores from the universal entry, for deployments that share keys", async () => {
    const entry = await import("../../index.js");
    expect([typeof entry.staticRequestStateKeys, typeof entry.InMemoryRequestStateKeys, typeof entry.InMemoryChangeFeed]).toEqual([
      "function",
      "function",
      "function",
    ]);
  });

  it("seals requestState with the configured keys and lifetime: shared keys open each other's states, a lifetime ends one", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const keys = staticRequestStateKeys([{ id: "k1", secret: "a shared secret of at least 32 bytes!!" }]);
      const brief = new MCPServer(info, { requestState: { keys, ttlMs: 100 } });
      const lasting = new MCPServer(info, { requestState: { keys } });
      const binding = { principal: undefined, method: "tools/call", digest: "d" };
      const short = await brief.sealer.seal({ answers: {} }, binding);
      const long = await lasting.sealer.seal({}, binding);
      expect(short.startsWith("v1.k1.")).toBe(true);
      await expect(lasting.sealer.open(short, binding)).resolves.toEqual({ ok: true, data: { answers: {} } });
      vi.setSystemTime(Date.now() + 100);
      // The lifetime is sealed into the state by whoever issued it.
      await expect(lasting.sealer.open(short, binding)).resolves.toEqual({ ok: false, reason: "expired" });
      await expect(brief.sealer.open(long, binding)).resolves.toEqual({ ok: true, data: {} });
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses a tool whose x-mcp-header annotations are invalid, at registration", () => {
    const server = new MCPServer(info);
    expect(() =>
      server.tool("bad", { inputSchema: { type: "object", properties: { list: { type: "array", "x-mcp-header": "List" } } } }, () => ({
        content: [],
      })),
    ).toThrow(/x-mcp-header annotations of tool "bad" are invalid/);
    server.tool("good", { inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } } }, () => ({
      content: [],
    }));
    expect(server.headerParamsOf("tools/call", { name: "good" })).toEqual([
      expect.objectContaining({ property: "region", header: "Region", type: "string" }),
    ]);
    expect(server.headerParamsOf("tools/call", { name: "missing" })).toBeUndefined();
    expect(server.headerParamsOf("tools/call", { name: 42 })).toBeUndefined();
    expect(server.headerParamsOf("tools/call", undefined)).toBeUndefined();
    // Only a tool call's tool has Mcp-Param-* headers: a prompt of the same name has none.
    server.prompt("good", {}, () => ({ messages: [] }));
    expect(server.headerParamsOf("prompts/get", { name: "good" })).toBeUndefined();
  });
});

function contextOf(signal: AbortSignal): StatelessHandlerContext {
  const channel = { signal, inbound: undefined, notify: () => Promise.resolve() };
  return new StatelessHandlerContext(3, meta(), "2026-07-28", channel, undefined);
}

function recording(logLevel: "info" | undefined, signal: AbortSignal = new AbortController().signal) {
  const sent: unknown[] = [];
  const channel = {
    signal,
    inbound: undefined,
    notify: (method: string, params: Record<string, unknown>) => Promise.resolve(void sent.push([method, params])),
  };
  const context = new StatelessHandlerContext(1, logLevel === undefined ? meta() : meta({ logLevel }), "2026-07-28", channel, undefined);
  return { context, sent };
}

describe("StatelessHandlerContext", () => {
  it("logs at and above the request's level only, with the logger when named; nothing without a level", async () => {
    const { context, sent } = recording("info");
    await context.log("debug", "too low");
    await context.log("info", { n: 1 }, "worker");
    await context.log("error", "plain");
    expect(sent).toEqual([
      ["notifications/message", { level: "info", logger: "worker", data: { n: 1 } }],
      ["notifications/message", { level: "error", data: "plain" }],
    ]);
    const silent = recording(undefined);
    await silent.context.log("emergency", "nobody asked");
    expect(silent.sent).toEqual([]);
  });

  it("sends nothing once the request is over (its signal fired)", async () => {
    const { context, sent } = recording("info", AbortSignal.abort());
    await context.log("error", "late");
    await context.progress(1);
    expect(sent).toEqual([]);
  });

  it("refuses input requests outside tools/call, prompts/get and resources/read", async () => {
    const { context } = recording(undefined);
    await expect(context.listRoots()).rejects.toThrow("roots/list: only");
    await expect(context.elicitInput({ message: "?", requestedSchema: { type: "object", properties: {} } })).rejects.toThrow(
      "elicitation/create: only",
    );
    await expect(context.createMessage({ messages: [], maxTokens: 1 })).rejects.toThrow("sampling/createMessage: only");
  });
});

describe("serveListen", () => {
  it("ends at once, without an answer, when the client left before the stream opened", async () => {
    const server = new MCPServer(info);
    const gone = AbortSignal.abort(new Error("client left"));
    await expect(serveListen(server, {}, contextOf(gone))).rejects.toThrow("client left");
  });

  it("ends at once, with its result, when the server closed before the stream opened; honours only what the server has", async () => {
    const changes = new InMemoryChangeFeed();
    const server = new MCPServer(info, { changeFeed: changes });
    server.resource("r", "test://r", {}, (uri) => ({ contents: [{ uri, text: "" }] }));
    await server.close();
    const context = contextOf(new AbortController().signal);
    const sent: unknown[] = [];
    context.channel.notify = (method, params) => Promise.resolve(void sent.push({ method, params }));
    await expect(
      serveListen(server, { notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true } }, context),
    ).resolves.toEqual({ _meta: { [META_KEYS.subscriptionId]: 3 } });
    expect(sent).toEqual([
      {
        method: "notifications/subscriptions/acknowledged",
        params: { notifications: { resourcesListChanged: true }, _meta: { [META_KEYS.subscriptionId]: 3 } },
      },
    ]);
    expect(changes.listenerCount).toBe(1);
  });

  it("acknowledges an empty filter when the request names nothing the server has", async () => {
    const server = new MCPServer(info);
    await server.close();
    const context = contextOf(new AbortController().signal);
    const sent: unknown[] = [];
    context.channel.notify = (method, params) => Promise.resolve(void sent.push({ method, params }));
    await serveListen(server, {}, context);
    await serveListen(server, { notifications: { resourceSubscriptions: ["test://x"] } }, context);
    // A channel that can no longer carry the acknowledgement does not fail the request.
    context.channel.notify = () => Promise.reject(new Error("connection closed"));
    await expect(serveListen(server, {}, context)).resolves.toEqual({ _meta: { [META_KEYS.subscriptionId]: 3 } });
    const empty = {
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: {}, _meta: { [META_KEYS.subscriptionId]: 3 } },
    };
    expect(sent).toEqual([empty, empty]);
  });
});

// The client keeps what a 2026-07-28 server says stays fresh (ttlMs) for as long as it says, and only
// for whom it says (cacheScope): list pages and resource reads are served from the cache while
// fresh, a change notification or clearCache() makes them stale, `fresh: true` asks anyway, and a
// result that took a round of input is never kept. Several clients can share one ResponseCache:
// public results serve them all, private ones only the same principal.
import { afterEach, describe, expect, it, vi } from "vitest";
import { InMemoryTransport, MCPClient, MCPServer, ResponseCache, type MCPClientOptions, type Transport } from "../src/index.js";
import { CACHE, dualEraServer } from "./fixtures/dual-era-server.mjs";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

/** A client on `server` in memory, with the methods of what it sent. */
async function connected(server: MCPServer, options: MCPClientOptions = {}): Promise<{ client: MCPClient; sent: string[] }> {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  await server.start(serverEnd);
  const sent: string[] = [];
  const tapped: Transport = {
    carriesStatelessEra: true,
    start: (receiver) => clientEnd.start(receiver),
    send: (message) => {
      const { method } = message as { method?: string };
      if (method !== undefined) sent.push(method);
      return clientEnd.send(message);
    },
    close: () => clientEnd.close(),
  };
  const client = new MCPClient(
    { name: "cache", version: "1.0.0" },
    { telemetry: null, elicitation: { form: () => ({ action: "accept", content: { ok: true } }) }, ...options },
  );
  cleanups.push(async () => {
    await client.close();
    await server.close();
  });
  await client.connect(tapped);
  sent.length = 0;
  return { client, sent };
}

describe("the response cache (stateless era)", () => {
  it("serves list pages and reads while fresh, asks again when told to, after clearCache and after a change notification", async () => {
    const { client, sent } = await connected(dualEraServer(MCPServer));
    const first = await client.listTools();
    expect(first.ttlMs).toBe(CACHE.lists.ttlMs);
    expect(await client.listTools()).toEqual(first);
    await client.readResource("memo://note");
    await client.readResource("memo://note");
    await client.readResource("memo://items/1");
    expect(sent).toEqual(["tools/list", "resources/read", "resources/read"]);
    await client.listTools(undefined, { fresh: true });
    await client.ping();
    await client.ping();
    expect(sent.slice(3)).toEqual(["tools/list", "server/discover", "server/discover"]);
    client.clearCache();
    await client.listTools();
    await client.readResource("memo://note");
    expect(sent.slice(6)).toEqual(["tools/list", "resources/read"]);
    // A change the client hears of makes what it names stale, and only that.
    client.on("toolsListChanged", () => undefined);
    await client.subscribeResource("memo://note");
    await client.callTool("add-tool");
    await client.callTool("touch", { uri: "memo://note" });
    await vi.waitFor(async () => expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("late"));
    await client.readResource("memo://note");
    await client.listPrompts();
    await client.listPrompts();
    // The second call's output check lists the tools again (the listing went stale), and that listing is kept.
    expect(sent.slice(8).filter((method) => method !== "subscriptions/listen")).toEqual([
      "tools/call",
      "tools/list",
      "tools/call",
      "resources/read",
      "prompts/list",
    ]);
  });

  it("keeps a result only as long as its ttlMs, and nothing the server says is stale at once", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    const { client, sent } = await connected(dualEraServer(MCPServer));
    await client.readResource("memo://note");
    vi.advanceTimersByTime(CACHE.note.ttlMs - 1);
    await client.readResource("memo://note");
    vi.advanceTimersByTime(1);
    await client.readResource("memo://note");
    // ttlMs 0: stale at once.
    const server = new MCPServer({ name: "no cache", version: "1" }, { cache: { lists: { ttlMs: 0, cacheScope: "public" } } });
    server.tool("t", { description: "t" }, () => ({ content: [] }));
    const { client: other, sent: otherSent } = await connected(server);
    await other.listTools();
    await other.listTools();
    expect([sent, otherSent]).toEqual([
      ["resources/read", "resources/read"],
      ["tools/list", "tools/list"],
    ]);
  });

  it("never keeps a result that took a round of input, nor one asked with _meta of the caller's own", async () => {
    const server = new MCPServer({ name: "asks", version: "1" });
    let asked = 0;
    server.resource("secret", "memo://secret", { cache: { ttlMs: 60_000, cacheScope: "private" } }, async (uri, ctx) => {
      asked++;
      const answer = await ctx.elicitInput({
        message: "Show it?",
        requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
      });
      return { contents: [{ uri, text: answer.action === "accept" ? "shown" : "hidden" }] };
    });
    server.resource("open", "memo://open", { cache: { ttlMs: 60_000, cacheScope: "private" } }, (uri) => ({
      contents: [{ uri, text: "open" }],
    }));
    const { client, sent } = await connected(server);
    expect((await client.readResource("memo://secret")).contents).toEqual([{ uri: "memo://secret", text: "shown" }]);
    expect((await client.readResource("memo://secret")).contents).toEqual([{ uri: "memo://secret", text: "shown" }]);
    expect(asked).toBe(4);
    await client.readResource("memo://open", { meta: { trace: "a" } });
    await client.readResource("memo://open", { meta: { trace: "a" } });
    expect(sent).toEqual(Array.from({ length: 6 }, () => "resources/read"));
  });

  it("shares public results between clients of one server, private ones only with the same principal; false keeps nothing", async () => {
    const cache = new ResponseCache(10);
    const shared = (principal: string): MCPClientOptions => ({ responseCache: { cache, server: "dual-era", principal } });
    const { client: alice, sent: aliceSent } = await connected(dualEraServer(MCPServer), shared("alice"));
    await alice.listTools();
    await alice.readResource("memo://note");
    const { client: bob, sent: bobSent } = await connected(dualEraServer(MCPServer), shared("bob"));
    await bob.listTools();
    await bob.readResource("memo://note");
    const { client: alice2, sent: alice2Sent } = await connected(dualEraServer(MCPServer), shared("alice"));
    await alice2.readResource("memo://note");
    const { client: none, sent: noneSent } = await connected(dualEraServer(MCPServer), { responseCache: false });
    await none.listTools();
    await none.listTools();
    none.on("toolsListChanged", () => undefined);
    none.clearCache();
    await none.callTool("add-tool");
    await vi.waitFor(async () => expect((await none.listTools()).tools.map((tool) => tool.name)).toContain("late"));
    expect([aliceSent, bobSent, alice2Sent]).toEqual([["tools/list", "resources/read"], ["resources/read"], []]);
    // Without a cache each listing asks the server (the one after the change saw the new tool).
    expect(noneSent.filter((method) => method === "tools/list").length).toBeGreaterThanOrEqual(3);
    expect(cache.size).toBe(3);
  });
});

describe("ResponseCache", () => {
  it("drops the oldest entry past maxEntries, and a stale one when read", () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    const cache = new ResponseCache(2);
    cache.set("a", 1, 10);
    cache.set("b", 2, 100);
    cache.set("a", 3, 100);
    cache.set("c", 4, 100);
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.size]).toEqual([3, undefined, 4, 2]);
    vi.advanceTimersByTime(100);
    expect([cache.get("a"), cache.size]).toEqual([undefined, 1]);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(new ResponseCache().maxEntries).toBe(1000);
  });
});

// resultCache on a real server, in both eras: the lists and reads the server's caching hints make
// cacheable are served again without their handlers while fresh; private results per caller (none
// kept for an anonymous one); what the server changes is dropped; memory is bounded; methods without
// hints pass through. The client asks with `fresh` so that its own cache (stateless era) stays out.
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import { resultCache } from "./result-cache.js";
import { ERAS, clientAs, testClock, text, textOf } from "./server-builtins.test-helpers.js";

const FRESH = { fresh: true } as const;

function cachedServer(runs: string[], clock: ReturnType<typeof testClock> | undefined, maxEntries?: number): MCPServer {
  const server = new MCPServer(
    { name: "cached", version: "1.0.0" },
    { telemetry: null, cache: { lists: { ttlMs: 1_000, cacheScope: "public" } } },
  );
  server.tool("search", {}, () => {
    runs.push("search");
    return text("found");
  });
  server.resource("news", "file:///news", { cache: { ttlMs: 500, cacheScope: "public" } }, (uri) => {
    runs.push(`read ${uri}`);
    return { contents: [{ uri, text: `news ${runs.length}` }] };
  });
  server.resource("inbox", "file:///inbox", { cache: { ttlMs: 500, cacheScope: "private" } }, (uri, context) => {
    runs.push(`read ${uri}`);
    return { contents: [{ uri, text: `inbox of ${JSON.stringify(context.principal)}` }] };
  });
  server.resource("weather", "file:///weather", { cache: { ttlMs: 500, cacheScope: "public" } }, (uri) => {
    runs.push(`read ${uri}`);
    return { contents: [{ uri, text: "sunny" }] };
  });
  server.resource("live", "file:///live", { cache: { ttlMs: 0, cacheScope: "public" } }, (uri) => {
    runs.push(`read ${uri}`);
    return { contents: [{ uri, text: "now" }] };
  });
  // Counts the list handler's runs from outside the cache: a layer added after it is inside it.
  return server
    .use(resultCache(server, { ...(clock && { now: clock.now }), ...(maxEntries === undefined ? {} : { maxEntries }) }))
    .use("tools/list", (next) => (request, context) => {
      runs.push("tools/list");
      return next(request, context);
    });
}

const count = (runs: readonly string[], what: string) => runs.filter((run) => run === what).length;

describe.each(ERAS)("resultCache, %s era", (era) => {
  it("serves a fresh list or read again without its handler, and asks again once the ttl passed", async () => {
    const [runs, clock] = [[] as string[], testClock()];
    const client = await clientAs(cachedServer(runs, clock), era);
    await client.listTools(undefined, FRESH);
    await client.listTools(undefined, FRESH);
    const first = await client.readResource("file:///news", FRESH);
    expect(await client.readResource("file:///news", FRESH)).toEqual(first);
    expect([count(runs, "tools/list"), count(runs, "read file:///news")]).toEqual([1, 1]);
    clock.advance(500);
    await client.readResource("file:///news", FRESH);
    await client.listTools(undefined, FRESH);
    expect([count(runs, "tools/list"), count(runs, "read file:///news")]).toEqual([1, 2]);
    clock.advance(500);
    await client.listTools(undefined, FRESH);
    expect(count(runs, "tools/list")).toBe(2);
    // A ttl of 0, and a method without hints, are never kept.
    await client.readResource("file:///live", FRESH);
    await client.readResource("file:///live", FRESH);
    await client.callTool("search", {});
    await client.callTool("search", {});
    expect([count(runs, "read file:///live"), count(runs, "search")]).toEqual([2, 2]);
    await client.close();
  });

  it("keeps a private result per caller, and none for a caller it cannot tell apart", async () => {
    const [runs, clock] = [[] as string[], testClock()];
    const server = cachedServer(runs, clock);
    const [ada, bob, anonymous] = [
      await clientAs(server, era, { subject: "ada" }),
      await clientAs(server, era, { subject: "bob" }),
      await clientAs(server, era),
    ];
    const inbox = async (client: typeof ada) => textOf({ content: (await client.readResource("file:///inbox", FRESH)).contents });
    expect(await inbox(ada)).toBe('inbox of {"subject":"ada"}');
    expect(await inbox(bob)).toBe('inbox of {"subject":"bob"}');
    expect(await inbox(ada)).toBe('inbox of {"subject":"ada"}');
    await inbox(anonymous);
    await inbox(anonymous);
    expect(count(runs, "read file:///inbox")).toBe(4);
    await Promise.all([ada.close(), bob.close(), anonymous.close()]);
  });

  it("drops a list when it changes and a read when its resource is updated", async () => {
    const [runs, clock] = [[] as string[], testClock()];
    const server = cachedServer(runs, clock);
    const client = await clientAs(server, era);
    await client.listTools(undefined, FRESH);
    await client.readResource("file:///news", FRESH);
    await client.readResource("file:///inbox", FRESH);
    await client.readResource("file:///weather", FRESH);
    // A task's change is no list's and no resource's: everything stays.
    await server.changes.publish({ kind: "task", taskId: "t-1" });
    await client.readResource("file:///news", FRESH);
    expect(count(runs, "read file:///news")).toBe(1);
    await server.markResourceUpdated("file:///news");
    await client.readResource("file:///news", FRESH);
    await client.readResource("file:///weather", FRESH);
    await client.listTools(undefined, FRESH);
    // Only the updated resource's reads went: the other resource and the list are still kept.
    expect([count(runs, "read file:///news"), count(runs, "read file:///weather"), count(runs, "tools/list")]).toEqual([2, 1, 1]);
    server.tool("added", {}, () => text("new"));
    // The list change is published once the tick's changes are collected.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await client.listTools(undefined, FRESH)).tools.map((tool) => tool.name)).toEqual(["search", "added"]);
    expect(count(runs, "tools/list")).toBe(2);
    // The prompts changing leaves the tools alone; the resources changing drops every read.
    server.prompt("p", {}, () => ({ messages: [] }));
    server.resource("more", "file:///more", {}, (uri) => ({ contents: [{ uri, text: "" }] }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    await client.listTools(undefined, FRESH);
    await client.readResource("file:///news", FRESH);
    expect([count(runs, "tools/list"), count(runs, "read file:///news")]).toEqual([2, 3]);
    await client.close();
  });
});

describe("resultCache's memory and options", () => {
  it("keeps at most maxEntries, the oldest going first (on the real clock)", async () => {
    const runs: string[] = [];
    const client = await clientAs(cachedServer(runs, undefined, 1), "session");
    await client.readResource("file:///news", FRESH);
    await client.readResource("file:///news", FRESH);
    expect(count(runs, "read file:///news")).toBe(1);
    await client.readResource("file:///news", FRESH);
    await client.listTools(undefined, FRESH);
    await client.readResource("file:///news", FRESH);
    expect(count(runs, "read file:///news")).toBe(2);
    await client.close();
  });

  it("refuses a maxEntries that is no whole number of at least 1", () => {
    const server = new MCPServer({ name: "x", version: "1" });
    for (const maxEntries of [0, 2.5, Number.NaN])
      expect(() => resultCache(server, { maxEntries })).toThrow(
        expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: expect.stringContaining("resultCache: maxEntries") }),
      );
  });
});

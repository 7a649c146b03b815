// Requests and notifications from the peer: a handler's signal however early it is read, what a
// cancel says, the progress a handler may send, which notifications are checked and reported, and
// how long a request took.
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import type { MCPError } from "../../error-codes/mcp-error.js";
import { EventBus, type MCPEventMap } from "../../events/events.js";
import type { PassNotification, RequestContext } from "./dispatcher.types.js";
import { scriptedDispatcher } from "./dispatcher.test-helpers.js";

afterEach(() => {
  vi.useRealTimers();
});

const request = (id: number, method: string, params?: object) => ({ jsonrpc: "2.0", id, method, ...(params && { params }) });
const cancel = (params: object) => ({ jsonrpc: "2.0", method: "notifications/cancelled", params });

describe("a handler's signal and the peer's cancel", () => {
  it("aborts the signal a handler read before the cancel arrived, and reads back that same signal after", async () => {
    const { dispatcher, peer } = await scriptedDispatcher();
    let context: RequestContext | undefined;
    let early: AbortSignal | undefined;
    const heard: string[] = [];
    dispatcher.setRequestHandler("test/slow", (_params, ctx) => {
      context = ctx;
      early = ctx.signal;
      expect(ctx.signal).toBe(early);
      early.addEventListener("abort", () => heard.push((ctx.signal.reason as MCPError).message));
      return new Promise(() => undefined);
    });
    peer.deliver(request(1, "test/slow"));
    expect(early?.aborted).toBe(false);
    peer.deliver(cancel({ requestId: 1, reason: "too slow" }));
    expect(heard).toEqual(["The peer cancelled test/slow: too slow"]);
    expect(context?.signal).toBe(early);
    expect(context?.signal.reason).toMatchObject({ code: MCP_CODES.REQUEST_CANCELLED });
  });

  it("says only which request was cancelled when the cancel gives no reason, or one that is not text", async () => {
    const { dispatcher, peer } = await scriptedDispatcher();
    const contexts: RequestContext[] = [];
    dispatcher.setRequestHandler("test/slow", (_params, ctx) => {
      contexts.push(ctx);
      return new Promise(() => undefined);
    });
    peer.deliver(request(1, "test/slow"));
    peer.deliver(request(2, "test/slow"));
    peer.deliver(cancel({ requestId: 1 }));
    peer.deliver(cancel({ requestId: 2, reason: 42 }));
    expect(contexts.map((ctx) => [ctx.signal.aborted, (ctx.signal.reason as MCPError).message])).toEqual([
      [true, "The peer cancelled test/slow"],
      [true, "The peer cancelled test/slow"],
    ]);
    expect(dispatcher.pendingCount.incoming).toBe(0);
  });
});

describe("progress a handler sends", () => {
  it("has no progress token, and sends no progress, when the requester's token is neither text nor a number", async () => {
    const { dispatcher, peer } = await scriptedDispatcher();
    const tokens: unknown[] = [];
    dispatcher.setRequestHandler("test/a", async (_params, ctx) => {
      tokens.push(ctx.progressToken);
      await ctx.progress(1);
      return {};
    });
    peer.deliver(request(1, "test/a", { _meta: { progressToken: true } }));
    peer.deliver(request(2, "test/a", { _meta: { progressToken: { id: 1 } } }));
    await peer.waitForSent(2);
    expect(tokens).toEqual([undefined, undefined]);
    // Each handler sent its progress (if any) before its answer: there is none.
    expect(peer.sent).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
  });

  it("gives the transport progress params with only the members the handler gave", async () => {
    const { dispatcher, peer } = await scriptedDispatcher();
    dispatcher.setRequestHandler("test/a", async (_params, ctx) => {
      await ctx.progress(1);
      await ctx.progress(2, 4);
      await ctx.progress(3, undefined, "nearly");
      return {};
    });
    peer.deliver(request(1, "test/a", { _meta: { progressToken: "t" } }));
    await peer.waitForSent(4);
    // toStrictEqual: a member present with the value undefined would not match.
    expect(peer.given.slice(0, 3).map(({ message }) => message)).toStrictEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: 1 } },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: 2, total: 4 } },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: 3, message: "nearly" } },
    ]);
  });
});

describe("notifications from the peer", () => {
  it("reports only what someone listens for: a bad notification nobody handles and progress nobody waits for go unreported", async () => {
    const reported: string[] = [];
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client", onProtocolError: (error) => reported.push(error.message) });
    const bad = { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: 42 } };
    peer.deliver(bad);
    peer.deliver({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "nobody's", progress: 1 } });
    expect(reported).toEqual([]);
    dispatcher.setNotificationHandler("notifications/resources/updated", () => undefined);
    peer.deliver(bad);
    expect(reported).toEqual(["Invalid params for notification notifications/resources/updated: uri: expected string, received number"]);
  });
});

describe("notifications through the owner's layers (notificationLayers)", () => {
  it("asks for the layers at each notification, and hands it straight on while there are none", async () => {
    let layers: PassNotification | undefined;
    const seen: string[] = [];
    const handled: unknown[] = [];
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client", notificationLayers: () => layers });
    dispatcher.setNotificationHandler("notifications/resources/updated", (params) => void handled.push(params));
    peer.deliver({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///before" } });
    // No layers: handled as it arrives, with nothing in between.
    expect(handled).toEqual([{ uri: "file:///before" }]);
    layers = (_direction, method, params, way) => (seen.push(method), Promise.resolve(way(params)));
    peer.deliver({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///after" } });
    await vi.waitFor(() => expect(handled).toEqual([{ uri: "file:///before" }, { uri: "file:///after" }]));
    expect(seen).toEqual(["notifications/resources/updated"]);
  });

  it("hands the layers each checked notification of the revision, handled here or not, and takes on what they pass", async () => {
    const passed: string[] = [];
    const handled: unknown[] = [];
    const { dispatcher, peer } = await scriptedDispatcher({
      side: "client",
      notificationLayers: () => (direction, method, params, way) => {
        passed.push(`${direction} ${method} ${JSON.stringify(params ?? null)}`);
        return Promise.resolve(method === "notifications/resources/updated" ? way({ uri: "file:///changed" }) : undefined);
      },
    });
    dispatcher.setNotificationHandler("notifications/resources/updated", (params) => void handled.push(params));
    peer.deliver({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    peer.deliver({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///a" } });
    // Bad params of a notification nobody handles, and one no revision knows: the layers see neither.
    peer.deliver({ jsonrpc: "2.0", method: "notifications/message", params: { level: 7 } });
    peer.deliver({ jsonrpc: "2.0", method: "notifications/custom", params: {} });
    await vi.waitFor(() => expect(handled).toEqual([{ uri: "file:///changed" }]));
    expect(passed).toEqual([
      "incoming notifications/tools/list_changed null",
      'incoming notifications/resources/updated {"uri":"file:///a"}',
    ]);
  });

  it("sends what the layers pass on, and nothing (no event either) of what they drop", async () => {
    const events = new EventBus<MCPEventMap>();
    const emitted: string[] = [];
    events.on("notification:emitted", ({ method, params }) => emitted.push(`${method} ${JSON.stringify(params)}`));
    const { dispatcher, peer } = await scriptedDispatcher({
      events,
      notificationLayers: () => (_direction, method, params, way) =>
        method === "notifications/message" ? Promise.resolve() : Promise.resolve(way({ ...params, seen: true })),
    });
    await dispatcher.notify("notifications/message", { level: "info", data: "dropped" });
    await dispatcher.notify("notifications/resources/updated", { uri: "file:///a" });
    expect(peer.sent).toEqual([{ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///a", seen: true } }]);
    expect(emitted).toEqual(['notifications/resources/updated {"uri":"file:///a","seen":true}']);
  });
});

describe("request events", () => {
  it("gives the time from a request's arrival to its answer as its duration", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const events = new EventBus<MCPEventMap>();
    const completed: Array<MCPEventMap["request:completed"]> = [];
    events.on("request:completed", (event) => completed.push(event));
    const { dispatcher, peer } = await scriptedDispatcher({ events });
    dispatcher.setRequestHandler("test/slow", () => new Promise((resolve) => setTimeout(() => resolve({}), 250)));
    await vi.advanceTimersByTimeAsync(1000);
    peer.deliver(request(1, "test/slow"));
    await vi.advanceTimersByTimeAsync(250);
    expect(completed).toEqual([{ side: "server", method: "test/slow", id: 1, durationMs: 250, outcome: "success" }]);
  });
});

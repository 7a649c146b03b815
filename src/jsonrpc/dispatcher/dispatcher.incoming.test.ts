// Requests and notifications from the peer: a handler's signal however early it is read, what a
// cancel says, the progress a handler may send, which notifications are checked and reported, and
// how long a request took.
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import type { MCPError } from "../../error-codes/mcp-error.js";
import { EventBus, type MCPEventMap } from "../../events/events.js";
import type { RequestContext } from "./dispatcher.types.js";
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
  it("checks and reports only what someone listens for: a bad notification nobody handles, and progress nobody waits for, go unreported", async () => {
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

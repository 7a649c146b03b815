import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import type { MCPError } from "../../error-codes/mcp-error.js";
import type { RequestContext } from "./dispatcher.types.js";
import { connectedPair, rejection, scriptedDispatcher, settle } from "./dispatcher.test-helpers.js";

describe("cancellation", () => {
  it("sends notifications/cancelled when the caller aborts, rejects with MCP.REQUEST_CANCELLED, and aborts the handler", async () => {
    const { client, server } = await connectedPair();
    let handlerContext: RequestContext | undefined;
    server.setRequestHandler("test/slow", (_params, context) => {
      handlerContext = context;
      return new Promise(() => undefined);
    });
    const controller = new AbortController();
    const pending = rejection(client.request("test/slow", {}, { signal: controller.signal }));
    await settle();
    controller.abort("user pressed stop");
    const error = await pending;
    expect(error.code).toBe(MCP_CODES.REQUEST_CANCELLED);
    expect(error.cause).toBe("user pressed stop");
    await settle();
    expect(handlerContext?.signal.aborted).toBe(true);
    expect((handlerContext?.signal.reason as MCPError | undefined)?.message).toBe("The peer cancelled test/slow: user pressed stop");
    expect(server.pendingCount.incoming).toBe(0);
    expect(client.pendingCount.outgoing).toBe(0);
  });

  it("sends no response for a cancelled request even when its handler finishes afterwards", async () => {
    const { dispatcher, peer } = await scriptedDispatcher();
    let finish!: () => void;
    dispatcher.setRequestHandler("test/slow", () => new Promise<object>((resolve) => (finish = () => resolve({ late: true }))));
    dispatcher.setRequestHandler("test/ok", () => ({ ok: true }));
    peer.deliver({ jsonrpc: "2.0", id: 1, method: "test/slow" });
    await settle();
    peer.deliver({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    finish();
    peer.deliver({ jsonrpc: "2.0", id: 2, method: "test/ok" });
    await peer.waitForSent(1);
    await settle();
    expect(peer.sent).toEqual([{ jsonrpc: "2.0", id: 2, result: { ok: true } }]);
  });

  it("ignores a response that arrives after its caller cancelled (reported, not delivered)", async () => {
    const onProtocolError = vi.fn();
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client", onProtocolError });
    const controller = new AbortController();
    const pending = rejection(dispatcher.request("test/a", {}, { signal: controller.signal }));
    await peer.waitForSent(1);
    controller.abort();
    expect((await pending).code).toBe(MCP_CODES.REQUEST_CANCELLED);
    const [, cancel] = await peer.waitForSent(2);
    expect(cancel).toMatchObject({ method: "notifications/cancelled", params: { requestId: 1, reason: expect.any(String) } });
    peer.deliver({ jsonrpc: "2.0", id: 1, result: { tooLate: true } });
    await settle();
    expect(onProtocolError).toHaveBeenCalledWith(
      expect.objectContaining({ code: MCP_CODES.PROTOCOL_INVALID, message: "Received a response for unknown request id 1" }),
    );
  });

  it("leaves no abort listener on the caller's signal once a request settles, however it ends", async () => {
    const { client, server } = await connectedPair({ timeoutMs: 20 });
    server.setRequestHandler("test/ok", () => ({}));
    server.setRequestHandler("test/fail", () => {
      throw new Error("no");
    });
    server.setRequestHandler("test/hang", () => new Promise(() => undefined));
    const signal = new AbortController().signal;
    await client.request("test/ok", {}, { signal });
    await client.request("test/fail", {}, { signal }).catch(() => undefined);
    await client.request("test/hang", {}, { signal }).catch(() => undefined);
    const closing = client.request("test/hang", {}, { signal }).catch(() => undefined);
    expect(getEventListeners(signal, "abort")).toHaveLength(1);
    await client.close();
    await closing;
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("rejects at once without sending when the signal is already aborted", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client" });
    const error = await rejection(dispatcher.request("test/a", {}, { signal: AbortSignal.abort("no") }));
    expect(error.code).toBe(MCP_CODES.REQUEST_CANCELLED);
    expect(peer.sent).toEqual([]);
  });

  it("ignores a cancel for an unknown or finished request", async () => {
    const { dispatcher, peer } = await scriptedDispatcher();
    dispatcher.setRequestHandler("test/ok", () => ({}));
    peer.deliver({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 404 } });
    peer.deliver({ jsonrpc: "2.0", method: "notifications/cancelled" });
    peer.deliver({ jsonrpc: "2.0", id: 1, method: "test/ok" });
    await peer.waitForSent(1);
    expect(peer.sent).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
  });

  it("lets a handler ask the peer something on behalf of its request", async () => {
    const { client, server } = await connectedPair();
    client.setRequestHandler("test/inner", (params) => ({ answer: (params as { q: number }).q + 1 }));
    server.setRequestHandler("test/outer", async (_params, context) => ({ inner: await context.request("test/inner", { q: 41 }) }));
    await expect(client.request("test/outer")).resolves.toEqual({ inner: { answer: 42 } });
  });

  it("cancels a handler's own outgoing request when the handler's request is cancelled", async () => {
    const { client, server } = await connectedPair();
    let innerSignal: AbortSignal | undefined;
    client.setRequestHandler("test/inner", (_params, context) => {
      innerSignal = context.signal;
      return new Promise(() => undefined);
    });
    let innerOutcome: Promise<MCPError> | undefined;
    server.setRequestHandler("test/outer", (_params, context) => {
      innerOutcome = rejection(context.request("test/inner", { q: 1 }, { signal: new AbortController().signal }));
      return new Promise(() => undefined);
    });
    const controller = new AbortController();
    const outer = rejection(client.request("test/outer", {}, { signal: controller.signal }));
    await settle(20);
    expect(innerSignal?.aborted).toBe(false);
    controller.abort();
    await outer;
    await settle(20);
    expect((await innerOutcome)?.code).toBe(MCP_CODES.REQUEST_CANCELLED);
    expect(innerSignal?.aborted).toBe(true);
  });
});

describe("timeouts and progress", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("times out with MCP.TIMEOUT, tells the peer, and aborts its handler", async () => {
    const { client, server } = await connectedPair({ timeoutMs: 100 });
    let signal: AbortSignal | undefined;
    server.setRequestHandler("test/hang", (_params, context) => {
      signal = context.signal;
      return new Promise(() => undefined);
    });
    const pending = rejection(client.request("test/hang"));
    await settle();
    await vi.advanceTimersByTimeAsync(100);
    const error = await pending;
    expect(error.code).toBe(MCP_CODES.TIMEOUT);
    expect(error.data).toEqual({ timeoutMs: 100, maxTotalTimeoutMs: undefined });
    await settle();
    expect(signal?.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps one timer for every pending request, each timing out at its own deadline", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ timeoutMs: 300 });
    const outcomes: string[] = [];
    const track = (label: string, promise: Promise<unknown>) =>
      void promise.then(
        () => outcomes.push(`${label} answered`),
        (error: MCPError) => outcomes.push(`${label} ${error.code}`),
      );
    track("slow", dispatcher.request("test/a"));
    await vi.advanceTimersByTimeAsync(100);
    // A shorter deadline, added later, moves the one timer earlier.
    track("quick", dispatcher.request("test/b", undefined, { maxTotalTimeoutMs: 50 }));
    track("answered", dispatcher.request("test/c"));
    expect(vi.getTimerCount()).toBe(1);
    peer.deliver({ jsonrpc: "2.0", id: 3, result: {} });
    await vi.advanceTimersByTimeAsync(50);
    expect(outcomes).toEqual(["answered answered", `quick ${MCP_CODES.TIMEOUT}`]);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(149);
    expect(outcomes).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(outcomes).toEqual(["answered answered", `quick ${MCP_CODES.TIMEOUT}`, `slow ${MCP_CODES.TIMEOUT}`]);
    expect(dispatcher.pendingCount.outgoing).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("finds a deadline a progress moved later when the shared timer fires, and waits on", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ timeoutMs: 100 });
    let failed: MCPError | undefined;
    dispatcher.request("test/a", {}, { onProgress: () => undefined }).catch((error: MCPError) => (failed = error));
    await vi.advanceTimersByTimeAsync(90);
    peer.deliver({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } });
    await vi.advanceTimersByTimeAsync(10); // the timer armed for 100 fires; the deadline is now 190
    expect(failed).toBeUndefined();
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(90);
    expect(failed?.code).toBe(MCP_CODES.TIMEOUT);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("restarts the timeout on every progress notification and delivers the progress", async () => {
    const { client, server } = await connectedPair();
    server.setRequestHandler("test/long", async (_params, context) => {
      for (let step = 1; step <= 4; step++) {
        await new Promise((resolve) => setTimeout(resolve, 80));
        await context.progress(step, 4, `step ${step}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 80));
      return { done: true };
    });
    const updates: unknown[] = [];
    const result = client.request("test/long", {}, { timeoutMs: 100, onProgress: (update) => updates.push(update) });
    await vi.advanceTimersByTimeAsync(400);
    await expect(result).resolves.toEqual({ done: true });
    expect(updates).toEqual([1, 2, 3, 4].map((step) => ({ progressToken: 1, progress: step, total: 4, message: `step ${step}` })));
    // The shared timer stays armed for the next request (letting the process end); closing drops it.
    expect(vi.getTimerCount()).toBe(1);
    await client.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("does not restart the timeout when resetTimeoutOnProgress is false", async () => {
    const { client, server } = await connectedPair({ resetTimeoutOnProgress: false });
    server.setRequestHandler("test/long", async (_params, context) => {
      await new Promise((resolve) => setTimeout(resolve, 80));
      await context.progress(1);
      return new Promise(() => undefined);
    });
    const updates: unknown[] = [];
    const pending = rejection(client.request("test/long", {}, { timeoutMs: 100, onProgress: (update) => updates.push(update) }));
    await vi.advanceTimersByTimeAsync(100);
    expect((await pending).code).toBe(MCP_CODES.TIMEOUT);
    expect(updates).toEqual([{ progressToken: 1, progress: 1 }]);
  });

  it("caps the whole request at maxTotalTimeoutMs however often progress arrives", async () => {
    const { client, server } = await connectedPair({ maxTotalTimeoutMs: 250 });
    server.setRequestHandler("test/endless", async (_params, context) => {
      for (let step = 0; step < 10; step++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await context.progress(step);
      }
      return { never: true };
    });
    const pending = rejection(client.request("test/endless", {}, { timeoutMs: 100, onProgress: () => undefined }));
    await vi.advanceTimersByTimeAsync(260);
    const error = await pending;
    expect(error.code).toBe(MCP_CODES.TIMEOUT);
    expect(error.message).toContain("total timeout of 250 ms");
    await vi.advanceTimersByTimeAsync(1000);
  });

  it("keeps the caller's _meta and adds the progress token to a copy", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client" });
    const params = { x: 1, _meta: { traceparent: "00-abc" } };
    void dispatcher.request("test/a", params, { onProgress: () => undefined }).catch(() => undefined);
    const [sent] = await peer.waitForSent(1);
    expect(sent).toMatchObject({ params: { x: 1, _meta: { traceparent: "00-abc", progressToken: 1 } } });
    expect(params).toEqual({ x: 1, _meta: { traceparent: "00-abc" } });
    await dispatcher.close();
  });

  it("passes progress that belongs to no request of ours to a progress handler, and drops malformed progress", async () => {
    const onProtocolError = vi.fn();
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client", onProtocolError });
    const seen = vi.fn();
    dispatcher.setNotificationHandler("notifications/progress", seen);
    peer.deliver({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "theirs", progress: 1 } });
    peer.deliver({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: "lots" } });
    await settle();
    expect(seen).toHaveBeenCalledTimes(1);
    expect(onProtocolError).toHaveBeenCalledTimes(1);
  });

  it("sends no progress when the requester gave no token, nor after the answer", async () => {
    const { dispatcher, peer } = await scriptedDispatcher();
    let context: RequestContext | undefined;
    dispatcher.setRequestHandler("test/a", async (_params, ctx) => {
      context = ctx;
      await ctx.progress(1);
      return {};
    });
    peer.deliver({ jsonrpc: "2.0", id: 1, method: "test/a" });
    peer.deliver({ jsonrpc: "2.0", id: 2, method: "test/a", params: { _meta: { progressToken: "t" } } });
    await peer.waitForSent(3);
    await context?.progress(2);
    await settle();
    expect(peer.sent).toHaveLength(3);
    expect(peer.sent).toEqual(
      expect.arrayContaining([
        { jsonrpc: "2.0", id: 1, result: {} },
        { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: 1 } },
        { jsonrpc: "2.0", id: 2, result: {} },
      ]),
    );
  });

  it("lets a handler send notifications that belong to its request", async () => {
    const { client, server } = await connectedPair();
    const seen = vi.fn();
    client.setNotificationHandler("test/side-note", seen);
    server.setRequestHandler("test/a", async (_params, context) => {
      await context.notify("test/side-note", { from: context.id });
      return {};
    });
    await client.request("test/a");
    await settle();
    expect(seen.mock.calls[0]?.[0]).toEqual({ from: 1 });
  });
});

// The deadlines of outgoing requests to the millisecond, with fake timers and clock: a call's own
// timeouts next to the dispatcher's, the total cap counted from when the request was sent, and what
// a timeout or an abort says to the caller and to the peer.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import type { MCPError } from "../../error-codes/mcp-error.js";
import type { RequestOptions } from "./dispatcher.types.js";
import { rejection, scriptedDispatcher, type ScriptedPeer } from "./dispatcher.test-helpers.js";
import type { JsonRpcDispatcher } from "./dispatcher.js";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Sends `test/a` and keeps how it failed, to be read at exact moments. */
function track(dispatcher: JsonRpcDispatcher, options: RequestOptions): { failure: MCPError | undefined } {
  const outcome: { failure: MCPError | undefined } = { failure: undefined };
  dispatcher.request("test/a", {}, options).catch((error: MCPError) => (outcome.failure = error));
  return outcome;
}

function progress(peer: ScriptedPeer, step: number): void {
  peer.deliver({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: step } });
}

describe("outgoing deadlines", () => {
  it("counts the total cap from when the request was sent, however late that is, through progress that restarts the timeout", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client", timeoutMs: 100 });
    await vi.advanceTimersByTimeAsync(1000);
    const call = track(dispatcher, { maxTotalTimeoutMs: 250, onProgress: () => undefined });
    for (let step = 1; step <= 4; step++) {
      await vi.advanceTimersByTimeAsync(50);
      progress(peer, step);
    }
    // The last progress (at 200) would allow until 300; the cap ends it at 250.
    await vi.advanceTimersByTimeAsync(49);
    expect(call.failure).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(call.failure).toMatchObject({
      code: MCP_CODES.TIMEOUT,
      message: "Request test/a exceeded its total timeout of 250 ms",
      data: { timeoutMs: 100, maxTotalTimeoutMs: 250 },
    });
  });

  it("says a capped request sent late timed out by its own timeout when that ran out first", async () => {
    const { dispatcher } = await scriptedDispatcher({ side: "client", timeoutMs: 100, maxTotalTimeoutMs: 1000 });
    await vi.advanceTimersByTimeAsync(1000);
    const call = track(dispatcher, {});
    await vi.advanceTimersByTimeAsync(99);
    expect(call.failure).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(call.failure).toMatchObject({
      code: MCP_CODES.TIMEOUT,
      message: "Request test/a timed out after 100 ms",
      data: { timeoutMs: 100, maxTotalTimeoutMs: 1000 },
    });
  });

  it("says how long an uncapped request waited, and tells the peer the same", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client", timeoutMs: 100 });
    const pending = rejection(dispatcher.request("test/a"));
    await vi.advanceTimersByTimeAsync(100);
    const error = await pending;
    expect(error).toMatchObject({ code: MCP_CODES.TIMEOUT, message: "Request test/a timed out after 100 ms" });
    expect(error.data).toStrictEqual({ timeoutMs: 100, maxTotalTimeoutMs: undefined });
    expect(peer.sent).toEqual([
      { jsonrpc: "2.0", id: 1, method: "test/a" },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "Request test/a timed out after 100 ms" } },
    ]);
  });

  it("keeps the dispatcher's timeout from moving when a call gives resetTimeoutOnProgress: false alone", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client", timeoutMs: 100 });
    const updates: unknown[] = [];
    const call = track(dispatcher, { resetTimeoutOnProgress: false, onProgress: (update) => updates.push(update) });
    await vi.advanceTimersByTimeAsync(80);
    progress(peer, 1);
    await vi.advanceTimersByTimeAsync(19);
    expect(call.failure).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(call.failure).toMatchObject({ code: MCP_CODES.TIMEOUT, message: "Request test/a timed out after 100 ms" });
    expect(updates).toEqual([{ progressToken: 1, progress: 1 }]);
  });

  it("moves the deadline on progress by the call's own timeout when the dispatcher's default is not to", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client", timeoutMs: 100, resetTimeoutOnProgress: false });
    const call = track(dispatcher, { resetTimeoutOnProgress: true, timeoutMs: 50, onProgress: () => undefined });
    await vi.advanceTimersByTimeAsync(40);
    progress(peer, 1);
    await vi.advanceTimersByTimeAsync(49);
    expect(call.failure).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(call.failure).toMatchObject({ code: MCP_CODES.TIMEOUT, message: "Request test/a timed out after 50 ms" });
  });
});

describe("aborted and progressing calls", () => {
  it("rejects an aborted call with the reason in its message and as its cause, and gives the peer the reason", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client" });
    const controller = new AbortController();
    const pending = rejection(dispatcher.request("test/a", undefined, { signal: controller.signal }));
    controller.abort("user pressed stop");
    expect(await pending).toMatchObject({
      code: MCP_CODES.REQUEST_CANCELLED,
      message: "Request cancelled: user pressed stop",
      cause: "user pressed stop",
    });
    expect(peer.sent).toEqual([
      { jsonrpc: "2.0", id: 1, method: "test/a" },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "user pressed stop" } },
    ]);
  });

  it("gives progress for a call of ours to that call only, and other progress to the progress handler", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client" });
    const handled: unknown[] = [];
    const ours: unknown[] = [];
    dispatcher.setNotificationHandler("notifications/progress", (params) => void handled.push(params));
    void dispatcher.request("test/a", {}, { onProgress: (update) => ours.push(update) }).catch(() => undefined);
    progress(peer, 1);
    peer.deliver({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "theirs", progress: 2 } });
    await vi.waitFor(() => expect(handled).toEqual([{ progressToken: "theirs", progress: 2 }]));
    expect(ours).toEqual([{ progressToken: 1, progress: 1 }]);
    await dispatcher.close();
  });
});

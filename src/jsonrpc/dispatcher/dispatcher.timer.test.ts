// The one timer of a dispatcher's pending requests, with real timers: it holds the process while a
// request is pending, stays armed without holding it once none is (the next request reuses it), and
// where a timer cannot let go of the process (a numeric one, as in browsers) it is cleared instead.
import { afterEach, describe, expect, it, vi } from "vitest";

import { connectedPair } from "./dispatcher.test-helpers.js";

const TIMEOUT_MS = 43_210;

/** Whether a timer was armed for a request's timeout (the deadline is rounded up to a whole millisecond). */
const forTimeout = (call: readonly unknown[]): boolean => typeof call[1] === "number" && call[1] >= TIMEOUT_MS && call[1] <= TIMEOUT_MS + 1;

/**
 * Spies on setTimeout and returns what the dispatcher's timeout timer is doing: whether it was armed,
 * and whether it holds the process. Only that timer is looked at, so other timers of the process
 * (the test runner's, other tests') cannot change the answer.
 */
function watchTimeoutTimer() {
  const spy = vi.spyOn(globalThis, "setTimeout");
  const armed = (): NodeJS.Timeout[] =>
    spy.mock.calls.flatMap((call, index) => (forTimeout(call) ? [spy.mock.results[index]?.value as NodeJS.Timeout] : []));
  return {
    armed,
    holds: (): boolean => armed().at(-1)?.hasRef() ?? false,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the pending requests' timer", () => {
  it("holds the process only while a request is pending, and is armed once for requests one after another", async () => {
    const timer = watchTimeoutTimer();
    const { client, server } = await connectedPair({ timeoutMs: TIMEOUT_MS });
    const waiting: Array<(result: object) => void> = [];
    server.setRequestHandler("test/wait", () => new Promise((resolve) => waiting.push(resolve)));
    for (let round = 0; round < 3; round++) {
      const answer = client.request("test/wait", {});
      await vi.waitFor(() => expect(waiting).toHaveLength(1));
      expect(timer.holds()).toBe(true);
      waiting.shift()?.({});
      await answer;
      expect(timer.holds()).toBe(false);
    }
    expect(timer.armed()).toHaveLength(1);
    await client.close();
  });

  it("keeps holding the process while any request is pending, and lets go when the last one settles", async () => {
    const timer = watchTimeoutTimer();
    const { client, server } = await connectedPair({ timeoutMs: TIMEOUT_MS });
    const waiting = new Map<unknown, (result: object) => void>();
    server.setRequestHandler("test/wait", (params) => new Promise((resolve) => waiting.set((params as { name: unknown }).name, resolve)));
    const first = client.request("test/wait", { name: "first" });
    const second = client.request("test/wait", { name: "second" });
    await vi.waitFor(() => expect(waiting.size).toBe(2));
    expect(timer.holds()).toBe(true);
    waiting.get("first")?.({});
    await first;
    expect(timer.holds()).toBe(true);
    waiting.get("second")?.({});
    await second;
    expect(timer.holds()).toBe(false);
    expect(timer.armed()).toHaveLength(1);
    await client.close();
  });

  it("arms no timer and holds nothing for a request without a deadline (timeoutMs: Infinity), and still times out the others", async () => {
    const spy = vi.spyOn(globalThis, "setTimeout");
    const { client, server } = await connectedPair({ timeoutMs: TIMEOUT_MS });
    const waiting: Array<(result: object) => void> = [];
    server.setRequestHandler("test/wait", () => new Promise((resolve) => waiting.push(resolve)));
    const ids: unknown[] = [];
    const forever = client.request("test/wait", {}, { timeoutMs: Number.POSITIVE_INFINITY, onId: (id) => ids.push(id) });
    await vi.waitFor(() => expect(waiting).toHaveLength(1));
    expect(ids).toEqual([1]);
    expect(
      spy.mock.calls.filter((call) => call[1] === Number.POSITIVE_INFINITY || (typeof call[1] === "number" && call[1] >= TIMEOUT_MS)),
    ).toEqual([]);
    // A request with a deadline next to it arms the timer, which lets go once only the endless one is left.
    const timer = watchTimeoutTimer();
    const bounded = client.request("test/wait", {}, { onId: (id) => ids.push(id) });
    await vi.waitFor(() => expect(waiting).toHaveLength(2));
    expect(ids).toEqual([1, 2]);
    expect(timer.holds()).toBe(true);
    waiting[1]?.({});
    await bounded;
    expect(timer.holds()).toBe(false);
    waiting[0]?.({ done: true });
    await expect(forever).resolves.toEqual({ done: true });
    await client.close();
  });

  it("is cleared once nothing is pending where the platform's timers are numbers", async () => {
    const real = new Map<number, ReturnType<typeof setTimeout>>();
    const armedIds: number[] = [];
    let nextId = 1;
    const realSetTimeout = globalThis.setTimeout;
    const realClearTimeout = globalThis.clearTimeout;
    vi.spyOn(globalThis, "setTimeout").mockImplementation(((callback: () => void, ms?: number) => {
      const id = nextId++;
      if (forTimeout([callback, ms])) armedIds.push(id);
      real.set(id, realSetTimeout(callback, ms));
      return id;
    }) as unknown as typeof setTimeout);
    const clearSpy = vi.spyOn(globalThis, "clearTimeout").mockImplementation(((id: number | undefined) => {
      if (id !== undefined) realClearTimeout(real.get(id));
      if (id !== undefined) real.delete(id);
    }) as unknown as typeof clearTimeout);
    const { client, server } = await connectedPair({ timeoutMs: TIMEOUT_MS });
    server.setRequestHandler("test/now", () => ({}));
    const waiting: Array<(result: object) => void> = [];
    server.setRequestHandler("test/wait", () => new Promise((resolve) => waiting.push(resolve)));
    await client.request("test/now", {});
    await client.request("test/now", {});
    // Armed for each request and cleared when it settled: no timer is left over.
    expect(armedIds).toHaveLength(2);
    for (const id of armedIds) expect(clearSpy).toHaveBeenCalledWith(id);
    expect([...real.keys()].filter((id) => armedIds.includes(id))).toEqual([]);
    // Two requests in flight share the one armed timer; a number has no ref() to call for the second.
    const both = [client.request("test/wait", {}), client.request("test/wait", {})];
    await vi.waitFor(() => expect(waiting).toHaveLength(2));
    expect(armedIds).toHaveLength(3);
    for (const resolve of waiting) resolve({});
    await expect(Promise.all(both)).resolves.toEqual([{}, {}]);
    expect([...real.keys()].filter((id) => armedIds.includes(id))).toEqual([]);
    await client.close();
  });
});

import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { DEFAULT_RECONNECTION, MAX_SERVER_RETRY_MS, reconnectionDelay, resolveReconnection, sleep } from "./reconnection.js";

describe("reconnection", () => {
  it("grows the wait from the initial delay by growFactor up to maxDelayMs", () => {
    const options = resolveReconnection({ initialDelayMs: 100, growFactor: 2, maxDelayMs: 500 });
    expect([0, 1, 2, 3, 4].map((attempt) => reconnectionDelay(attempt, undefined, options))).toEqual([100, 200, 400, 500, 500]);
    expect(resolveReconnection(undefined)).toEqual(DEFAULT_RECONNECTION);
  });

  it("starts from the server's retry, honours one longer than maxDelayMs, and caps an absurd one", () => {
    const options = resolveReconnection({ growFactor: 2, maxDelayMs: 1000 });
    expect([0, 1, 2].map((attempt) => reconnectionDelay(attempt, 300, options))).toEqual([300, 600, 1000]);
    expect(reconnectionDelay(3, 5000, options)).toBe(5000);
    expect(reconnectionDelay(0, 1e15, options)).toBe(MAX_SERVER_RETRY_MS);
  });

  it("sleeps, and stops sleeping with MCP.TRANSPORT_CLOSED when the signal aborts (even before)", async () => {
    const controller = new AbortController();
    await expect(sleep(1, controller.signal)).resolves.toBeUndefined();
    const waiting = sleep(60_000, controller.signal);
    controller.abort();
    const closed = { code: MCP_CODES.TRANSPORT_CLOSED, message: "The transport closed while waiting to reconnect" };
    await expect(waiting).rejects.toMatchObject(closed);
    await expect(sleep(60_000, controller.signal)).rejects.toMatchObject(closed);
  });

  it("leaves no abort listener behind on the signal, whether the sleep ran out or was stopped", async () => {
    const outlives = new AbortController();
    await sleep(1, outlives.signal);
    expect(getEventListeners(outlives.signal, "abort")).toEqual([]);
    const stopped = new AbortController();
    const waiting = sleep(60_000, stopped.signal);
    stopped.abort();
    await expect(waiting).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    expect(getEventListeners(stopped.signal, "abort")).toEqual([]);
  });
});

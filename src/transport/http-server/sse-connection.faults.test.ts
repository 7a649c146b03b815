import { afterEach, describe, expect, it, vi } from "vitest";
import { eventStreamOf } from "./fetch-exchange.js";
import { DEFAULT_MAX_BUFFERED_BYTES, SseConnection } from "./sse-connection.js";
import { SseReader, httpRequest, openSession, testServer } from "./http-server.test-helpers.js";
import { InMemoryEventStore, streamableHttpHandler } from "./index.js";
import type { StreamableHttpHandler } from "./http-server.types.js";

const handlers: StreamableHttpHandler[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const handler of handlers.splice(0)) await handler.close();
});

describe("SseConnection: a client that never reads", () => {
  it("ends the connection once more than maxBufferedBytes wait unread, once, and ignores later writes", async () => {
    let gone = 0;
    const connection = new SseConnection({ keepAliveMs: 0, maxBufferedBytes: 100, onClientGone: () => gone++ });
    for (let i = 0; i < 10; i++) connection.write({ event: "message", data: "x".repeat(30) });
    expect(gone).toBe(1);
    await expect(eventStreamOf(connection).getReader().read()).rejects.toThrow("The client stopped reading this event stream");
    connection.close(); // already ended: nothing happens
    expect(gone).toBe(1);
  });

  it("keeps what is read: a reading client is never cut off", async () => {
    let gone = 0;
    const connection = new SseConnection({ keepAliveMs: 0, maxBufferedBytes: 100, onClientGone: () => gone++ });
    const reader = eventStreamOf(connection).getReader();
    for (let i = 0; i < 50; i++) {
      connection.write({ data: "y".repeat(40) });
      expect(new TextDecoder().decode((await reader.read()).value)).toBe(`data: ${"y".repeat(40)}\n\n`);
    }
    expect(gone).toBe(0);
  });

  it("does not count a replay against the bound: the client reads it right after", () => {
    let gone = 0;
    const connection = new SseConnection({ keepAliveMs: 0, maxBufferedBytes: 10, onClientGone: () => gone++ });
    for (let i = 0; i < 10; i++) connection.write({ data: "replayed" }, true);
    expect(gone).toBe(0);
    connection.write({ data: "live" });
    expect(gone).toBe(1);
  });

  it("stops its keep-alive timer when a keep-alive finds the client not reading", () => {
    vi.useFakeTimers();
    let gone = 0;
    const connection = new SseConnection({ keepAliveMs: 5, maxBufferedBytes: 1, onClientGone: () => gone++ });
    vi.advanceTimersByTime(5);
    expect(gone).toBe(1);
    connection.write({ data: "after" }); // ended: ignored
    expect(gone).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("Streamable HTTP: a GET stream whose client stopped reading", () => {
  it("is ended past the default bound instead of growing, and the client resumes with Last-Event-ID losing nothing", async () => {
    const server = testServer();
    // A store that holds more than the connection's bound, so the stall can be replayed in full.
    const handler = streamableHttpHandler(server, {
      eventStore: new InMemoryEventStore({ maxDataLength: 2 * DEFAULT_MAX_BUFFERED_BYTES }),
    });
    handlers.push(handler);
    const id = await openSession(handler);
    const stalled = new SseReader((await handler.fetch(httpRequest({ method: "GET", session: id }))).body);
    const priming = await stalled.next();
    expect(priming?.id).toMatch(/_/);
    const session = [...server.sessions].find((candidate) => candidate.id === id);
    const chunk = "z".repeat(64 * 1024);
    const count = Math.ceil(DEFAULT_MAX_BUFFERED_BYTES / chunk.length) + 8;
    // The client reads nothing more while the server logs > 16 MiB to it.
    for (let n = 0; n < count; n++) await session?.log("info", `${n}:${chunk}`);
    expect(handler.sessionCount).toBe(1);
    // The stalled connection was ended: after its priming event, its body fails instead of holding 16 MiB.
    await expect(stalled.next()).rejects.toThrow("The client stopped reading this event stream");
    const resumed = new SseReader(
      (await handler.fetch(httpRequest({ method: "GET", session: id, headers: { "last-event-id": priming?.id as string } }))).body,
    );
    const got: number[] = [];
    for (let n = 0; n < count; n++) {
      const message = (await resumed.nextMessage()) as { params: { data: string } };
      got.push(Number(message.params.data.split(":")[0]));
    }
    expect(got).toEqual(Array.from({ length: count }, (_, n) => n));
    await resumed.cancel();
  });
});

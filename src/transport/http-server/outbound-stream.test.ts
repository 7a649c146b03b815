// How a stream keeps its events: an opening (priming) event held back to the next turn and kept
// with the event that follows it in one append; what is held back kept when the stream ends, is
// resumed, or moves to another instance, and dropped when its session ends.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { EventStore, StoredEvent, StreamRef } from "./event-store.js";
import { InMemoryEventStore } from "./event-store.js";
import { eventStreamOf } from "./fetch-exchange.js";
import { SseReader } from "./http-server.test-helpers.js";
import { OutboundStream, type StreamSettings } from "./outbound-stream.js";

afterEach(() => void vi.useRealTimers());

/** A store that keeps in memory and records each call it got: an append of one event, or of several. */
function recordingStore(withAppendAll = true): EventStore & { readonly calls: string[][]; readonly memory: InMemoryEventStore } {
  const memory = new InMemoryEventStore();
  const calls: string[][] = [];
  const store: EventStore & { calls: string[][]; memory: InMemoryEventStore } = {
    calls,
    memory,
    append: (where: StreamRef, event: StoredEvent) => {
      calls.push([event.id]);
      memory.append(where, event);
    },
    eventsAfter: (where, id) => memory.eventsAfter(where, id),
    dropSession: (id) => memory.dropSession(id),
  };
  if (withAppendAll) {
    store.appendAll = (where, events) => {
      calls.push(events.map((event) => event.id));
      for (const event of events) memory.append(where, event);
    };
  }
  return store;
}

const settings = (store: EventStore, opening = false): StreamSettings => ({
  events: { store, sessionId: "s" },
  keepAliveMs: 0,
  retryMs: 1000,
  maxConnectionMs: undefined,
  opening,
});
const ANSWER = '{"jsonrpc":"2.0","id":1,"result":{}}';

describe("OutboundStream keeping its events", () => {
  it("keeps the priming event with a quick answer in one append", async () => {
    const store = recordingStore();
    const stream = new OutboundStream("1", settings(store), [1], () => undefined);
    const reader = new SseReader(eventStreamOf(stream.connect(true)));
    await stream.respond(1, ANSWER);
    expect(store.calls).toEqual([["1_0", "1_1"]]);
    expect(await reader.allEvents()).toEqual([
      { id: "1_0", retry: 1000, data: "" },
      { event: "message", id: "1_1", data: ANSWER },
    ]);
    expect(store.memory.streamRequests({ sessionId: "s", streamId: "1" })).toEqual([1]);
  });

  it("keeps them one by one with a store that cannot append several at once", async () => {
    const store = recordingStore(false);
    const stream = new OutboundStream("1", settings(store), [1], () => undefined);
    stream.connect(true);
    await stream.respond(1, ANSWER);
    expect(store.calls).toEqual([["1_0"], ["1_1"]]);
  });

  it("keeps a held-back opening on the next turn when nothing follows, and before a resume reads the store", async () => {
    vi.useFakeTimers();
    const store = recordingStore();
    const quiet = new OutboundStream("1", settings(store, true), [1], () => undefined);
    quiet.connect(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(store.calls).toEqual([["1_0"]]);
    const resumed = new OutboundStream("2", settings(store), [2], () => undefined);
    resumed.connect(true);
    // No turn has passed: the resume keeps the opening first, so it finds it.
    expect(await resumed.resume("2_0")).toBeDefined();
    expect(store.calls).toEqual([["1_0"], ["2_0"]]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps what is held back when the session moves to another instance, and drops it when the session ends", async () => {
    const moving = recordingStore();
    const stream = new OutboundStream("1", settings(moving), [1], () => undefined);
    stream.connect(true);
    stream.close(true);
    await expect.poll(() => moving.calls).toEqual([["1_0"]]);
    const ending = recordingStore();
    const ended = new OutboundStream("1", settings(ending), [1], () => undefined);
    ended.connect(true);
    ended.close();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ending.calls).toEqual([]);
  });

  it("sends without waiting for the store, keeps what came meanwhile in one append, and resumes only once all is kept", async () => {
    const memory = new InMemoryEventStore();
    const calls: string[][] = [];
    let release!: () => void;
    let held: Promise<void> = new Promise((resolve) => (release = resolve));
    const slow: EventStore = {
      append: () => undefined,
      appendAll: async (where, events) => {
        calls.push(events.map((event) => event.id));
        await held;
        for (const event of events) memory.append(where, event);
      },
      eventsAfter: (where, id) => memory.eventsAfter(where, id),
      dropSession: () => undefined,
    };
    const stream = new OutboundStream("1", settings(slow), [1], () => undefined);
    const reader = new SseReader(eventStreamOf(stream.connect(true)));
    await stream.forward('{"jsonrpc":"2.0","method":"a"}', false);
    await stream.forward('{"jsonrpc":"2.0","method":"b"}', false);
    await stream.forward('{"jsonrpc":"2.0","method":"c"}', false);
    // All four went out while the first append still waits.
    expect((await Promise.all([reader.next(), reader.next(), reader.next(), reader.next()])).map((event) => event?.id)).toEqual([
      "1_0",
      "1_1",
      "1_2",
      "1_3",
    ]);
    expect(calls).toEqual([["1_0", "1_1"]]);
    let resumed = false;
    const resuming = stream.resume("1_1").then((body) => ((resumed = true), body));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(resumed).toBe(false);
    release();
    held = Promise.resolve();
    expect(await resuming).toBeDefined();
    expect(calls).toEqual([
      ["1_0", "1_1"],
      ["1_2", "1_3"],
    ]);
  });

  it("makes a sender far ahead of a slow store wait for it", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow: EventStore = { append: () => undefined, appendAll: () => held, eventsAfter: () => undefined, dropSession: () => undefined };
    const stream = new OutboundStream("1", settings(slow), [1], () => undefined);
    stream.connect(false);
    // The first event starts an append that waits; the next ones are held back, and the send that makes them 64 waits for the store.
    for (let n = 1; n <= 64; n++) await stream.forward(`{"n":${n}}`, false);
    let sent = false;
    const waiting = stream.forward('{"n":65}', false).then(() => (sent = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent).toBe(false);
    release();
    await waiting;
    expect(sent).toBe(true);
  });

  it("retires a cancelled request and goes on while another of the stream is pending", async () => {
    const store = recordingStore();
    const events: string[] = [];
    const stream = new OutboundStream("1", settings(store), [1, 2], (_stream, event) => void events.push(event));
    const reader = new SseReader(eventStreamOf(stream.connect(true)));
    stream.retire(1);
    await stream.respond(2, '{"jsonrpc":"2.0","id":2,"result":{}}');
    expect((await reader.allEvents()).map((event) => event.id)).toEqual(["1_0", "1_1"]);
    expect(events).toEqual(["answered"]);
  });
});

const message = (n: number): StoredEvent => ({
  id: `g_${n}`,
  data: `{"jsonrpc":"2.0","method":"notifications/message","params":{"n":${n}}}`,
});

describe("OutboundStream: an answer nobody could resume", () => {
  const PROGRESS = '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}';

  it("sends a stream's last event without an id, and keeps nothing, when its client holds none of its ids", async () => {
    const store = recordingStore();
    const stream = new OutboundStream("1", settings(store), [1, 2], () => undefined);
    const reader = new SseReader(eventStreamOf(stream.connect(false)));
    await stream.respond(1, ANSWER);
    await stream.respond(2, ANSWER.replace('"id":1', '"id":2'));
    // The first answer is not the last event: a client that lost the connection after it may resume from its id.
    expect(await reader.allEvents()).toEqual([
      { event: "message", id: "1_0", data: ANSWER },
      { event: "message", id: "1_1", data: ANSWER.replace('"id":1', '"id":2') },
    ]);
    const quick = new OutboundStream("2", settings(store), [1], () => undefined);
    const quickReader = new SseReader(eventStreamOf(quick.connect(false)));
    await quick.respond(1, ANSWER);
    expect(await quickReader.allEvents()).toEqual([{ event: "message", data: ANSWER }]);
    expect(store.calls).toEqual([["1_0"], ["1_1"]]);
  });

  it("gives the last event an id once an earlier one had one, or a priming event did", async () => {
    const store = recordingStore();
    const stream = new OutboundStream("1", settings(store), [1], () => undefined);
    const reader = new SseReader(eventStreamOf(stream.connect(false)));
    await stream.forward(PROGRESS, false);
    await stream.respond(1, ANSWER);
    expect(await reader.allEvents()).toEqual([
      { event: "message", id: "1_0", data: PROGRESS },
      { event: "message", id: "1_1", data: ANSWER },
    ]);
    const primed = new OutboundStream("2", settings(store), [1], () => undefined);
    const primedReader = new SseReader(eventStreamOf(primed.connect(true)));
    await primed.respond(1, ANSWER);
    expect((await primedReader.allEvents()).map((event) => event.id)).toEqual(["2_0", "2_1"]);
  });

  it("gives the last event an id on a connection its client resumed", async () => {
    const store = recordingStore();
    const stream = new OutboundStream("1", settings(store), [1], () => undefined);
    stream.connect(false);
    await stream.forward(PROGRESS, false);
    // A resume takes the stream over from the connection that still looks open.
    const resumed = await stream.resume("1_0");
    if (resumed === undefined || resumed === "ended") throw new Error("the stream should be resumable from 1_0");
    const reader = new SseReader(eventStreamOf(resumed));
    await stream.respond(1, ANSWER);
    expect(await reader.allEvents()).toEqual([{ event: "message", id: "1_1", data: ANSWER }]);
  });
});

describe("OutboundStream adopting a stream another instance served", () => {
  it("replays the GET stream after the client's id, past a priming event in the middle, and numbers on", async () => {
    const store = new InMemoryEventStore();
    const ref = { sessionId: "s", streamId: "g" };
    for (const event of [{ id: "g_0", data: "" }, message(1), { id: "g_2", data: "" }, message(3)]) store.append(ref, event);
    const stream = new OutboundStream("g", settings(store), undefined, () => undefined);
    const body = await stream.adopt("g_1", () => "never");
    const reader = new SseReader(eventStreamOf(body as NonNullable<typeof body>));
    expect([await reader.next(), await reader.next()].map((event) => event?.id)).toEqual(["g_2", "g_3"]);
    await stream.forward('{"jsonrpc":"2.0","method":"later"}', false);
    expect((await reader.next())?.id).toBe("g_4");
    await reader.cancel();
  });

  it("refuses an id it cannot replay from, and answers from what is left when the opening is no longer kept", async () => {
    const memory = new InMemoryEventStore();
    const ref = { sessionId: "s", streamId: "p" };
    memory.append(ref, { id: "p_0", data: "", requests: [1, 2] });
    memory.append(ref, { id: "p_1", data: '{"jsonrpc":"2.0","id":2,"result":{}}' });
    memory.append(ref, { id: "p_2", data: '{"jsonrpc":"2.0","method":"notifications/progress","params":{}}' });
    // A store whose oldest events went: it no longer replays from the opening.
    const trimmed: EventStore = {
      append: (where, event) => memory.append(where, event),
      eventsAfter: (where, id) => (id.endsWith("_0") ? undefined : memory.eventsAfter(where, id)),
      dropSession: () => undefined,
    };
    const refused = new OutboundStream("p", settings(trimmed), [1, 2], () => undefined);
    expect(await refused.adopt("p_9", () => "never")).toBeUndefined();
    const stream = new OutboundStream("p", settings(trimmed), [1, 2], () => undefined);
    const body = await stream.adopt("p_1", (id) => `{"jsonrpc":"2.0","id":${String(id)},"error":{"code":-32603,"message":"gone"}}`);
    const events = await new SseReader(eventStreamOf(body as NonNullable<typeof body>)).allEvents();
    // Only what followed the client's id is known: request 2's answer came before it, so only the missed events are checked — request 1 and
    // 2 both get the error.
    expect(events.map((event) => [event.id, (JSON.parse(event.data ?? "{}") as { id?: number }).id])).toEqual([
      ["p_2", undefined],
      ["p_3", 1],
      ["p_4", 2],
    ]);
  });
});

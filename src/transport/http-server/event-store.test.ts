import * as fc from "fast-check";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { InMemoryEventStore, type StoredEvent, type StreamRef } from "./event-store.js";

/** The store's contract, written the plain way: every event kept in one list, oldest first. */
class ModelStore {
  #kept: Array<{ readonly ref: StreamRef; readonly event: StoredEvent }> = [];

  constructor(
    private readonly maxEvents: number,
    private readonly maxDataLength: number,
  ) {}

  get size(): number {
    return this.#kept.length;
  }

  append(ref: StreamRef, event: StoredEvent): void {
    this.#kept.push({ ref, event });
    const dataLength = () => this.#kept.reduce((sum, kept) => sum + kept.event.data.length, 0);
    while (this.#kept.length > Math.max(1, this.maxEvents) || (dataLength() > this.maxDataLength && this.#kept.length > 1))
      this.#kept.shift();
  }

  eventsAfter(ref: StreamRef, eventId: string): readonly StoredEvent[] | undefined {
    const events = this.#kept
      .filter((kept) => kept.ref.sessionId === ref.sessionId && kept.ref.streamId === ref.streamId)
      .map((kept) => kept.event);
    const at = events.findIndex((event) => event.id === eventId);
    return at < 0 ? undefined : events.slice(at + 1);
  }

  dropSession(sessionId: string): void {
    this.#kept = this.#kept.filter((kept) => kept.ref.sessionId !== sessionId);
  }
}

const ref = (sessionId: string, streamId: string): StreamRef => ({ sessionId, streamId });

const steps = fc.array(
  fc.oneof(
    fc.record({
      kind: fc.constant("append" as const),
      session: fc.nat(3),
      stream: fc.nat(2),
      count: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 200, max: 700 })),
      length: fc.nat(4),
    }),
    fc.record({ kind: fc.constant("drop" as const), session: fc.nat(3) }),
  ),
  { maxLength: 25 },
);

describe("InMemoryEventStore", () => {
  it("replays, per stream, the events after an id; an id it never held replays nothing", () => {
    const store = new InMemoryEventStore();
    store.append(ref("a", "1"), { id: "1_0", data: "" });
    store.append(ref("a", "1"), { id: "1_1", data: "x" });
    store.append(ref("a", "2"), { id: "2_0", data: "other stream" });
    store.append(ref("a", "1"), { id: "1_2", data: "y" });
    expect(store.eventsAfter(ref("a", "1"), "1_0")).toEqual([
      { id: "1_1", data: "x" },
      { id: "1_2", data: "y" },
    ]);
    expect(store.eventsAfter(ref("a", "1"), "1_2")).toEqual([]);
    expect(store.eventsAfter(ref("a", "1"), "2_0")).toBeUndefined();
    expect(store.eventsAfter(ref("b", "1"), "1_0")).toBeUndefined();
    expect(store.eventsAfter(ref("a", "9"), "1_0")).toBeUndefined();
  });

  it("holds at most maxEvents, evicting the oldest overall — whole streams and sessions when emptied", () => {
    const store = new InMemoryEventStore({ maxEvents: 2 });
    store.append(ref("old", "1"), { id: "1_0", data: "a" });
    store.append(ref("new", "1"), { id: "1_0", data: "b" });
    store.append(ref("new", "1"), { id: "1_1", data: "c" });
    expect(store.size).toBe(2);
    expect(store.eventsAfter(ref("old", "1"), "1_0")).toBeUndefined();
    expect(store.eventsAfter(ref("new", "1"), "1_0")).toEqual([{ id: "1_1", data: "c" }]);
    store.append(ref("new", "1"), { id: "1_2", data: "d" });
    expect(store.eventsAfter(ref("new", "1"), "1_0")).toBeUndefined();
  });

  it("holds at most maxDataLength characters of data, but always the newest event", () => {
    const store = new InMemoryEventStore({ maxDataLength: 10, maxEvents: 0 });
    store.append(ref("s", "1"), { id: "1_0", data: "12345" });
    store.append(ref("s", "1"), { id: "1_1", data: "123456" });
    expect(store.size).toBe(1);
    store.append(ref("s", "1"), { id: "1_2", data: "x".repeat(50) });
    expect(store.size).toBe(1);
    expect(store.eventsAfter(ref("s", "1"), "1_2")).toEqual([]);
  });

  it("forgets a session's events when it ends, and their room is free again", () => {
    const store = new InMemoryEventStore({ maxEvents: 3, maxDataLength: 3 });
    store.append(ref("gone", "1"), { id: "1_0", data: "a" });
    store.append(ref("gone", "2"), { id: "2_0", data: "b" });
    store.append(ref("kept", "1"), { id: "1_0", data: "c" });
    store.dropSession("gone");
    store.dropSession("never-was");
    expect(store.size).toBe(1);
    store.append(ref("kept", "1"), { id: "1_1", data: "d" });
    store.append(ref("kept", "1"), { id: "1_2", data: "e" });
    expect(store.eventsAfter(ref("kept", "1"), "1_0")).toEqual([
      { id: "1_1", data: "d" },
      { id: "1_2", data: "e" },
    ]);
    expect(store.eventsAfter(ref("gone", "1"), "1_0")).toBeUndefined();
  });
});

describe("InMemoryEventStore.streamRequests", () => {
  it("gives the requests the first event of a stream named, while any event of the stream is kept", () => {
    const store = new InMemoryEventStore({ maxEvents: 3 });
    store.append(ref("a", "post"), { id: "p0", data: "", requests: [1, "two"] });
    store.append(ref("a", "post"), { id: "p1", data: "x", requests: [3] });
    store.append(ref("a", "post"), { id: "p2", data: "y" });
    expect(store.streamRequests(ref("a", "post"))).toEqual([1, "two"]);
    // The first event is evicted; what it named stays with the stream.
    store.append(ref("a", "post"), { id: "p3", data: "z" });
    expect(store.eventsAfter(ref("a", "post"), "p0")).toBeUndefined();
    expect(store.streamRequests(ref("a", "post"))).toEqual([1, "two"]);
  });

  it("gives null for a stream whose first event named none, even when a later one does", () => {
    const store = new InMemoryEventStore();
    store.append(ref("a", "get"), { id: "g0", data: "" });
    store.append(ref("a", "get"), { id: "g1", data: "x", requests: [7] });
    expect(store.streamRequests(ref("a", "get"))).toBeNull();
  });

  it("gives undefined for a stream it does not hold: unknown, evicted whole, or of an ended session", () => {
    const store = new InMemoryEventStore({ maxEvents: 1 });
    expect(store.streamRequests(ref("a", "post"))).toBeUndefined();
    store.append(ref("a", "post"), { id: "p0", data: "", requests: [1] });
    expect(store.streamRequests(ref("a", "other"))).toBeUndefined();
    expect(store.streamRequests(ref("b", "post"))).toBeUndefined();
    store.append(ref("b", "post"), { id: "p0", data: "", requests: [2] });
    expect(store.streamRequests(ref("a", "post"))).toBeUndefined();
    expect(store.streamRequests(ref("b", "post"))).toEqual([2]);
    store.dropSession("b");
    expect(store.streamRequests(ref("b", "post"))).toBeUndefined();
    // A stream appended to again after it went starts over with what its new first event names.
    store.append(ref("b", "post"), { id: "p1", data: "" });
    expect(store.streamRequests(ref("b", "post"))).toBeNull();
  });
});

describe("InMemoryEventStore after many ended sessions", () => {
  it("evicts a long-lived stream's old event first even after thousands of ended sessions were compacted away", () => {
    const store = new InMemoryEventStore({ maxEvents: 3 });
    store.append(ref("long", "get"), { id: "g0", data: "first" });
    for (let session = 0; session < 3000; session++) {
      store.append(ref(`short${session}`, "post"), { id: "p0", data: "answer" });
      store.dropSession(`short${session}`);
    }
    expect(store.size).toBe(1);
    store.append(ref("long", "get"), { id: "g1", data: "" });
    store.append(ref("long", "get"), { id: "g2", data: "" });
    expect(store.eventsAfter(ref("long", "get"), "g0")).toEqual([
      { id: "g1", data: "" },
      { id: "g2", data: "" },
    ]);
    store.append(ref("long", "get"), { id: "g3", data: "" });
    expect(store.eventsAfter(ref("long", "get"), "g0")).toBeUndefined();
    expect(store.eventsAfter(ref("long", "get"), "g1")).toEqual([
      { id: "g2", data: "" },
      { id: "g3", data: "" },
    ]);
  });

  // How little memory thousands of ended sessions leave behind is measured in the soak (e2e/reliability-soak.test.ts).
  it("drops an ended session's events at once, and stays right across thousands of ended sessions while one old event stays", async () => {
    setFlagsFromString("--expose-gc");
    const collectGarbage = runInNewContext("gc") as () => void;
    const store = new InMemoryEventStore();
    store.append(ref("long", "get"), { id: "g0", data: "first" });
    const released = appendedAndDropped(store);
    // A WeakRef's target lives until the current job ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    // An ended session's events go at once, before its traces in the order are compacted away.
    expect(released.deref()).toBeUndefined();
    for (let session = 0; session < 5000; session++) {
      store.append(ref(`short${session}`, "post"), { id: "p0", data: "" });
      store.append(ref(`short${session}`, "post"), { id: "p1", data: "an answer" });
      store.dropSession(`short${session}`);
    }
    expect(store.size).toBe(1);
    expect(store.eventsAfter(ref("long", "get"), "g0")).toEqual([]);
    expect(store.eventsAfter(ref("short4999", "post"), "p0")).toBeUndefined();
  });
});

describe("InMemoryEventStore against its plain model", () => {
  it("keeps, evicts, replays and forgets exactly what one oldest-first list would, also across its compactions", () => {
    fc.assert(
      fc.property(steps, fc.integer({ min: 0, max: 1500 }), fc.integer({ min: 1, max: 3000 }), (run, maxEvents, maxDataLength) => {
        const store = new InMemoryEventStore({ maxEvents, maxDataLength });
        const model = new ModelStore(maxEvents, maxDataLength);
        const ids: Array<{ readonly where: StreamRef; readonly id: string }> = [];
        let next = 0;
        for (const step of run) {
          if (step.kind === "drop") {
            store.dropSession(`s${step.session}`);
            model.dropSession(`s${step.session}`);
          } else {
            const where = ref(`s${step.session}`, `t${step.stream}`);
            for (let index = 0; index < step.count; index++) {
              const event = { id: `e${next++}`, data: "x".repeat(step.length) };
              store.append(where, event);
              model.append(where, event);
              ids.push({ where, id: event.id });
            }
          }
          expect(store.size).toBe(model.size);
          // Every id ever given, its first and last ones at least: replayed alike, or refused alike.
          for (const { where, id } of [ids[0], ids[Math.floor(ids.length / 2)], ids.at(-1)].filter((one) => one !== undefined)) {
            expect(store.eventsAfter(where, id)).toEqual(model.eventsAfter(where, id));
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});

function appendedAndDropped(store: InMemoryEventStore): WeakRef<StoredEvent> {
  const event = { id: "p0", data: "" };
  store.append(ref("dropped", "post"), event);
  store.dropSession("dropped");
  return new WeakRef(event);
}

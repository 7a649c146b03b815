import { afterEach, describe, expect, it, vi } from "vitest";
import { InMemoryInstanceBus } from "../../../stores/instance-bus.js";
import { InMemorySessionDirectory, type LeaseRenewal } from "../../../stores/session-directory.js";
import { orphanedReply } from "../orphaned.js";
import { InstanceLease } from "./instance-lease.js";
import { InstanceWatch } from "./instance-watch.js";
import { sessionCluster } from "./session-cluster.js";

afterEach(() => vi.useRealTimers());

/** A directory on the fake clock (installed here), which every lease and watch below reads too. */
function fakeClock(): InMemorySessionDirectory {
  vi.useFakeTimers();
  return new InMemorySessionDirectory({ now: () => Date.now() });
}
const advance = (ms: number): Promise<unknown> => vi.advanceTimersByTimeAsync(ms);

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe("InstanceWatch", () => {
  it("tells the listeners of an instance whose lease ended, once, and not those of one alive", async () => {
    const directory = fakeClock();
    await directory.renewLease("b", "t", 1000);
    await directory.renewLease("c", "t", 60_000);
    const watch = new InstanceWatch(directory, 100);
    const told: string[] = [];
    watch.watch("b", () => told.push("b1"));
    watch.watch("b", () => told.push("b2"));
    watch.watch("c", () => told.push("c"));
    await advance(900);
    expect(told).toEqual([]);
    await advance(100);
    expect(told).toEqual(["b1", "b2"]);
    await advance(1000);
    expect(told).toEqual(["b1", "b2"]);
    watch.close();
  });

  it("counts a directory that cannot answer as saying the instance is alive, and asks again", async () => {
    const directory = fakeClock();
    const alive = vi.spyOn(directory, "alive").mockRejectedValueOnce(new Error("directory down"));
    const watch = new InstanceWatch(directory, 100);
    const told: string[] = [];
    watch.watch("b", () => told.push("b"));
    await advance(100);
    expect(told).toEqual([]);
    await advance(100);
    expect([told, alive.mock.calls]).toEqual([["b"], [["b"], ["b"]]]);
  });

  it("stops watching for one listener, and runs no timer while nothing is watched", async () => {
    const directory = fakeClock();
    const watch = new InstanceWatch(directory, 100);
    const told: string[] = [];
    expect(vi.getTimerCount()).toBe(0);
    const stopFirst = watch.watch("b", () => told.push("first"));
    const stopSecond = watch.watch("b", () => told.push("second"));
    expect(vi.getTimerCount()).toBe(1);
    stopFirst();
    stopFirst();
    await advance(100);
    expect([told, vi.getTimerCount()]).toEqual([["second"], 0]);
    stopSecond();
    watch.watch("c", () => told.push("c"))();
    await advance(100);
    expect([told, vi.getTimerCount()]).toEqual([["second"], 0]);
  });

  it("close() stops it, even during a check: nothing more is told, and no timer runs", async () => {
    const directory = fakeClock();
    const answer = deferred<boolean>();
    vi.spyOn(directory, "alive").mockReturnValueOnce(answer.promise);
    const watch = new InstanceWatch(directory, 100);
    const told: string[] = [];
    watch.watch("b", () => told.push("b"));
    await advance(100);
    watch.close();
    watch.watch("c", () => told.push("c"));
    answer.resolve(false);
    await advance(1000);
    expect([told, vi.getTimerCount()]).toEqual([[], 0]);
  });
});

const LEASE_MS = 300;

function lease(directory: InMemorySessionDirectory, instance = "i1") {
  const events: string[] = [];
  const held = new InstanceLease({
    directory,
    instance,
    leaseMs: LEASE_MS,
    onRegained: () => events.push("regained"),
    onLost: () => events.push("lost"),
    onRenewed: () => events.push("renewed"),
  });
  return Object.assign(held, { events });
}

describe("InstanceLease", () => {
  it("is taken at start, renewed three times per lease (telling after each), and released by stop()", async () => {
    const directory = fakeClock();
    const held = lease(directory);
    expect(held.fresh).toBe(false);
    await held.start();
    expect([held.fresh, await directory.alive("i1")]).toEqual([true, true]);
    await advance(100);
    expect(held.events).toEqual(["renewed"]);
    await advance(900);
    expect([held.events.length, held.fresh]).toEqual([10, true]);
    await held.stop();
    expect([held.fresh, await directory.alive("i1"), vi.getTimerCount()]).toEqual([false, false, 0]);
    expect(held.events.every((event) => event === "renewed")).toBe(true);
  });

  it("waits for the lease of a process gone under its name to run out, within twice the lease", async () => {
    const directory = fakeClock();
    await directory.renewLease("i1", "old process", LEASE_MS);
    const held = lease(directory);
    let started = false;
    const starting = held.start().then(() => (started = true));
    await advance(LEASE_MS - 1);
    expect(started).toBe(false);
    await advance(1);
    await starting;
    expect(held.fresh).toBe(true);
    await held.stop();
  });

  it("stopped while it waits to start, lets the lease go once taken, and never renews it", async () => {
    const directory = fakeClock();
    await directory.renewLease("i1", "old process", LEASE_MS);
    const held = lease(directory);
    const starting = held.start();
    await advance(100);
    await held.stop();
    await advance(LEASE_MS);
    await starting;
    expect([held.fresh, await directory.alive("i1"), vi.getTimerCount(), held.events]).toEqual([false, false, 0, []]);
  });

  it("refuses a name another process keeps holding past twice the lease", async () => {
    const directory = fakeClock();
    await directory.renewLease("i1", "other process", 60_000);
    const held = lease(directory);
    let outcome: unknown = "waiting";
    void held.start().then(
      () => (outcome = "started"),
      (error: unknown) => (outcome = error),
    );
    await advance(2 * LEASE_MS);
    expect(outcome).toBe("waiting");
    await advance(LEASE_MS / 3);
    expect(outcome).toMatchObject({ code: "MCP.INVALID_PARAMS", message: expect.stringContaining('instance "i1"') });
    expect([held.fresh, held.events]).toEqual([false, []]);
  });

  it("is not fresh by its own clock once renewals fail for a lease; the next renewal holds it again and asks for a check", async () => {
    const directory = fakeClock();
    const held = lease(directory);
    await held.start();
    const renew = vi.spyOn(directory, "renewLease").mockRejectedValue(new Error("directory down"));
    await advance(LEASE_MS - 100);
    expect([held.fresh, held.events]).toEqual([true, []]);
    await advance(100);
    expect([held.fresh, held.events]).toEqual([false, []]);
    await advance(LEASE_MS);
    expect(held.events).toEqual([]);
    renew.mockRestore();
    await advance(100);
    expect([held.fresh, held.events]).toEqual([true, ["regained", "renewed"]]);
    await advance(100);
    expect(held.events).toEqual(["regained", "renewed", "renewed"]);
    await held.stop();
  });

  it("counts a renewal answered late from when it was asked", async () => {
    const directory = fakeClock();
    const held = lease(directory);
    await held.start();
    const answer = deferred<LeaseRenewal>();
    const renew = vi.spyOn(directory, "renewLease").mockReturnValueOnce(answer.promise);
    await advance(LEASE_MS - 1);
    expect(held.fresh).toBe(true);
    await advance(1);
    expect([held.fresh, held.events]).toEqual([false, []]);
    // Asked at 100 (one renewal interval in): fresh until 400; it had lapsed meanwhile, so a check is asked for.
    answer.resolve("renewed");
    await advance(0);
    expect([held.fresh, held.events]).toEqual([true, ["regained", "renewed"]]);
    renew.mockRestore();
    await held.stop();
  });

  it("asks for a check when a renewal finds the held lease taken afresh; gives everything up when another process holds it", async () => {
    const directory = fakeClock();
    const held = lease(directory);
    await held.start();
    vi.spyOn(directory, "renewLease").mockResolvedValueOnce("acquired").mockResolvedValueOnce("conflict");
    await advance(100);
    expect([held.fresh, held.events]).toEqual([true, ["regained", "renewed"]]);
    await advance(100);
    expect([held.fresh, held.events]).toEqual([false, ["regained", "renewed", "lost"]]);
    await advance(100);
    expect([held.fresh, held.events]).toEqual([true, ["regained", "renewed", "lost", "regained", "renewed"]]);
    await held.stop();
  });

  it("stop() swallows a release error, ignores a renewal answered after it, and releases nothing it does not hold", async () => {
    const directory = fakeClock();
    const held = lease(directory);
    await held.start();
    const answer = deferred<LeaseRenewal>();
    vi.spyOn(directory, "renewLease").mockReturnValueOnce(answer.promise);
    const release = vi.spyOn(directory, "releaseLease").mockRejectedValueOnce(new Error("directory down"));
    await advance(100);
    await expect(held.stop()).resolves.toBeUndefined();
    answer.resolve("renewed");
    await advance(1000);
    expect([held.fresh, held.events, release.mock.calls.length, vi.getTimerCount()]).toEqual([false, [], 1, 0]);
    await lease(directory, "never started").stop();
    expect(release.mock.calls.length).toBe(1);
  });
});

const rpc = (id: string | number, method = "tools/call") => ({ jsonrpc: "2.0", id, method, params: {} });
const note = { jsonrpc: "2.0", method: "notifications/progress", params: {} };

describe("orphanedReply: a relayed POST whose instance stopped before answering", () => {
  it("answers its one request with the orphaned error, in the session", () => {
    const reply = orphanedReply("s1", JSON.stringify(rpc(7)));
    expect([reply.status, reply.headers]).toEqual([200, { "mcp-session-id": "s1", "content-type": "application/json" }]);
    expect(JSON.parse(reply.body as string)).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32603, message: expect.stringContaining("stopped before answering it") },
    });
  });

  it("answers a batch's requests as a batch, in request order, skipping its notifications", () => {
    const reply = orphanedReply("s1", JSON.stringify([rpc("b"), note, rpc("a", "ping")]));
    expect(
      (JSON.parse(reply.body as string) as { id: string; error: { code: number } }[]).map(({ id, error }) => [id, error.code]),
    ).toEqual([
      ["b", -32603],
      ["a", -32603],
    ]);
  });

  it("answers 202 when the POST held no request, or no JSON", () => {
    for (const body of [JSON.stringify(note), JSON.stringify([note, note]), "{not json", "[]"])
      expect(orphanedReply("s1", body)).toEqual({ status: 202, headers: { "mcp-session-id": "s1" } });
  });
});

function refusal(make: () => unknown): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("sessionCluster: its options", () => {
  const stores = { directory: new InMemorySessionDirectory(), bus: new InMemoryInstanceBus() };

  it("refuses an instance name that is not 1 to 32 of A-Z a-z 0-9 _ -", () => {
    for (const instance of ["", "a.b", "a b", "é", "x".repeat(33)])
      expect(refusal(() => sessionCluster({ ...stores, instance }))).toMatchObject({
        code: "MCP.INVALID_PARAMS",
        message: expect.stringContaining("instance must be"),
      });
    expect(sessionCluster({ ...stores, instance: `Az09_-${"x".repeat(26)}` }).newSessionId()).toMatch(/^Az09_-x{26}\.[0-9a-f]{64}$/);
    expect(sessionCluster(stores).newSessionId()).toMatch(/^[0-9a-f]{8}\.[0-9a-f]{64}$/);
  });

  it("refuses a lease under 100 ms or not finite", () => {
    for (const leaseMs of [99, 0, -1, Number.NaN, Infinity])
      expect(refusal(() => sessionCluster({ ...stores, leaseMs }))).toMatchObject({
        code: "MCP.INVALID_PARAMS",
        message: expect.stringContaining("leaseMs must be"),
      });
    expect(refusal(() => sessionCluster({ ...stores, leaseMs: 100 }))).toBeUndefined();
  });
});

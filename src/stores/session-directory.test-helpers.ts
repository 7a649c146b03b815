// The SessionDirectory contract: what every implementation (in memory, Redis, a user's own) must do,
// as a suite any of them runs with `describeSessionDirectory(name, make, ttlMs)`. Time passes through
// the harness's `wait(ms)`: the in-memory directory moves its clock, a Redis one really waits, so the
// suite uses one ttl (`ttlMs`) and waits fractions of it. A record or lease must still be there half a
// ttl after it was written, and gone a little over a ttl after: the "still there" checks keep a wide
// margin for slow round trips, the "gone" checks need none (a wait is never shorter than asked).
import { describe, expect, it } from "vitest";

import type { SessionDirectory, SessionRecord, SessionState } from "./session-directory.js";

export interface SessionDirectoryUnderTest {
  readonly directory: SessionDirectory;
  /** Lets `ms` pass for the directory. */
  readonly wait: (ms: number) => Promise<void>;
}

export type MakeSessionDirectory = () => SessionDirectoryUnderTest | Promise<SessionDirectoryUnderTest>;

export const STATE: SessionState = {
  protocolVersion: "2025-11-25",
  clientInfo: { name: "host", version: "1.0.0", title: "Höst ✓" },
  clientCapabilities: { elicitation: { form: {} }, roots: { listChanged: true } },
  logLevel: "warning",
  subscriptions: ["file:///a b", "mem://counter"],
};

/** A record of instance "i1" at epoch 0, with the given id (ids of any text: the Redis keys escape them). */
export const recordOf = (id: string, more: Partial<SessionRecord> = {}): SessionRecord => ({ id, instance: "i1", epoch: 0, ...more });

/** `ttlMs`: the life of the records and leases the suite writes; waits are fractions of it. */
export function describeSessionDirectory(name: string, make: MakeSessionDirectory, ttlMs: number): void {
  describe(`${name}: the SessionDirectory contract`, () => {
    describeRecords(make, ttlMs);
    describeEpochs(make, ttlMs);
    describeExpiry(make, ttlMs);
    describeLeases(make, ttlMs);
  });
}

function describeRecords(make: MakeSessionDirectory, ttl: number): void {
  it("creates a record once: the same id again is refused while the first lives, and nothing of it changes", async () => {
    const { directory } = await make();
    const record = recordOf("s{1}%é", { principal: "alice", state: STATE });
    expect(await directory.create(record, ttl)).toBe(true);
    expect(await directory.get(record.id)).toEqual(record);
    expect(await directory.create(recordOf(record.id, { instance: "i2", epoch: 7 }), ttl)).toBe(false);
    expect(await directory.get(record.id)).toEqual(record);
    expect(await directory.get("s{1}%e")).toBeUndefined();
    expect(await directory.get("never")).toBeUndefined();
  });

  it("keeps a record without principal or state as it came, and an empty principal as a principal", async () => {
    const { directory } = await make();
    await directory.create(recordOf("bare"), ttl);
    const { logLevel: _, ...withoutLevel } = STATE;
    await directory.create(recordOf("empty", { principal: "", state: { ...withoutLevel, subscriptions: [] } }), ttl);
    const bare = await directory.get("bare");
    expect(bare).toEqual({ id: "bare", instance: "i1", epoch: 0 });
    expect(Object.keys(bare ?? {}).toSorted()).toEqual(["epoch", "id", "instance"]);
    const empty = await directory.get("empty");
    expect(empty).toEqual({ id: "empty", instance: "i1", epoch: 0, principal: "", state: { ...withoutLevel, subscriptions: [] } });
    expect(empty?.state && "logLevel" in empty.state).toBe(false);
  });

  it("hands out copies: changing a record given or received changes nothing stored", async () => {
    const { directory } = await make();
    const given = JSON.parse(JSON.stringify(recordOf("copied", { state: STATE }))) as {
      instance: string;
      state: { subscriptions: string[] };
    };
    await directory.create(given as unknown as SessionRecord, ttl);
    given.instance = "changed";
    given.state.subscriptions.push("given");
    const got = (await directory.get("copied")) as unknown as { state: { subscriptions: string[]; clientInfo: Record<string, unknown> } };
    got.state.subscriptions.push("received");
    got.state.clientInfo["name"] = "changed";
    expect(await directory.get("copied")).toEqual(recordOf("copied", { state: STATE }));
    const state = JSON.parse(JSON.stringify(STATE)) as { subscriptions: string[] };
    await directory.saveState("copied", 0, state as unknown as SessionState);
    state.subscriptions.length = 0;
    const taken = (await directory.takeOver("copied", 0, "i2")) as unknown as { instance: string };
    taken.instance = "changed";
    expect(await directory.get("copied")).toEqual(recordOf("copied", { instance: "i2", epoch: 1, state: STATE }));
  });

  it("touches the ids that live and skips those that are gone", async () => {
    const { directory, wait } = await make();
    await directory.create(recordOf("a"), ttl);
    await directory.create(recordOf("b"), ttl);
    await directory.touch([], ttl);
    await wait(ttl * 0.6);
    await directory.touch(["a", "gone", "b"], ttl * 2);
    await wait(ttl * 0.6);
    expect(await directory.get("a")).toEqual(recordOf("a"));
    expect(await directory.get("b")).toEqual(recordOf("b"));
    expect(await directory.get("gone")).toBeUndefined();
    await wait(ttl * 1.6);
    expect(await directory.get("a")).toBeUndefined();
    expect(await directory.get("b")).toBeUndefined();
  });
}

function describeEpochs(make: MakeSessionDirectory, ttl: number): void {
  it("saves the state only at the record's current epoch", async () => {
    const { directory } = await make();
    await directory.create(recordOf("s", { principal: "p" }), ttl);
    expect(await directory.saveState("s", 1, STATE)).toBe(false);
    expect(await directory.get("s")).toEqual(recordOf("s", { principal: "p" }));
    expect(await directory.saveState("s", 0, STATE)).toBe(true);
    expect(await directory.get("s")).toEqual(recordOf("s", { principal: "p", state: STATE }));
    const later = { ...STATE, logLevel: "debug", subscriptions: [] };
    expect(await directory.saveState("s", 0, later)).toBe(true);
    expect(await directory.get("s")).toEqual(recordOf("s", { principal: "p", state: later }));
    expect(await directory.saveState("gone", 0, STATE)).toBe(false);
    expect(await directory.get("gone")).toBeUndefined();
  });

  it("moves a session to another instance at the next epoch, with its principal and state; the old epoch is refused after", async () => {
    const { directory } = await make();
    await directory.create(recordOf("s", { principal: "alice", state: STATE }), ttl);
    const moved = await directory.takeOver("s", 0, "i2");
    expect(moved).toEqual(recordOf("s", { instance: "i2", epoch: 1, principal: "alice", state: STATE }));
    expect(await directory.get("s")).toEqual(moved);
    expect(await directory.takeOver("s", 0, "i3")).toBeUndefined();
    expect(await directory.saveState("s", 0, { ...STATE, subscriptions: [] })).toBe(false);
    await directory.remove("s", 0);
    expect(await directory.get("s")).toEqual(moved);
    expect(await directory.takeOver("s", 1, "i1")).toEqual(recordOf("s", { instance: "i1", epoch: 2, principal: "alice", state: STATE }));
    expect(await directory.takeOver("gone", 0, "i2")).toBeUndefined();
    expect(await directory.get("gone")).toBeUndefined();
  });

  it("lets exactly one of two racing takeovers win", async () => {
    const { directory } = await make();
    await directory.create(recordOf("raced", { state: STATE }), ttl);
    const outcomes = await Promise.all([directory.takeOver("raced", 0, "i2"), directory.takeOver("raced", 0, "i3")]);
    const won = outcomes.filter((outcome) => outcome !== undefined);
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({ epoch: 1, state: STATE });
    expect(["i2", "i3"]).toContain(won[0]?.instance);
    expect(await directory.get("raced")).toEqual(won[0]);
  });

  it("removes a record only at its current epoch", async () => {
    const { directory } = await make();
    await directory.create(recordOf("s"), ttl);
    await directory.remove("s", 1);
    expect(await directory.get("s")).toEqual(recordOf("s"));
    await directory.remove("s", 0);
    expect(await directory.get("s")).toBeUndefined();
    await directory.remove("s", 0);
    expect(await directory.create(recordOf("s", { instance: "i2" }), ttl)).toBe(true);
    expect(await directory.get("s")).toEqual(recordOf("s", { instance: "i2" }));
  });
}

function describeExpiry(make: MakeSessionDirectory, ttl: number): void {
  it("lets a record go after its ttl, whatever was written to it since; its id may then be created again", async () => {
    const { directory, wait } = await make();
    await directory.create(recordOf("s"), ttl);
    await directory.create(recordOf("long"), ttl * 4);
    await directory.saveState("s", 0, STATE);
    await directory.takeOver("s", 0, "i2");
    await wait(ttl * 0.5);
    expect(await directory.get("s")).toEqual(recordOf("s", { instance: "i2", epoch: 1, state: STATE }));
    await wait(ttl * 0.7);
    expect(await directory.get("s")).toBeUndefined();
    expect(await directory.saveState("s", 1, STATE)).toBe(false);
    expect(await directory.takeOver("s", 1, "i3")).toBeUndefined();
    expect(await directory.get("long")).toEqual(recordOf("long"));
    expect(await directory.create(recordOf("s", { instance: "i3" }), ttl)).toBe(true);
    expect(await directory.get("s")).toEqual(recordOf("s", { instance: "i3" }));
  });
}

function describeLeases(make: MakeSessionDirectory, ttl: number): void {
  it("acquires a lease, renews it under the same token, and refuses another token while it is held", async () => {
    const { directory } = await make();
    expect(await directory.alive("i1")).toBe(false);
    expect(await directory.renewLease("i1", "token-a", ttl)).toBe("acquired");
    expect(await directory.alive("i1")).toBe(true);
    expect(await directory.renewLease("i1", "token-a", ttl)).toBe("renewed");
    expect(await directory.renewLease("i1", "token-b", ttl)).toBe("conflict");
    expect(await directory.renewLease("i2", "token-b", ttl)).toBe("acquired");
    expect(await directory.renewLease("i1", "token-a", ttl)).toBe("renewed");
    expect(await directory.alive("i3")).toBe(false);
  });

  it("keeps a renewed lease for its new ttl, and lets it lapse after; then any token acquires it", async () => {
    const { directory, wait } = await make();
    await directory.renewLease("i1", "token-a", ttl);
    await wait(ttl * 0.6);
    expect(await directory.renewLease("i1", "token-b", ttl * 2)).toBe("conflict");
    expect(await directory.renewLease("i1", "token-a", ttl * 2)).toBe("renewed");
    await wait(ttl * 0.6);
    expect(await directory.alive("i1")).toBe(true);
    await wait(ttl * 1.6);
    expect(await directory.alive("i1")).toBe(false);
    expect(await directory.renewLease("i1", "token-b", ttl)).toBe("acquired");
    expect(await directory.renewLease("i1", "token-a", ttl)).toBe("conflict");
    await wait(ttl * 1.2);
    expect(await directory.renewLease("i1", "token-a", ttl)).toBe("acquired");
  });

  it("releases a lease only for the token that holds it", async () => {
    const { directory } = await make();
    await directory.renewLease("i1", "token-a", ttl);
    await directory.releaseLease("i1", "token-b");
    expect(await directory.alive("i1")).toBe(true);
    await directory.releaseLease("i1", "token-a");
    expect(await directory.alive("i1")).toBe(false);
    await directory.releaseLease("i1", "token-a");
    await directory.releaseLease("never", "token-a");
    expect(await directory.renewLease("i1", "token-b", ttl)).toBe("acquired");
  });
}

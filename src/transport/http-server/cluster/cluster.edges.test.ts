// The edges of sessions across instances: how long a record lives, an instance that cannot renew
// its lease taking nothing over, a body too large to relay, state writes that pile up, and a
// directory that fails while an instance checks its sessions.
import { afterEach, describe, expect, it, vi } from "vitest";
import { InMemoryInstanceBus } from "../../../stores/instance-bus.js";
import { InMemorySessionDirectory } from "../../../stores/session-directory.js";
import { httpRequest, initializeMessage, openSession, testServer } from "../http-server.test-helpers.js";
import { streamableHttpHandler } from "../streamable-handler.js";
import { sessionCluster } from "./session-cluster.js";
import { LEASE_MS, handlerOf, leaseRunsOut, post, useDeployments } from "./cluster.test-helpers.js";

const cluster = useDeployments();
afterEach(() => void vi.restoreAllMocks());

describe("a session's record", () => {
  it("lives the idle timeout and two leases, or a day without an idle timeout", async () => {
    const idle = cluster({ sessionIdleTimeoutMs: 5_000 });
    const idleCreate = vi.spyOn(idle.directory, "create");
    await openSession(handlerOf(idle, 0), "2025-11-25");
    const forever = cluster({ sessionIdleTimeoutMs: Infinity });
    const foreverCreate = vi.spyOn(forever.directory, "create");
    await openSession(handlerOf(forever, 0), "2025-11-25");
    expect([idleCreate.mock.calls[0]?.[1], foreverCreate.mock.calls[0]?.[1]]).toEqual([5_000 + 2 * LEASE_MS, 24 * 60 * 60 * 1000]);
  });

  it("is written once for changes that come while a write is under way, with the latest state", async () => {
    const three = cluster();
    const session = await openSession(handlerOf(three, 0), "2025-11-25");
    const save = three.directory.saveState.bind(three.directory);
    const written: unknown[] = [];
    vi.spyOn(three.directory, "saveState").mockImplementation(async (id, epoch, state) => {
      written.push(state.logLevel);
      await new Promise((resolve) => setTimeout(resolve, 50));
      return save(id, epoch, state);
    });
    await post(handlerOf(three, 0), session, "logging/setLevel", { level: "debug" });
    await expect.poll(() => written.length).toBe(1);
    // Three changes while that write waits: one more write, of the latest state.
    await Promise.all(["info", "notice", "warning"].map((level) => post(handlerOf(three, 0), session, "logging/setLevel", { level })));
    await expect.poll(async () => (await three.directory.get(session))?.state?.logLevel).toBe("warning");
    expect(written).toEqual(["debug", "warning"]);
  });
});

describe("keeping records alive", () => {
  it("touches, at each renewal, the records of the sessions used since the last one, and not the others", async () => {
    const three = cluster({ sessionIdleTimeoutMs: 60_000 });
    const used = await openSession(handlerOf(three, 0), "2025-11-25");
    const idle = await openSession(handlerOf(three, 0), "2025-11-25");
    await leaseRunsOut();
    const touch = vi.spyOn(three.directory, "touch");
    for (let round = 0; round < 4; round++) {
      expect((await post(handlerOf(three, 0), used, "ping")).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, LEASE_MS / 3));
    }
    const touched = touch.mock.calls.map(([ids]) => ids);
    expect(touched.length).toBeGreaterThan(1);
    expect(touched.every((ids) => ids.includes(used) && !ids.includes(idle))).toBe(true);
    expect(touch.mock.calls[0]?.[1]).toBe(60_000 + 2 * LEASE_MS);
  });

  it("lets go, once its lease is back, of a session whose epoch moved on though the directory still names it", async () => {
    const three = cluster();
    const session = await openSession(handlerOf(three, 0), "2025-11-25");
    three.instances[0]?.fail("renewLease");
    await three.directory.takeOver(session, 0, "i0");
    await leaseRunsOut();
    three.instances[0]?.fail();
    await expect.poll(() => handlerOf(three, 0).sessionCount, { timeout: 3000 }).toBe(0);
    // The next request takes it back at the next epoch.
    expect((await post(handlerOf(three, 0), session, "ping")).status).toBe(200);
    expect(await three.directory.get(session)).toMatchObject({ instance: "i0", epoch: 2 });
  });
});

describe("an instance that cannot renew its lease", () => {
  it("takes no session over, and says why", async () => {
    const three = cluster();
    const session = await openSession(handlerOf(three, 0), "2025-11-25");
    three.kill(0);
    three.instances[1]?.fail("renewLease");
    await leaseRunsOut();
    const refused = await post(handlerOf(three, 1), session, "ping");
    expect(refused.status).toBe(503);
    expect(await refused.text()).toContain("cannot renew its lease");
    expect((await post(handlerOf(three, 2), session, "ping")).status).toBe(200);
  });

  it("keeps a session whose record it cannot read when it checks them after its lease came back", async () => {
    const three = cluster();
    const session = await openSession(handlerOf(three, 0), "2025-11-25");
    three.instances[0]?.fail("renewLease");
    await leaseRunsOut();
    const get = vi.spyOn(three.directory, "get").mockRejectedValueOnce(new Error("directory down"));
    three.instances[0]?.fail();
    await expect.poll(() => get.mock.calls.length, { timeout: 3000 }).toBeGreaterThan(0);
    expect(handlerOf(three, 0).sessionCount).toBe(1);
    expect((await post(handlerOf(three, 0), session, "ping")).status).toBe(200);
  });
});

describe("relaying a request", () => {
  it("refuses a body larger than maxBodyBytes before relaying it", async () => {
    const three = cluster({ maxBodyBytes: 300 });
    const session = await openSession(handlerOf(three, 0), "2025-11-25");
    const refused = await post(handlerOf(three, 1), session, "tools/call", { name: "echo", arguments: { text: "x".repeat(400) } });
    expect(refused.status).toBe(413);
    expect((await post(handlerOf(three, 1), session, "ping")).status).toBe(200);
  });
});

describe("a directory that fails a write", () => {
  it("keeps the session served here: a state write, a touch or a removal that fails changes nothing else", async () => {
    const three = cluster({ sessionIdleTimeoutMs: 60_000 });
    const session = await openSession(handlerOf(three, 0), "2025-11-25");
    three.instances[0]?.fail("saveState", "touch");
    expect((await post(handlerOf(three, 0), session, "logging/setLevel", { level: "debug" })).status).toBe(200);
    // A renewal (a third of a lease) tries to touch the record of the session just used.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS));
    expect(handlerOf(three, 0).sessionCount).toBe(1);
    expect((await three.directory.get(session))?.state?.logLevel).toBeUndefined();
    three.instances[0]?.fail("remove");
    const ended = await handlerOf(three, 0).fetch(httpRequest({ method: "DELETE", session, version: "2025-11-25" }));
    expect(ended.status).toBe(204);
    expect(handlerOf(three, 0).sessionCount).toBe(0);
    // Its instance does not take back a session that ended, though the directory still names it; the removal is tried again at the next
    // renewal.
    expect(await three.directory.get(session)).toMatchObject({ instance: "i0" });
    expect((await post(handlerOf(three, 1), session, "ping")).status).toBe(404);
    three.instances[0]?.fail();
    await expect.poll(() => three.directory.get(session), { timeout: 3000 }).toBeUndefined();
  });

  it("remembers as many ended sessions as it may hold: past that, the oldest is left to run out with its record", async () => {
    const three = cluster({ maxSessions: 1 });
    three.instances[0]?.fail("remove");
    const first = await openSession(handlerOf(three, 0), "2025-11-25");
    await handlerOf(three, 0).fetch(httpRequest({ method: "DELETE", session: first, version: "2025-11-25" }));
    const second = await openSession(handlerOf(three, 0), "2025-11-25");
    await handlerOf(three, 0).fetch(httpRequest({ method: "DELETE", session: second, version: "2025-11-25" }));
    await expect.poll(() => handlerOf(three, 0).sessionCount).toBe(0);
    expect((await post(handlerOf(three, 0), second, "ping")).status).toBe(404);
    // The first is forgotten: its record still names this instance, which takes it back (until the record runs out).
    expect((await post(handlerOf(three, 0), first, "ping")).status).toBe(200);
  });

  it("keeps a session whose lost record it cannot write again, and writes it on a later check", async () => {
    const three = cluster();
    const session = await openSession(handlerOf(three, 0), "2025-11-25");
    three.instances[0]?.fail("renewLease");
    await three.directory.remove(session, 0);
    await leaseRunsOut();
    const create = vi.spyOn(three.directory, "create").mockRejectedValueOnce(new Error("directory down"));
    three.instances[0]?.fail();
    await expect.poll(() => create.mock.calls.length, { timeout: 3000 }).toBe(1);
    expect(handlerOf(three, 0).sessionCount).toBe(1);
    expect(await three.directory.get(session)).toBeUndefined();
  });
});

describe("a cluster that cannot start", () => {
  it("refuses new sessions with 503 and closes cleanly", async () => {
    const directory = new InMemorySessionDirectory();
    vi.spyOn(directory, "renewLease").mockRejectedValue(new Error("directory down"));
    const handler = streamableHttpHandler(testServer(), {
      cluster: sessionCluster({ directory, bus: new InMemoryInstanceBus(), leaseMs: LEASE_MS }),
    });
    const refused = await handler.fetch(httpRequest({ body: initializeMessage("2025-11-25") }));
    expect(refused.status).toBe(503);
    expect(await refused.text()).toContain("could not be recorded");
    await expect(handler.close()).resolves.toBeUndefined();
  });
});

// Taking a session over, case by case: whose it is, what it negotiated, who got there first, and
// what an instance does when the directory says the session is no longer its own.
import { describe, expect, it, vi } from "vitest";
import { SseReader, httpRequest, messagesOf, openSession } from "../http-server.test-helpers.js";
import type { StreamableHttpHandler } from "../http-server.types.js";
import { handlerOf, leaseRunsOut, post, useDeployments } from "./cluster.test-helpers.js";

const cluster = useDeployments();
const ping = (handler: StreamableHttpHandler, session: string, headers: Record<string, string> = {}) =>
  post(handler, session, "ping", undefined, headers);

describe("taking a session over", () => {
  it("only for the principal that opened it", async () => {
    const three = cluster({
      authenticate: (request) => ({ authInfo: request.headers.get("x-user") }),
      sessionOwner: (user) => String(user),
    });
    const response = await handlerOf(three, 0).fetch(
      httpRequest({
        body: {
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
        },
        headers: { "x-user": "alice" },
      }),
    );
    const session = response.headers.get("mcp-session-id") as string;
    await messagesOf(response);
    expect(await three.directory.get(session)).toMatchObject({ principal: "alice", instance: "i0" });
    expect((await ping(handlerOf(three, 1), session, { "x-user": "bob" })).status).toBe(404);
    expect((await ping(handlerOf(three, 1), session, { "x-user": "alice" })).status).toBe(200);
    three.kill(0);
    await leaseRunsOut();
    expect((await ping(handlerOf(three, 1), session, { "x-user": "bob" })).status).toBe(404);
    expect((await ping(handlerOf(three, 1), session, { "x-user": "alice" })).status).toBe(200);
    expect(await three.directory.get(session)).toMatchObject({ principal: "alice", instance: "i1", epoch: 1 });
  });

  it("once, when several requests for it arrive together", async () => {
    const three = cluster();
    const session = await openSession(handlerOf(three, 0), "2025-11-25");
    three.kill(0);
    await leaseRunsOut();
    const answers = await Promise.all([1, 2, 3].map(() => ping(handlerOf(three, 1), session)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(await three.directory.get(session)).toMatchObject({ instance: "i1", epoch: 1 });
  });

  it("not for a session whose initialize was never answered, nor when the instance is full", async () => {
    const three = cluster({ maxSessions: 1 });
    await three.directory.create({ id: "gone.half-open", instance: "gone", epoch: 0 }, 60_000);
    expect((await ping(handlerOf(three, 1), "gone.half-open")).status).toBe(404);
    const session = await openSession(handlerOf(three, 0), "2025-11-25");
    await openSession(handlerOf(three, 1), "2025-11-25");
    three.kill(0);
    await leaseRunsOut();
    const refused = await ping(handlerOf(three, 1), session);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect((await ping(handlerOf(three, 2), session)).status).toBe(200);
  });

  it("answers 503 while the directory cannot take it over, and goes on once it can", async () => {
    const three = cluster();
    const session = await openSession(handlerOf(three, 0), "2025-11-25");
    three.kill(0);
    await leaseRunsOut();
    three.instances[1]?.fail("takeOver");
    const refused = await ping(handlerOf(three, 1), session);
    expect(refused.status).toBe(503);
    expect(await refused.text()).toContain("session directory cannot be reached");
    three.instances[1]?.fail();
    expect((await ping(handlerOf(three, 1), session)).status).toBe(200);
  });

  it("adopts the old GET stream: what was sent on it is replayed and it carries what comes next", async () => {
    const three = cluster();
    const session = await openSession(handlerOf(three, 0), "2025-11-25");
    const stream = new SseReader((await handlerOf(three, 0).fetch(httpRequest({ method: "GET", session, version: "2025-11-25" }))).body);
    const priming = await stream.next();
    await three.instances[0]?.server.log("info", "before");
    const before = await stream.next();
    expect(JSON.parse(before?.data ?? "{}")).toMatchObject({ params: { data: "before" } });
    three.kill(0);
    await leaseRunsOut();
    const resumed = await handlerOf(three, 1).fetch(
      httpRequest({ method: "GET", session, version: "2025-11-25", headers: { "last-event-id": priming?.id as string } }),
    );
    expect(resumed.status).toBe(200);
    const adopted = new SseReader(resumed.body);
    expect((await adopted.next())?.id).toBe(before?.id);
    await three.instances[1]?.server.log("info", "after");
    const after = await adopted.next();
    expect(JSON.parse(after?.data ?? "{}")).toMatchObject({ params: { data: "after" } });
    expect(after?.id).toMatch(/_2$/);
    await adopted.cancel();
  });

  it("does not adopt the old GET stream once the session has a new one open", async () => {
    const three = cluster();
    const session = await openSession(handlerOf(three, 0), "2025-11-25");
    const stream = new SseReader((await handlerOf(three, 0).fetch(httpRequest({ method: "GET", session, version: "2025-11-25" }))).body);
    const priming = await stream.next();
    three.kill(0);
    await leaseRunsOut();
    const fresh = new SseReader((await handlerOf(three, 1).fetch(httpRequest({ method: "GET", session, version: "2025-11-25" }))).body);
    expect((await fresh.next())?.data).toBe("");
    const old = await handlerOf(three, 1).fetch(
      httpRequest({ method: "GET", session, version: "2025-11-25", headers: { "last-event-id": priming?.id as string } }),
    );
    expect(old.status).toBe(400);
    await fresh.cancel();
  });
});

describe("taking a session over, when the old instance had answered part of a stream", () => {
  it("answers with the error only the requests no kept event answered", async () => {
    const three = cluster();
    const session = await openSession(handlerOf(three, 0), "2025-03-26");
    // One POST, two requests (2025-03-26 allows batches): `echo` answered at once, `wait` held after its progress.
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "wait", arguments: {}, _meta: { progressToken: "w" } } },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "done" } } },
    ];
    const stream = new SseReader((await handlerOf(three, 0).fetch(httpRequest({ body: batch, session, version: "2025-03-26" }))).body);
    const seen = [await stream.next(), await stream.next()];
    expect(seen.map((event) => JSON.parse(event?.data ?? "{}") as { id?: number; method?: string })).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 2 }), expect.objectContaining({ method: "notifications/progress" })]),
    );
    await stream.cancel();
    three.kill(0);
    await leaseRunsOut();
    const last = seen.at(-1)?.id as string;
    const adopted = await handlerOf(three, 1).fetch(
      httpRequest({ method: "GET", session, version: "2025-03-26", headers: { "last-event-id": last } }),
    );
    expect(adopted.status).toBe(200);
    const rest = await new SseReader(adopted.body).allEvents();
    expect(rest.map((event) => JSON.parse(event.data ?? "{}") as unknown)).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32603, message: expect.stringContaining("stopped before answering") } },
    ]);
  });
});

describe("another instance getting there first", () => {
  it("answers 503 when the directory moved the session on between its read and its takeover, and holds nothing", async () => {
    const three = cluster();
    const session = await openSession(handlerOf(three, 0), "2025-11-25");
    three.kill(0);
    await leaseRunsOut();
    const takeOver = three.directory.takeOver.bind(three.directory);
    vi.spyOn(three.directory, "takeOver").mockImplementationOnce(async (id, epoch, instance) => {
      await takeOver(id, epoch, "i2");
      return takeOver(id, epoch, instance);
    });
    const refused = await ping(handlerOf(three, 1), session);
    expect(refused.status).toBe(503);
    expect(await refused.text()).toContain("another instance took the session over first");
    expect(handlerOf(three, 1).sessionCount).toBe(0);
    expect(await three.directory.get(session)).toMatchObject({ instance: "i2", epoch: 1 });
  });

  it("lets every session go when another process holds its instance name", async () => {
    const three = cluster();
    await openSession(handlerOf(three, 0), "2025-11-25");
    three.instances[0]?.cut(true);
    await leaseRunsOut();
    await three.directory.renewLease("i0", "an intruder", 60_000);
    three.instances[0]?.cut(false);
    await expect.poll(() => handlerOf(three, 0).sessionCount, { timeout: 3000 }).toBe(0);
  });
});

describe("an instance the directory says no longer serves a session", () => {
  it("lets the session go when a state write is refused (another instance holds a later epoch)", async () => {
    const three = cluster();
    const session = await openSession(handlerOf(three, 0), "2025-11-25");
    await three.directory.takeOver(session, 0, "i2");
    const setLevel = await handlerOf(three, 0).fetch(
      httpRequest({
        body: { jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "debug" } },
        session,
        version: "2025-11-25",
      }),
    );
    expect(setLevel.status).toBe(200);
    await expect.poll(() => handlerOf(three, 0).sessionCount).toBe(0);
    // Its record and events stay for instance 2, which serves it from now on.
    expect(await three.directory.get(session)).toMatchObject({ instance: "i2", epoch: 1 });
    expect((await ping(handlerOf(three, 2), session)).status).toBe(200);
  });

  it("refuses a relayed request for a session that moved on, rather than relaying it again", async () => {
    const three = cluster();
    const session = await openSession(handlerOf(three, 1), "2025-11-25");
    const heads: unknown[] = [];
    await three.bus.listen("tester", (message) => void heads.push(JSON.parse(message)));
    const request = httpRequest({ body: { jsonrpc: "2.0", id: 1, method: "ping" }, session, version: "2025-11-25" });
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    await three.bus.send(
      "i0",
      JSON.stringify({ t: "req", r: "r1", from: "tester", method: "POST", url: request.url, headers, body: await request.text() }),
    );
    await expect.poll(() => heads.length).toBe(2);
    expect(heads).toEqual([{ t: "ack", r: "r1" }, expect.objectContaining({ t: "head", r: "r1", status: 503, stream: false })]);
  });
});

describe("a cluster option on an endpoint without sessions", () => {
  it("is not used: stateless mode and stateless-era servers never attach it", async () => {
    const made = cluster({ sessions: "stateless" });
    const answer = await handlerOf(made, 0).fetch(
      httpRequest({ body: { jsonrpc: "2.0", id: 1, method: "tools/list" }, version: "2025-11-25" }),
    );
    expect(answer.status).toBe(200);
    expect(made.directory.size).toBe(0);
  });
});

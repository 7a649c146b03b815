import { afterEach, describe, expect, it } from "vitest";
import { MCPClient } from "../../../client/mcp-client/mcp-client.js";
import { StreamableHttpTransport } from "../../http-client/streamable-http.js";
import { InMemoryChangeFeed } from "../../../stores/change-feed.js";
import { URL_BASE, httpRequest, openSession, testServer } from "../http-server.test-helpers.js";
import type { StreamableHttpOptions } from "../http-server.types.js";
import { LEASE_MS, useDeployments, type Deployment } from "./cluster.test-helpers.js";

const cluster = useDeployments();
const clients: MCPClient[] = [];
// Registered after the deployments' own: runs before it (after-hooks run last first), so clients close first.
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function clientOf(
  through: Deployment,
  options: ConstructorParameters<typeof MCPClient>[1] = {},
): Promise<MCPClient & { readonly sessionId: string }> {
  const client = new MCPClient({ name: "cluster-client", version: "1.0.0" }, { era: "session", ...options });
  clients.push(client);
  const transport = new StreamableHttpTransport(URL_BASE, { fetchImpl: through.fetch });
  await client.connect(transport);
  return Object.assign(client, { sessionId: transport.sessionId as string });
}

/** A POST through the deployment's router, as a client sends it. */
function post(through: Deployment, body: unknown, session?: string): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  if (session !== undefined) headers["mcp-session-id"] = session;
  return through.fetch(URL_BASE, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
    signal: new AbortController().signal,
  }) as Promise<Response>;
}

const textOf = (result: { content?: unknown }) => (result.content as { text: string }[])[0]?.text;

describe("a session served by three instances", () => {
  it("answers every request whichever instance it lands on, then ends everywhere on DELETE with nothing left", async () => {
    const three = cluster();
    const client = await clientOf(three);
    const sessionId = client.sessionId;
    expect(sessionId).toMatch(/^i0\.[0-9a-f]{64}$/);
    for (let call = 0; call < 6; call++) expect(textOf(await client.callTool("echo", { text: `call ${call}` }))).toBe(`call ${call}`);
    const progress: number[] = [];
    expect(textOf(await client.callTool("steps", { count: 5 }, { onProgress: ({ progress: step }) => void progress.push(step) }))).toBe(
      "5 steps",
    );
    expect(progress).toEqual([1, 2, 3, 4, 5]);
    expect(three.counts.every((count) => count >= 3)).toBe(true);
    expect(three.instances.map((instance) => instance.handler.sessionCount)).toEqual([1, 0, 0]);
    await client.close();
    await expect.poll(() => three.directory.size).toBe(0);
    expect(three.events.size).toBe(0);
    for (let index = 0; index < 3; index++) {
      three.route = index;
      const response = await post(three, { jsonrpc: "2.0", id: 1, method: "ping" }, sessionId);
      expect(response.status).toBe(404);
    }
  });

  it("delivers a server-to-client request and its answer across instances", async () => {
    const three = cluster();
    const client = await clientOf(three, { sampling: () => ({ role: "assistant", content: { type: "text", text: "fine" }, model: "m" }) });
    expect(textOf(await client.callTool("ask", {}))).toBe('model said {"type":"text","text":"fine"}');
  });

  it("cancels a request through another instance", async () => {
    const three = cluster();
    const client = await clientOf(three);
    const controller = new AbortController();
    const call = client.callTool("wait", {}, { signal: controller.signal });
    await expect.poll(() => three.gate.entered).toBe(1);
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: "MCP.REQUEST_CANCELLED" });
    expect(textOf(await client.callTool("echo", { text: "after" }))).toBe("after");
  });

  it("refuses a session id of another instance that does not exist", async () => {
    const three = cluster();
    const response = await three.instances[1]?.handler.fetch(
      httpRequest({ body: { jsonrpc: "2.0", id: 1, method: "ping" }, session: `i0.${"0".repeat(64)}` }),
    );
    expect(response?.status).toBe(404);
  });
});

describe("an instance that stops", () => {
  it("fails the requests running on it once another instance takes the session over, which goes on serving it", async () => {
    const three = cluster();
    three.route = 0;
    const client = await clientOf(three);
    const call = client.callTool("wait", {});
    await expect.poll(() => three.gate.entered).toBe(1);
    three.kill(0);
    await expect(call).rejects.toMatchObject({ code: "MCP.INTERNAL_ERROR", message: expect.stringContaining("stopped before answering") });
    expect(textOf(await client.callTool("echo", { text: "still here" }))).toBe("still here");
    const record = await three.directory.get(client.sessionId);
    expect(record).toMatchObject({
      epoch: 1,
      instance: expect.stringMatching(/^i[12]$/),
      state: { protocolVersion: "2025-11-25", clientInfo: { name: "cluster-client" } },
    });
  });

  it("loses nothing when the instance that relayed a stream stops: the client resumes through another", async () => {
    const three = cluster();
    three.route = 1;
    const client = await clientOf(three);
    expect(client.sessionId.startsWith("i1.")).toBe(true);
    three.route = 0;
    const progress: number[] = [];
    const call = client.callTool("wait", {}, { onProgress: ({ progress: step }) => void progress.push(step) });
    await expect.poll(() => three.gate.entered).toBe(1);
    three.kill(0);
    three.route = "alternate";
    three.gate.open();
    expect(textOf(await call)).toMatch(/^waited in i1\./);
    expect(progress).toEqual([0]);
    expect((await three.directory.get(client.sessionId))?.epoch).toBe(0);
  });

  it("hands its sessions over when it closes: another instance goes on with them at once", async () => {
    const three = cluster();
    three.route = 0;
    const client = await clientOf(three);
    await three.instances[0]?.handler.close();
    three.dead.add(0);
    expect(textOf(await client.callTool("echo", { text: "moved" }))).toBe("moved");
    expect(await three.directory.get(client.sessionId)).toMatchObject({ epoch: 1, instance: "i1" });
  });
});

/** Three instances whose servers share one change feed, as processes sharing a RedisChangeFeed do. */
function sharingChanges(options: StreamableHttpOptions = {}): Deployment {
  const changeFeed = new InMemoryChangeFeed();
  return cluster(options, (gate) => testServer(gate, { changeFeed }));
}

const README = "file:///readme.md";

describe("what a session's instance holds, across instances", () => {
  it("delivers a resource update once, to the subscribed session only, whichever instance marks it", async () => {
    const three = sharingChanges();
    const subscriber = await clientOf(three);
    const bystander = await clientOf(three);
    const heard: string[] = [];
    const overheard: string[] = [];
    subscriber.on("resourceUpdated", ({ uri }) => void heard.push(uri));
    bystander.on("resourceUpdated", ({ uri }) => void overheard.push(uri));
    await subscriber.subscribeResource(README);
    for (const instance of three.instances) await instance.server.markResourceUpdated(README);
    await expect.poll(() => heard.length).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toEqual([README, README, README]);
    expect(overheard).toEqual([]);
  });

  it("keeps one GET stream per session: a second one through another instance gets 409", async () => {
    const three = cluster();
    three.route = 0;
    const client = await clientOf(three, {});
    const get = (index: number) =>
      (three.instances[index] as Deployment["instances"][number]).handler.fetch(
        httpRequest({ method: "GET", session: client.sessionId, version: "2025-11-25" }),
      );
    // The client opened its own GET stream already (through instance 0).
    await expect.poll(async () => (await get(1)).status).toBe(409);
    expect((await get(2)).status).toBe(409);
  });

  it("expires an idle session even when every request went through other instances", async () => {
    const three = cluster({ sessionIdleTimeoutMs: 400 });
    const id = await openSession(three.instances[0]?.handler as Deployment["instances"][number]["handler"], "2025-11-25");
    const ping = (index: number) =>
      three.instances[index]?.handler.fetch(
        httpRequest({ body: { jsonrpc: "2.0", id: 1, method: "ping" }, session: id, version: "2025-11-25" }),
      );
    for (let round = 0; round < 6; round++) {
      expect((await ping(1 + (round % 2)))?.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await expect.poll(() => three.directory.size, { timeout: 3000 }).toBe(0);
    expect((await ping(1))?.status).toBe(404);
  });

  it("restores the log level and subscriptions when another instance takes the session over", async () => {
    const three = sharingChanges();
    three.route = 0;
    const client = await clientOf(three);
    await client.setLoggingLevel("error");
    await client.subscribeResource(README);
    three.kill(0);
    expect(textOf(await client.callTool("echo", { text: "moved" }))).toBe("moved");
    const heard: string[] = [];
    const logged: unknown[] = [];
    client.on("resourceUpdated", ({ uri }) => void heard.push(uri));
    client.on("log", ({ data }) => void logged.push(data));
    await three.instances[2]?.server.markResourceUpdated(README);
    await three.instances[1]?.server.log("info", "quiet");
    await three.instances[1]?.server.log("error", "loud");
    await three.instances[2]?.server.log("error", "loud");
    await expect.poll(() => heard.length + logged.length).toBe(2);
    expect(heard).toEqual([README]);
    expect(logged).toEqual(["loud"]);
  });
});

describe("an instance cut off from the others", () => {
  it("goes on serving its sessions while cut off, and lets go of those taken over meanwhile once it is back", async () => {
    const three = cluster();
    three.route = 0;
    const client = await clientOf(three);
    const kept = await clientOf(three);
    three.instances[0]?.cut(true);
    const direct = (session: string) =>
      three.instances[0]?.handler.fetch(httpRequest({ body: { jsonrpc: "2.0", id: 7, method: "ping" }, session, version: "2025-11-25" }));
    // Cut off from the directory, nobody can take a session from it through the directory it cannot reach: it serves them.
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 100));
    expect((await direct(client.sessionId))?.status).toBe(200);
    // The others see its lease run out: one of them takes a session over when a request for it comes.
    three.route = 1;
    expect(textOf(await client.callTool("echo", { text: "on 1" }))).toBe("on 1");
    expect(await three.directory.get(client.sessionId)).toMatchObject({ instance: "i1", epoch: 1 });
    three.instances[0]?.cut(false);
    // Back, it holds its lease again, finds that session moved on and lets it go; the other is still its own.
    await expect.poll(() => three.instances[0]?.handler.sessionCount, { timeout: 3000 }).toBe(1);
    expect(await three.directory.get(kept.sessionId)).toMatchObject({ instance: "i0", epoch: 0 });
    three.route = 0;
    expect(textOf(await client.callTool("echo", { text: "via 0" }))).toBe("via 0");
    expect(textOf(await kept.callTool("echo", { text: "still 0" }))).toBe("still 0");
    expect(three.instances.map((instance) => instance.handler.sessionCount)).toEqual([1, 1, 0]);
  });

  it("writes its sessions' records again when the directory lost them (a Redis restart)", async () => {
    const three = cluster();
    three.route = 0;
    const client = await clientOf(three);
    three.instances[0]?.cut(true);
    await three.directory.remove(client.sessionId, 0);
    await three.directory.releaseLease("i0", "whatever");
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 100));
    three.instances[0]?.cut(false);
    await expect
      .poll(() => three.directory.get(client.sessionId), { timeout: 3000 })
      .toMatchObject({ instance: "i0", epoch: 0, state: { protocolVersion: "2025-11-25" } });
    three.route = 2;
    expect(textOf(await client.callTool("echo", { text: "via 2" }))).toBe("via 2");
  });

  it("refuses a new session it cannot record, and requests it cannot route, with 503", async () => {
    const three = cluster();
    three.instances[1]?.cut(true);
    three.route = 1;
    const opened = await post(three, {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    });
    expect(opened.status).toBe(503);
    three.route = 0;
    const client = await clientOf(three);
    const viaCut = await three.instances[1]?.handler.fetch(
      httpRequest({ body: { jsonrpc: "2.0", id: 7, method: "ping" }, session: client.sessionId, version: "2025-11-25" }),
    );
    expect(viaCut?.status).toBe(503);
    expect(await viaCut?.json()).toMatchObject({ error: { message: expect.stringContaining("session directory") } });
  });

  it("answers a relayed JSON request with an error when the instance running it stops before answering", async () => {
    const three = cluster({ enableJsonResponse: true });
    three.route = 0;
    const client = await clientOf(three);
    three.route = 1;
    const call = client.callTool("wait", {});
    await expect.poll(() => three.gate.entered).toBe(1);
    three.kill(0);
    await expect(call).rejects.toMatchObject({ code: "MCP.INTERNAL_ERROR", message: expect.stringContaining("stopped before answering") });
  });
});

// Three server processes (the fixture, CLUSTER=on) sharing one real redis-server, behind the
// harness's proxy: a session-era session answers on every process, whichever one a request lands
// on; what a session does (server-to-client requests, cancels, subscriptions, idle expiry) holds
// across them; the 2026-07-28 era's listen streams and tasks span processes too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { connectHttp, MCPClient, StreamableHttpTransport, type MCPClientOptions } from "../src/index.js";
import { startInstances, type Instances } from "./support/instances.js";
import { startProxy, type Proxy } from "./support/proxy.js";
import { uniquePrefix, useRedisServer, type NodeRedis } from "./support/redis-server.js";
import { eventually, textOf, until, whoami } from "./support/waits.js";

const redis = useRedisServer();
const PREFIX = uniquePrefix("sessions");
const IDLE_MS = 1_500;
const clients: MCPClient[] = [];
let instances: Instances;
let proxy: Proxy;
let keys: NodeRedis;
const endpoint = (): URL => new URL("/mcp", proxy.url);

async function connected(options: MCPClientOptions = {}): Promise<MCPClient & { readonly sessionId: string | undefined }> {
  const client = new MCPClient(
    { name: "cluster", version: "1.0.0" },
    { elicitation: { form: () => ({ action: "accept", content: { answer: "forty-two" } }) }, ...options },
  );
  clients.push(client);
  const transport = await connectHttp(client, endpoint());
  return Object.assign(client, { sessionId: transport instanceof StreamableHttpTransport ? transport.sessionId : undefined });
}

/** A POST of one message through the proxy, as a client sends it. */
function post(body: unknown, session?: string): Promise<Response> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-11-25",
  };
  if (session !== undefined) headers["mcp-session-id"] = session;
  return fetch(endpoint(), { method: "POST", headers, body: JSON.stringify(body) });
}

/** The Redis keys of one session: its record and its events. */
async function keysOf(session: string): Promise<string[]> {
  const hex = session.slice(session.indexOf(".") + 1);
  return (await keys.keys(`${PREFIX}*`)).filter((key) => key.includes(hex));
}

beforeAll(async () => {
  keys = await redis.nodeRedis();
  instances = await startInstances(3, {
    redisSocket: redis.socket,
    prefix: PREFIX,
    env: { CLUSTER: "on", LEASE_MS: "1000", HANDLER_OPTIONS: JSON.stringify({ sessionIdleTimeoutMs: IDLE_MS, retryMs: 50 }) },
  });
  proxy = await startProxy(instances.instances);
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await proxy?.close();
  await instances?.stopAll();
});

describe("a session-era session on three processes", () => {
  it("answers on every process, then DELETE ends it everywhere and leaves no key in Redis", async () => {
    proxy.mode = "alternate";
    proxy.resetCounts();
    const client = await connected({ era: "session" });
    const session = client.sessionId as string;
    const home = session.slice(0, session.indexOf("."));
    expect(["i1", "i2", "i3"]).toContain(home);
    // Every call runs on the session's process, whichever one it landed on.
    expect(await whoami(client, 9)).toEqual(Array.from({ length: 9 }, () => home));
    expect(Object.values(proxy.counts).every((count) => count >= 3)).toBe(true);
    expect(await keysOf(session)).not.toEqual([]);
    await client.close();
    for (let index = 0; index < 3; index++) {
      proxy.mode = { pin: index };
      expect((await post({ jsonrpc: "2.0", id: 1, method: "ping" }, session)).status).toBe(404);
    }
    expect(await keysOf(session)).toEqual([]);
  });

  it("delivers 2 000 progress events exactly once and in order, across a cut and a resume through another process", async () => {
    proxy.mode = "alternate";
    const client = await connected({ era: "session" });
    const progress: number[] = [];
    const cut = proxy.cutNext({ method: "POST" }, { afterBytes: 40_000 });
    const result = await client.callTool(
      "progress",
      { count: 2_000 },
      { onProgress: ({ progress: step }) => void progress.push(step), timeoutMs: 30_000 },
    );
    // Cut part-way: after 40 000 bytes, long before the 2 000 events were all sent.
    expect((await cut).bytes).toBe(40_000);
    expect((await cut).text).not.toContain("done 2000");
    expect(textOf(result)).toBe("done 2000");
    expect(progress).toEqual(Array.from({ length: 2_000 }, (_, index) => index + 1));
  });

  it("answers an elicitation through another process than the one asking", async () => {
    proxy.mode = "alternate";
    proxy.resetCounts();
    const client = await connected({ era: "session" });
    for (let round = 0; round < 3; round++) expect(textOf(await client.callTool("ask", {}))).toBe("forty-two");
    expect(Object.keys(proxy.counts).toSorted()).toEqual(["i1", "i2", "i3"]);
  });

  it("cancels a request through another process than the one running it", async () => {
    proxy.mode = "alternate";
    const client = await connected({ era: "session" });
    const stop = new AbortController();
    const held = client.callTool("hold", {}, { signal: stop.signal });
    setTimeout(() => stop.abort(), 200);
    await expect(held).rejects.toMatchObject({ code: "MCP.REQUEST_CANCELLED" });
    const aborted = await eventually(
      async () => JSON.parse(textOf(await client.callTool("aborted", {}))) as unknown[],
      (ids) => ids.length > 0,
      "the hold aborted",
    );
    expect(aborted).toHaveLength(1);
  });

  it("delivers a resource update once, to the subscribed session only, whichever process marks it", async () => {
    proxy.mode = "alternate";
    const subscriber = await connected({ era: "session" });
    const bystander = await connected({ era: "session" });
    const heard: string[] = [];
    const overheard: string[] = [];
    subscriber.on("resourceUpdated", ({ uri }) => void heard.push(uri));
    bystander.on("resourceUpdated", ({ uri }) => void overheard.push(uri));
    await subscriber.subscribeResource("mem://counter");
    // Touched through three calls of the bystander's session, each landing on a process in turn.
    for (let round = 0; round < 3; round++) await bystander.callTool("touch", { uri: "mem://counter" });
    await until(() => heard.length === 3, "told of three updates");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toEqual(["mem://counter", "mem://counter", "mem://counter"]);
    expect(overheard).toEqual([]);
  });

  it("expires an idle session whose requests all went through other processes", async () => {
    proxy.mode = { pin: 0 };
    const opened = await post({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    const session = opened.headers.get("mcp-session-id") as string;
    await opened.text();
    expect(session.startsWith("i1.")).toBe(true);
    for (let round = 0; round < 6; round++) {
      proxy.mode = { pin: 1 + (round % 2) };
      expect((await post({ jsonrpc: "2.0", id: round + 1, method: "ping" }, session)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 3));
    }
    // Then nothing for twice the idle timeout (a request would touch it): it is gone, with its keys.
    await new Promise((resolve) => setTimeout(resolve, 2 * IDLE_MS));
    await eventually(
      () => keysOf(session),
      (left) => left.length === 0,
      "its keys removed",
    );
    proxy.mode = { pin: 2 };
    expect((await post({ jsonrpc: "2.0", id: 99, method: "ping" }, session)).status).toBe(404);
  });
});

describe("the 2026-07-28 era on three processes", () => {
  it("tells a listener on one process of a list change made on another", async () => {
    proxy.mode = { pin: 2 };
    const listener = await connected();
    expect(listener.era).toBe("stateless");
    let changed = 0;
    listener.on("toolsListChanged", () => void (changed += 1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.mode = { pin: 0 };
    const changer = await connected();
    await changer.callTool("addTool", { name: "late-2026" });
    await until(() => changed > 0, "told of the list change");
    expect(changed).toBe(1);
  });

  it("polls and cancels through other processes a task started on one", async () => {
    proxy.mode = { pin: 0 };
    const client = await connected();
    const task = await client.callTool("job", { ms: 30_000 }, { task: true });
    proxy.mode = { pin: 1 };
    expect((await task.status()).status).toBe("working");
    proxy.mode = { pin: 2 };
    await task.cancel();
    proxy.mode = { pin: 1 };
    expect((await task.status()).status).toBe("cancelled");
    proxy.mode = { pin: 0 };
    const jobs = await eventually(
      async () => JSON.parse(textOf(await client.callTool("aborted", {}), 1)) as unknown[],
      (ids) => ids.includes(task.taskId),
      "the job aborted on the process running it",
    );
    expect(jobs).toContain(task.taskId);
  });
});

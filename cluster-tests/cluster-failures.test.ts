// Three server processes (CLUSTER=on) on one real redis-server behind the harness's proxy, when
// something fails: the process serving a session is killed mid-stream (its running request is
// answered with an error, the session goes on elsewhere), the process relaying a stream is killed
// (nothing is lost), and Redis restarts (sessions go on, a resume across the gap is refused, every
// client hears its lists changed).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { connectHttp, MCPClient, StreamableHttpTransport } from "../src/index.js";
import { startInstances, type Instances } from "./support/instances.js";
import { startProxy, type Proxy } from "./support/proxy.js";
import { uniquePrefix, useRedisServer } from "./support/redis-server.js";
import { eventually, textOf, until, whoami } from "./support/waits.js";

const redis = useRedisServer();
const LEASE_MS = 1_000;
const clients: MCPClient[] = [];
const PREFIX = uniquePrefix("failures");
let instances: Instances;
let proxy: Proxy;
const endpoint = (): URL => new URL("/mcp", proxy.url);

async function connected(): Promise<MCPClient & { readonly sessionId: string }> {
  const client = new MCPClient({ name: "cluster", version: "1.0.0" }, { era: "session" });
  clients.push(client);
  const transport = (await connectHttp(client, endpoint())) as StreamableHttpTransport;
  return Object.assign(client, { sessionId: transport.sessionId as string });
}

const indexOf = (tag: string): number => instances.instances.findIndex((instance) => instance.tag === tag);
const homeOf = (session: string): string => session.slice(0, session.indexOf("."));

beforeAll(async () => {
  instances = await startInstances(3, {
    redisSocket: redis.socket,
    prefix: PREFIX,
    env: { CLUSTER: "on", LEASE_MS: String(LEASE_MS), HANDLER_OPTIONS: JSON.stringify({ retryMs: 50 }) },
  });
  proxy = await startProxy(instances.instances);
});

// Every case may leave an instance dead: all three run again before the next one.
beforeEach(async () => {
  for (const [index, instance] of instances.instances.entries()) {
    if (await alive(instance.pid)) continue;
    await instances.start(index);
  }
  proxy.setUpstreams(instances.instances);
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await proxy?.close();
  await instances?.stopAll();
});

async function alive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("a process that dies", () => {
  it("serving a session mid-stream: its running request gets an error, and the session goes on on another process", async () => {
    proxy.mode = "tag";
    const client = await connected();
    const home = homeOf(client.sessionId);
    const held = client.callTool("hold", {}, { timeoutMs: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await instances.kill(indexOf(home));
    await expect(held).rejects.toMatchObject({ code: "MCP.INTERNAL_ERROR", message: expect.stringContaining("stopped before answering") });
    // Same session, no new initialize: served by the process that took it over.
    expect(textOf(await client.callTool("echo", { text: "after" }))).toBe("after");
    const [now] = await whoami(client, 1);
    expect(now).not.toBe(home);
    expect(await whoami(client, 3)).toEqual([now, now, now]);
  });

  it("relaying a stream: the client resumes through another process and loses nothing", async () => {
    proxy.mode = "tag";
    const client = await connected();
    const home = homeOf(client.sessionId);
    const relaying = instances.instances.find((instance) => instance.tag !== home)?.tag as string;
    proxy.mode = { pin: indexOf(relaying) };
    const progress: number[] = [];
    const call = client.callTool(
      "progress",
      { count: 20_000 },
      { onProgress: ({ progress: step }) => void progress.push(step), timeoutMs: 60_000 },
    );
    await until(() => progress.length > 500, "some progress through the relaying process");
    proxy.mode = "tag";
    await instances.kill(indexOf(relaying));
    expect(textOf(await call)).toBe("done 20000");
    expect(progress).toEqual(Array.from({ length: 20_000 }, (_, index) => index + 1));
  });
});

describe("Redis restarted", () => {
  it("sessions go on on their processes, a resume across the gap is refused, and every client hears its lists changed", async () => {
    proxy.mode = "tag";
    const client = await connected();
    const other = await connected();
    let told = 0;
    let otherTold = 0;
    client.on("toolsListChanged", () => void (told += 1));
    other.on("toolsListChanged", () => void (otherTold += 1));
    const first = await fetch(endpoint(), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": client.sessionId,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 900, method: "tools/call", params: { name: "echo", arguments: { text: "kept" } } }),
    });
    const before = await first.text();
    const lastEventId = /id: (\S+)/.exec(before)?.[1] as string;
    await redis.restart();
    // Its process still serves the session: it holds it, and nothing else can take it.
    expect(textOf(await client.callTool("echo", { text: "during" }))).toBe("during");
    await until(() => told > 0 && otherTold > 0, "told of list changes once Redis is back", 10_000);
    // The events kept before the restart are gone: a resume from one is refused, not served with a gap.
    const resumed = await eventually(
      async () =>
        (
          await fetch(endpoint(), {
            headers: {
              accept: "text/event-stream",
              "mcp-session-id": client.sessionId,
              "mcp-protocol-version": "2025-11-25",
              "last-event-id": lastEventId,
            },
          })
        ).status,
      (status) => status !== 503,
      "the resume answered",
    );
    expect(resumed).toBe(400);
    // Once its lease is renewed, the process writes its sessions' records again; from then on another process relays to it.
    const keys = await redis.nodeRedis();
    const hex = client.sessionId.slice(client.sessionId.indexOf(".") + 1);
    await eventually(
      async () => (await keys.keys(`${PREFIX}{s:*`)).filter((key) => key.includes(hex)),
      (found) => found.length === 1,
      "the session's record written again",
      10_000,
    );
    proxy.mode = { pin: (indexOf(homeOf(client.sessionId)) + 1) % 3 };
    expect(await whoami(client, 3)).toEqual([homeOf(client.sessionId), homeOf(client.sessionId), homeOf(client.sessionId)]);
  });
});

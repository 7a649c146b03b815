// The cluster harness itself. First the proxy against plain node:http upstreams: in turn, by the
// session id's instance tag, pinned, skipping a dead or resetting upstream (the request body
// replayed), SSE relayed event by event, a cut after N bytes or once a text came, headers kept both
// ways, close(). Then three server processes (the fixture, CLUSTER=on) on a real redis-server
// behind it: our client through the proxy in the session era (tag routing, the fixture's tools)
// and in the 2026-07-28 era (calls spread over the three; one killed, the others serving; restarted).
import { request, type OutgoingHttpHeaders } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { connectHttp, MCPClient, type MCPClientOptions } from "../src/index.js";
import { EVENT_BYTES, eventText, plainUpstream, type PlainUpstream, type Seen } from "./fixtures/plain-upstream.js";
import { startInstances, type Instances } from "./support/instances.js";
import { startProxy, type Proxy } from "./support/proxy.js";
import { uniquePrefix, useRedisServer } from "./support/redis-server.js";
import { eventually, textOf, until, whoami } from "./support/waits.js";

const redis = useRedisServer();

interface Answer {
  readonly status: number;
  readonly rawHeaders: string[];
  readonly text: string;
  /** The body ended without its end: the connection broke. */
  readonly broken: boolean;
}

interface Exchange {
  /** The body so far. */
  text(): string;
  readonly answer: Promise<Answer>;
}

/** One request on a connection of its own, its body read as it comes. */
function open(
  base: string,
  path: string,
  init: { method?: string; headers?: OutgoingHttpHeaders | string[]; body?: string | Buffer } = {},
): Exchange {
  let text = "";
  const answer = new Promise<Answer>((resolve, reject) => {
    const sent = request(new URL(path, base), { method: init.method ?? "GET", headers: init.headers ?? {}, agent: false }, (res) => {
      res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      res.on("error", () => {});
      res.once("close", () => resolve({ status: res.statusCode as number, rawHeaders: res.rawHeaders, text, broken: !res.complete }));
    });
    sent.once("error", reject);
    sent.end(init.body);
  });
  return { text: () => text, answer };
}

const send = (base: string, path = "/", init: Parameters<typeof open>[2] = {}): Promise<Answer> => open(base, path, init).answer;
const tagOf = async (base: string, init: Parameters<typeof open>[2] = {}): Promise<string> =>
  (JSON.parse((await send(base, "/", init)).text) as Seen).tag;
const tagsOf = async (base: string, count: number, init: Parameters<typeof open>[2] = {}): Promise<string[]> => {
  const tags: string[] = [];
  for (let index = 0; index < count; index++) tags.push(await tagOf(base, init));
  return tags;
};

const events = (count: number): string => Array.from({ length: count }, (_, index) => eventText(index + 1)).join("");
describe("the proxy, against plain upstreams", () => {
  const upstreams: PlainUpstream[] = [];
  let proxy: Proxy;

  beforeAll(async () => {
    for (const tag of ["a", "b", "c"]) upstreams.push(await plainUpstream(tag));
    proxy = await startProxy(upstreams);
  });

  afterAll(async () => {
    await proxy.close();
    for (const upstream of upstreams) await upstream.close();
  });

  it("alternates per request, counting what each upstream answered", async () => {
    proxy.mode = "alternate";
    proxy.resetCounts();
    const tags = await tagsOf(proxy.url, 6);
    expect(tags.slice(3)).toEqual(tags.slice(0, 3));
    expect(new Set(tags)).toEqual(new Set(["a", "b", "c"]));
    expect(proxy.counts).toEqual({ a: 2, b: 2, c: 2 });
  });

  it("routes by the instance tag of Mcp-Session-Id (before the first dot), else in turn; or pins one", async () => {
    proxy.mode = "tag";
    expect(await tagsOf(proxy.url, 3, { headers: { "mcp-session-id": "b.0123.45" } })).toEqual(["b", "b", "b"]);
    expect(new Set(await tagsOf(proxy.url, 3, { headers: { "mcp-session-id": "z.0123" } }))).toEqual(new Set(["a", "b", "c"]));
    expect(new Set(await tagsOf(proxy.url, 3, { headers: { "mcp-session-id": "c0123" } }))).toEqual(new Set(["a", "b", "c"]));
    expect(new Set(await tagsOf(proxy.url, 3))).toEqual(new Set(["a", "b", "c"]));
    proxy.mode = { pin: 2 };
    expect(await tagsOf(proxy.url, 3, { headers: { "mcp-session-id": "a.0123" } })).toEqual(["c", "c", "c"]);
    proxy.mode = { pin: 3 };
    const refused = await send(proxy.url);
    expect(refused.status).toBe(502);
    expect(refused.text).toContain("none to try");
  });

  it("keeps every request and response header (repeated ones too) and pipes the body", async () => {
    proxy.mode = { pin: 0 };
    const body = Buffer.alloc(300_000, "x");
    const headers = [
      "Host",
      new URL(proxy.url).host,
      "Mcp-Session-Id",
      "a.123",
      "Last-Event-ID",
      "s1_7",
      "MCP-Protocol-Version",
      "2025-11-25",
      "Authorization",
      "Bearer t0k3n",
      "X-Twice",
      "1",
      "X-Twice",
      "2",
      "Content-Type",
      "application/json",
      "Content-Length",
      String(body.length),
    ];
    const answer = await send(proxy.url, "/mcp?x=1", { method: "POST", headers, body });
    const seen = JSON.parse(answer.text) as Seen;
    expect(seen).toMatchObject({ tag: "a", method: "POST", url: "/mcp?x=1", bodyBytes: body.length });
    for (let index = 0; index < headers.length; index += 2)
      expect(pairs(seen.rawHeaders)).toContainEqual([headers[index], headers[index + 1]]);
    expect(pairs(answer.rawHeaders)).toEqual(
      expect.arrayContaining([
        ["Mcp-Session-Id", "a.123"],
        ["Set-Cookie", "a=1"],
        ["Set-Cookie", "b=2"],
        ["WWW-Authenticate", 'Bearer resource_metadata="https://example.com/meta"'],
      ]),
    );
  });

  it("skips an upstream that refuses connections, in every mode, and serves it again once it is back", async () => {
    const b = upstreams[1] as PlainUpstream;
    await b.close();
    proxy.mode = "alternate";
    proxy.resetCounts();
    expect((await tagsOf(proxy.url, 6)).filter((tag) => tag === "b")).toEqual([]);
    expect(proxy.counts).not.toHaveProperty("b");
    proxy.mode = "tag";
    expect(await tagOf(proxy.url, { headers: { "mcp-session-id": "b.1" } })).toBe("c");
    proxy.mode = { pin: 1 };
    expect(await tagOf(proxy.url)).toBe("c");
    upstreams[1] = await plainUpstream("b");
    proxy.setUpstreams(upstreams);
    expect(await tagOf(proxy.url)).toBe("b");
    expect(proxy.upstreams.map(({ url }) => url)).toEqual(upstreams.map(({ url }) => url));
  });

  it("skips an upstream that resets the connection before answering, replaying the request body to the next", async () => {
    const resetting = await plainUpstream("r", { resetAll: true });
    const other = await startProxy([resetting, upstreams[0] as PlainUpstream]);
    other.mode = { pin: 0 };
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "é".repeat(5000) } },
    });
    const answer = await send(other.url, "/mcp", { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(JSON.parse(answer.text)).toMatchObject({ tag: "a", bodyBytes: Buffer.byteLength(body) });
    expect(other.counts).toEqual({ a: 1 });
    await other.close();
    await resetting.close();
  });

  it("relays SSE event by event: the client reads each event before the upstream sends the next", async () => {
    proxy.mode = { pin: 0 };
    const a = upstreams[0] as PlainUpstream;
    const stream = open(proxy.url, "/sse?events=3&gate");
    for (const index of [1, 2, 3]) {
      a.step();
      await until(() => stream.text().endsWith(eventText(index)), `at event ${index}`);
    }
    expect(await stream.answer).toMatchObject({ status: 200, text: events(3), broken: false });
  });

  it("cuts a response mid-SSE after N bytes: the client sees the break there, the upstream sees its client leave", async () => {
    proxy.mode = { pin: 0 };
    const a = upstreams[0] as PlainUpstream;
    const abandoned = a.abandoned;
    const cut = proxy.cutNext({ method: "GET", path: "/sse" }, { afterBytes: 2 * EVENT_BYTES + 5 });
    expect((await send(proxy.url, "/")).broken).toBe(false); // another path: not cut
    const stream = open(proxy.url, "/sse?events=10&gate");
    // Events keep coming while the cut's last bytes are written: none of them reaches the client.
    for (let index = 0; index < 6; index++) a.step();
    const answer = await stream.answer;
    expect(answer).toMatchObject({ status: 200, broken: true, text: events(6).slice(0, 2 * EVENT_BYTES + 5) });
    expect(await cut).toEqual({ tag: "a", bytes: 2 * EVENT_BYTES + 5, text: answer.text });
    await until(() => a.abandoned === abandoned + 1, "abandoned");
  });

  it("cuts the next matching response whose text passes a test (one already flowing counts), then no other", async () => {
    proxy.mode = { pin: 2 };
    const c = upstreams[2] as PlainUpstream;
    const sse = { accept: "text/event-stream" };
    const flowing = open(proxy.url, "/sse?events=6&gate", { headers: sse });
    c.step();
    await until(() => flowing.text() === eventText(1), "at event 1");
    const cut = proxy.cutNext({ headers: { accept: /event-stream/ } }, { afterText: (text) => text.includes("event 03") });
    expect(await send(proxy.url, "/sse?events=4")).toMatchObject({ broken: false }); // no Accept: not a match
    expect(await send(proxy.url, "/sse?events=2", { headers: sse })).toMatchObject({ broken: false }); // a match, but never "event 03"
    c.step();
    c.step();
    expect(await flowing.answer).toMatchObject({ broken: true, text: events(3) });
    expect(await cut).toEqual({ tag: "c", bytes: 3 * EVENT_BYTES, text: events(3) });
    expect(await send(proxy.url, "/sse?events=4", { headers: sse })).toMatchObject({ broken: false, text: events(4) });
  });

  it("close() ends the streams in flight and stops listening", async () => {
    const own = await startProxy(upstreams);
    own.mode = { pin: 0 };
    const stream = open(own.url, "/sse?events=2&gate");
    (upstreams[0] as PlainUpstream).step();
    await until(() => stream.text() === eventText(1), "at event 1");
    await own.close();
    expect((await stream.answer).broken).toBe(true);
    await expect(send(own.url)).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });
});

function pairs(raw: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let index = 0; index < raw.length; index += 2) out.push([raw[index] as string, raw[index + 1] as string]);
  return out;
}

describe("three server processes on one Redis behind the proxy (CLUSTER=on)", () => {
  const clients: MCPClient[] = [];
  let instances: Instances;
  let proxy: Proxy;
  const endpoint = (): URL => new URL("/mcp", proxy.url);

  async function connected(options: MCPClientOptions = {}): Promise<MCPClient> {
    const client = new MCPClient(
      { name: "harness", version: "1.0.0" },
      { elicitation: { form: () => ({ action: "accept", content: { answer: "forty-two" } }) }, ...options },
    );
    clients.push(client);
    await connectHttp(client, endpoint());
    return client;
  }

  beforeAll(async () => {
    instances = await startInstances(3, {
      redisSocket: redis.socket,
      prefix: uniquePrefix("harness"),
      env: { CLUSTER: "on", LEASE_MS: "1000" },
    });
    proxy = await startProxy(instances.instances);
  });

  afterAll(async () => {
    for (const client of clients) await client.close();
    await proxy?.close();
    await instances?.stopAll();
  });

  it("fails a start whose child exits before it listens, with the child's stderr", async () => {
    await expect(startInstances(2, { prefix: uniquePrefix("harness"), env: { REDIS_SOCKET: "" } })).rejects.toThrow(
      /instance i1 exited \(1\) before it listened:\s+cluster-server i1: REDIS_SOCKET is not set/,
    );
  });

  it("started three children, each with its tag, pid and port", () => {
    expect(instances.instances.map(({ tag }) => tag)).toEqual(["i1", "i2", "i3"]);
    expect(new Set(instances.instances.map(({ url }) => url)).size).toBe(3);
    for (const { pid, url } of instances.instances) {
      expect(pid).toBeGreaterThan(0);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    }
  });

  it("session era, tag mode: the session id carries its instance's tag, and every request of the session goes there", async () => {
    proxy.mode = "tag";
    proxy.resetCounts();
    const client = await connected({ era: "session" });
    expect(client.era).toBe("session");
    expect(textOf(await client.callTool("echo", { text: "hello" }))).toBe("hello");
    const [tag, ...others] = await whoami(client, 5);
    expect(others).toEqual([tag, tag, tag, tag]);
    expect(Object.keys(proxy.counts)).toEqual([tag]);
  });

  it("session era through the proxy: progress, an elicitation, a cancelled hold, a subscription, a list change, a task", async () => {
    proxy.mode = "tag";
    const client = await connected({ era: "session" });
    const progress: number[] = [];
    expect(textOf(await client.callTool("progress", { count: 5 }, { onProgress: ({ progress: done }) => progress.push(done) }))).toBe(
      "done 5",
    );
    expect(progress).toEqual([1, 2, 3, 4, 5]);
    expect(textOf(await client.callTool("ask", {}))).toBe("forty-two");
    const stop = new AbortController();
    const held = client.callTool("hold", {}, { signal: stop.signal });
    setTimeout(() => stop.abort(), 100);
    await expect(held).rejects.toThrow(/cancelled/i);
    const holds = async (): Promise<unknown[]> => JSON.parse(textOf(await client.callTool("aborted", {}))) as unknown[];
    expect(await eventually(holds, (ids) => ids.length > 0, "the hold aborted")).toHaveLength(1);
    const updated: string[] = [];
    client.on("resourceUpdated", ({ uri }) => updated.push(uri));
    await client.subscribeResource("mem://counter");
    await client.callTool("touch", { uri: "mem://counter" });
    await until(() => updated.length === 1, "told of the update");
    expect(updated).toEqual(["mem://counter"]);
    expect((await client.readResource("mem://counter")).contents[0]).toMatchObject({ text: "1" });
    let changed = 0;
    client.on("toolsListChanged", () => (changed += 1));
    await client.callTool("addTool", { name: "late" });
    await until(() => changed > 0, "told of the list change");
    expect((await client.listTools()).tools.map(({ name }) => name)).toContain("late");
    expect(textOf(await client.callTool("job", { ms: 20 }))).toBe("job done after 20 ms");
  });

  it("2026-07-28 era, alternate mode: the client's probe picks it, and its calls spread over the three", async () => {
    proxy.mode = "alternate";
    proxy.resetCounts();
    const client = await connected();
    expect(client.era).toBe("stateless");
    expect(new Set(await whoami(client, 9))).toEqual(new Set(["i1", "i2", "i3"]));
    expect(Object.values(proxy.counts).every((count) => count >= 3)).toBe(true);
    // An input round answered through another process: the request-state keys are shared.
    expect(textOf(await client.callTool("ask", {}))).toBe("forty-two");
  });

  it("an instance killed mid-test leaves the others serving (the proxy skips it), and serves again once restarted", async () => {
    proxy.mode = "alternate";
    const client = await connected();
    const calls = Array.from({ length: 4 }, () => whoami(client, 6));
    await instances.kill(1);
    const answered = (await Promise.all(calls)).flat();
    expect(answered).toHaveLength(24);
    proxy.resetCounts();
    expect(new Set(await whoami(client, 6))).toEqual(new Set(["i1", "i3"]));
    expect(proxy.counts).not.toHaveProperty("i2");
    const again = await instances.start(1);
    expect(again.tag).toBe("i2");
    proxy.setUpstreams(instances.instances);
    expect(new Set(await whoami(client, 6))).toEqual(new Set(["i1", "i2", "i3"]));
  });

  it("the children reported nothing on stderr (no store or feed error)", () => {
    for (const index of [0, 1, 2]) expect(instances.stderr(index)).toBe("");
  });
});

// Two servers, one Redis: each MCPServer with its own connections, a RedisChangeFeed and a
// RedisTaskStore on one prefix, as two processes of one deployment would have. A 2026-07-28 task
// started through A is polled, answered and cancelled through B (the run on A hears the answer and
// the cancel on the feed), and a listen stream on B hears a tool list change made on A.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";

import { EXTENSIONS, MCPServer, META_KEYS, serverTasks, type JsonObject, type RequestChannel } from "../src/index.js";
import { RedisChangeFeed, RedisTaskStore, type RedisClient } from "../src/redis/index.js";
import { uniquePrefix, useRedisServer } from "./support/redis-server.js";

const redis = useRedisServer();
const CAPABILITIES = { elicitation: {}, extensions: { [EXTENSIONS.tasks]: {} } };
const declared = { [META_KEYS.protocolVersion]: "2026-07-28", [META_KEYS.clientCapabilities]: CAPABILITIES };

interface Process {
  readonly server: MCPServer;
  readonly feed: RedisChangeFeed;
  /** The tasks whose run this process saw aborted. */
  readonly aborted: string[];
}

function serve(name: string, client: RedisClient, prefix: string, errors: unknown[]): Process {
  const feed = new RedisChangeFeed({ client, prefix, onError: (error) => errors.push(error) });
  const store = new RedisTaskStore({ client, prefix });
  const server = new MCPServer(
    { name, version: "1.0.0" },
    { changeFeed: feed, tasks: serverTasks({ store, pollIntervalMs: 20, onError: (error) => errors.push(error) }) },
  );
  const aborted: string[] = [];
  server.tool("ask", { execution: { taskSupport: "optional" } }, async (_args, ctx) => {
    const answer = await ctx.elicitInput({ message: "Name?", requestedSchema: z.object({ name: z.string() }) }, { key: "only" });
    return { content: [{ type: "text", text: `asked on ${name}: ${String(answer.content?.["name"])}` }] };
  });
  server.tool("hold", { execution: { taskSupport: "optional" } }, async (_args, ctx) => {
    await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
    aborted.push(String(ctx.task?.id));
    return { content: [] };
  });
  return { server, feed, aborted };
}

let ids = 0;
const channel = (notify: RequestChannel["notify"] = () => Promise.resolve(), signal = new AbortController().signal): RequestChannel => ({
  signal,
  inbound: undefined,
  notify,
});

async function request({ server }: Process, method: string, params: JsonObject): Promise<JsonObject> {
  const answer = await server.serveStateless(++ids, method, { ...params, _meta: declared }, channel());
  if (!("result" in answer)) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let waited = 0; ; waited += 10) {
    const value = await read();
    if (done(value)) return value;
    if (waited > 10_000) throw new Error(`still ${JSON.stringify(value)} after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("two servers sharing one Redis", () => {
  const errors: unknown[] = [];
  let a: Process;
  let b: Process;

  beforeAll(async () => {
    const prefix = uniquePrefix("two-servers");
    a = serve("A", await redis.nodeRedis(), prefix, errors);
    b = serve("B", await redis.ioRedis(), prefix, errors);
    await Promise.all([a.feed.ready(), b.feed.ready()]);
  });

  afterAll(async () => {
    for (const { server, feed } of [a, b]) {
      await server.close();
      await feed.close();
    }
  });

  it("polls through B a task started through A, answers its input through B, and A's run finishes it", async () => {
    const created = await request(a, "tools/call", { name: "ask", arguments: {} });
    expect(created).toMatchObject({ resultType: "task", status: "working" });
    const taskId = created["taskId"] as string;
    const asking = await until(
      () => request(b, "tasks/get", { taskId }),
      (task) => task["status"] === "input_required",
    );
    expect(asking).toMatchObject({ taskId, inputRequests: { only: { method: "elicitation/create", params: { message: "Name?" } } } });
    expect(
      await request(b, "tasks/update", { taskId, inputResponses: { only: { action: "accept", content: { name: "Ann" } } } }),
    ).toMatchObject({ resultType: "complete" });
    const done = await until(
      () => request(b, "tasks/get", { taskId }),
      (task) => task["status"] === "completed",
    );
    expect(done["result"]).toEqual({ content: [{ type: "text", text: "asked on A: Ann" }] });
  });

  it("cancels through B a task running on A: the run on A is aborted", async () => {
    const { taskId } = (await request(a, "tools/call", { name: "hold", arguments: {} })) as { taskId: string };
    expect(await request(b, "tasks/get", { taskId })).toMatchObject({ taskId, status: "working" });
    expect(await request(b, "tasks/cancel", { taskId })).toMatchObject({ resultType: "complete" });
    expect(await request(a, "tasks/get", { taskId })).toMatchObject({ status: "cancelled" });
    await until(
      async () => a.aborted,
      (aborted) => aborted.includes(taskId),
    );
    expect(b.aborted).toEqual([]);
  });

  it("tells a listen stream on B of a tool list change made on A", async () => {
    const heard: { method: string; params: JsonObject }[] = [];
    const stop = new AbortController();
    const listening = b.server.serveStateless(
      ++ids,
      "subscriptions/listen",
      { notifications: { toolsListChanged: true }, _meta: declared },
      channel(async (method, params) => void heard.push({ method, params }), stop.signal),
    );
    await until(
      async () => heard.length,
      (count) => count === 1,
    );
    expect(heard[0]?.method).toBe("notifications/subscriptions/acknowledged");
    a.server.tool("added-on-a", {}, () => ({ content: [] }));
    await until(
      async () => heard.length,
      (count) => count === 2,
    );
    expect(heard[1]?.method).toBe("notifications/tools/list_changed");
    stop.abort();
    await listening;
  });

  it("reported nothing on either side: no malformed message, no failed write", () => {
    expect(errors).toEqual([]);
  });
});

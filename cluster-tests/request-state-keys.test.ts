// RedisRequestStateKeys on a real redis-server: processes agree on one key, a key made or rotated
// by one is found by the others, the previous keys are kept (`keep`), the automatic rotation runs
// once per period for the whole deployment; and two MCPServers on one Redis open each other's
// requestState in a 2026-07-28 round of input, across a rotation.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";

import { MCP_CODES } from "../src/error-codes/error-codes.js";
import { MCPServer, META_KEYS, type JsonObject, type RequestChannel } from "../src/index.js";
import { RedisRequestStateKeys, redisCommands, type RedisCommands } from "../src/redis/index.js";
import { uniquePrefix, useRedisServer } from "./support/redis-server.js";

const redis = useRedisServer();

/** A connection that counts the commands sent on it. */
function counted(commands: RedisCommands): RedisCommands & { sent: number } {
  const wrapper = {
    sent: 0,
    command: (args: readonly string[]) => ((wrapper.sent += 1), commands.command(args)),
    subscribe: commands.subscribe.bind(commands),
    unsubscribe: commands.unsubscribe.bind(commands),
    close: () => commands.close(),
  };
  return wrapper;
}

async function entries(commands: RedisCommands, prefix: string): Promise<string[][]> {
  return ((await commands.command(["LRANGE", `${prefix}{request-state}:keys`, "0", "-1"])) as string[]).map((entry) => entry.split(" "));
}

describe("RedisRequestStateKeys", () => {
  it("gives processes starting together one key, of 32 random bytes, kept without expiry when nothing rotates", async () => {
    const prefix = uniquePrefix("keys");
    const commands = redisCommands(await redis.nodeRedis());
    const keys = [
      new RedisRequestStateKeys({ client: await redis.nodeRedis(), prefix }),
      new RedisRequestStateKeys({ client: await redis.ioRedis(), prefix }),
      new RedisRequestStateKeys({ client: commands, prefix }),
    ];
    const current = await Promise.all(keys.map((one) => one.current()));
    expect(new Set(current.map((key) => key.id)).size).toBe(1);
    for (const key of current) expect(key).toEqual(current[0]);
    expect(current[0]?.id).toMatch(/^[0-9a-f]{24}$/);
    expect(current[0]?.secret).toHaveLength(32);
    const [[id, madeAt, secret] = []] = await entries(commands, prefix);
    expect(id).toBe(current[0]?.id);
    expect(Math.abs(Number(madeAt) - Date.now())).toBeLessThan(5_000);
    expect(secret).toBe(Buffer.from(current[0]?.secret ?? []).toString("hex"));
    expect(await commands.command(["PTTL", `${prefix}{request-state}:keys`])).toBe(-1);
    expect(await keys[1]?.byId(id ?? "")).toEqual(current[0]);
    await Promise.all(keys.map((one) => one.close()));
  });

  it("refuses a key list whose secret is not hex, naming the key and never its secret", async () => {
    const prefix = uniquePrefix("keys");
    const commands = redisCommands(await redis.nodeRedis());
    await commands.command(["RPUSH", `${prefix}{request-state}:keys`, `k1 ${Date.now()} not-hex-secret`]);
    const keys = new RedisRequestStateKeys({ client: commands, prefix });
    const refusal = await keys.current().catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: "MCP.INVALID_PARAMS", message: expect.stringContaining('key "k1"') });
    expect((refusal as Error).message).not.toContain("not-hex-secret");
    await keys.close();
  });

  it("reads the keys at most once a second, and again for an id it does not know", async () => {
    const prefix = uniquePrefix("cache");
    const commands = counted(redisCommands(await redis.nodeRedis()));
    const keys = new RedisRequestStateKeys({ client: commands, prefix });
    const [first] = await Promise.all([keys.current(), keys.current(), keys.byId("x")]);
    expect(commands.sent).toBe(1);
    expect(await keys.byId(first.id)).toEqual(first);
    expect(commands.sent).toBe(1);
    expect(await keys.byId("unknown")).toBeUndefined();
    expect(commands.sent).toBe(2);
    await sleep(1_050);
    expect(await keys.byId("unknown")).toBeUndefined();
    expect(commands.sent).toBe(3);
    await sleep(1_050);
    expect(await keys.current()).toEqual(first);
    expect(commands.sent).toBe(4);
  });

  it("rotates for every process: the new key is found by the others, the keep previous ones still open, older ones do not", async () => {
    const prefix = uniquePrefix("rotate");
    const a = new RedisRequestStateKeys({ client: await redis.nodeRedis(), prefix, keep: 2 });
    const b = new RedisRequestStateKeys({ client: await redis.ioRedis(), prefix, keep: 2 });
    const made = [await a.current()];
    expect(await b.current()).toEqual(made[0]);
    for (let n = 0; n < 3; n += 1) {
      await a.rotate();
      made.unshift(await a.current());
    }
    expect(new Set(made.map((key) => key.id)).size).toBe(4);
    for (const key of made.slice(0, 3)) expect(await b.byId(key.id)).toEqual(key);
    expect(await b.byId(made[3]?.id ?? "")).toBeUndefined();
    // B seals with the key it read last until its next read, at most a second later.
    expect(await b.current()).toEqual(made[0]);
    const none = new RedisRequestStateKeys({ client: await redis.nodeRedis(), prefix: uniquePrefix("keep0"), keep: 0 });
    const before = await none.current();
    await none.rotate();
    expect(await none.byId(before.id)).toBeUndefined();
    expect((await none.current()).id).not.toBe(before.id);
  });

  it("rotates by itself every rotateEveryMs, once for all the processes, and lets the keys expire when none rotates them", async () => {
    const prefix = uniquePrefix("auto");
    const commands = redisCommands(await redis.nodeRedis());
    const processes = [
      new RedisRequestStateKeys({ client: await redis.nodeRedis(), prefix, rotateEveryMs: 150, keep: 3 }),
      new RedisRequestStateKeys({ client: await redis.ioRedis(), prefix, rotateEveryMs: 150, keep: 3 }),
    ];
    const first = await processes[0]?.current();
    await sleep(40);
    await processes[1]?.current();
    await sleep(900);
    const kept = await entries(commands, prefix);
    expect(kept).toHaveLength(4);
    expect(kept.map(([id]) => id)).not.toContain(first?.id);
    // Each made at least a period after the one before it: one rotation a period, not one per process.
    const times = kept.map(([, madeAt]) => Number(madeAt));
    for (let n = 1; n < times.length; n += 1) expect((times[n - 1] ?? 0) - (times[n] ?? 0)).toBeGreaterThanOrEqual(150);
    const ttl = Number(await commands.command(["PTTL", `${prefix}{request-state}:keys`]));
    expect(ttl > 0 && ttl <= 150 * 5).toBe(true);
    // Stopped, the processes rotate no more; the keys go (period × (keep + 2)) after the last rotation.
    await Promise.all(processes.map((one) => one.close()));
    const stopped = await entries(commands, prefix);
    await sleep(300);
    expect(await entries(commands, prefix)).toEqual(stopped);
    await sleep(500);
    expect(await entries(commands, prefix)).toEqual([]);
  });

  it("reports an automatic rotation that failed, and tries again at the next check", async () => {
    const errors: unknown[] = [];
    const broken: RedisCommands = {
      command: () => Promise.reject(new Error("Redis is away")),
      subscribe: () => Promise.resolve(),
      unsubscribe: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
    const keys = new RedisRequestStateKeys({ client: broken, rotateEveryMs: 200, onError: (error) => errors.push(error) });
    await sleep(110);
    await keys.close();
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect((errors[0] as Error).message).toBe("Redis is away");
    // Without onError, a failure is ignored as quietly.
    const quiet = new RedisRequestStateKeys({ client: broken, rotateEveryMs: 200 });
    await sleep(50);
    await quiet.close();
  });

  it.each([
    [{ keep: -1 }, "RedisRequestStateKeys: keep must be a whole number of keys, 0 or more"],
    [{ keep: 1.5 }, "RedisRequestStateKeys: keep must be a whole number of keys, 0 or more"],
    [{ rotateEveryMs: 0 }, "RedisRequestStateKeys: rotateEveryMs must be a positive whole number of milliseconds"],
    [{ rotateEveryMs: Number.POSITIVE_INFINITY }, "RedisRequestStateKeys: rotateEveryMs must be a positive whole number of milliseconds"],
    [{ prefix: "{" }, "RedisRequestStateKeys: prefix must be a string without { or }"],
  ])("refuses %j", async (options, message) => {
    const client = await redis.nodeRedis();
    expect(() => new RedisRequestStateKeys({ client, ...options })).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message }),
    );
  });

  it("keeps the keys under mcp: when given no prefix", async () => {
    const commands = redisCommands(await redis.ioRedis());
    const keys = new RedisRequestStateKeys({ client: commands });
    const key = await keys.current();
    expect(await entries(commands, "mcp:")).toEqual([[key.id, expect.any(String), Buffer.from(key.secret).toString("hex")]]);
  });
});

const declared = { [META_KEYS.protocolVersion]: "2026-07-28", [META_KEYS.clientCapabilities]: { elicitation: {} } };
const channel = (): RequestChannel => ({ signal: new AbortController().signal, inbound: undefined, notify: () => Promise.resolve() });
let ids = 0;

function serve(name: string, keys: RedisRequestStateKeys): MCPServer {
  const server = new MCPServer({ name, version: "1.0.0" }, { requestState: { keys } });
  server.tool("hello", {}, async (_args, ctx) => {
    const answer = await ctx.elicitInput(
      { message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
      { key: "who" },
    );
    return { content: [{ type: "text", text: `${name} greets ${String(answer.content?.["name"])}` }] };
  });
  return server;
}

async function call(server: MCPServer, params: JsonObject): Promise<JsonObject> {
  const answer = await server.serveStateless(++ids, "tools/call", { name: "hello", arguments: {}, ...params, _meta: declared }, channel());
  if (!("result" in answer)) throw new Error(answer.error.message);
  return answer.result;
}

const answered = (requestState: unknown, name: string): JsonObject => ({
  inputResponses: { who: { action: "accept", content: { name } } },
  requestState,
});

describe("two MCPServers sharing RedisRequestStateKeys", () => {
  it("opens on B a requestState sealed on A, before and after A rotates its key", async () => {
    const prefix = uniquePrefix("servers");
    const keysA = new RedisRequestStateKeys({ client: await redis.nodeRedis(), prefix });
    const a = serve("A", keysA);
    const b = serve("B", new RedisRequestStateKeys({ client: await redis.ioRedis(), prefix }));
    const first = await call(a, {});
    expect(first).toMatchObject({
      resultType: "input_required",
      inputRequests: { who: { method: "elicitation/create" } },
      requestState: expect.any(String),
    });
    expect(await call(b, answered(first["requestState"], "Ann"))).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "B greets Ann" }],
    });
    const sealedBefore = await call(a, {});
    await keysA.rotate();
    const sealedAfter = await call(a, {});
    expect(await call(b, answered(sealedBefore["requestState"], "Bo"))).toMatchObject({ content: [{ type: "text", text: "B greets Bo" }] });
    expect(await call(b, answered(sealedAfter["requestState"], "Cy"))).toMatchObject({ content: [{ type: "text", text: "B greets Cy" }] });
    await Promise.all([a.close(), b.close()]);
  });
});

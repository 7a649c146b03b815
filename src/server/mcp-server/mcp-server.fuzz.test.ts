import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { PROTOCOL_VERSIONS, type ProtocolVersion } from "../../constants/index.js";
import { codecFor } from "../../schemas/codecs.js";
import { REQUEST_SAMPLES } from "../../schemas/samples.test-helpers.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import { MCPServer } from "./mcp-server.js";

/** The session's dispatcher is private API: read its pending counts for the leak checks. */
const pendingOf = (session: object) =>
  (session as { dispatcher: { pendingCount: { outgoing: number; incoming: number } } }).dispatcher.pendingCount;

/** Runs per property: small in `npm test`, `FUZZ_RUNS=<n>` for a longer campaign. */
const runs = (normal: number): number => Number(process.env["FUZZ_RUNS"]) || normal;
const SEED = 0x5eed_0004;

type Answer = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };

/** A server with one of everything, so that every method reaches real code. */
function fullServer(): MCPServer {
  const server = new MCPServer({ name: "fuzzed", version: "1.0.0" }, { pageSize: 2 });
  server.tool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }));
  server.tool("json", { inputSchema: { type: "object", properties: { n: { type: "integer", minimum: 0 } }, required: ["n"] } }, () => ({
    content: [],
  }));
  for (let i = 0; i < 5; i++) server.tool(`t${i}`, {}, () => ({ content: [] }));
  server.resource("readme", "file:///README.md", {}, (uri) => ({ contents: [{ uri, text: "hi" }] }));
  server.resourceTemplate(
    "book",
    "library://books/{id}{?format}",
    { complete: { id: (value) => ["1", "2"].filter((id) => id.startsWith(value)) } },
    (uri, variables) => ({
      contents: [{ uri, text: String(variables["id"]) }],
    }),
  );
  server.prompt("review", { arguments: { topic: { complete: (value) => [value] } } }, ({ topic }) => ({
    messages: [{ role: "user", content: { type: "text", text: String(topic) } }],
  }));
  return server;
}

/** A raw JSON-RPC peer: what it sends goes out verbatim, what it receives is recorded. */
async function rawSession(server: MCPServer, version: ProtocolVersion) {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  const answers: Answer[] = [];
  let wake: (() => void) | undefined;
  await clientEnd.start({
    onMessage: (message) => {
      answers.push(...((Array.isArray(message) ? message : [message]) as Answer[]));
      wake?.();
    },
    onMalformed: () => undefined,
    onClose: () => undefined,
  });
  const session = await server.start(serverEnd);
  const until = async (count: number) => {
    // Bounded: each turn waits for a message or a macrotask, at most 200 turns.
    for (let turn = 0; turn < 200 && answers.length < count; turn++) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 0);
      });
    }
  };
  await clientEnd.send({
    jsonrpc: "2.0",
    id: "init",
    method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "fuzz", version: "1" } },
  });
  await until(1);
  await clientEnd.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { clientEnd, answers, until, session };
}

const clientMethods = [...new Set(PROTOCOL_VERSIONS.flatMap((version) => Object.keys(codecFor(version).clientRequests)))];
const anyJson = fc.jsonValue({ maxDepth: 3 });

/** Params: a valid sample, a valid sample with one member replaced or removed, or anything at all. */
function paramsFor(method: string): fc.Arbitrary<unknown> {
  const valid = (REQUEST_SAMPLES[method]?.params.valid ?? []).map(([, value]) => value).filter((value) => value !== undefined);
  const seeds = valid.length > 0 ? fc.constantFrom(...valid) : fc.constant({});
  const mutated = fc.tuple(seeds, fc.string({ maxLength: 8 }), fc.option(anyJson, { nil: undefined })).map(([seed, key, value]) => {
    if (typeof seed !== "object" || seed === null) return seed;
    const keys = Object.keys(seed);
    const target = keys.length > 0 && key.length % 2 === 0 ? keys[key.length % keys.length]! : key;
    return JSON.parse(JSON.stringify({ ...seed, [target]: value })) as unknown;
  });
  return fc.oneof(seeds, mutated, mutated, fc.dictionary(fc.string({ maxLength: 6 }), anyJson, { maxKeys: 4 }), anyJson);
}

const call = fc.constantFrom(...clientMethods, "nope/method").chain((method) => fc.tuple(fc.constant(method), paramsFor(method)));

describe("MCPServer under fuzzing: every method's params", () => {
  for (const version of PROTOCOL_VERSIONS) {
    it(`answers every request once, never with an internal error, and keeps serving (${version})`, async () => {
      const server = fullServer();
      const { clientEnd, answers, until, session } = await rawSession(server, version);
      const codec = codecFor(version);
      let sent = answers.length;
      await fc.assert(
        fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 6 }), async (calls) => {
          const ids = calls.map((_, index) => `q${sent + index}`);
          for (const [index, [method, params]] of calls.entries()) {
            await clientEnd.send(
              params === undefined ? { jsonrpc: "2.0", id: ids[index], method } : { jsonrpc: "2.0", id: ids[index], method, params },
            );
          }
          sent += calls.length;
          await until(sent);
          for (const [index, [method, params]] of calls.entries()) {
            const mine = answers.filter((answer) => answer.id === ids[index]);
            expect(mine).toHaveLength(1);
            const error = mine[0]?.error;
            if (error === undefined) continue;
            // A client-to-server method this revision has not: -32601; malformed params: -32602;
            // an unknown name or URI: -32602 or -32002. Never -32603, which would mean a crash on input.
            const envelopeOk = params === undefined || (typeof params === "object" && params !== null && !Array.isArray(params));
            const known = method in codec.clientRequests;
            // A second initialize is refused as an invalid request.
            const allowed = !envelopeOk
              ? [-32600]
              : method === "initialize"
                ? [-32600, -32602]
                : known
                  ? [-32602, -32002, -32601]
                  : [-32601];
            expect(allowed).toContain(error.code);
            expect(error.code).not.toBe(-32603);
          }
        }),
        { numRuns: runs(60), seed: SEED + version.length + PROTOCOL_VERSIONS.indexOf(version) },
      );
      // Still serving, and nothing left in flight.
      await clientEnd.send({ jsonrpc: "2.0", id: "last", method: "ping" });
      await until(sent + 1);
      expect(answers.at(-1)).toEqual({ jsonrpc: "2.0", id: "last", result: {} });
      expect(pendingOf(session)).toEqual({ outgoing: 0, incoming: 0 });
      await clientEnd.close();
      expect(server.sessions.size).toBe(0);
    });
  }
});

describe("pagination cursors under fuzzing", () => {
  it("any cursor string is a page or -32602, never a crash; every issued cursor walks the list once", async () => {
    const server = fullServer();
    const { clientEnd, answers, until } = await rawSession(server, "2025-06-18");
    let sent = answers.length;
    const cursor = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.string({ maxLength: 10 }).map((tail) => `c1.${tail}`),
      fc.nat().map((n) => `c1.${n.toString(36)}`),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("tools/list", "resources/list", "prompts/list", "resources/templates/list"),
        cursor,
        async (method, text) => {
          const id = `p${sent}`;
          await clientEnd.send({ jsonrpc: "2.0", id, method, params: { cursor: text } });
          sent += 1;
          await until(sent);
          const mine = answers.filter((answer) => answer.id === id);
          expect(mine).toHaveLength(1);
          expect(mine[0]?.error?.code ?? typeof mine[0]?.result).toBe(mine[0]?.error ? -32602 : "object");
        },
      ),
      { numRuns: runs(200), seed: SEED + 10 },
    );
    // Walking with the cursors the server issues yields each tool exactly once.
    const names: string[] = [];
    let next: unknown;
    for (let page = 0; page < 10; page++) {
      const id = `walk${page}`;
      await clientEnd.send({ jsonrpc: "2.0", id, method: "tools/list", params: next === undefined ? {} : { cursor: next } });
      sent += 1;
      await until(sent);
      const result = answers.find((answer) => answer.id === id)?.result as { tools: Array<{ name: string }>; nextCursor?: string };
      names.push(...result.tools.map((tool) => tool.name));
      next = result.nextCursor;
      if (next === undefined) break;
    }
    expect(names).toEqual(["echo", "json", "t0", "t1", "t2", "t3", "t4"]);
  });
});

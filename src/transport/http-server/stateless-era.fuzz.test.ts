import * as fc from "fast-check";
import { afterAll, beforeEach, describe, expect, it } from "vitest";

import { META_KEYS } from "../../constants/index.js";
import { encodeHeaderValue } from "../../protocol/mcp-headers.js";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import { STATELESS_VERSION, URL_2026, messagesIn, meta } from "../../server/stateless/stateless.test-helpers.js";
import { SseReader } from "./http-server.test-helpers.js";
import { streamableHttpHandler } from "./streamable-handler.js";

// Malformed 2026-07-28 POSTs, mutated from valid ones: each is answered (never a 5xx, never a throw,
// never a hang) with a JSON-RPC error body on a 4xx or a JSON-RPC response on a 200, and the handler
// serves the next valid request as before.

/** Runs per property: small in `npm test`, `FUZZ_RUNS=<n>` for a longer campaign. */
const runs = (normal: number): number => Number(process.env["FUZZ_RUNS"]) || normal;
const SEED = 0x5eed_2026;

type Json = Record<string, unknown>;

function fuzzServer(): MCPServer {
  const server = new MCPServer({ name: "fuzz", version: "1" });
  const properties = { text: { type: "string", "x-mcp-header": "Text" }, count: { type: "integer", "x-mcp-header": "Count" } };
  server.tool("echo", { description: "echoes", inputSchema: { type: "object", properties } }, (args) => ({
    content: [{ type: "text", text: `${String(args["text"])} ${String(args["count"])}` }],
  }));
  server.tool("ask", { description: "asks for a name" }, async (_args, ctx) => {
    const answer = await ctx.elicitInput(
      { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
      { key: "name" },
    );
    return { content: [{ type: "text", text: `${answer.action} ${JSON.stringify(answer.content)}` }] };
  });
  server.resource("readme", "test://readme", { mimeType: "text/plain" }, (uri) => ({ contents: [{ uri, text: "hello" }] }));
  server.prompt(
    "greet",
    { arguments: { name: { complete: (value) => ["Ada", "Alan"].filter((name) => name.startsWith(value)) } } },
    ({ name }) => ({
      messages: [{ role: "user", content: { type: "text", text: `hi ${name}` } }],
    }),
  );
  return server;
}

const handler = streamableHttpHandler(fuzzServer());
afterAll(() => handler.close());

/** The valid requests the mutations start from (without `_meta`, which `withMeta` adds). */
const BASES: readonly { readonly method: string; readonly params: Json }[] = [
  { method: "server/discover", params: {} },
  { method: "tools/list", params: {} },
  { method: "tools/call", params: { name: "echo", arguments: { text: "hi", count: 3 } } },
  { method: "tools/call", params: { name: "ask", arguments: {} } },
  { method: "resources/list", params: {} },
  { method: "resources/templates/list", params: {} },
  { method: "resources/read", params: { uri: "test://readme" } },
  { method: "prompts/list", params: {} },
  { method: "prompts/get", params: { name: "greet", arguments: { name: "Ada" } } },
  { method: "completion/complete", params: { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "A" } } },
];
const KNOWN_METHODS = new Set([...BASES.map((base) => base.method), "subscriptions/listen"]);

function withMeta(params: Json): Json {
  return { ...params, _meta: meta({ capabilities: { elicitation: { form: {} } } }) };
}

/** The headers a 2026-07-28 client sends with `message`, `Mcp-Param-*` of echo included. */
function headersOf(message: Json): Record<string, string> {
  const params = message["params"] as Json;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": STATELESS_VERSION,
  };
  headers["mcp-method"] = message["method"] as string;
  const name = message["method"] === "resources/read" ? params["uri"] : params["name"];
  if (typeof name === "string" && ["tools/call", "prompts/get", "resources/read"].includes(message["method"] as string))
    headers["mcp-name"] = encodeHeaderValue(name);
  const args = params["arguments"] as Json | undefined;
  if (params["name"] === "echo" && args)
    Object.assign(headers, { "mcp-param-text": encodeHeaderValue(String(args["text"])), "mcp-param-count": String(args["count"]) });
  return headers;
}

interface Posted {
  readonly body: string;
  readonly headers: Record<string, string>;
}

function post({ body, headers }: Posted): Request {
  return new Request(URL_2026, { method: "POST", headers, body });
}

/** What came back: the status, and each JSON-RPC message of the body (one for JSON, each event's for SSE). */
async function exchange(posted: Posted): Promise<{ status: number; type: string | null; messages: Json[] }> {
  const response = await handler.fetch(post(posted));
  return { status: response.status, type: response.headers.get("content-type"), messages: await messagesIn(response) };
}

/** The id a server can read off a body: that of one JSON object, when a string or an integer. */
function readableId(body: string): string | number | undefined {
  try {
    const value: unknown = JSON.parse(body);
    const id = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json)["id"] : undefined;
    return typeof id === "string" || Number.isInteger(id) ? (id as string | number) : undefined;
  } catch {
    return undefined;
  }
}

const STATUSES = [200, 202, 400, 404];

/** What an answer ended with: its error's code, or its result's resultType ("-" for neither). */
function outcomeOf(last: Json | undefined): number | string {
  const error = last?.["error"] as { code: number } | undefined;
  const result = last?.["result"] as { resultType: string } | undefined;
  return error?.code ?? result?.resultType ?? "-";
}

/** The outcomes the fuzzed requests met ("status outcome"), so a property can show it reached them. */
const seen = new Set<string>();

interface Answer {
  readonly status: number;
  readonly last: Json | undefined;
  /** The error code or resultType of the answer. */
  readonly outcome: number | string;
}

/**
 * The properties every answer has: a known status; 202 only for a body without a request id, and
 * then no body; otherwise JSON-RPC messages, the last one the answer with the request's id (null
 * when it has none a server could read) and an error or a result with its resultType; on a 4xx, one
 * JSON error.
 */
async function answered(posted: Posted): Promise<Answer> {
  const { status, type, messages } = await exchange(posted);
  const last = messages.at(-1);
  const outcome = outcomeOf(last);
  seen.add(`${status} ${outcome}`);
  const id = readableId(posted.body);
  expect(STATUSES).toContain(status);
  expect(status === 202).toBe(messages.length === 0);
  expect(status === 202 ? id : undefined).toBeUndefined();
  expect(messages.every((message) => message["jsonrpc"] === "2.0")).toBe(true);
  const errorMessage = (last?.["error"] as { message?: unknown } | undefined)?.message;
  expect(
    status >= 400 ? [type, messages.length, typeof outcome, typeof errorMessage] : ["application/json", 1, "number", "string"],
  ).toEqual(["application/json", 1, "number", "string"]);
  // The answer: the request's id (null for none a server could read), and an error code or a resultType.
  expect(status === 202 ? null : last && "id" in last ? last["id"] : "no id").toBe(status === 202 ? null : (id ?? null));
  expect(status === 202 ? "202" : outcome).not.toBe("-");
  return { status, last, outcome };
}

let alive = 0;
/** The handler still serves a valid request exactly. */
async function stillServes(): Promise<void> {
  alive++;
  const message = {
    jsonrpc: "2.0",
    id: `alive-${alive}`,
    method: "tools/call",
    params: withMeta({ name: "echo", arguments: { text: "still", count: alive } }),
  };
  const { status, messages } = await exchange({ body: JSON.stringify(message), headers: headersOf(message) });
  expect([status, messages]).toEqual([
    200,
    [
      {
        jsonrpc: "2.0",
        id: `alive-${alive}`,
        result: {
          content: [{ type: "text", text: `still ${alive}` }],
          resultType: "complete",
          _meta: { [META_KEYS.serverInfo]: { name: "fuzz", version: "1" } },
        },
      },
    ],
  ]);
}

const anyJson = fc.jsonValue({ maxDepth: 3 });
const awkwardKey = fc.oneof(fc.constantFrom("__proto__", "constructor", "toString", "", "_meta", "id"), fc.string({ maxLength: 8 }));
const anyObject = fc.dictionary(awkwardKey, anyJson, { maxKeys: 4 });
const id = fc.oneof(fc.integer(), fc.string({ maxLength: 6 }));
const base = fc.constantFrom(...BASES);
const messageOf = ([requestId, { method, params }]: [string | number, (typeof BASES)[number]]) => ({
  jsonrpc: "2.0",
  id: requestId,
  method,
  params: withMeta(params),
});
const validMessage = fc.tuple(id, base).map(messageOf);
/** A call of the tool that asks for input, whose answer depends on the capabilities in `_meta`. */
const askMessage = fc.tuple(id, fc.constant(BASES[3] as (typeof BASES)[number])).map(messageOf);

/** Text a header may carry (Request refuses NUL, CR, LF and anything above U+00FF). */
const latin1 = fc.string({
  unit: fc
    .integer({ min: 1, max: 0xff })
    .filter((code) => code !== 10 && code !== 13)
    .map((code) => String.fromCharCode(code)),
  maxLength: 24,
});
const base64Of = (text: string): string => btoa(String.fromCharCode(...new TextEncoder().encode(text)));
const headerValue = fc.oneof(
  latin1,
  fc.string({ maxLength: 12 }).map((text) => `=?base64?${base64Of(text)}?=`),
  latin1.map((text) => `=?base64?${text}?=`),
  fc.constantFrom(
    "=?base64?=",
    "=?base64??=",
    "=?base64?/w==?=",
    "=?base64?AA?=",
    "2026-07-28",
    "2025-11-25",
    "tools/call",
    "echo",
    "ask",
    "42",
    "-0",
    "4.0",
  ),
);
const MCP_HEADER_NAMES = ["mcp-protocol-version", "mcp-method", "mcp-name", "mcp-param-text", "mcp-param-count", "mcp-param-other"];

function mutateMeta(message: Json, key: string, replacement: unknown): Json {
  const params = message["params"] as Json;
  const written = { ...(params["_meta"] as Json) };
  if (replacement === undefined) delete written[key];
  else written[key] = replacement;
  return { ...message, params: { ...params, _meta: written } };
}

const META_FIELDS = [
  META_KEYS.protocolVersion,
  META_KEYS.clientCapabilities,
  META_KEYS.clientInfo,
  META_KEYS.logLevel,
  "progressToken",
  "other",
];

/** A listen answer: a refusal's JSON, or the stream's first message (the stream is left at once: it stays open until the client goes). */
async function listenOutcome(response: Response): Promise<{ status: number; first: Json | undefined; honoured: Json }> {
  if (response.status !== 200) return { status: response.status, first: (await response.json()) as Json, honoured: {} };
  const stream = new SseReader(response.body);
  const first = await stream.nextMessage();
  await stream.cancel();
  return { status: 200, first, honoured: ((first?.["params"] as Json | undefined)?.["notifications"] ?? {}) as Json };
}

/** What an answer is compared by: the status, and the last message with the sealed requestState blanked (it changes with every sealing). */
function comparable({ status, last }: Answer): unknown {
  return [status, JSON.parse(JSON.stringify(last ?? null).replace(/"requestState":"[^"]*"/g, '"requestState":"sealed"'))];
}

/** The answer as a refusal: its status and error code (any answer that is not one fails a comparison with a refusal). */
function refusal({ status, outcome }: Answer): [number, number | string] {
  return [status, outcome];
}

describe("Streamable HTTP, 2026-07-28, under fuzzing: mutated POSTs", () => {
  beforeEach(() => seen.clear());

  it("answers a request whose _meta lost or changed a key like the valid one, or with 400 and -32602/-32020/-32021/-32022", async () => {
    // Beside any JSON, values a client could plausibly get wrong.
    const plausible = fc.constantFrom(
      "2025-11-25",
      "2026-07-29",
      "",
      {},
      { sampling: {} },
      { name: "x" },
      { name: "x", version: 1 },
      "debug",
      "loud",
      7,
      "token",
    );
    const replacement = fc.option(fc.oneof(anyJson, plausible), { nil: undefined });
    const refused = [400, expect.toBeOneOf([-32602, -32020, -32021, -32022])];
    // Mostly one key of `_meta` changed; sometimes `_meta` itself replaced.
    const wholeMetaOrNot = fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, { arbitrary: anyJson, weight: 1 });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(validMessage, askMessage),
        fc.constantFrom(...META_FIELDS, META_KEYS.clientCapabilities),
        replacement,
        wholeMetaOrNot,
        async (message, key, replaced, wholeMeta) => {
          const mutated =
            wholeMeta === undefined ? mutateMeta(message, key, replaced) : { ...message, params: { ...message.params, _meta: wholeMeta } };
          const valid = await answered({ body: JSON.stringify(message), headers: headersOf(message) });
          const answer = await answered({ body: JSON.stringify(mutated), headers: headersOf(message) });
          expect(answer.status === 200 ? comparable(answer) : refusal(answer)).toEqual(answer.status === 200 ? comparable(valid) : refused);
          await stillServes();
        },
      ),
      { numRuns: runs(200), seed: SEED },
    );
    expect([...seen]).toEqual(expect.arrayContaining(["200 complete", "200 input_required", "400 -32602", "400 -32020", "400 -32021"]));
  });

  it("answers a dropped, changed or added Mcp-* header like the valid request or with 400 -32020 (always for a needed one)", async () => {
    const change = fc.oneof(
      fc.constant({ kind: "drop" as const }),
      headerValue.map((value) => ({ kind: "set" as const, value })),
      fc.constant({ kind: "suffix" as const }),
    );
    await fc.assert(
      fc.asyncProperty(validMessage, fc.constantFrom(...MCP_HEADER_NAMES), change, async (message, name, how) => {
        const headers = headersOf(message);
        const original = headers[name];
        if (how.kind === "drop") delete headers[name];
        else headers[name] = how.kind === "set" ? how.value : `${original ?? ""}x`;
        const valid = await answered({ body: JSON.stringify(message), headers: headersOf(message) });
        const answer = await answered({ body: JSON.stringify(message), headers });
        const refused = answer.status !== 200 || (original !== undefined && how.kind !== "set");
        expect(refused ? refusal(answer) : comparable(answer)).toEqual(refused ? [400, -32020] : comparable(valid));
        await stillServes();
      }),
      { numRuns: runs(200), seed: SEED + 1 },
    );
    expect([...seen]).toEqual(expect.arrayContaining(["200 complete", "400 -32020"]));
  });

  it("opens only the requestState it sealed, for that request (else 400, -32602); the handler ends only on a valid answer", async () => {
    const ask = { jsonrpc: "2.0", id: "first", method: "tools/call", params: withMeta({ name: "ask", arguments: {} }) };
    const genuine = ((await answered({ body: JSON.stringify(ask), headers: headersOf(ask) })).last?.["result"] as Json | undefined)?.[
      "requestState"
    ] as string;
    expect(genuine).toMatch(/^v1\./);
    const flipped = fc.nat().map((at) => {
      const index = at % genuine.length;
      return `${genuine.slice(0, index)}${genuine[index] === "A" ? "B" : "A"}${genuine.slice(index + 1)}`;
    });
    const forged = fc
      .tuple(fc.string({ maxLength: 6 }), fc.base64String({ maxLength: 24 }), fc.base64String({ maxLength: 44 }))
      .map(([key, payload, mac]) => `v1.${key}.${payload}.${mac}`);
    const state = fc.oneof(anyJson, forged, flipped, fc.constant(genuine));
    const accepted = { action: "accept", content: { name: "Ada" } };
    const responses = fc.oneof(
      anyJson,
      fc.dictionary(fc.constantFrom("name", "other", "__proto__"), fc.oneof(anyJson, fc.constant(accepted)), { maxKeys: 2 }),
    );
    const pending = expect.toBeOneOf(["input_required", -32602]);
    let completed = 0;
    await fc.assert(
      fc.asyncProperty(
        id,
        base,
        fc.option(responses, { nil: undefined }),
        fc.option(state, { nil: undefined }),
        async (requestId, { method, params }, inputResponses, requestState) => {
          const added: Json = {};
          if (inputResponses !== undefined) added["inputResponses"] = inputResponses;
          if (requestState !== undefined) added["requestState"] = requestState;
          const message = { jsonrpc: "2.0", id: requestId, method, params: withMeta({ ...params, ...added }) };
          const answer = await answered({ body: JSON.stringify(message), headers: headersOf(message) });
          const isAsk = params["name"] === "ask";
          const foreign =
            ["tools/call", "prompts/get", "resources/read"].includes(method) &&
            requestState !== undefined &&
            !(isAsk && requestState === genuine);
          expect(foreign ? refusal(answer) : [400, -32602]).toEqual([400, -32602]);
          // Any error is -32602; ask answers input_required until it has a valid answer, and then makes its text of that answer.
          expect(typeof answer.outcome === "number" ? answer.outcome : -32602).toBe(-32602);
          const given = (inputResponses as Record<string, { action: string; content?: unknown }> | undefined)?.["name"];
          const done = isAsk && answer.outcome === "complete";
          completed += done ? 1 : 0;
          const text = ((answer.last?.["result"] as Json | undefined)?.["content"] as { text: string }[] | undefined)?.[0]?.text;
          expect(done ? text : isAsk ? answer.outcome : "any").toEqual(
            done ? `${given?.action} ${JSON.stringify(given?.content)}` : isAsk ? pending : "any",
          );
          await stillServes();
        },
      ),
      { numRuns: runs(200), seed: SEED + 2 },
    );
    expect(completed).toBeGreaterThan(0);
  });

  it("answers an unknown method with 404 and -32601, changed params or jsonrpc with 400, a dropped id with 202", async () => {
    const printable = fc.string({
      unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)),
      minLength: 1,
      maxLength: 20,
    });
    const method = fc.oneof(
      printable,
      fc.constantFrom(
        "ping",
        "initialize",
        "logging/setLevel",
        "resources/subscribe",
        "tasks/result",
        "tasks/list",
        "notifications/initialized",
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        validMessage,
        method,
        anyJson,
        fc.constantFrom("method", "id", "jsonrpc", "params", "drop id"),
        async (message, name, replacement, field) => {
          const mutated: Json = { ...message };
          if (field === "drop id") delete mutated["id"];
          else mutated[field] = field === "method" ? name : replacement;
          const headers = { ...headersOf(message), "mcp-method": field === "method" ? name : message.method };
          const answer = await answered({ body: JSON.stringify(mutated), headers });
          const expected = {
            method: KNOWN_METHODS.has(name) ? "any" : [404, -32601],
            params: [400, expect.toBeOneOf([-32600, -32602])],
            jsonrpc: [400, -32600],
            "drop id": [202, "-"],
            id: "any",
          }[field];
          expect(expected === "any" ? "any" : refusal(answer)).toEqual(expected);
          await stillServes();
        },
      ),
      { numRuns: runs(200), seed: SEED + 3 },
    );
    expect([...seen]).toEqual(expect.arrayContaining(["202 -", "404 -32601", "400 -32600"]));
  });

  it("opens a listen stream, acknowledging no more than was asked, or refuses a malformed filter with 400 and -32602", async () => {
    const flag = fc.oneof(fc.boolean(), anyJson);
    const filter = fc.oneof(
      fc.record(
        {
          toolsListChanged: flag,
          promptsListChanged: flag,
          resourcesListChanged: flag,
          resourceSubscriptions: fc.oneof(fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }), anyJson),
        },
        { requiredKeys: [] },
      ),
      anyObject,
      anyJson,
    );
    const outcomes = { opened: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(id, fc.option(filter, { nil: undefined }), async (requestId, notifications) => {
        const message = {
          jsonrpc: "2.0",
          id: requestId,
          method: "subscriptions/listen",
          params: withMeta(notifications === undefined ? {} : { notifications }),
        };
        const response = await handler.fetch(post({ body: JSON.stringify(message), headers: headersOf(message) }));
        const heard = await listenOutcome(response);
        const asked = (notifications ?? {}) as Json;
        // What the acknowledgement honours was asked for: the same flag, the same uris without repeats.
        const honouredAsAsked = Object.fromEntries(
          Object.keys(heard.honoured).map((key) => [
            key,
            key === "resourceSubscriptions" ? [...new Set(asked[key] as string[])] : asked[key],
          ]),
        );
        const refused = {
          status: 400,
          first: { jsonrpc: "2.0", id: requestId, error: expect.objectContaining({ code: -32602 }) as Json },
          honoured: {},
        };
        const acknowledged = {
          method: "notifications/subscriptions/acknowledged",
          params: { notifications: honouredAsAsked, _meta: { [META_KEYS.subscriptionId]: requestId } },
        };
        expect(heard).toEqual(
          heard.status === 200 ? { status: 200, first: { jsonrpc: "2.0", ...acknowledged }, honoured: honouredAsAsked } : refused,
        );
        outcomes[heard.status === 200 ? "opened" : "refused"]++;
        await stillServes();
      }),
      { numRuns: runs(100), seed: SEED + 5 },
    );
    expect(outcomes.opened * outcomes.refused).toBeGreaterThan(0);
  });

  it("refuses a body not one JSON-RPC request: truncated JSON (-32700), array, string, number, null (-32600), with id null", async () => {
    const shapes = fc.oneof(
      fc
        .tuple(validMessage, fc.nat())
        .map(([message, cut]) => ({ kind: "truncated", body: JSON.stringify(message).slice(0, cut % JSON.stringify(message).length) })),
      fc.array(fc.oneof(validMessage, anyJson), { maxLength: 3 }).map((values) => ({ kind: "array", body: JSON.stringify(values) })),
      fc
        .oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null))
        .map((value) => ({ kind: "scalar", body: JSON.stringify(value) })),
    );
    await fc.assert(
      fc.asyncProperty(shapes, validMessage, async ({ kind, body }, message) => {
        const { status, last } = await answered({ body, headers: headersOf(message) });
        expect([status, last]).toEqual([
          400,
          { jsonrpc: "2.0", id: null, error: { code: kind === "truncated" ? -32700 : -32600, message: expect.any(String) as string } },
        ]);
        await stillServes();
      }),
      { numRuns: runs(200), seed: SEED + 4 },
    );
  });
});

import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classify, describeInvalid, idOfInvalid, type MessageKind } from "./classify.js";
import { scriptedDispatcher, settle } from "./dispatcher.test-helpers.js";

/** Runs per property: small in `npm test`, `FUZZ_RUNS=<n>` for a longer campaign. */
const runs = (normal: number): number => Number(process.env["FUZZ_RUNS"]) || normal;
const SEED = 0x5eed_0003;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value: unknown) => typeof value === "string" || (typeof value === "number" && Number.isInteger(value));

/** JSON-RPC 2.0 as MCP restricts it (ids never null, params an object), written from the spec text. */
function referenceKind(value: unknown): MessageKind {
  if (!isObject(value) || value["jsonrpc"] !== "2.0") return "invalid";
  const has = (key: string) => Object.prototype.hasOwnProperty.call(value, key);
  if (has("method")) {
    const paramsOk = value["params"] === undefined || isObject(value["params"]);
    if (typeof value["method"] !== "string" || !paramsOk) return "invalid";
    if (value["id"] === undefined) return "notification";
    return isId(value["id"]) ? "request" : "invalid";
  }
  if (has("result")) return isId(value["id"]) && isObject(value["result"]) ? "response" : "invalid";
  if (has("error")) {
    const error = value["error"];
    const errorOk =
      isObject(error) && typeof error["code"] === "number" && Number.isInteger(error["code"]) && typeof error["message"] === "string";
    return errorOk && (isId(value["id"]) || value["id"] === null) ? "error-response" : "invalid";
  }
  return "invalid";
}

/** Whether the dispatcher owes an answer to this message. */
const answered = (message: unknown) => ["request", "invalid"].includes(referenceKind(message));
const unique = (message: unknown, key: string) => (referenceKind(message) === "request" ? { ...(message as object), id: key } : message);

/** Values that are almost JSON-RPC messages: each member drawn from good and bad shapes. */
const anyJson = fc.jsonValue({ maxDepth: 3 });
const idLike = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 4 }),
  fc.constant(null),
  fc.double(),
  fc.boolean(),
  fc.constant(undefined),
  anyJson,
);
const envelope = fc
  .record(
    {
      jsonrpc: fc.oneof(fc.constant("2.0"), fc.constant("2.0"), fc.constant("1.0"), fc.constant(2), anyJson),
      id: idLike,
      method: fc.oneof(
        fc.constantFrom("echo", "nope", "notifications/cancelled", "notifications/progress", "__proto__", "constructor"),
        anyJson,
      ),
      params: fc.oneof(fc.constant(undefined), fc.dictionary(fc.string({ maxLength: 4 }), anyJson, { maxKeys: 3 }), anyJson),
      result: fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), anyJson, { maxKeys: 2 }), anyJson),
      error: fc.oneof(
        fc.record({ code: fc.oneof(fc.integer(), fc.double()), message: fc.oneof(fc.string(), anyJson) }, { requiredKeys: [] }),
        anyJson,
      ),
    },
    { requiredKeys: [] },
  )
  .map((record) => JSON.parse(JSON.stringify(record)) as unknown); // as it arrives off the wire: undefined members gone
const wireValue = fc.oneof({ weight: 4, arbitrary: envelope }, { weight: 1, arbitrary: anyJson });

describe("envelope classifier under fuzzing", () => {
  it("agrees with the JSON-RPC rules on every value and never throws explaining a rejection", () => {
    fc.assert(
      fc.property(wireValue, (value) => {
        const kind = classify(value);
        expect(kind).toBe(referenceKind(value));
        // Only called on the invalid path, but must not throw on any value.
        expect(describeInvalid(value)).toMatch(/\S/);
        const id = idOfInvalid(value);
        expect(id === null || isId(id)).toBe(true);
      }),
      { numRuns: runs(3000), seed: SEED },
    );
  });
});

describe("dispatcher under fuzzing: exactly one answer per parseable request", () => {
  it("answers each request once with the right code, nothing for notifications and responses, and keeps serving", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(wireValue, { minLength: 1, maxLength: 12 }), fc.boolean(), async (messages, asBatch) => {
        const { dispatcher, peer } = await scriptedDispatcher({ protocolVersion: "2025-03-26" }); // the revision with batches
        dispatcher.setRequestHandler("echo", async (params) => ({ echoed: params ?? null }));
        // Ids of requests are made unique so that each one's answer can be told apart.
        // A top-level array is a batch; inside a batch, an array is just an invalid element.
        const sent = messages.map((message, index) =>
          Array.isArray(message) ? message.map((inner, at) => unique(inner, `r${index}.${at}`)) : unique(message, `r${index}`),
        );
        if (asBatch) peer.deliver(sent);
        else for (const message of sent) peer.deliver(message);
        await settle(50);

        const expected = new Map<string, number>();
        let invalids = 0;
        const expect1 = (message: unknown) => {
          const kind = referenceKind(message);
          if (kind === "invalid") invalids += 1;
          if (kind !== "request") return;
          const { id, method } = message as { id: string; method: string };
          expected.set(id, method === "echo" ? 0 : -32601);
        };
        if (asBatch) sent.forEach(expect1);
        for (const message of asBatch ? [] : sent) {
          if (!Array.isArray(message)) expect1(message);
          else if (message.length === 0)
            invalids += 1; // an empty batch
          else message.forEach(expect1);
        }
        const flat = peer.sent.flat() as Array<{ id: unknown; result?: unknown; error?: { code: number } }>;
        // A batch is answered with one batch (or nothing); single messages one by one.
        const frames = sent.filter((message) =>
          Array.isArray(message) ? message.length === 0 || message.some(answered) : answered(message),
        ).length;
        expect(peer.sent.length).toBe(asBatch ? (expected.size + invalids > 0 ? 1 : 0) : frames);
        expect(flat.length).toBe(expected.size + invalids);
        for (const [id, code] of expected) {
          const answers = flat.filter((answer) => answer.id === id);
          expect(answers).toHaveLength(1);
          expect(answers[0]?.error?.code ?? 0).toBe(code);
        }
        expect(flat.filter((answer) => answer.error?.code === -32600)).toHaveLength(invalids);
        expect(dispatcher.pendingCount).toEqual({ outgoing: 0, incoming: 0 });

        // The connection still serves the next valid message.
        const before = peer.sent.length;
        peer.deliver({ jsonrpc: "2.0", id: "after", method: "echo", params: { n: 1 } });
        await peer.waitForSent(before + 1);
        expect(peer.sent[before]).toEqual({ jsonrpc: "2.0", id: "after", result: { echoed: { n: 1 } } });
        await dispatcher.close();
      }),
      { numRuns: runs(300), seed: SEED + 1 },
    );
  });
});

import { isDeepStrictEqual } from "node:util";
import * as fc from "fast-check";
import * as zc from "zod";
import * as z from "zod/mini";
import { describe, expect, it } from "vitest";

import { CODECS } from "./codecs.js";
import { INVALID, precheckOf, UNKNOWN, VALID, type Verdict } from "./precheck.js";
import { NOTIFICATION_SAMPLES_2026, REQUEST_SAMPLES_2026 } from "./samples-2026.test-helpers.js";
import { NOTIFICATION_SAMPLES, REQUEST_SAMPLES } from "./samples.test-helpers.js";

/** Runs per property: small in `npm test`, `FUZZ_RUNS=<n>` for a longer campaign. */
const runs = (normal: number): number => Number(process.env["FUZZ_RUNS"]) || normal;
const SEED = 20261130;

/** Every params and result schema of every revision, labelled. */
const WIRE_SCHEMAS: readonly (readonly [string, z.core.$ZodType])[] = Object.entries(CODECS).flatMap(([version, codec]) => [
  ...Object.entries({ ...codec.clientRequests, ...codec.serverRequests }).flatMap(([method, pair]) => [
    [`${version} ${method} params`, pair.params] as const,
    [`${version} ${method} result`, pair.result] as const,
  ]),
  ...Object.entries({ ...codec.clientNotifications, ...codec.serverNotifications }).map(
    ([method, schema]) => [`${version} ${method}`, schema] as const,
  ),
]);

const SAMPLE_VALUES: readonly unknown[] = [
  ...[REQUEST_SAMPLES, REQUEST_SAMPLES_2026]
    .flatMap((samples) => Object.values(samples))
    .flatMap(({ params, result }) => [...params.valid, ...params.invalid, ...result.valid, ...result.invalid]),
  ...[NOTIFICATION_SAMPLES, NOTIFICATION_SAMPLES_2026]
    .flatMap((samples) => Object.values(samples))
    .flatMap(({ valid, invalid }) => [...valid, ...invalid]),
].map(([, value]) => value);

const vouches = (schema: z.core.$ZodType, value: unknown): Verdict => precheckOf(schema, z.safeParse)(value);

/** The contract: VALID means zod accepts and returns an equal value; INVALID means zod refuses. */
function expectAgreement(schema: z.core.$ZodType, value: unknown): Verdict {
  const verdict = precheckOf(schema, z.safeParse)(value);
  const parsed = z.safeParse(schema, value, { jitless: true });
  const agrees = verdict === UNKNOWN || (verdict === VALID ? parsed.success && isDeepStrictEqual(parsed.data, value) : !parsed.success);
  expect(agrees, `pre-check said ${verdict}, zod said ${JSON.stringify(parsed.success ? parsed.data : parsed.error.issues)}`).toBe(true);
  return verdict;
}

/** A JSON value grown from a sample: keys dropped, values swapped for arbitrary JSON, keys added. */
const mutatedSample = fc
  .tuple(fc.constantFrom(...SAMPLE_VALUES), fc.jsonValue({ maxDepth: 2 }), fc.nat(), fc.string({ maxLength: 6 }))
  .map(([sample, noise, pick, key]) => {
    if (typeof sample !== "object" || sample === null || Array.isArray(sample)) return noise;
    const copy: Record<string, unknown> = { ...(sample as Record<string, unknown>) };
    const keys = Object.keys(copy);
    const target = keys.length === 0 ? key : (keys[pick % keys.length] as string);
    switch (pick % 3) {
      case 0:
        delete copy[target];
        break;
      case 1:
        copy[target] = noise;
        break;
      default:
        copy[key] = noise;
    }
    return copy;
  });

describe("precheckOf on the wire schemas", () => {
  it("agrees with zod on every sample fed to every schema of every revision", () => {
    const verdicts = [0, 0, 0];
    for (const [, schema] of WIRE_SCHEMAS) for (const value of SAMPLE_VALUES) verdicts[expectAgreement(schema, value)]! += 1;
    // Each verdict is actually reached: the pre-check vouches for a share of the values and refuses others.
    expect(verdicts.every((count) => count > 0)).toBe(true);
    // Every schema of every revision against every sample: seconds of CPU, more on a busy machine.
  }, 30_000);

  it("vouches for the valid samples of each method (they skip zod), the rare shape aside", () => {
    const latest = CODECS["2025-11-25"];
    let vouched = 0;
    let total = 0;
    for (const [method, { params, result }] of Object.entries(REQUEST_SAMPLES)) {
      const pair = latest.clientRequests[method] ?? latest.serverRequests[method];
      if (!pair) continue;
      const verdicts = [
        ...params.valid.map(([, value]) => expectAgreement(pair.params, value)),
        ...result.valid.map(([, value]) => expectAgreement(pair.result, value)),
      ];
      total += verdicts.length;
      vouched += verdicts.filter((verdict) => verdict === VALID).length;
    }
    expect(vouched / total).toBeGreaterThan(0.8);
  });

  it("vouches for the messages of a tool call round trip", () => {
    const call = CODECS["2025-11-25"].clientRequests["tools/call"]!;
    expect(precheckOf(call.params, z.safeParse)({ name: "echo", arguments: { text: "hi" }, _meta: { progressToken: 1 } })).toBe(VALID);
    expect(
      precheckOf(call.result, z.safeParse)({ content: [{ type: "text", text: "hi" }], structuredContent: { a: [1] }, isError: false }),
    ).toBe(VALID);
  });

  it("vouches for the messages of a 2026-07-28 tool call that asks for input", () => {
    const call = CODECS["2026-07-28"].clientRequests["tools/call"]!;
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
    };
    expect(vouches(call.params, { name: "echo", arguments: { text: "hi" }, _meta: meta })).toBe(VALID);
    const question = { method: "elicitation/create", params: { mode: "url", message: "Sign in", url: "https://example.com" } };
    expect(vouches(call.result, { resultType: "input_required", inputRequests: { login: question }, requestState: "s" })).toBe(VALID);
    expect(vouches(call.params, { name: "echo", _meta: meta, inputResponses: { login: { action: "accept" } }, requestState: "s" })).toBe(
      VALID,
    );
    expect(vouches(call.result, { resultType: "complete", content: [{ type: "text", text: "hi" }], structuredContent: "done" })).toBe(
      VALID,
    );
  });

  it("agrees with zod on mutated samples and arbitrary JSON (property)", () => {
    const seen = new Set<Verdict>();
    fc.assert(
      fc.property(fc.constantFrom(...WIRE_SCHEMAS), fc.oneof(mutatedSample, fc.jsonValue({ maxDepth: 3 })), ([, schema], value) => {
        seen.add(expectAgreement(schema, value));
      }),
      { numRuns: runs(3000), seed: SEED },
    );
    expect(seen).toEqual(new Set([VALID, INVALID, UNKNOWN]));
  });
});

describe("precheckOf on each kind of schema", () => {
  const cases: readonly (readonly [string, z.core.$ZodType, unknown, Verdict])[] = [
    ["a string", z.string(), "a", VALID],
    ["not a string", z.string(), 1, INVALID],
    ["a coerced string", z.coerce.string(), 1, UNKNOWN],
    ["a finite number", z.number(), 1.5, VALID],
    ["an infinite number", z.number(), Number.POSITIVE_INFINITY, INVALID],
    ["a boolean", z.boolean(), false, VALID],
    ["an integer (a format: zod checks it)", z.int(), 3, VALID],
    ["not an integer", z.int(), 3.5, INVALID],
    ["a string a check rewrites", z.string().check(z.trim()), " a ", UNKNOWN],
    ["a string a check keeps", z.string().check(z.trim()), "a", VALID],
    ["null", z.null(), null, VALID],
    ["not null", z.null(), 0, INVALID],
    ["anything for unknown", z.unknown(), Symbol("x"), VALID],
    ["anything for any", z.any(), undefined, VALID],
    ["nothing for never", z.never(), 1, INVALID],
    ["a literal", z.literal("a"), "a", VALID],
    ["another literal", z.literal("a"), "b", INVALID],
    ["an enum member", z.enum(["x", "y"]), "y", VALID],
    ["an absent optional", z.optional(z.string()), undefined, VALID],
    ["an absent optional with a default", z.optional(zc.string().default("d")), undefined, UNKNOWN],
    ["null for nullable", z.nullable(z.string()), null, VALID],
    ["a value for nullable", z.nullable(z.string()), 1, INVALID],
    ["an array", z.array(z.string()), ["a", "b"], VALID],
    ["not an array", z.array(z.string()), { 0: "a" }, INVALID],
    ["an array with a bad item", z.array(z.string()), ["a", 2], INVALID],
    ["an array subclass", z.array(z.string()), new (class List extends Array<string> {})(), UNKNOWN],
    ["an array with a length check", z.array(z.string()).check(z.maxLength(1)), ["a"], UNKNOWN],
    ["an object with a refinement", z.object({ a: z.string() }).check(z.refine(() => true)), { a: "x" }, UNKNOWN],
    ["a record", z.record(z.string(), z.number()), { a: 1, b: 2 }, VALID],
    ["a record with a bad value", z.record(z.string(), z.number()), { a: "1" }, INVALID],
    [
      "a record of a class instance",
      z.record(z.string(), z.number()),
      new (class Point {
        x = 1;
      })(),
      UNKNOWN,
    ],
    ["a record, not an object", z.record(z.string(), z.number()), [1], INVALID],
    ["a record with a __proto__ key", z.record(z.string(), z.number()), JSON.parse('{"__proto__": 1}'), UNKNOWN],
    ["a record with enum keys", z.record(z.enum(["a"]), z.number()), { a: 1 }, UNKNOWN],
    ["a record with a prototype-less object", z.record(z.string(), z.number()), Object.assign(Object.create(null), { a: 1 }), UNKNOWN],
    ["a record with a key check", z.record(z.string().check(z.minLength(2)), z.number()), { ab: 1 }, UNKNOWN],
    ["a record with a refinement", z.record(z.string(), z.number()).check(z.refine(() => true)), {}, UNKNOWN],
    ["a union's first option", z.union([z.string(), z.number()]), "a", VALID],
    ["a union's second option", z.union([z.string(), z.number()]), 1, VALID],
    ["no option of a union", z.union([z.string(), z.number()]), true, INVALID],
    [
      "a union where an option might strip",
      z.union([z.object({ a: z.string() }), z.looseObject({ a: z.string() })]),
      { a: "x", b: 1 },
      UNKNOWN,
    ],
    ["an exclusive union", z.xor([z.string(), z.number()]), "a", UNKNOWN],
    ["a union with a refinement", z.union([z.string()]).check(z.refine(() => true)), "a", UNKNOWN],
    ["a lazy schema", z.lazy(() => z.string()), "a", VALID],
    ["a custom check", z.custom<string>((value) => typeof value === "string"), "a", VALID],
    ["a failing custom check", z.custom<string>((value) => typeof value === "string"), 1, INVALID],
    [
      "a transform",
      z.pipe(
        z.string(),
        z.transform((value) => value.length),
      ),
      "abc",
      UNKNOWN,
    ],
    ["a tuple", z.tuple([z.string()]), ["a"], UNKNOWN],
  ];

  it.each(cases)("%s", (_, schema, value, verdict) => {
    expect(expectAgreement(schema, value)).toBe(verdict);
  });

  describe("objects", () => {
    const loose = z.looseObject({ a: z.string(), b: z.optional(z.number()) });
    const strip = z.object({ a: z.string() });
    const strict = z.strictObject({ a: z.string() });

    it.each([
      ["a loose object keeps unknown keys", loose, { a: "x", extra: [1] }, VALID],
      ["an absent optional key stays absent", loose, { a: "x" }, VALID],
      ["an optional key present as undefined", loose, { a: "x", b: undefined }, VALID],
      ["a missing required key: zod explains", loose, { b: 1 }, UNKNOWN],
      ["a wrong field type", loose, { a: 1 }, INVALID],
      ["not an object", loose, [], INVALID],
      [
        "a class instance",
        loose,
        new (class Thing {
          a = "x";
        })(),
        UNKNOWN,
      ],
      [
        "a class instance for a stripping object",
        strip,
        new (class Thing {
          a = "x";
        })(),
        UNKNOWN,
      ],
      ["an own __proto__ key (zod strips it)", loose, JSON.parse('{"a": "x", "__proto__": {"polluted": true}}'), UNKNOWN],
      ["a stripping object without extra keys", strip, { a: "x" }, VALID],
      ["a stripping object with an extra key", strip, { a: "x", b: 1 }, UNKNOWN],
      ["a strict object with an extra key", strict, { a: "x", b: 1 }, UNKNOWN],
      ["a stripping object, not an object", strip, "x", INVALID],
      ["a stripping object with an own __proto__", strip, JSON.parse('{"a": "x", "__proto__": 1}'), UNKNOWN],
      ["a catchall object", z.catchall(z.object({ a: z.string() }), z.number()), { a: "x", b: 1 }, UNKNOWN],
      ["a catchall object with no extra key", z.catchall(z.object({ a: z.string() }), z.number()), { a: "x" }, VALID],
      ["a shape with a symbol key", z.object({ [Symbol.for("s")]: z.string() }), {}, UNKNOWN],
      ["a shape declaring __proto__", z.object(JSON.parse('{"__proto__": 1}') && { ["__proto__"]: z.string() }), {}, UNKNOWN],
      ["a classic zod object", zc.object({ a: zc.string(), n: zc.optional(zc.int()) }), { a: "x", n: 2 }, VALID],
    ] as const)("%s", (_, schema, value, verdict) => {
      expect(expectAgreement(schema, value)).toBe(verdict);
    });

    it("follows a recursive schema built with a getter", () => {
      const Node: z.ZodMiniType = z.object({
        name: z.string(),
        get children() {
          return z.optional(z.array(Node));
        },
      });
      expect(expectAgreement(Node, { name: "a", children: [{ name: "b", children: [{ name: "c" }] }] })).toBe(VALID);
      expect(expectAgreement(Node, { name: "a", children: [{ name: 2 }] })).toBe(INVALID);
    });
  });

  describe("discriminated unions", () => {
    const shapes = z.discriminatedUnion("type", [
      z.looseObject({ type: z.literal("a"), a: z.string() }),
      z.looseObject({ type: z.literal("b"), b: z.number() }),
    ]);

    it.each([
      ["the option its tag names", shapes, { type: "b", b: 1 }, VALID],
      ["the option its tag names, badly filled", shapes, { type: "b", b: "1" }, INVALID],
      ["an unknown tag", shapes, { type: "c" }, INVALID],
      ["not an object", shapes, 1, INVALID],
      [
        "an unknown tag with a fallback to a plain union",
        z.discriminatedUnion("type", [z.looseObject({ type: z.literal("a") })], { unionFallback: true }),
        { type: "c" },
        UNKNOWN,
      ],
    ] as const)("%s", (_, schema, value, verdict) => {
      expect(expectAgreement(schema, value)).toBe(verdict);
    });

    it("leaves to zod a union whose options have no literal tag", () => {
      const untagged = z.discriminatedUnion("type", [z.looseObject({ type: z.string() })]);
      expect(precheckOf(untagged, z.safeParse)({ type: "a" })).toBe(UNKNOWN);
    });
  });

  it("builds a schema's pre-check once", () => {
    const schema = z.looseObject({ a: z.string() });
    expect(precheckOf(schema, z.safeParse)).toBe(precheckOf(schema, z.safeParse));
  });
});

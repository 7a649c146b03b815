import { readFileSync, writeFileSync } from "node:fs";
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import type * as z from "zod/mini";

import { ALL_PROTOCOL_VERSIONS, type AnyProtocolVersion } from "../constants/index.js";
import { CODECS } from "../schemas/codecs.js";
import { ElicitationCompleteNotificationParamsSchema, URLElicitationRequiredErrorDataSchema } from "../schemas/revisions/2025-11-25.js";
import { samplesFor } from "../schemas/samples-2026.test-helpers.js";
import type { SampleSet } from "../schemas/samples.test-helpers.js";
import { describeWireTables } from "./describe-zod.test-helpers.js";
import * as wire from "./wire-codecs.js";
import type { WireSchema } from "./wire-schema.js";
import { WIRE_TABLES } from "./wire-tables.generated.js";
import { zodAnswer } from "./wire.test-helpers.js";

const GENERATED = new URL("./wire-tables.generated.ts", import.meta.url);

function generatedSource(): string {
  const json = JSON.stringify(describeWireTables());
  if (/['\\]/.test(json)) throw new Error("The wire tables hold a quote or a backslash: escape them");
  return [
    "// Generated from the zod schemas in src/schemas by src/wire/wire-tables.test.ts; do not edit.",
    "// `UPDATE_WIRE_TABLES=1 npx vitest run src/wire/wire-tables.test.ts` writes it again.",
    'import type { WireTables } from "./wire-tables.types.js";',
    "",
    "// One JSON.parse of a string costs less at start-up than the same object literal. The JSON is",
    "// written with ' for \" (swapped back before parsing: microseconds), so that a minifier does not",
    "// escape each of its quotes (minifiers write strings in double quotes).",
    `export const WIRE_TABLES: WireTables = /* @__PURE__ */ JSON.parse("${json.replaceAll('"', "'")}".replace(/'/g, '"'));`,
    "",
  ].join("\n");
}

describe("wire tables", () => {
  it("are what the zod schemas of src/schemas describe (UPDATE_WIRE_TABLES=1 rewrites them)", () => {
    const expected = generatedSource();
    if (process.env["UPDATE_WIRE_TABLES"] === "1") writeFileSync(GENERATED, expected);
    expect(readFileSync(GENERATED, "utf8")).toBe(expected);
    expect(WIRE_TABLES).toEqual(describeWireTables());
  });
});

// ---- The compiled tables answer exactly as the zod schemas they come from ----

class Point {
  x = 1;
}

/** Values every schema meets: the wrong kinds, and objects zod copies rather than passes on. */
const EVERYWHERE: readonly unknown[] = [
  undefined,
  null,
  "text",
  7,
  1.5,
  true,
  [],
  {},
  new Point(),
  Object.create(null),
  JSON.parse('{"__proto__": {"x": 1}, "y": 2}'),
];

type Case = readonly [label: string, zodSchema: z.core.$ZodType, wireSchema: WireSchema, samples: readonly unknown[]];

function valuesOf(set: SampleSet | undefined): unknown[] {
  return set ? [...set.valid, ...set.invalid].map(([, value]) => value) : [];
}

function casesOf(version: AnyProtocolVersion): Case[] {
  const zodCodec = CODECS[version];
  const samples = samplesFor(version);
  const wireCodec = wire.codecFor(version);
  const cases: Case[] = [];
  for (const side of ["clientRequests", "serverRequests"] as const) {
    for (const [method, { params, result }] of Object.entries(zodCodec[side])) {
      const schemas = wireCodec[side][method];
      if (!schemas) throw new Error(`${version} ${method}: no wire schemas`);
      cases.push([`${version} ${method} params`, params, schemas.params, [...valuesOf(samples.requests[method]?.params), ...EVERYWHERE]]);
      cases.push([`${version} ${method} result`, result, schemas.result, [...valuesOf(samples.requests[method]?.result), ...EVERYWHERE]]);
    }
  }
  for (const side of ["clientNotifications", "serverNotifications"] as const) {
    for (const [method, params] of Object.entries(zodCodec[side])) {
      const schema = wireCodec[side][method];
      if (!schema) throw new Error(`${version} ${method}: no wire schema`);
      cases.push([`${version} ${method}`, params, schema, [...valuesOf(samples.notifications[method]), ...EVERYWHERE]]);
    }
  }
  return cases;
}

const CASES: readonly Case[] = [
  ...ALL_PROTOCOL_VERSIONS.flatMap(casesOf),
  [
    "elicitation complete params",
    ElicitationCompleteNotificationParamsSchema,
    wire.ElicitationCompleteNotificationParamsSchema,
    [{ elicitationId: "e-1" }, ...EVERYWHERE],
  ],
  [
    "URL elicitation required data",
    URLElicitationRequiredErrorDataSchema,
    wire.URLElicitationRequiredErrorDataSchema,
    [{ elicitations: [{ mode: "url", elicitationId: "e", url: "https://x.example", message: "m" }] }, ...EVERYWHERE],
  ],
];

const REMOVE = Symbol("remove");

/** Every place in a JSON value, as the keys that lead there (the value itself is the empty path). */
function placesIn(value: unknown, path: readonly PropertyKey[] = []): (readonly PropertyKey[])[] {
  const places = [path];
  if (typeof value === "object" && value !== null)
    for (const key of Object.keys(value))
      places.push(...placesIn((value as Record<string, unknown>)[key], [...path, Array.isArray(value) ? Number(key) : key]));
  return places;
}

/** A copy of `value` with the part at `path` replaced (or removed). */
function replaced(value: unknown, path: readonly PropertyKey[], replacement: unknown): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return replacement;
  const copy = (Array.isArray(value) ? [...(value as unknown[])] : { ...(value as object) }) as Record<PropertyKey, unknown>;
  if (rest.length === 0 && replacement === REMOVE) delete copy[key];
  else copy[key] = replaced(copy[key], rest, replacement);
  return copy;
}

const replacements = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(
    REMOVE,
    ...EVERYWHERE,
    2 ** 60,
    -(2 ** 60),
    Number.NaN,
    "ref/prompt",
    "text",
    "image",
    "url",
    "form",
    "user",
    "complete",
    "input_required",
    "roots/list",
    2,
    -1,
  ),
);

describe("wire schemas against the zod schemas they come from", () => {
  it("cover every method of every revision", () => {
    for (const version of ALL_PROTOCOL_VERSIONS) {
      const zodCodec = CODECS[version];
      const wireCodec = wire.codecFor(version);
      expect(wireCodec.version).toBe(version);
      expect(wireCodec.batching).toBe(zodCodec.batching);
      for (const side of ["clientRequests", "serverRequests", "clientNotifications", "serverNotifications"] as const)
        expect(Object.keys(wireCodec[side])).toEqual(Object.keys(zodCodec[side]));
    }
    expect(wire.codecFor("2025-11-25")).toBe(wire.codecFor("2025-11-25"));
    expect(wire.codecFor("2026-07-28")).toBe(wire.codecFor("2026-07-28"));
  });

  it.each(CASES)("%s: the same answer for every sample", (_label, zodSchema, wireSchema, samples) => {
    for (const value of samples) expect(wireSchema.validate(value)).toStrictEqual(zodAnswer(zodSchema, value));
  });

  it("the same answer for samples with a part replaced or removed", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CASES),
        fc.nat(),
        fc.nat(),
        replacements,
        ([, zodSchema, wireSchema, samples], sampleIndex, placeIndex, replacement) => {
          const sample = samples[sampleIndex % samples.length];
          const places = placesIn(sample);
          const value = replaced(sample, places[placeIndex % places.length] ?? [], replacement);
          expect(wireSchema.validate(value)).toStrictEqual(zodAnswer(zodSchema, value));
        },
      ),
      { numRuns: 5000 },
    );
  });
});

import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { headerParamArgument, headerParamsOf, headerParamText, headerParamValue, type HeaderParam } from "./mcp-headers.js";

/** Runs per property: small in `npm test`, `FUZZ_RUNS=<n>` for a longer campaign. */
const runs = (normal: number): number => Number(process.env["FUZZ_RUNS"]) || normal;
const SEED = 0x5eed_0021;

type Schema = Record<string, unknown>;
const object = (properties: Schema, more: Schema = {}): Schema => ({ type: "object", properties, ...more });
const annotated = (header: unknown, type: unknown = "string"): Schema => ({ type, "x-mcp-header": header });
const reasonOf = (schema: Schema): string => {
  const result = headerParamsOf(schema);
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.params)}`);
  return result.reason;
};
const param = (type: HeaderParam["type"], path: readonly string[] = ["p"]): HeaderParam => ({
  property: path.at(-1) as string,
  path,
  header: "P",
  type,
});

describe("headerParamsOf: valid annotations", () => {
  it("reads the spec's execute_sql example", () => {
    const inputSchema = object(
      {
        region: { type: "string", description: "The region to execute the query in", "x-mcp-header": "Region" },
        query: { type: "string" },
      },
      { required: ["region", "query"] },
    );
    expect(headerParamsOf(inputSchema)).toEqual({
      ok: true,
      params: [{ property: "region", path: ["region"], header: "Region", type: "string" }],
    });
  });

  it("reads every primitive type, nested properties through `properties` chains, in document order", () => {
    const inputSchema = object({
      a: annotated("A", "integer"),
      config: object({ b: annotated("B", "boolean"), deeper: object({ c: annotated("C") }) }),
      d: annotated("D", ["string", "null"]),
      e: annotated("E", ["null", "integer"]),
      f: annotated("F", ["boolean"]),
    });
    expect(headerParamsOf(inputSchema)).toEqual({
      ok: true,
      params: [
        { property: "a", path: ["a"], header: "A", type: "integer" },
        { property: "b", path: ["config", "b"], header: "B", type: "boolean" },
        { property: "c", path: ["config", "deeper", "c"], header: "C", type: "string" },
        { property: "d", path: ["d"], header: "D", type: "string" },
        { property: "e", path: ["e"], header: "E", type: "integer" },
        { property: "f", path: ["f"], header: "F", type: "boolean" },
      ],
    });
  });

  it("accepts every tchar and a name equal to a standard header's (Method gives Mcp-Param-Method)", () => {
    const tchars = "!#$%&'*+-.^_`|~09AZaz";
    const result = headerParamsOf(object({ a: annotated(tchars), b: annotated("Method"), c: annotated("Name") }));
    expect(result).toEqual({
      ok: true,
      params: [
        expect.objectContaining({ header: tchars }),
        expect.objectContaining({ header: "Method" }),
        expect.objectContaining({ header: "Name" }),
      ],
    });
  });

  it("finds nothing in a schema without annotations, a property named x-mcp-header, or data that holds the key", () => {
    const data = { "x-mcp-header": "Data" };
    const inputSchema = object(
      { "x-mcp-header": { type: "string" }, e: { type: "object", const: data, enum: [data], default: data, examples: [data] } },
      { $comment: "x-mcp-header", "x-vendor": data },
    );
    expect(headerParamsOf(inputSchema)).toEqual({ ok: true, params: [] });
    expect(headerParamsOf({ type: "object" })).toEqual({ ok: true, params: [] });
    expect(headerParamsOf(object({ a: true, b: false, c: null, d: [annotated("D")] }))).toEqual({ ok: true, params: [] });
  });

  it("keeps a property chain exactly 1000 levels deep and refuses 1001 (and a cyclic object)", () => {
    const chain = (levels: number): Schema => {
      let schema: Schema = annotated("Deep");
      for (let i = 1; i < levels; i++) schema = object({ n: schema });
      return object({ n: schema });
    };
    const deep = headerParamsOf(chain(1000));
    expect(deep.ok && deep.params[0]?.path.length).toBe(1000);
    expect(reasonOf(chain(1001))).toBe("the inputSchema nests deeper than 1000 levels");
    const cyclic: Schema = { type: "object" };
    cyclic["properties"] = { self: cyclic };
    expect(reasonOf(cyclic)).toBe("the inputSchema nests deeper than 1000 levels");
  });
});

describe("headerParamsOf: invalid annotations (the tool is refused)", () => {
  // The conformance suite's http-invalid-tool-headers fixtures, then the rest of the spec's constraints.
  it.each([
    ["empty", object({ value: annotated("") }), "/properties/value must be a non-empty HTTP token"],
    ["on an object", object({ data: annotated("Data", "object") }), "the property's type must be string, integer or boolean"],
    [
      "on an array",
      object({ items: { type: "array", items: { type: "string" }, "x-mcp-header": "Items" } }),
      "type must be string, integer or boolean",
    ],
    ["on null", object({ nil: annotated("Nil", "null") }), "type must be string, integer or boolean"],
    ["on a number", object({ score: annotated("Score", "number") }), "type must be string, integer or boolean"],
    ["without a type", object({ v: { enum: ["a"], "x-mcp-header": "V" } }), "type must be string, integer or boolean"],
    ["on two types", object({ v: annotated("V", ["string", "integer"]) }), "type must be string, integer or boolean"],
    [
      "on a type list with more than null added",
      object({ v: annotated("V", ["string", "null", "null"]) }),
      "type must be string, integer or boolean",
    ],
    [
      "repeated",
      object({ field1: annotated("Region"), field2: annotated("Region") }),
      '/properties/field2: "Region" repeats another x-mcp-header',
    ],
    [
      "repeated in another case",
      object({ field1: annotated("MyField"), field2: annotated("myfield") }),
      '"myfield" repeats another x-mcp-header (case-insensitively)',
    ],
    ["repeated across nesting", object({ a: annotated("X"), o: object({ b: annotated("x") }) }), "/properties/o/properties/b"],
    ["with a space", object({ value: annotated("My Region") }), "non-empty HTTP token"],
    ["with a colon", object({ value: annotated("Region:Primary") }), "non-empty HTTP token"],
    ["with non-ASCII", object({ value: annotated("Région") }), "non-empty HTTP token"],
    ["with a tab", object({ value: annotated("Region\t1") }), "non-empty HTTP token"],
    ["with CR LF", object({ value: annotated("Region\r\nX-Injected: 1") }), "non-empty HTTP token"],
    ["with a separator", object({ value: annotated("a/b") }), "non-empty HTTP token"],
    ["not a string", object({ value: annotated(42) }), "non-empty HTTP token"],
    ["null", object({ value: annotated(null) }), "non-empty HTTP token"],
  ])("refuses an annotation %s", (_, schema, reason) => {
    expect(reasonOf(schema)).toContain(reason);
  });

  it.each([
    ["the root", { type: "string", "x-mcp-header": "Root" }, "the root is not"],
    ["items", object({ list: { type: "array", items: annotated("I") } }), "/properties/list/items is not"],
    ["items (array form)", object({ list: { type: "array", items: [annotated("I")] } }), "/properties/list/items/0 is not"],
    ["prefixItems", object({ list: { type: "array", prefixItems: [{}, annotated("I")] } }), "/properties/list/prefixItems/1 is not"],
    [
      "a property of an items schema",
      object({ list: { type: "array", items: object({ a: annotated("A") }) } }),
      "/properties/list/items/properties/a is not",
    ],
    ["anyOf", object({ v: { anyOf: [annotated("A")] } }), "/properties/v/anyOf/0 is not"],
    ["oneOf", object({}, { oneOf: [object({ a: annotated("A") })] }), "/oneOf/0/properties/a is not"],
    ["allOf", object({}, { allOf: [annotated("A")] }), "/allOf/0 is not"],
    ["not", object({ v: { not: annotated("A") } }), "/properties/v/not is not"],
    ["if", object({}, { if: object({ a: annotated("A") }) }), "/if/properties/a is not"],
    ["then", object({}, { then: object({ a: annotated("A") }) }), "/then/properties/a is not"],
    ["else", object({}, { else: object({ a: annotated("A") }) }), "/else/properties/a is not"],
    ["$defs", object({ v: { $ref: "#/$defs/r" } }, { $defs: { r: annotated("R") } }), "/$defs/r is not"],
    ["definitions", object({}, { definitions: { r: annotated("R") } }), "/definitions/r is not"],
    ["patternProperties", object({}, { patternProperties: { "^a": annotated("A") } }), "/patternProperties/^a is not"],
    ["additionalProperties", object({}, { additionalProperties: annotated("A") }), "/additionalProperties is not"],
    ["dependentSchemas", object({}, { dependentSchemas: { a: object({ b: annotated("B") }) } }), "/dependentSchemas/a/properties/b is not"],
    ["dependencies", object({}, { dependencies: { a: ["b"], c: object({ d: annotated("D") }) } }), "/dependencies/c/properties/d is not"],
    ["contains", object({ l: { type: "array", contains: annotated("A") } }), "/properties/l/contains is not"],
    ["propertyNames", object({}, { propertyNames: annotated("A") }), "/propertyNames is not"],
    ["unevaluatedProperties", object({}, { unevaluatedProperties: annotated("A") }), "/unevaluatedProperties is not"],
    ["unevaluatedItems", object({ l: { unevaluatedItems: annotated("A") } }), "/properties/l/unevaluatedItems is not"],
    ["additionalItems", object({ l: { additionalItems: annotated("A") } }), "/properties/l/additionalItems is not"],
    ["contentSchema", object({ s: { type: "string", contentSchema: annotated("A") } }), "/properties/s/contentSchema is not"],
    ["a key that needs escaping", object({ "a/b": { type: "array", items: annotated("A") } }), "/properties/a~1b/items is not"],
  ])("refuses an annotation under %s (not reached through properties alone)", (_, schema, reason) => {
    expect(reasonOf(schema)).toContain(`x-mcp-header at ${reason} on a property reached from the root through "properties" alone`);
  });
});

describe("headerParamValue and headerParamText", () => {
  it.each([
    ["string", "us-west1", "us-west1"],
    ["string", "", ""],
    ["string", "Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    ["string", "=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
    ["integer", 42, "42"],
    ["integer", -7, "-7"],
    ["integer", 0, "0"],
    ["integer", -0, "0"],
    ["integer", 42.0, "42"],
    ["integer", Number.MAX_SAFE_INTEGER, "9007199254740991"],
    ["integer", Number.MIN_SAFE_INTEGER, "-9007199254740991"],
    ["boolean", true, "true"],
    ["boolean", false, "false"],
  ] as const)("sends a %s argument %j as %j", (type, value, sent) => {
    expect(headerParamValue(param(type), value)).toBe(sent);
  });

  it.each([
    ["string", null],
    ["string", undefined],
    ["string", 42],
    ["string", ["a"]],
    ["integer", 3.5],
    ["integer", 2 ** 53],
    ["integer", -(2 ** 53)],
    ["integer", 1e21],
    ["integer", Number.NaN],
    ["integer", Number.POSITIVE_INFINITY],
    ["integer", "42"],
    ["integer", null],
    ["boolean", "true"],
    ["boolean", 1],
    ["boolean", null],
  ] as const)("sends no header for a %s argument %j (null, absent, or no header form)", (type, value) => {
    expect(headerParamValue(param(type), value)).toBeUndefined();
    expect(headerParamText(param(type), value)).toBeUndefined();
  });

  it("gives the text before encoding", () => {
    expect(headerParamText(param("string"), " padded ")).toBe(" padded ");
    expect(headerParamValue(param("string"), " padded ")).toBe("=?base64?IHBhZGRlZCA=?=");
  });
});

describe("headerParamArgument", () => {
  const nested = param("string", ["config", "region"]);

  it("reads the value at the property path", () => {
    expect(headerParamArgument(nested, { config: { region: "eu" } })).toBe("eu");
    expect(headerParamArgument(param("string", ["a"]), { a: null })).toBeNull();
    expect(headerParamArgument(param("string", ["__proto__"]), JSON.parse('{"__proto__":"own"}'))).toBe("own");
  });

  it.each([
    ["no arguments", undefined],
    ["arguments that are not an object", "text"],
    ["an array of arguments", [{ config: { region: "eu" } }]],
    ["the key missing", { other: 1 }],
    ["a null on the way", { config: null }],
    ["a string on the way", { config: "region" }],
    ["an array on the way", { config: [{ region: "eu" }] }],
    ["the last key missing", { config: {} }],
  ])("finds nothing with %s", (_, args) => {
    expect(headerParamArgument(nested, args)).toBeUndefined();
  });

  it("reads own properties only, never inherited ones", () => {
    expect(headerParamArgument(param("string", ["constructor"]), {})).toBeUndefined();
    expect(headerParamArgument(param("string", ["a", "toString"]), { a: {} })).toBeUndefined();
  });
});

describe("headerParamsOf under fuzzing", () => {
  it("never throws on arbitrary JSON, and every param it returns is a valid, unique, reachable annotation", () => {
    const token = fc.string({ unit: fc.constantFrom(..."abcXYZ019-_.!~".split("")), minLength: 1, maxLength: 6 });
    const badName = fc.oneof(fc.constantFrom("Region", "region", "", "a b", "Méthode", "x:y", 7), fc.string({ maxLength: 6 }));
    const name = fc.oneof({ arbitrary: token, weight: 6 }, { arbitrary: badName, weight: 1 });
    const badType = fc.constantFrom("number", "object", "null", ["string", "integer"], 7);
    const type = fc.oneof(
      { arbitrary: fc.constantFrom("string", "integer", "boolean", ["string", "null"]), weight: 6 },
      { arbitrary: badType, weight: 1 },
    );
    const propertyKey = fc.constantFrom("a", "b", "c", "region", "__proto__", "constructor", "x-mcp-header", "");
    const { property } = fc.letrec((tie) => ({
      property: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.record({ type, "x-mcp-header": name }, { requiredKeys: ["x-mcp-header"] }),
        fc.jsonValue({ maxDepth: 2 }),
        fc.record(
          {
            type,
            "x-mcp-header": name,
            properties: fc.dictionary(propertyKey, tie("property"), { maxKeys: 3 }),
            items: tie("property"),
            anyOf: fc.array(tie("property"), { maxLength: 2 }),
            $defs: fc.dictionary(propertyKey, tie("property"), { maxKeys: 2 }),
          },
          { requiredKeys: [] },
        ),
      ),
    }));
    const root = fc.record({ type: fc.constant("object"), properties: fc.dictionary(propertyKey, property, { maxKeys: 4 }) });
    const schema = fc.oneof({ arbitrary: root, weight: 4 }, { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 });
    fc.assert(
      fc.property(schema, (inputSchema) => {
        const result = headerParamsOf(inputSchema as Record<string, unknown>);
        expect(result.ok || result.reason.startsWith("x-mcp-header at ")).toBe(true);
        const params = result.ok ? result.params : [];
        const lower = params.map((found) => found.header.toLowerCase());
        expect(new Set(lower).size).toBe(lower.length);
        for (const found of params) {
          expect(found.header).toMatch(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/);
          expect(["string", "integer", "boolean"]).toContain(found.type);
          const at = found.path.reduce<unknown>((node, key) => ((node as Schema)["properties"] as Schema)[key], inputSchema);
          expect((at as Schema)["x-mcp-header"]).toBe(found.header);
        }
      }),
      { numRuns: runs(400), seed: SEED },
    );
  });
});

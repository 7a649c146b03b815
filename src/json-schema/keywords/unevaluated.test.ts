import { describe, expect, it } from "vitest";

import { issuesOf, passes } from "../json-schema.test-helpers.js";

describe("unevaluatedProperties", () => {
  it("sees the properties that properties, patternProperties and additionalProperties evaluated", () => {
    expect(passes({ properties: { a: {} }, patternProperties: { "^x": {} }, unevaluatedProperties: false }, { a: 1, xy: 2 })).toBe(true);
    expect(issuesOf({ properties: { a: {} }, unevaluatedProperties: false }, { a: 1, b: 2 })).toBe('unexpected property "b"');
    expect(passes({ additionalProperties: true, unevaluatedProperties: false }, { b: 2 })).toBe(true);
  });

  it("sees through allOf, $ref, dependentSchemas and the passing branches of anyOf and oneOf", () => {
    const schema = {
      $defs: { named: { properties: { name: {} } } },
      allOf: [{ $ref: "#/$defs/named" }],
      anyOf: [{ properties: { a: { type: "string" } } }, { properties: { b: {} } }],
      oneOf: [
        { properties: { c: { const: 1 } }, required: ["c"] },
        { properties: { d: {} }, required: ["d"] },
      ],
      dependentSchemas: { e: { properties: { f: {} } } },
      unevaluatedProperties: false,
    };
    expect(passes(schema, { name: "x", a: "s", b: 1, c: 1, e: 1, f: 1 })).toBe(false);
    expect(issuesOf(schema, { name: "x", a: "s", b: 1, c: 1, e: 1, f: 1 })).toBe('unexpected property "e"');
    expect(passes({ ...schema, properties: { e: {} } }, { name: "x", a: "s", b: 1, c: 1, e: 1, f: 1 })).toBe(true);
    expect(issuesOf({ ...schema, properties: { e: {} } }, { a: 1, c: 1 })).toBe('unexpected property "a"');
  });

  it("sees what if evaluated when it passed, and then or else", () => {
    const schema = {
      if: { properties: { kind: { const: "a" } }, required: ["kind"] },
      then: { properties: { x: {} } },
      else: { properties: { y: {} } },
      unevaluatedProperties: false,
    };
    expect(passes(schema, { kind: "a", x: 1 })).toBe(true);
    expect(issuesOf(schema, { kind: "a", y: 1 })).toBe('unexpected property "y"');
    expect(issuesOf(schema, { kind: "b", y: 1 })).toBe('unexpected property "kind"');
  });

  it("does not see what a failing or negated subschema evaluated", () => {
    expect(issuesOf({ anyOf: [{ properties: { a: {} }, required: ["z"] }, true], unevaluatedProperties: false }, { a: 1 })).toBe(
      'unexpected property "a"',
    );
    expect(issuesOf({ not: { not: { properties: { a: {} } } }, unevaluatedProperties: false }, { a: 1 })).toBe('unexpected property "a"');
  });

  it("validates the unevaluated properties against a schema", () => {
    const schema = { properties: { a: {} }, unevaluatedProperties: { type: "string" } };
    expect(passes(schema, { a: 1, b: "x" })).toBe(true);
    expect(issuesOf(schema, { a: 1, b: 2, c: 3 })).toBe("b: expected string, received number; c: expected string, received number");
    expect(passes({ not: schema }, { b: 2, c: 3 })).toBe(true);
  });

  it("counts properties a nested unevaluatedProperties evaluated", () => {
    const schema = { allOf: [{ properties: { a: {} }, unevaluatedProperties: true }], unevaluatedProperties: false };
    expect(passes(schema, { a: 1, b: 2 })).toBe(true);
  });

  it("ignores values that are not objects", () => {
    expect(passes({ unevaluatedProperties: false }, [1])).toBe(true);
  });
});

describe("unevaluatedItems", () => {
  it("sees prefixItems, items and contains", () => {
    expect(passes({ prefixItems: [{}], unevaluatedItems: false }, [1])).toBe(true);
    expect(issuesOf({ prefixItems: [{}], unevaluatedItems: false }, [1, 2])).toBe("[1]: is not allowed here");
    expect(passes({ items: {}, unevaluatedItems: false }, [1, 2])).toBe(true);
    expect(passes({ contains: { type: "string" }, unevaluatedItems: { type: "number" } }, [1, "a", 2])).toBe(true);
    expect(issuesOf({ contains: { type: "string" }, unevaluatedItems: { type: "number" } }, ["a", true])).toBe(
      "[1]: expected number, received boolean",
    );
  });

  it("sees through in-place applicators", () => {
    const schema = {
      allOf: [{ prefixItems: [{}, {}] }],
      anyOf: [{ items: { type: "string" } }, { prefixItems: [{}] }],
      unevaluatedItems: false,
    };
    expect(passes(schema, ["a", "b", "c"])).toBe(true);
    expect(issuesOf(schema, [1, 2, 3])).toBe("[2]: is not allowed here");
  });

  it("answers yes or no early when nobody reads the issues", () => {
    expect(passes({ not: { unevaluatedItems: { type: "string" } } }, [1, 2])).toBe(true);
    expect(issuesOf({ unevaluatedItems: { type: "string" } }, [1, 2])).toBe(
      "[0]: expected string, received number; [1]: expected string, received number",
    );
  });

  it("counts items a nested unevaluatedItems evaluated", () => {
    expect(passes({ allOf: [{ unevaluatedItems: true }], unevaluatedItems: false }, [1, 2])).toBe(true);
  });

  it("ignores values that are not arrays", () => {
    expect(passes({ unevaluatedItems: false }, { 0: 1 })).toBe(true);
  });
});

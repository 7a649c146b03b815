import { describe, expect, it } from "vitest";

import { compileErrorOf, issuesOf, passes } from "../json-schema.test-helpers.js";

describe("allOf", () => {
  it("needs every subschema and reports all their issues", () => {
    const schema = { allOf: [{ type: "object", required: ["a"] }, { required: ["b"] }] };
    expect(passes(schema, { a: 1, b: 2 })).toBe(true);
    expect(issuesOf(schema, {})).toBe('missing required property "a"; missing required property "b"');
    expect(passes({ not: schema }, {})).toBe(true);
  });

  it("must be a non-empty array of schemas", () => {
    expect(compileErrorOf({ allOf: [] })).toBe("invalid JSON Schema at #/allOf: must be a non-empty array of schemas");
    expect(compileErrorOf({ allOf: {} })).toBe("invalid JSON Schema at #/allOf: must be a non-empty array of schemas");
    expect(compileErrorOf({ anyOf: [{}, 1] })).toBe("invalid JSON Schema at #/anyOf/1: must be a schema (an object or a boolean)");
  });
});

describe("anyOf", () => {
  it("needs one subschema", () => {
    const schema = { anyOf: [{ type: "string" }, { minimum: 3 }] };
    expect(passes(schema, "a")).toBe(true);
    expect(passes(schema, 4)).toBe(true);
    expect(passes(schema, 1)).toBe(false);
    expect(passes({ not: schema }, 1)).toBe(true);
  });

  it("merges branches that each wanted another type of the whole value", () => {
    expect(issuesOf({ anyOf: [{ type: "string" }, { type: ["integer", "null"] }, { type: "string" }] }, 1.5)).toBe(
      "expected string | integer | null, received number",
    );
  });

  it("merges branches that each wanted another value", () => {
    expect(issuesOf({ anyOf: [{ const: "a" }, { enum: ["b", "c"] }] }, "d")).toBe('expected "a" | "b" | "c"');
  });

  it("reports the branch whose type matched when others failed on type", () => {
    const schema = {
      anyOf: [{ type: "null" }, { type: "object", properties: { n: { type: "integer" } } }, { type: "string" }],
    };
    expect(issuesOf(schema, { n: "x" })).toBe("n: expected integer, received string");
  });

  it("reports the branch missing the fewest properties, then the one with the fewest issues", () => {
    const byMissing = {
      anyOf: [{ required: ["a", "b"] }, { required: ["c"], properties: { d: { type: "string" }, e: { type: "string" } } }],
    };
    expect(issuesOf(byMissing, { d: 1, e: 2 })).toBe(
      'd: expected string, received number; e: expected string, received number; missing required property "c"',
    );
    const byCount = {
      anyOf: [{ properties: { a: { type: "string" }, b: { type: "string" } } }, { properties: { a: { type: "integer" } } }],
    };
    expect(issuesOf(byCount, { a: true, b: 1 })).toBe("a: expected integer, received boolean");
  });

  it("merges wanted types with wanted values", () => {
    expect(issuesOf({ anyOf: [{ const: 5 }, { type: "string" }] }, true)).toBe("expected 5 | string, received boolean");
  });

  it("keeps the earlier branch on a tie", () => {
    expect(issuesOf({ anyOf: [{ required: ["a"] }, { required: ["b"] }] }, {})).toBe('missing required property "a"');
  });

  it("does not merge issues found deeper than the value itself", () => {
    const schema = { anyOf: [{ properties: { a: { type: "string" } } }, { properties: { a: { type: "null" } } }] };
    expect(issuesOf(schema, { a: 1 })).toBe("a: expected string, received number");
  });
});

describe("oneOf", () => {
  const schema = { oneOf: [{ type: "integer" }, { type: "number", minimum: 2 }, { type: "string" }] };

  it("needs exactly one subschema", () => {
    expect(passes(schema, 1)).toBe(true);
    expect(passes(schema, 2.5)).toBe(true);
    expect(passes(schema, "x")).toBe(true);
  });

  it("names the first two subschemas that both matched", () => {
    expect(issuesOf(schema, 3)).toBe('must match exactly one "oneOf" schema, but matches #0 and #1');
    expect(passes({ not: schema }, 3)).toBe(true);
  });

  it("explains a value that matched none like anyOf does", () => {
    expect(issuesOf(schema, 1.5)).toBe("must be at least 2");
    expect(issuesOf({ oneOf: [{ type: "string" }, { type: "boolean" }] }, null)).toBe("expected string | boolean, received null");
    expect(passes({ not: { oneOf: [{ type: "string" }] } }, 1)).toBe(true);
  });
});

describe("not", () => {
  it("inverts its subschema", () => {
    expect(passes({ not: { type: "string" } }, 1)).toBe(true);
    expect(issuesOf({ not: { type: "string" } }, "a")).toBe('must not match the "not" schema');
    expect(issuesOf({ not: {} }, null)).toBe('must not match the "not" schema');
    expect(passes({ not: false }, null)).toBe(true);
  });
});

describe("if, then, else", () => {
  const schema = {
    if: { properties: { kind: { const: "circle" } } },
    then: { required: ["radius"] },
    else: { required: ["width"] },
  };

  it("applies then where if passes and else where it fails", () => {
    expect(passes(schema, { kind: "circle", radius: 1 })).toBe(true);
    expect(passes(schema, { kind: "square", width: 1 })).toBe(true);
    expect(issuesOf(schema, { kind: "circle" })).toBe('missing required property "radius"');
    expect(issuesOf(schema, { kind: "square" })).toBe('missing required property "width"');
  });

  it("passes when the branch that applies is absent", () => {
    expect(passes({ if: { type: "string" }, then: { minLength: 2 } }, 5)).toBe(true);
    expect(passes({ if: { type: "string" }, else: { minimum: 2 } }, "x")).toBe(true);
    expect(passes({ if: false }, 1)).toBe(true);
  });

  it("ignores then and else without if", () => {
    expect(passes({ then: false, else: false }, 1)).toBe(true);
  });
});

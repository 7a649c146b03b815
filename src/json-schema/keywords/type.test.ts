import { describe, expect, it } from "vitest";

import { compileErrorOf, issuesOf, passes } from "../json-schema.test-helpers.js";

describe("type", () => {
  it.each([
    ["null", null, 0],
    ["boolean", false, "false"],
    ["object", {}, []],
    ["array", [], {}],
    ["number", 1.5, "1.5"],
    ["string", "", null],
    ["integer", 3, 3.5],
  ])("%s accepts its kind and refuses another", (type, good, bad) => {
    expect(passes({ type }, good)).toBe(true);
    expect(passes({ type }, bad)).toBe(false);
  });

  it("counts 1.0 as an integer and a number, and an integer as a number", () => {
    expect(passes({ type: "integer" }, 1.0)).toBe(true);
    expect(passes({ type: "number" }, 7)).toBe(true);
  });

  it("takes a list of types", () => {
    expect(passes({ type: ["string", "null"] }, null)).toBe(true);
    expect(issuesOf({ type: ["string", "null"] }, 5)).toBe("expected string | null, received number");
  });

  it("names what it received, including values JSON has no word for", () => {
    expect(issuesOf({ type: "integer" }, 1.5)).toBe("expected integer, received number");
    expect(issuesOf({ type: "object" }, [])).toBe("expected object, received array");
    expect(issuesOf({ type: "string" }, undefined)).toBe("expected string, received undefined");
  });

  it("refuses unknown type names and empty lists when compiling", () => {
    const problem =
      "invalid JSON Schema at #/type: must be a type name " +
      '("null", "boolean", "object", "array", "number", "string", "integer") or a non-empty array of them';
    expect(compileErrorOf({ type: "int" })).toBe(problem);
    expect(compileErrorOf({ type: [] })).toBe(problem);
    expect(compileErrorOf({ type: ["string", 5] })).toBe(problem);
  });
});

describe("const", () => {
  it("compares deeply, ignoring key order and the 1 / 1.0 distinction", () => {
    const schema = { const: { a: [1, { b: null }], c: "x" } };
    expect(passes(schema, { c: "x", a: [1.0, { b: null }] })).toBe(true);
    expect(passes(schema, { c: "x", a: [1, { b: false }] })).toBe(false);
    expect(passes(schema, { c: "x", a: [1, { b: null }], d: 1 })).toBe(false);
  });

  it("tells apart values that only look alike", () => {
    expect(passes({ const: "1" }, 1)).toBe(false);
    expect(passes({ const: [1] }, { 0: 1 })).toBe(false);
    expect(passes({ const: null }, "null")).toBe(false);
    expect(passes({ const: false }, 0)).toBe(false);
    expect(passes({ const: 0 }, -0)).toBe(true);
  });

  it("says which value it expected", () => {
    expect(issuesOf({ const: "on" }, "off")).toBe('expected "on"');
    expect(issuesOf({ const: { a: 1 } }, {})).toBe('expected {"a":1}');
    expect(issuesOf({ const: null }, 0)).toBe("expected null");
  });

  it("describes even a const that is not JSON", () => {
    expect(issuesOf({ const: 10n }, 11)).toBe("expected 10");
    expect(issuesOf({ properties: { a: { const: 1 } } }, { a: 2 })).toBe("a: expected 1");
  });

  it("describes a listed value JSON cannot write", () => {
    expect(issuesOf({ enum: [undefined, 1] }, 2)).toBe("expected undefined | 1");
  });

  it("cuts a long expected value short", () => {
    expect(issuesOf({ const: "x".repeat(100) }, "y")).toBe(`expected "${"x".repeat(59)}…`);
  });

  it("refuses a const nested deeper than maxDepth", () => {
    expect(compileErrorOf({ const: [[[1]]] }, { maxDepth: 2 })).toBe(
      "invalid JSON Schema at #/const: holds a value nested deeper than 2 levels",
    );
  });
});

describe("enum", () => {
  it("accepts any listed value, compared deeply", () => {
    const schema = { enum: ["a", 1, null, { b: [true] }] };
    expect(passes(schema, "a")).toBe(true);
    expect(passes(schema, 1.0)).toBe(true);
    expect(passes(schema, null)).toBe(true);
    expect(passes(schema, { b: [true] })).toBe(true);
    expect(passes(schema, { b: [false] })).toBe(false);
    expect(passes(schema, "b")).toBe(false);
  });

  it("lists the allowed values, ten at most", () => {
    expect(issuesOf({ enum: ["debug", "info"] }, "loud")).toBe('expected "debug" | "info"');
    const many = Array.from({ length: 15 }, (_, index) => index);
    expect(issuesOf({ enum: many }, "x")).toBe("expected 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | … (5 more)");
  });

  it("allows nothing when empty", () => {
    expect(issuesOf({ enum: [] }, 1)).toBe("no value is allowed (the enum is empty)");
  });

  it("must be an array", () => {
    expect(compileErrorOf({ enum: "a" })).toBe("invalid JSON Schema at #/enum: must be an array");
  });

  it("fails a value nested deeper than maxDepth instead of walking it", () => {
    expect(issuesOf({ enum: [1] }, [[[1]]], { maxDepth: 2 })).toBe("a value is nested deeper than 2 levels");
  });
});

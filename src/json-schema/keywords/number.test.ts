import { describe, expect, it } from "vitest";

import { compileErrorOf, issuesOf, passes } from "../json-schema.test-helpers.js";
import { isMultipleOf } from "./multiple-of.js";

describe("numeric bounds", () => {
  it("minimum and maximum are inclusive", () => {
    const schema = { minimum: 1, maximum: 3 };
    expect([0, 1, 3, 4].map((value) => passes(schema, value))).toEqual([false, true, true, false]);
    expect(issuesOf(schema, 0)).toBe("must be at least 1");
    expect(issuesOf(schema, 4)).toBe("must be at most 3");
  });

  it("exclusiveMinimum and exclusiveMaximum as numbers (draft 6 and later)", () => {
    const schema = { exclusiveMinimum: 1, exclusiveMaximum: 3 };
    expect([1, 1.5, 2.9, 3].map((value) => passes(schema, value))).toEqual([false, true, true, false]);
    expect(issuesOf(schema, 1)).toBe("must be greater than 1");
    expect(issuesOf(schema, 3)).toBe("must be less than 3");
  });

  it("exclusiveMinimum and exclusiveMaximum as draft-04 booleans beside minimum and maximum", () => {
    const exclusive = { minimum: 1, exclusiveMinimum: true, maximum: 3, exclusiveMaximum: true };
    expect([1, 2, 3].map((value) => passes(exclusive, value))).toEqual([false, true, false]);
    expect(issuesOf(exclusive, 3)).toBe("must be less than 3");
    const inclusive = { minimum: 1, exclusiveMinimum: false, maximum: 3, exclusiveMaximum: false };
    expect([1, 3].map((value) => passes(inclusive, value))).toEqual([true, true]);
  });

  it("ignore values that are not numbers", () => {
    expect(passes({ minimum: 5, maximum: 1, exclusiveMinimum: 5, exclusiveMaximum: 1, multipleOf: 7 }, "3")).toBe(true);
  });

  it("must be finite numbers", () => {
    expect(compileErrorOf({ minimum: "1" })).toBe("invalid JSON Schema at #/minimum: must be a number");
    expect(compileErrorOf({ maximum: Number.POSITIVE_INFINITY })).toBe("invalid JSON Schema at #/maximum: must be a number");
    expect(compileErrorOf({ exclusiveMinimum: "yes" })).toBe(
      "invalid JSON Schema at #/exclusiveMinimum: must be a number (or, in draft 4, a boolean)",
    );
  });
});

describe("multipleOf", () => {
  it("accepts multiples and reports the others", () => {
    expect(passes({ multipleOf: 2 }, 10)).toBe(true);
    expect(issuesOf({ multipleOf: 2 }, 7)).toBe("must be a multiple of 2");
  });

  it("must be a number greater than 0", () => {
    expect(compileErrorOf({ multipleOf: 0 })).toBe("invalid JSON Schema at #/multipleOf: must be a number greater than 0");
    expect(compileErrorOf({ multipleOf: -1 })).toBe("invalid JSON Schema at #/multipleOf: must be a number greater than 0");
  });

  it.each([
    [0.3, 0.1, true],
    [0.0075, 0.0001, true],
    [0.00751, 0.0001, false],
    [1.1, 0.1, true],
    [3e-7, 1e-7, true],
    [4.5e-7, 1e-7, false],
    [19.99, 0.01, true],
    [7, 0.5, true],
    [7.25, 0.5, false],
  ])("judges %d as a multiple of %d in decimal: %s", (value, divisor, expected) => {
    expect(isMultipleOf(value, divisor)).toBe(expected);
  });

  it("handles quotients that overflow to infinity", () => {
    expect(isMultipleOf(1e308, 0.5)).toBe(true);
    expect(isMultipleOf(1e308, 0.3)).toBe(false);
    expect(isMultipleOf(1.5e308, 1e-10)).toBe(true);
    expect(isMultipleOf(1e308, 1e-308)).toBe(true);
  });

  it("is not fooled by huge floating-point quotients, which are all whole numbers", () => {
    expect(isMultipleOf(1e20, 0.7)).toBe(false);
    expect(isMultipleOf(7e20, 0.7)).toBe(true);
    expect(isMultipleOf(-1e20, 3)).toBe(false);
  });

  it("refuses NaN and the infinities, which are not JSON numbers", () => {
    expect(isMultipleOf(Number.NaN, 1)).toBe(false);
    expect(isMultipleOf(Number.POSITIVE_INFINITY, 1)).toBe(false);
  });

  it("is exact for negative numbers and tiny divisors", () => {
    expect(isMultipleOf(-0.0075, 0.0001)).toBe(true);
    expect(isMultipleOf(-7, 2)).toBe(false);
    expect(isMultipleOf(1.5e-7, 5e-8)).toBe(true);
    expect(isMultipleOf(1.5e-7, 4e-8)).toBe(false);
  });
});

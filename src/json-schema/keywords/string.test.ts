import { describe, expect, it } from "vitest";

import { compileErrorOf, issuesOf, passes } from "../json-schema.test-helpers.js";

describe("minLength and maxLength", () => {
  it("count Unicode code points, so an emoji is one character", () => {
    expect(passes({ maxLength: 2 }, "😀😀")).toBe(true);
    expect(passes({ maxLength: 1 }, "😀😀")).toBe(false);
    expect(passes({ minLength: 2 }, "😀😀")).toBe(true);
    expect(passes({ minLength: 3 }, "😀😀")).toBe(false);
  });

  it("decide from the UTF-16 length alone when it settles the question", () => {
    expect(passes({ minLength: 2 }, "abcd")).toBe(true);
    expect(passes({ minLength: 5 }, "abcd")).toBe(false);
    expect(passes({ maxLength: 4 }, "abcd")).toBe(true);
    expect(passes({ maxLength: 1 }, "abcd")).toBe(false);
  });

  it("count a lone surrogate as one character", () => {
    expect(passes({ maxLength: 2 }, "\uD83Da\uDE00")).toBe(false);
    expect(passes({ maxLength: 3 }, "a\uDE00\uD83D")).toBe(true);
    expect(passes({ minLength: 3 }, "\uD83D\uD83Da")).toBe(true);
  });

  it("report the limit in characters", () => {
    expect(issuesOf({ minLength: 1 }, "")).toBe("must be at least 1 character long");
    expect(issuesOf({ minLength: 3 }, "ab")).toBe("must be at least 3 characters long");
    expect(issuesOf({ maxLength: 2 }, "abc")).toBe("must be at most 2 characters long");
  });

  it("ignore values that are not strings", () => {
    expect(passes({ minLength: 3, maxLength: 0, pattern: "^x$" }, 12)).toBe(true);
  });

  it("must be non-negative integers", () => {
    expect(compileErrorOf({ minLength: 1.5 })).toBe("invalid JSON Schema at #/minLength: must be a non-negative integer");
    expect(compileErrorOf({ maxLength: "2" })).toBe("invalid JSON Schema at #/maxLength: must be a non-negative integer");
  });
});

describe("pattern", () => {
  it("searches anywhere in the string unless anchored", () => {
    expect(passes({ pattern: "b+" }, "abbbc")).toBe(true);
    expect(passes({ pattern: "^b+$" }, "abbbc")).toBe(false);
  });

  it("reads the pattern with the u flag, so . and classes see code points", () => {
    expect(passes({ pattern: "^.$" }, "😀")).toBe(true);
    expect(passes({ pattern: "^\\p{Lu}+$" }, "ÀÉ")).toBe(true);
  });

  it("falls back to the legacy reading for a pattern the u flag refuses", () => {
    expect(passes({ pattern: "^[a-z\\_]+$" }, "a_b")).toBe(true);
    expect(passes({ pattern: "^[a-z\\_]+$" }, "a-b")).toBe(false);
  });

  it("names the pattern that did not match, cut short when long", () => {
    expect(issuesOf({ pattern: "^a/b$" }, "x")).toBe("must match the pattern ^a/b$");
    const long = `^${"a".repeat(150)}$`;
    expect(issuesOf({ pattern: long }, "x")).toBe(`must match the pattern ^${"a".repeat(99)}…`);
  });

  it("refuses an invalid regular expression", () => {
    expect(compileErrorOf({ pattern: "(" })).toBe("invalid JSON Schema at #/pattern: is not a valid regular expression: (");
    expect(compileErrorOf({ pattern: 5 })).toBe("invalid JSON Schema at #/pattern: must be a string");
  });
});

describe("format", () => {
  it("is an annotation by default", () => {
    expect(passes({ format: "email" }, "not an email")).toBe(true);
    expect(passes({ format: "email" }, "not an email", { formats: "annotate" })).toBe(true);
  });

  it("is checked with formats: assert", () => {
    expect(passes({ format: "email" }, "a@example.com", { formats: "assert" })).toBe(true);
    expect(issuesOf({ format: "date-time" }, "yesterday", { formats: "assert" })).toBe("expected date-time format");
    expect(issuesOf({ properties: { at: { format: "date" } } }, { at: "2024-02-30" }, { formats: "assert" })).toBe(
      "at: expected date format",
    );
  });

  it("asserts only on strings", () => {
    expect(passes({ format: "ipv4" }, 127001, { formats: "assert" })).toBe(true);
  });

  it("stays an annotation for a format it does not know, even asserted", () => {
    expect(passes({ format: "x-custom" }, "anything", { formats: "assert" })).toBe(true);
  });

  it("must be a string", () => {
    expect(compileErrorOf({ format: 5 })).toBe("invalid JSON Schema at #/format: must be a string");
  });
});

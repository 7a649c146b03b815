import { describe, expect, it } from "vitest";
import { withFields } from "./objects.js";

describe("withFields", () => {
  it("copies the base's own fields, then the added ones, into a new object, leaving both untouched", () => {
    const base = { a: 1, b: 2 };
    const fields = { b: 3, c: 4 };
    const copy = withFields(base, fields);
    expect(copy).toEqual({ a: 1, b: 3, c: 4 });
    expect(Object.keys(copy)).toEqual(["a", "b", "c"]);
    expect(copy).not.toBe(base);
    expect(base).toEqual({ a: 1, b: 2 });
    expect(fields).toEqual({ b: 3, c: 4 });
  });

  it("takes an undefined base as an empty one", () => {
    expect(withFields(undefined, { a: 1 })).toEqual({ a: 1 });
  });

  it("keeps an own __proto__ field (as JSON.parse makes it) a field, never the copy's prototype", () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
    const copy = withFields(parsed, { y: 2 });
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.hasOwn(copy, "__proto__")).toBe(true);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"x":1,"y":2}');

    const added = withFields({ x: 1 }, JSON.parse('{"__proto__": {"polluted": true}}') as object);
    expect(Object.getPrototypeOf(added)).toBe(Object.prototype);
    expect(JSON.stringify(added)).toBe('{"x":1,"__proto__":{"polluted":true}}');
  });
});

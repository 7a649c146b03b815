import { describe, expect, it } from "vitest";

import { applyDefaults } from "./defaults.js";

describe("applyDefaults", () => {
  const schema = {
    type: "object",
    properties: {
      name: { type: "string", default: "anonymous" },
      count: { type: "integer", default: 0 },
      notify: { type: "boolean" },
      tags: { type: "array", default: ["new"] },
      address: {
        type: "object",
        properties: { country: { type: "string", default: "FR" }, city: { type: "string" } },
      },
      options: { type: "object", default: {}, properties: { color: { default: "blue" } } },
    },
  } as const;

  it("fills absent properties that have a default, and only those", () => {
    expect(applyDefaults(schema, { count: 5 })).toEqual({ name: "anonymous", count: 5, tags: ["new"], options: { color: "blue" } });
  });

  it("fills a property whose value is undefined", () => {
    expect(applyDefaults(schema, { name: undefined })).toMatchObject({ name: "anonymous" });
  });

  it("keeps what is present, falsy values included", () => {
    expect(applyDefaults(schema, { name: "", count: 0, options: null })).toMatchObject({ name: "", count: 0, options: null });
  });

  it("descends into nested objects, filled defaults included", () => {
    expect(applyDefaults(schema, { address: { city: "Lyon" } })).toMatchObject({
      address: { city: "Lyon", country: "FR" },
      options: { color: "blue" },
    });
  });

  it("never mutates the value or the schema, and copies each default", () => {
    const value = { address: { city: "Lyon" } };
    const filled = applyDefaults(schema, value) as { tags: string[]; address: object };
    expect(value).toEqual({ address: { city: "Lyon" } });
    expect(filled.address).not.toBe(value.address);
    filled.tags.push("changed");
    expect(schema.properties.tags.default).toEqual(["new"]);
    expect((applyDefaults(schema, {}) as { tags: string[] }).tags).toEqual(["new"]);
  });

  it("copies nested defaults deeply", () => {
    const nested = { properties: { a: { default: { b: [{ c: 1 }] } } } };
    const filled = applyDefaults(nested, {}) as { a: { b: { c: number }[] } };
    expect(filled).toEqual({ a: { b: [{ c: 1 }] } });
    expect(filled.a.b[0]).not.toBe(nested.properties.a.default.b[0]);
  });

  it("keeps the other properties of the value", () => {
    expect(applyDefaults(schema, { extra: [1] })).toMatchObject({ extra: [1], name: "anonymous" });
  });

  it("writes a property named __proto__ as a property, not a prototype", () => {
    const odd = JSON.parse('{"properties": {"__proto__": {"default": {"polluted": true}}}}') as { properties: object };
    const filled = applyDefaults(odd, {}) as Record<string, unknown>;
    expect(Object.hasOwn(filled, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(filled)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("returns values that are not objects unchanged", () => {
    expect(applyDefaults(schema, "text")).toBe("text");
    expect(applyDefaults(schema, null)).toBeNull();
    const array = [{ name: undefined }];
    expect(applyDefaults(schema, array)).toBe(array);
  });

  it("returns the value unchanged for a schema without properties", () => {
    const value = { a: 1 };
    expect(applyDefaults(true, value)).toBe(value);
    expect(applyDefaults({ type: "object" }, value)).toBe(value);
    expect(applyDefaults({ properties: [] }, value)).toBe(value);
    expect(applyDefaults({ properties: { a: true, b: false } }, value)).toEqual({ a: 1 });
  });

  it("stops at a depth limit when a schema built in code refers to itself", () => {
    const loop: { properties: Record<string, unknown>; default: object } = { properties: {}, default: {} };
    loop.properties["next"] = loop;
    let links = 0;
    for (let node = applyDefaults(loop, {}) as { next?: object }; node.next !== undefined; node = node.next) links++;
    expect(links).toBe(64);
  });

  it("shares a default nested deeper than the copy limit instead of walking it", () => {
    let deep: unknown = "leaf";
    for (let level = 0; level < 70; level++) deep = [deep];
    const filled = applyDefaults({ properties: { a: { default: deep } } }, {}) as { a: unknown };
    let node: unknown = filled.a;
    let original: unknown = deep;
    for (let level = 0; level < 64; level++) {
      expect(node).not.toBe(original);
      node = (node as unknown[])[0];
      original = (original as unknown[])[0];
    }
    expect(node).toBe(original);
  });
});

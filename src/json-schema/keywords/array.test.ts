import { describe, expect, it } from "vitest";

import { compileErrorOf, issuesOf, passes } from "../json-schema.test-helpers.js";

describe("items (2020-12) and prefixItems", () => {
  it("items applies to every item", () => {
    expect(passes({ items: { type: "integer" } }, [1, 2, 3])).toBe(true);
    expect(issuesOf({ items: { type: "integer" } }, [1, "2", 3, null])).toBe(
      "[1]: expected integer, received string; [3]: expected integer, received null",
    );
  });

  it("prefixItems checks positions, items the rest", () => {
    const schema = { prefixItems: [{ type: "string" }, { type: "number" }], items: { type: "boolean" } };
    expect(passes(schema, ["a", 1, true, false])).toBe(true);
    expect(passes(schema, ["a"])).toBe(true);
    expect(issuesOf(schema, [1, 1, "x"])).toBe("[0]: expected string, received number; [2]: expected boolean, received string");
  });

  it("prefixItems alone leaves later items free", () => {
    expect(passes({ prefixItems: [{ type: "string" }] }, ["a", 1, null])).toBe(true);
  });

  it("items: false after prefixItems is a length limit", () => {
    const schema = { prefixItems: [{}, {}], items: false };
    expect(passes(schema, [1, 2])).toBe(true);
    expect(issuesOf(schema, [1, 2, 3])).toBe("must have at most 2 items");
    expect(issuesOf({ prefixItems: [{}], items: false }, [1, 2])).toBe("must have at most 1 item");
    expect(issuesOf({ items: false }, [1])).toBe("must have at most 0 items");
  });

  it("stops at the first failing item when only asked yes or no", () => {
    expect(passes({ not: { items: { type: "string" } } }, [1, 2])).toBe(true);
  });

  it("ignores values that are not arrays", () => {
    expect(passes({ items: false, prefixItems: [false] }, { 0: 1 })).toBe(true);
  });

  it("must be schemas", () => {
    expect(compileErrorOf({ prefixItems: [] })).toBe("invalid JSON Schema at #/prefixItems: must be a non-empty array of schemas");
    expect(compileErrorOf({ prefixItems: [{}], items: [{}] })).toBe(
      "invalid JSON Schema at #/items: must be a schema when prefixItems is present",
    );
    expect(compileErrorOf({ items: 3 })).toBe("invalid JSON Schema at #/items: must be a schema (an object or a boolean)");
  });
});

describe("items as an array, with additionalItems (draft-07 tuples)", () => {
  it("checks positions, then additionalItems for the rest", () => {
    const schema = { items: [{ type: "string" }, { type: "number" }], additionalItems: { type: "boolean" } };
    expect(passes(schema, ["a", 1, true])).toBe(true);
    expect(issuesOf(schema, ["a", 1, 2])).toBe("[2]: expected boolean, received number");
  });

  it("leaves later items free without additionalItems, and limits the length with additionalItems: false", () => {
    expect(passes({ items: [{ type: "string" }] }, ["a", 1])).toBe(true);
    expect(issuesOf({ items: [{}], additionalItems: false }, [1, 2])).toBe("must have at most 1 item");
  });

  it("ignores additionalItems when items is a schema", () => {
    expect(passes({ items: { type: "integer" }, additionalItems: false }, [1, 2, 3])).toBe(true);
  });
});

describe("minItems, maxItems, uniqueItems", () => {
  it("bound the length", () => {
    expect(issuesOf({ minItems: 1 }, [])).toBe("must have at least 1 item");
    expect(issuesOf({ minItems: 2 }, [1])).toBe("must have at least 2 items");
    expect(issuesOf({ maxItems: 1 }, [1, 2])).toBe("must have at most 1 item");
    expect(passes({ minItems: 1, maxItems: 1 }, [1])).toBe(true);
    expect(passes({ minItems: 1 }, "a")).toBe(true);
  });

  it("uniqueItems compares items deeply and names the first pair", () => {
    expect(passes({ uniqueItems: true }, [1, "1", [1], { a: 1 }, { a: 2 }, null, false])).toBe(true);
    expect(issuesOf({ uniqueItems: true }, [{ a: 1, b: 2 }, 3, { b: 2, a: 1.0 }])).toBe(
      "must not contain duplicates: items [0] and [2] are equal",
    );
    expect(passes({ uniqueItems: true }, { a: 1 })).toBe(true);
  });

  it("uniqueItems: false allows duplicates", () => {
    expect(passes({ uniqueItems: false }, [1, 1])).toBe(true);
  });

  it("uniqueItems stays linear: twice the items, twice the reads of them (comparing every pair would be four times)", () => {
    const [none, some, twice] = [uniqueItemsReads(0), uniqueItemsReads(1_000), uniqueItemsReads(2_000)];
    expect(some).toBeGreaterThan(none);
    expect(twice - some).toBe(some - none);
  });

  it("must have the right types", () => {
    expect(compileErrorOf({ uniqueItems: "yes" })).toBe("invalid JSON Schema at #/uniqueItems: must be a boolean");
    expect(compileErrorOf({ maxItems: -1 })).toBe("invalid JSON Schema at #/maxItems: must be a non-negative integer");
  });
});

describe("contains, minContains, maxContains", () => {
  it("needs at least one matching item by default", () => {
    expect(passes({ contains: { type: "string" } }, [1, "a"])).toBe(true);
    expect(issuesOf({ contains: { type: "string" } }, [1, 2])).toBe('must contain at least 1 item matching the "contains" schema');
    expect(issuesOf({ contains: {} }, [])).toBe('must contain at least 1 item matching the "contains" schema');
  });

  it("counts the matches against minContains and maxContains", () => {
    const schema = { contains: { const: 1 }, minContains: 2, maxContains: 3 };
    expect(passes(schema, [1, 1, 2])).toBe(true);
    expect(issuesOf(schema, [1, 2])).toBe('must contain at least 2 items matching the "contains" schema');
    expect(issuesOf(schema, [1, 1, 1, 1])).toBe('must contain at most 3 items matching the "contains" schema');
    expect(issuesOf({ contains: { const: 1 }, maxContains: 1 }, [1, 1])).toBe('must contain at most 1 item matching the "contains" schema');
  });

  it("with minContains 0 accepts an array with no match", () => {
    expect(passes({ contains: { const: 1 }, minContains: 0 }, [])).toBe(true);
  });

  it("ignores minContains and maxContains without contains, and values that are not arrays", () => {
    expect(passes({ minContains: 5, maxContains: 0 }, [1])).toBe(true);
    expect(passes({ contains: false }, "x")).toBe(true);
  });
});

/** How many reads of its items checking `length` distinct objects for uniqueItems makes. */
function uniqueItemsReads(length: number): number {
  const items = countingObjects(length);
  expect(passes({ uniqueItems: true }, items.values)).toBe(true);
  return items.reads();
}

/** `length` distinct objects that count every read of their properties and keys. */
function countingObjects(length: number): { readonly values: object[]; reads(): number } {
  let reads = 0;
  const handler: ProxyHandler<object> = {
    get: (target, key, receiver) => {
      reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
    ownKeys: (target) => {
      reads++;
      return Reflect.ownKeys(target);
    },
  };
  return { values: Array.from({ length }, (_, index) => new Proxy({ id: index, name: `item ${index}` }, handler)), reads: () => reads };
}

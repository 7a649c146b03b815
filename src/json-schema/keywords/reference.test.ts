import { describe, expect, it } from "vitest";

import { compileErrorOf, issuesOf, passes } from "../json-schema.test-helpers.js";

describe("$ref inside the document", () => {
  it("follows #/$defs/… and #/definitions/…", () => {
    const schema = {
      $defs: { id: { type: "integer" } },
      definitions: { name: { type: "string" } },
      properties: { id: { $ref: "#/$defs/id" }, name: { $ref: "#/definitions/name" } },
    };
    expect(passes(schema, { id: 1, name: "a" })).toBe(true);
    expect(issuesOf(schema, { id: "1", name: 2 })).toBe("id: expected integer, received string; name: expected string, received number");
  });

  it("follows # to the root, for recursive schemas", () => {
    const tree = { type: "object", properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#" } } } };
    expect(passes(tree, { value: 1, children: [{ value: 2, children: [] }] })).toBe(true);
    expect(issuesOf(tree, { children: [{ children: [{ value: "x" }] }] })).toBe(
      "children[0].children[0].value: expected number, received string",
    );
  });

  it("follows any JSON pointer, with ~0 / ~1 escapes, percent-encoding and array indexes", () => {
    const schema = {
      properties: {
        "a/b": { type: "integer" },
        "c~d": { type: "string" },
        "e f": { type: "boolean" },
        tuple: { prefixItems: [{ type: "null" }] },
        x: { $ref: "#/properties/a~1b" },
        y: { $ref: "#/properties/c~0d" },
        z: { $ref: "#/properties/e%20f" },
        w: { $ref: "#/properties/tuple/prefixItems/0" },
      },
    };
    expect(passes(schema, { x: 1, y: "s", z: true, w: null })).toBe(true);
    expect(issuesOf(schema, { x: "1", y: 1, z: 1, w: 1 })).toBe(
      "x: expected integer, received string; y: expected string, received number; " +
        "z: expected boolean, received number; w: expected null, received number",
    );
  });

  it("applies the keywords beside a $ref too (2020-12)", () => {
    const schema = { $defs: { positive: { minimum: 0 } }, $ref: "#/$defs/positive", maximum: 10 };
    expect(issuesOf(schema, 11)).toBe("must be at most 10");
    expect(issuesOf(schema, -1)).toBe("must be at least 0");
  });

  it("ignores the keywords beside a $ref in draft-07 and older", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      definitions: { a: { type: "string" } },
      $ref: "#/definitions/a",
      maxLength: 1,
    };
    expect(passes(schema, "long")).toBe(true);
    expect(issuesOf(schema, 1)).toBe("expected string, received number");
    const nested = {
      $schema: "http://json-schema.org/draft-04/schema#",
      properties: { a: { $ref: "#/definitions/s", minLength: 9 } },
      definitions: { s: { type: "string" } },
    };
    expect(passes(nested, { a: "x" })).toBe(true);
  });

  it("reaches a schema under a keyword it does not know", () => {
    const schema = {
      "x-shared": { nested: { type: "string", $anchor: "inner" } },
      properties: { a: { $ref: "#/x-shared/nested" }, b: { $ref: "#inner" } },
    };
    expect(issuesOf(schema, { a: 1 })).toBe("a: expected string, received number");
    expect(compileErrorOf({ "x-shared": { nested: { $anchor: "inner" } }, $ref: "#inner" })).toBe(
      'invalid JSON Schema at #/$ref: cannot resolve "#inner": no $anchor named "inner" in this schema',
    );
  });

  it("refuses a pointer that leads nowhere or to something that is not a schema", () => {
    expect(compileErrorOf({ $ref: "#/$defs/missing" })).toBe(
      'invalid JSON Schema at #/$ref: cannot resolve "#/$defs/missing": points at nothing: no "$defs"',
    );
    expect(compileErrorOf({ allOf: [{}], $ref: "#/allOf/1" })).toBe(
      'invalid JSON Schema at #/$ref: cannot resolve "#/allOf/1": points at nothing: no "1"',
    );
    expect(compileErrorOf({ allOf: [{}], $ref: "#/allOf/01" })).toBe(
      'invalid JSON Schema at #/$ref: cannot resolve "#/allOf/01": points at nothing: no "01"',
    );
    expect(compileErrorOf({ title: "x", $ref: "#/title" })).toBe(
      "invalid JSON Schema at #/title: must be a schema (an object or a boolean)",
    );
    expect(compileErrorOf({ $ref: "#/%E0%A4%A" })).toBe(
      'invalid JSON Schema at #/$ref: cannot resolve "#/%E0%A4%A": is not a valid URI fragment',
    );
    expect(compileErrorOf({ $ref: 5 })).toBe("invalid JSON Schema at #/$ref: must be a string");
  });

  it("refuses remote references rather than fetching them", () => {
    const metaSchema = "https://json-schema.org/draft/2020-12/schema";
    expect(compileErrorOf({ $ref: metaSchema })).toBe(
      `unsupported JSON Schema at #/$ref: cannot resolve "${metaSchema}": a remote reference: ` +
        `the document "${metaSchema}" is not in the schemas option (nothing is fetched)`,
    );
    expect(compileErrorOf({ properties: { a: { $ref: "other.json#/$defs/x" } } })).toBe(
      'unsupported JSON Schema at #/properties/a/$ref: cannot resolve "other.json#/$defs/x": a remote reference: ' +
        "the document is not in the schemas option (nothing is fetched)",
    );
  });

  it("refuses $dynamicRef and $recursiveRef rather than ignoring them", () => {
    expect(compileErrorOf({ $dynamicRef: "#meta" })).toBe("unsupported JSON Schema at #/$dynamicRef: is not supported (only $ref is)");
    expect(compileErrorOf({ items: { $recursiveRef: "#" } })).toBe(
      "unsupported JSON Schema at #/items/$recursiveRef: is not supported (only $ref is)",
    );
  });
});

describe("$id, $anchor and embedded resources", () => {
  it("resolves a reference to the root's own $id", () => {
    const schema = {
      $id: "https://example.com/schemas/thing.json#",
      $defs: { a: { type: "string" } },
      properties: { x: { $ref: "https://example.com/schemas/thing.json#/$defs/a" } },
    };
    expect(issuesOf(schema, { x: 1 })).toBe("x: expected string, received number");
  });

  it("resolves plain-name anchors: $anchor, $dynamicAnchor and draft-07 #ids", () => {
    const schema = {
      $defs: {
        a: { $anchor: "text", type: "string" },
        b: { $dynamicAnchor: "flag", type: "boolean" },
        c: { $id: "#count", type: "integer" },
      },
      properties: { a: { $ref: "#text" }, b: { $ref: "#flag" }, c: { $ref: "#count" } },
    };
    expect(issuesOf(schema, { a: 1, b: 1, c: "x" })).toBe(
      "a: expected string, received number; b: expected boolean, received number; c: expected integer, received string",
    );
  });

  it("resolves references against the base URI an embedded $id sets", () => {
    const schema = {
      $id: "https://example.com/root.json",
      $defs: {
        item: {
          $id: "items/item.json",
          $defs: { name: { $anchor: "name", type: "string" }, size: { type: "integer" } },
          properties: { name: { $ref: "#name" }, size: { $ref: "#/$defs/size" } },
        },
        size: { type: "string" },
      },
      properties: {
        item: { $ref: "items/item.json" },
        size: { $ref: "https://example.com/items/item.json#/$defs/size" },
        again: { $ref: "./items/../items/item.json#name" },
      },
    };
    expect(passes(schema, { item: { name: "a", size: 1 }, size: 2, again: "b" })).toBe(true);
    expect(issuesOf(schema, { item: { name: 1, size: "1" }, size: "2", again: 3 })).toBe(
      "item.name: expected string, received number; item.size: expected integer, received string; " +
        "size: expected integer, received string; again: expected string, received number",
    );
  });

  it("resolves relative references without any $id in the document", () => {
    const schema = { $defs: { a: { $id: "a.json", type: "string" } }, properties: { x: { $ref: "a.json" } } };
    expect(issuesOf(schema, { x: 1 })).toBe("x: expected string, received number");
  });

  it("keeps an anchor to the resource that declares it", () => {
    const schema = { $defs: { inner: { $id: "inner.json", $defs: { t: { $anchor: "t", type: "string" } } } }, $ref: "#t" };
    expect(compileErrorOf(schema)).toBe('invalid JSON Schema at #/$ref: cannot resolve "#t": no $anchor named "t" in this schema');
    expect(passes({ ...schema, $ref: "inner.json#t" }, "x")).toBe(true);
  });

  it("lets a draft-07 $ref hide the $id beside it", () => {
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      definitions: { x: { $id: "x.json", $ref: "#/definitions/y" }, y: { type: "string" } },
      properties: { a: { $ref: "#/definitions/x" } },
    };
    expect(issuesOf(schema, { a: 1 })).toBe("a: expected string, received number");
    expect(compileErrorOf({ ...schema, properties: { a: { $ref: "x.json" } } })).toBe(
      'unsupported JSON Schema at #/properties/a/$ref: cannot resolve "x.json": a remote reference: ' +
        "the document is not in the schemas option (nothing is fetched)",
    );
  });

  it("keeps the first schema to claim an anchor name", () => {
    const schema = { $defs: { a: { $anchor: "x", $dynamicAnchor: "x", type: "string" }, b: { $anchor: "x", type: "number" } }, $ref: "#x" };
    expect(issuesOf(schema, 1)).toBe("expected string, received number");
  });

  it("indexes a schema reached twice only once", () => {
    const shared = { $anchor: "s", type: "string" };
    expect(issuesOf({ properties: { a: shared, b: shared, c: { $ref: "#s" } } }, { c: 1 })).toBe("c: expected string, received number");
  });
});

import { describe, expect, it } from "vitest";

import { compileJsonSchema, type JsonSchema } from "./json-schema.js";
import { compileErrorOf, issuesOf, passes } from "./json-schema.test-helpers.js";

const DEFS = "https://schemas.example.org/common/defs.json";
const given: Readonly<Record<string, JsonSchema>> = {
  [DEFS]: {
    $defs: {
      count: { type: "integer", minimum: 0 },
      label: { $anchor: "label", type: "string", maxLength: 4 },
      pair: { type: "array", prefixItems: [{ $ref: "#/$defs/label" }, { $ref: "#/$defs/count" }] },
      unit: { $ref: "units.json" },
    },
  },
  "https://schemas.example.org/common/units.json": { enum: ["m", "s"] },
  "urn:example:anything": true,
};

describe("documents given in the schemas option", () => {
  it("resolves a $ref by absolute URI into a given document, its anchors and its own references", () => {
    const schema = {
      properties: {
        n: { $ref: `${DEFS}#/$defs/count` },
        tag: { $ref: `${DEFS}#label` },
        pair: { $ref: `${DEFS}#/$defs/pair` },
        unit: { $ref: `${DEFS}#/$defs/unit` },
        any: { $ref: "urn:example:anything" },
      },
    };
    expect(passes(schema, { n: 3, tag: "ab", pair: ["cd", 1], unit: "m", any: [null] }, { schemas: given })).toBe(true);
    expect(issuesOf(schema, { n: -1, tag: "abcde", pair: ["x", 1.5], unit: "kg" }, { schemas: given })).toBe(
      'n: must be at least 0; tag: must be at most 4 characters long; pair[1]: expected integer, received number; unit: expected "m" | "s"',
    );
  });

  it("resolves a relative $ref against the base URI set by $id, and normalises dot segments", () => {
    const schema = { $id: "https://schemas.example.org/tools/search.json", $ref: "../common/./defs.json#/$defs/count" };
    expect(passes(schema, 2, { schemas: given })).toBe(true);
    expect(issuesOf(schema, "2", { schemas: given })).toBe("expected integer, received string");
    const dotted = { "https://schemas.example.org/a/../b.json#": { type: "null" } };
    expect(passes({ $ref: "https://schemas.example.org/b.json" }, null, { schemas: dotted })).toBe(true);
  });

  it("finds a given document under its key and under its own $id", () => {
    const schemas = { "https://example.org/alias.json": { $id: "https://example.org/real.json", type: "boolean" } };
    expect(passes({ $ref: "https://example.org/alias.json" }, true, { schemas })).toBe(true);
    expect(issuesOf({ $ref: "https://example.org/real.json" }, 1, { schemas })).toBe("expected boolean, received number");
  });

  it("compiles a given document only as far as it is referenced", () => {
    const schemas = { ...given, "https://example.org/broken.json": { minLength: -1 } };
    expect(passes({ type: "string" }, "a", { schemas })).toBe(true);
    expect(passes({ $ref: `${DEFS}#/$defs/count` }, 1, { schemas })).toBe(true);
    expect(compileErrorOf({ $ref: "https://example.org/broken.json" }, { schemas })).toBe(
      "invalid JSON Schema at https://example.org/broken.json#/minLength: must be a non-negative integer",
    );
  });

  it("still refuses a document it was not given, naming it, and never fetches it", () => {
    const schema = { properties: { a: { $ref: `${DEFS}#/$defs/count` }, b: { $ref: "https://example.org/missing.json" } } };
    expect(compileErrorOf(schema, { schemas: given })).toBe(
      'unsupported JSON Schema at #/properties/b/$ref: cannot resolve "https://example.org/missing.json": a remote reference: ' +
        'the document "https://example.org/missing.json" is not in the schemas option (nothing is fetched)',
    );
    expect(compileErrorOf({ $ref: "urn:example:anything#/a" }, { schemas: given })).toBe(
      'invalid JSON Schema at #/$ref: cannot resolve "urn:example:anything#/a": points at nothing: no "a"',
    );
  });

  it("refuses a key that is no absolute URI, or a value that is no schema", () => {
    expect(compileErrorOf({}, { schemas: { "defs.json": {} } })).toBe('schemas: "defs.json" must be an absolute URI without a fragment');
    expect(compileErrorOf({}, { schemas: { "https://example.org/d.json#/x": {} } })).toBe(
      'schemas: "https://example.org/d.json#/x" must be an absolute URI without a fragment',
    );
    expect(compileErrorOf({}, { schemas: { "https://example.org/d.json": 3 as unknown as JsonSchema } })).toBe(
      'schemas: the schema given for "https://example.org/d.json" is not an object or a boolean',
    );
  });
});

describe("unsupported schemas", () => {
  const dynamic = { $defs: { node: { $dynamicAnchor: "node", type: "object" } }, properties: { child: { $dynamicRef: "#node" } } };

  it("are refused by default, like invalid ones", () => {
    expect(compileErrorOf(dynamic)).toBe("unsupported JSON Schema at #/properties/child/$dynamicRef: is not supported (only $ref is)");
  });

  it("under unsupported: skip give a validator that accepts every value and says why", () => {
    const validator = compileJsonSchema(dynamic, { unsupported: "skip" });
    expect(validator.unchecked).toBe("unsupported JSON Schema at #/properties/child/$dynamicRef: is not supported (only $ref is)");
    expect(validator.validate({ child: 1 })).toEqual({ ok: true, value: { child: 1 } });
    expect(validator.schema).toBe(dynamic);
    const remote = compileJsonSchema({ $ref: "https://example.org/x.json" }, { unsupported: "skip" });
    expect(remote.unchecked).toContain('the document "https://example.org/x.json" is not in the schemas option');
    expect(remote.validate("anything").ok).toBe(true);
  });

  it("under unsupported: skip still refuse an invalid schema, and check a supported one", () => {
    expect(compileErrorOf({ minLength: -1 }, { unsupported: "skip" })).toBe(
      "invalid JSON Schema at #/minLength: must be a non-negative integer",
    );
    expect(compileErrorOf({ $ref: "#/$defs/none" }, { unsupported: "skip" })).toBe(
      'invalid JSON Schema at #/$ref: cannot resolve "#/$defs/none": points at nothing: no "$defs"',
    );
    const validator = compileJsonSchema({ type: "string" }, { unsupported: "skip" });
    expect(validator.unchecked).toBeUndefined();
    expect(validator.validate(1).ok).toBe(false);
  });
});

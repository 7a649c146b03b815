import { describe, expect, it } from "vitest";

import { compileErrorOf, issuesOf, passes } from "./json-schema.test-helpers.js";

const DRAFT_04 = "http://json-schema.org/draft-04/schema#";
const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

describe("draft-04 id", () => {
  it('reads "id": "#name" as a plain-name anchor', () => {
    const schema = { $schema: DRAFT_04, definitions: { even: { id: "#even", type: "integer", multipleOf: 2 } }, items: { $ref: "#even" } };
    expect(passes(schema, [2, 4])).toBe(true);
    expect(issuesOf(schema, [2, 3])).toBe("[1]: must be a multiple of 2");
  });

  it("reads id as the base URI that references inside it resolve against", () => {
    const schema = {
      $schema: DRAFT_04,
      id: "https://example.org/root.json",
      properties: {
        inner: { id: "nested/", properties: { value: { $ref: "leaf.json" } } },
        direct: { $ref: "nested/leaf.json" },
      },
    };
    const schemas = { "https://example.org/nested/leaf.json": { type: "string" } };
    expect(passes(schema, { inner: { value: "a" }, direct: "b" }, { schemas })).toBe(true);
    expect(issuesOf(schema, { inner: { value: 1 }, direct: 2 }, { schemas })).toBe(
      "inner.value: expected string, received number; direct: expected string, received number",
    );
  });

  it("finds an embedded resource by its id, and an anchor inside it", () => {
    const schema = {
      $schema: DRAFT_04,
      definitions: { item: { id: "item.json", definitions: { name: { id: "#name", type: "string" } }, type: "object" } },
      properties: { item: { $ref: "item.json" }, name: { $ref: "item.json#name" } },
    };
    expect(passes(schema, { item: {}, name: "x" })).toBe(true);
    expect(issuesOf(schema, { item: [], name: 1 })).toBe("item: expected object, received array; name: expected string, received number");
  });

  it("ignores an id beside $ref, as it ignores every sibling of $ref", () => {
    const schema = {
      $schema: DRAFT_04,
      definitions: { a: { id: "https://example.org/a.json", $ref: "#/definitions/b" }, b: { type: "null" } },
      $ref: "#/definitions/a",
    };
    expect(passes(schema, null)).toBe(true);
    expect(compileErrorOf({ ...schema, $ref: "https://example.org/a.json" })).toContain("a remote reference");
  });

  it("is no keyword outside draft-04: 2020-12 and draft-07 schemas ignore it", () => {
    const anchored = { definitions: { x: { id: "#x", type: "integer" } }, $ref: "#x" };
    expect(compileErrorOf(anchored)).toBe('invalid JSON Schema at #/$ref: cannot resolve "#x": no $anchor named "x" in this schema');
    expect(compileErrorOf({ $schema: DRAFT_07, ...anchored })).toBe(
      'invalid JSON Schema at #/$ref: cannot resolve "#x": no $anchor named "x" in this schema',
    );
    expect(passes({ $schema: DRAFT_07, definitions: { x: { $id: "#x", type: "integer" } }, $ref: "#x" }, 1)).toBe(true);
  });
});

describe("the dialect of a document given in the schemas option", () => {
  const leaf = { definitions: { n: { id: "#n", type: "number" } } };

  it("is the root document's when the given one has no $schema", () => {
    const schemas = { "https://example.org/leaf.json": leaf };
    expect(issuesOf({ $schema: DRAFT_04, $ref: "https://example.org/leaf.json#n" }, "1", { schemas })).toBe(
      "expected number, received string",
    );
    expect(compileErrorOf({ $ref: "https://example.org/leaf.json#n" }, { schemas })).toBe(
      'invalid JSON Schema at #/$ref: cannot resolve "https://example.org/leaf.json#n": no $anchor named "n" in this schema',
    );
  });

  it("is its own when it has a $schema", () => {
    const schemas = {
      "https://example.org/leaf.json": { $schema: DRAFT_04, ...leaf },
      "https://example.org/legacy.json": {
        $schema: DRAFT_07,
        $ref: "#/definitions/s",
        definitions: { s: { type: "string" } },
        minLength: 9,
      },
    };
    expect(passes({ $ref: "https://example.org/leaf.json#n" }, 1, { schemas })).toBe(true);
    // Draft-07: the $ref hides its sibling minLength there, though the root is read as 2020-12.
    expect(passes({ $ref: "https://example.org/legacy.json", maxLength: 3 }, "abc", { schemas })).toBe(true);
    expect(issuesOf({ $ref: "https://example.org/legacy.json", maxLength: 3 }, "abcd", { schemas })).toBe(
      "must be at most 3 characters long",
    );
  });

  it("reads 2019-09 and custom meta-schemas as 2020-12", () => {
    const schemas = {
      "https://example.org/s.json": {
        $schema: "https://json-schema.org/draft/2019-09/schema",
        $ref: "#/$defs/a",
        $defs: { a: {} },
        type: "string",
      },
    };
    expect(issuesOf({ $ref: "https://example.org/s.json" }, 1, { schemas })).toBe("expected string, received number");
  });
});

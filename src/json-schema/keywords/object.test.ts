import { describe, expect, it } from "vitest";

import { compileErrorOf, issuesOf, passes } from "../json-schema.test-helpers.js";

describe("properties, patternProperties, additionalProperties", () => {
  const schema = {
    type: "object",
    properties: { name: { type: "string" }, "first name": { type: "string" } },
    patternProperties: { "^x-": { type: "integer" }, "^x-big": { minimum: 100 } },
    additionalProperties: { type: "boolean" },
  };

  it("check each property against every subschema that names it", () => {
    expect(passes(schema, { name: "a", "x-big-one": 150, other: true })).toBe(true);
    expect(issuesOf(schema, { "x-big-one": 5.5 })).toBe(
      '["x-big-one"]: expected integer, received number; ["x-big-one"]: must be at least 100',
    );
  });

  it("send only the properties nothing else names to additionalProperties", () => {
    expect(issuesOf(schema, { name: "a", other: "yes" })).toBe("other: expected boolean, received string");
    expect(issuesOf(schema, { "first name": 1 })).toBe('["first name"]: expected string, received number');
  });

  it("report additionalProperties: false at the object, naming each stray property", () => {
    const closed = { properties: { a: {} }, additionalProperties: false };
    expect(passes(closed, { a: 1 })).toBe(true);
    expect(issuesOf(closed, { a: 1, b: 2, "c d": 3 })).toBe('unexpected property "b"; unexpected property "c d"');
  });

  it("tell a property declared false from a stray one", () => {
    expect(issuesOf({ properties: { a: false }, additionalProperties: false }, { a: 1 })).toBe("a: is not allowed here");
  });

  it("stop at the first failing property when only asked yes or no", () => {
    expect(passes({ not: { properties: { a: { type: "string" }, b: { type: "string" } } } }, { a: 1, b: 2 })).toBe(true);
    expect(passes({ not: { patternProperties: { "": { type: "string" }, a: { type: "string" } } } }, { a: 1 })).toBe(true);
  });

  it("ignore values that are not objects", () => {
    const { type: _type, ...untyped } = schema;
    expect(passes(untyped, [1, 2])).toBe(true);
    expect(passes(untyped, "x")).toBe(true);
  });

  it("read only own properties, whatever their names", () => {
    const parsed = JSON.parse('{"__proto__": 5, "constructor": 1}') as unknown;
    const schemaWithOddNames = JSON.parse(
      '{"properties": {"__proto__": {"type": "string"}, "constructor": {"type": "string"}}}',
    ) as unknown;
    expect(issuesOf(schemaWithOddNames, parsed)).toBe(
      "__proto__: expected string, received number; constructor: expected string, received number",
    );
    expect(passes({ properties: { toString: { type: "string" } } }, {})).toBe(true);
  });

  it("must be objects of schemas, with valid patterns", () => {
    expect(compileErrorOf({ properties: [] })).toBe("invalid JSON Schema at #/properties: must be an object of schemas");
    expect(compileErrorOf({ patternProperties: { "(": {} } })).toBe(
      "invalid JSON Schema at #/patternProperties/(: is not a valid regular expression: (",
    );
    expect(compileErrorOf({ additionalProperties: "no" })).toBe(
      "invalid JSON Schema at #/additionalProperties: must be a schema (an object or a boolean)",
    );
  });
});

describe("required", () => {
  it("reports each missing property at the object", () => {
    expect(issuesOf({ required: ["a", "b", "c"] }, { b: 1 })).toBe('missing required property "a"; missing required property "c"');
  });

  it("needs an own property, not an inherited one", () => {
    expect(passes({ required: ["toString"] }, {})).toBe(false);
    expect(passes({ required: ["a"] }, { a: undefined })).toBe(true);
  });

  it("ignores values that are not objects", () => {
    expect(passes({ required: ["a"] }, ["a"])).toBe(true);
  });

  it("stops at the first missing property when only asked yes or no", () => {
    expect(passes({ not: { required: ["a", "b"] } }, {})).toBe(true);
  });

  it("must list strings", () => {
    expect(compileErrorOf({ required: [1] })).toBe("invalid JSON Schema at #/required: must be an array of strings");
    expect(compileErrorOf({ required: true })).toBe("invalid JSON Schema at #/required: must be an array of strings");
  });
});

describe("dependentRequired and the array form of dependencies", () => {
  it("requires the listed properties when the trigger is present", () => {
    const schema = { dependentRequired: { card: ["billing", "cvc"] } };
    expect(passes(schema, {})).toBe(true);
    expect(passes(schema, { card: 1, billing: 2, cvc: 3 })).toBe(true);
    expect(issuesOf(schema, { card: 1 })).toBe(
      'missing property "billing", required when "card" is present; missing property "cvc", required when "card" is present',
    );
    expect(passes({ not: schema }, { card: 1 })).toBe(true);
    expect(passes(schema, "card")).toBe(true);
  });

  it("reads draft-07 dependencies, arrays as dependentRequired and schemas as dependentSchemas", () => {
    const schema = { dependencies: { a: ["b"], c: { required: ["d"] } } };
    expect(issuesOf(schema, { a: 1 })).toBe('missing property "b", required when "a" is present');
    expect(issuesOf(schema, { c: 1 })).toBe('missing required property "d"');
    expect(passes(schema, { a: 1, b: 1, c: 1, d: 1 })).toBe(true);
  });

  it("must map names to lists of names", () => {
    expect(compileErrorOf({ dependentRequired: [] })).toBe("invalid JSON Schema at #/dependentRequired: must be an object");
    expect(compileErrorOf({ dependentRequired: { a: "b" } })).toBe(
      'invalid JSON Schema at #/dependentRequired: "a" must list property names (an array of strings)',
    );
    expect(compileErrorOf({ dependencies: { a: [1] } })).toBe(
      'invalid JSON Schema at #/dependencies: "a" must list property names (an array of strings)',
    );
    expect(compileErrorOf({ dependencies: { "a/b": 5 } })).toBe(
      "invalid JSON Schema at #/dependencies/a~1b: must be a schema (an object or a boolean)",
    );
  });
});

describe("dependentSchemas", () => {
  it("applies the schema to the whole object when the trigger is present", () => {
    const schema = { dependentSchemas: { card: { required: ["billing"] }, coupon: false } };
    expect(passes(schema, { other: 1 })).toBe(true);
    expect(issuesOf(schema, { card: 1 })).toBe('missing required property "billing"');
    expect(issuesOf(schema, { coupon: 1 })).toBe("is not allowed here");
    expect(passes(schema, 5)).toBe(true);
  });
});

describe("minProperties and maxProperties", () => {
  it("count own properties", () => {
    expect(issuesOf({ minProperties: 1 }, {})).toBe("must have at least 1 property");
    expect(issuesOf({ minProperties: 2 }, { a: 1 })).toBe("must have at least 2 properties");
    expect(issuesOf({ maxProperties: 1 }, { a: 1, b: 2 })).toBe("must have at most 1 property");
    expect(passes({ minProperties: 1, maxProperties: 1 }, { a: 1 })).toBe(true);
    expect(passes({ minProperties: 1 }, [])).toBe(true);
  });
});

describe("propertyNames", () => {
  it("validates each name as a string and reports a failure at the object", () => {
    const schema = { propertyNames: { pattern: "^[a-z]+$", maxLength: 3 } };
    expect(passes(schema, { abc: 1 })).toBe(true);
    expect(issuesOf(schema, { Abcd: 1, ok: 2 })).toBe(
      'invalid property name "Abcd": must be at most 3 characters long, must match the pattern ^[a-z]+$',
    );
    expect(issuesOf({ properties: { inner: { propertyNames: false } } }, { inner: { a: 1 } })).toBe(
      'inner: invalid property name "a": is not allowed here',
    );
  });

  it("answers yes or no without collecting reasons when nobody reads them", () => {
    expect(passes({ not: { propertyNames: { maxLength: 1 } } }, { ab: 1 })).toBe(true);
    expect(passes({ not: { propertyNames: { maxLength: 1 } } }, { a: 1 })).toBe(false);
    expect(passes({ propertyNames: false }, [])).toBe(true);
  });
});

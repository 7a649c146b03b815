import { describe, expect, it } from "vitest";

import { MCPError, MCP_CODES } from "../error-codes/index.js";
import { applyDefaults, compileJsonSchema, type CompiledJsonSchema, type JsonSchemaValidator } from "./index.js";
import { compileErrorOf, issuesOf } from "./json-schema.test-helpers.js";

function forbiddenCodeGeneration(): never {
  throw new EvalError("code generation is forbidden");
}

describe("compileJsonSchema", () => {
  it("returns a validator that keeps the schema and hands back the very value on success", () => {
    const schema = { type: "object", properties: { count: { type: "integer" } } };
    const value = { count: 3 };
    const validator: JsonSchemaValidator = compileJsonSchema(schema);
    expect(validator.schema).toBe(schema);
    const result = validator.validate(value);
    expect(result.ok && result.value).toBe(value);
  });

  it("accepts the boolean schemas", () => {
    expect(compileJsonSchema(true).validate({ anything: 1 }).ok).toBe(true);
    expect(compileJsonSchema(false).validate(null)).toEqual({ ok: false, issues: "is not allowed here" });
  });

  it("gives a validate function that works detached from its validator", () => {
    const { validate } = compileJsonSchema({ type: "string" });
    expect(validate("a").ok).toBe(true);
    expect(validate(1)).toEqual({ ok: false, issues: "expected string, received number" });
  });

  it("is also exported under the name the client uses", () => {
    const compiled: CompiledJsonSchema = compileJsonSchema({ type: "null" });
    expect(compiled.validate(null).ok).toBe(true);
  });

  it("names the validated value in issue paths when given a root label", () => {
    const { validate } = compileJsonSchema({ type: "object", required: ["name"], properties: { count: { type: "integer" } } });
    expect(validate({ count: "3" }, "structuredContent")).toEqual({
      ok: false,
      issues: 'structuredContent.count: expected integer, received string; structuredContent: missing required property "name"',
    });
    expect(compileJsonSchema({ type: "string" }).validate(1, "arguments")).toEqual({
      ok: false,
      issues: "arguments: expected string, received number",
    });
  });

  it("validates without generating code, so it runs under a CSP that forbids eval", () => {
    const OriginalFunction = globalThis.Function;
    globalThis.Function = forbiddenCodeGeneration as unknown as FunctionConstructor;
    try {
      const { validate } = compileJsonSchema({
        $defs: { tag: { type: "string", pattern: "^[a-z]+$" } },
        type: "object",
        properties: { tags: { type: "array", items: { $ref: "#/$defs/tag" }, uniqueItems: true } },
        anyOf: [{ required: ["tags"] }, { required: ["id"] }],
      });
      expect(validate({ tags: ["a", "b"] }).ok).toBe(true);
      expect(validate({ tags: ["A"] })).toEqual({ ok: false, issues: "tags[0]: must match the pattern ^[a-z]+$" });
    } finally {
      globalThis.Function = OriginalFunction;
    }
  });

  it("refuses what is not a schema with an INVALID_PARAMS MCPError", () => {
    let thrown: unknown;
    try {
      compileJsonSchema("string");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MCPError);
    expect((thrown as MCPError).code).toBe(MCP_CODES.INVALID_PARAMS);
    expect((thrown as MCPError).message).toBe("invalid JSON Schema: a schema is an object or a boolean");
    expect(compileErrorOf(null)).toBe("invalid JSON Schema: a schema is an object or a boolean");
    expect(compileErrorOf([{ type: "string" }])).toBe("invalid JSON Schema: a schema is an object or a boolean");
  });

  it("names the pointer of an invalid subschema", () => {
    expect(compileErrorOf({ properties: { a: { properties: { b: 5 } } } })).toBe(
      "invalid JSON Schema at #/properties/a/properties/b: must be a schema (an object or a boolean)",
    );
    expect(compileErrorOf({ $defs: { "a/b~c": { minLength: -1 } }, $ref: "#/$defs/a~1b~0c" })).toBe(
      "invalid JSON Schema at #/$defs/a~1b~0c/minLength: must be a non-negative integer",
    );
  });

  it("refuses a schema too deeply nested to compile, rather than overflowing the stack", () => {
    let schema: unknown = {};
    for (let level = 0; level < 100_000; level++) schema = { not: schema };
    expect(compileErrorOf(schema)).toBe("invalid JSON Schema: it is nested too deeply to compile");
  });

  it("reports a schema whose reading throws as invalid, keeping the cause", () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error("no keys for you");
        },
      },
    );
    let thrown: unknown;
    try {
      compileJsonSchema({ properties: hostile });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MCPError);
    expect((thrown as MCPError).message).toBe("invalid JSON Schema: no keys for you");
    expect(((thrown as MCPError).cause as Error).message).toBe("no keys for you");
  });

  it("checks its options", () => {
    expect(compileErrorOf({}, { maxDepth: 0 })).toBe("maxDepth must be a positive integer, got 0");
    expect(compileErrorOf({}, { maxDepth: 2.5 })).toBe("maxDepth must be a positive integer, got 2.5");
    expect(compileJsonSchema({}, { maxDepth: 1 }).validate([1]).ok).toBe(true);
  });

  it("is not affected by changes to the schema after compiling", () => {
    const schema = { type: ["string"], required: ["a"], dependentRequired: { a: ["b"] }, enum: [{ a: 1, b: 1 }] };
    const { validate } = compileJsonSchema(schema);
    schema.type.push("object");
    schema.required.push("c");
    schema.dependentRequired.a.push("d");
    schema.enum.push({ a: 2, b: 2 });
    expect(validate({ a: 1, b: 1 })).toEqual({ ok: false, issues: "expected string, received object" });
    expect(compileJsonSchema(schema).validate({ a: 1, b: 1 })).toEqual({
      ok: false,
      issues: 'missing required property "c"; missing property "d", required when "a" is present',
    });
  });

  it("compiles a schema object shared by two parents once, and both use it", () => {
    const shared = { type: "integer" };
    const { validate } = compileJsonSchema({ properties: { a: shared, b: shared } });
    expect(validate({ a: 1, b: 2 }).ok).toBe(true);
    expect(validate({ a: 1, b: "2" })).toEqual({ ok: false, issues: "b: expected integer, received string" });
  });

  it("ignores keywords it does not know, and the annotation keywords", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: "https://example.com/thing",
      $comment: "x",
      title: "Thing",
      description: "A thing",
      default: 5,
      examples: [1],
      deprecated: true,
      "x-vendor": { type: "string" },
      nullable: true,
      type: "integer",
    };
    expect(issuesOf(schema, null)).toBe("expected integer, received null");
    expect(compileJsonSchema(schema).validate(7).ok).toBe(true);
  });

  it("exports applyDefaults beside it", () => {
    expect(applyDefaults({ properties: { a: { default: 1 } } }, {})).toEqual({ a: 1 });
  });
});

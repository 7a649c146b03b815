import * as zc from "zod";
import * as z from "zod/mini";
import { describe, expect, it } from "vitest";

import { JsonRpcNotificationSchema } from "./jsonrpc.js";
import * as latest from "./revisions/2025-11-25.js";
import { validate } from "./validate.js";

function issuesOf(schema: z.core.$ZodType, value: unknown): string {
  const result = validate(schema, value);
  if (result.ok) throw new Error("expected validation to fail");
  return result.issues;
}

// Handlers may bring schemas written with classic zod, whose objects compile a fast path.
const classicObjectSchema = (): zc.ZodType => zc.object({ a: zc.string(), b: zc.optional(zc.int()) });

function forbiddenFunction(): never {
  throw new EvalError("code generation is forbidden");
}

const callToolResult = latest.codec.clientRequests["tools/call"].result;
const elicitParams = latest.codec.serverRequests["elicitation/create"].params;

describe("validate", () => {
  it("returns the parsed value, unknown keys included", () => {
    const value = { name: "add", arguments: { a: 1 }, "x-vendor": true };
    expect(validate(latest.CallToolRequestParamsSchema, value)).toEqual({ ok: true, value });
  });

  it("parses without compiling code, even a classic zod object that would by default", () => {
    const OriginalFunction = globalThis.Function;
    const jitlessSchema = classicObjectSchema();
    const defaultSchema = classicObjectSchema();
    globalThis.Function = forbiddenFunction as unknown as FunctionConstructor;
    try {
      expect(validate(jitlessSchema, { a: "x", b: 1 })).toEqual({ ok: true, value: { a: "x", b: 1 } });
      expect(() => defaultSchema.safeParse({ a: "x" })).toThrow(EvalError);
    } finally {
      globalThis.Function = OriginalFunction;
    }
  });

  it.each([
    ["a missing field", latest.CallToolRequestParamsSchema, {}, "name: is required"],
    ["a mistyped field", latest.CallToolRequestParamsSchema, { name: 5 }, "name: expected string, received number"],
    ["a null", latest.CallToolRequestParamsSchema, { name: null }, "name: expected string, received null"],
    ["an array", latest.CallToolRequestParamsSchema, [], "expected object, received array"],
    ["a non-integer", latest.TaskSchema.shape.ttl, 1.5, "expected integer, received number"],
    [
      "an unknown enum value",
      latest.SetLevelRequestParamsSchema,
      { level: "loud" },
      'level: expected "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency"',
    ],
    ["a missing enum value", latest.ElicitResultSchema, {}, 'action: is required, expected "accept" | "decline" | "cancel"'],
    ["a number above its maximum", latest.AnnotationsSchema, { priority: 1.5 }, "priority: must be at most 1"],
    ["a number below its minimum", latest.AnnotationsSchema, { priority: -1 }, "priority: must be at least 0"],
    [
      "too many items",
      latest.CompleteResultSchema,
      { completion: { values: Array.from({ length: 101 }, () => "v") } },
      "completion.values: length must be at most 100",
    ],
    ["a forbidden key", JsonRpcNotificationSchema, { jsonrpc: "2.0", id: 1, method: "m" }, "id: is not allowed here"],
  ])("describes %s", (_label, schema, value, expected) => {
    expect(issuesOf(schema, value)).toBe(expected);
  });

  it("writes array indexes in brackets and odd keys quoted", () => {
    const result = { content: [{ type: "text", text: "ok" }, { type: "text" }] };
    expect(issuesOf(callToolResult, result)).toBe("content[1].text: is required");
    const meta = { _meta: { "io.modelcontextprotocol/related-task": 5 } };
    const schema = z.looseObject({ _meta: z.looseObject({ "io.modelcontextprotocol/related-task": latest.RelatedTaskMetadataSchema }) });
    expect(issuesOf(schema, meta)).toBe('_meta["io.modelcontextprotocol/related-task"]: expected object, received number');
  });

  it("names the accepted discriminator values", () => {
    expect(issuesOf(callToolResult, { content: [{ type: "video" }] })).toBe(
      'content[0].type: expected one of "text" | "image" | "audio" | "resource_link" | "resource"',
    );
  });

  it("lists the types a union of primitives accepts", () => {
    expect(issuesOf(latest.CancelledNotificationParamsSchema, { requestId: 1.5 })).toBe(
      "requestId: expected string | integer, received number",
    );
    expect(issuesOf(latest.ProgressNotificationParamsSchema, { progress: 1 })).toBe("progressToken: is required");
    // Shapes that are all objects name the type once.
    expect(issuesOf(callToolResult, "done")).toBe("expected object, received string");
  });

  it("reports a failed union through the branch that was most likely meant", () => {
    // The tool result misses its content; the task alternative would miss its task just as much.
    expect(issuesOf(callToolResult, { isError: true })).toBe("content: is required");
    // A URL elicitation missing its url is closer to the URL branch than to the form branch.
    expect(issuesOf(elicitParams, { mode: "url", message: "m", elicitationId: "e" })).toBe("url: is required");
    expect(issuesOf(elicitParams, { message: "m" })).toBe("requestedSchema: is required");
    // A mistyped string field beats the enum variants, which all miss a field.
    const field = { type: "string", minLength: 1.5 };
    expect(issuesOf(latest.PrimitiveSchemaDefinitionSchema, field)).toBe("minLength: expected integer, received number");
  });

  it("shows the first five issues and counts the rest", () => {
    const value = { taskId: 1, status: 2, createdAt: 3, lastUpdatedAt: 4, ttl: "5", pollInterval: "6", statusMessage: 7 };
    expect(issuesOf(latest.TaskSchema, value)).toBe(
      'taskId: expected string, received number; status: expected "working" | "input_required" | "completed" | "failed" | "cancelled"; ' +
        "statusMessage: expected string, received number; createdAt: expected string, received number; " +
        "lastUpdatedAt: expected string, received number; and 2 more",
    );
  });

  it.each([
    ["a string format", z.looseObject({ mail: z.email() }), { mail: "nope" }, "mail: expected email format"],
    ["a multiple", z.number().check(z.multipleOf(3)), 4, "must be a multiple of 3"],
    ["unknown keys of a strict object", z.strictObject({ a: z.string() }), { a: "x", b: 1 }, 'unknown keys "b"'],
    ["a refinement, in its own words", z.string().check(z.refine(() => false, "must shout")), "x", "must shout"],
    ["a record key", z.record(z.string().check(z.minLength(2)), z.string()), { a: "x" }, "a: invalid record key"],
    ["a map element under an object key", z.map(z.looseObject({}), z.string()), new Map([[{}, 5]]), "invalid map element"],
    ["a non-string literal", z.literal(1n), 2n, "expected 1"],
    ["an exclusive union matched twice", z.xor([z.string(), z.string()]), "x", "matches more than one of the exclusive shapes"],
  ])("describes %s, for schemas handlers bring", (_label, schema, value, expected) => {
    expect(issuesOf(schema, value)).toBe(expected);
  });
});

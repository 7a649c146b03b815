// Validation against plain JSON Schema (2020-12, draft-07 and draft-04 forms) by interpreting the
// schema: no code generation, so it runs under a strict CSP and on edge runtimes.
import { MCPError, MCP_CODES, describeThrown } from "../error-codes/index.js";
import type { ValidationResult } from "../wire/wire-schema.js";
import { compileDocument } from "./compiler.js";
import { isJsonObject } from "./json-values.js";
import type { CompilerSettings } from "./schema-reader.js";
import { validateDocument } from "./validation.js";

export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

export interface JsonSchemaOptions {
  /** `"annotate"` (default): `format` is informative only. `"assert"`: the formats listed in json-schema.md are checked. */
  readonly formats?: "annotate" | "assert";
  /** How deep validation may descend into the data, and how many `$ref`s it may chain without descending. Default 64. */
  readonly maxDepth?: number;
}

export interface JsonSchemaValidator {
  readonly schema: JsonSchema;
  /**
   * Checks `value`; on failure `issues` reads like `count: expected integer, received string`.
   * `rootLabel` names the value in those paths (`"structuredContent"` gives `structuredContent.count: …`).
   * Never throws: limits hit by hostile data or schemas come back as issues. Works detached from its validator.
   */
  readonly validate: (value: unknown, rootLabel?: string) => ValidationResult<unknown>;
}

/** The same thing under the name the client and server code use. */
export type CompiledJsonSchema = JsonSchemaValidator;

const DEFAULT_MAX_DEPTH = 64;

/**
 * Compiles `schema` once for many cheap validations. Throws `MCPError` (`MCP.INVALID_PARAMS`) when
 * the schema is itself invalid: a keyword of the wrong type, a bad regular expression, a `$ref` that
 * does not resolve inside the document, or a keyword this library refuses (`$dynamicRef`).
 */
export function compileJsonSchema(schema: unknown, options: JsonSchemaOptions = {}): JsonSchemaValidator {
  const settings = readSettings(options);
  if (typeof schema !== "boolean" && !isJsonObject(schema)) {
    throw new MCPError(MCP_CODES.INVALID_PARAMS, "invalid JSON Schema: a schema is an object or a boolean");
  }
  const compiled = compileSafely(schema, settings);
  return {
    schema,
    validate: (value, rootLabel) => validateDocument(compiled, settings.maxDepth, value, rootLabel),
  };
}

function readSettings(options: JsonSchemaOptions): CompilerSettings {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (!Number.isInteger(maxDepth) || maxDepth < 1) {
    throw new MCPError(MCP_CODES.INVALID_PARAMS, `maxDepth must be a positive integer, got ${String(maxDepth)}`);
  }
  return { formats: options.formats === "assert" ? "assert" : "annotate", maxDepth };
}

function compileSafely(schema: JsonSchema, settings: CompilerSettings): ReturnType<typeof compileDocument> {
  try {
    return compileDocument(schema, settings);
  } catch (error) {
    if (error instanceof MCPError) throw error;
    const problem = error instanceof RangeError ? "it is nested too deeply to compile" : describeThrown(error);
    throw new MCPError(MCP_CODES.INVALID_PARAMS, `invalid JSON Schema: ${problem}`, { cause: error });
  }
}

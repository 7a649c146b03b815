// Validation against plain JSON Schema (2020-12, draft-07 and draft-04 forms) by interpreting the
// schema: no code generation, so it runs under a strict CSP and on edge runtimes.
import { MCPError, MCP_CODES, describeThrown } from "../error-codes/index.js";
import type { ValidationResult } from "../wire/wire-schema.js";
import { compileDocument, type CompiledDocument } from "./compiler.js";
import { isJsonObject } from "./json-values.js";
import { isUnsupported, type CompilerSettings } from "./schema-reader.js";
import { isAbsoluteUri, resolveUri, splitFragment } from "./uri-resolution.js";
import { validateDocument } from "./validation.js";

export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

export interface JsonSchemaOptions {
  /** `"annotate"` (default): `format` is informative only. `"assert"`: the formats listed in json-schema.md are checked. */
  readonly formats?: "annotate" | "assert";
  /** How deep validation may descend into the data, and how many `$ref`s it may chain without descending. Default 64. */
  readonly maxDepth?: number;
  /**
   * Documents a `$ref` may name by their absolute URI (`"https://example.com/defs.json#/$defs/id"`),
   * given beforehand: nothing is ever fetched.
   */
  readonly schemas?: Readonly<Record<string, JsonSchema>>;
  /**
   * A schema that uses what this validator cannot check (`$dynamicRef`, `$recursiveRef`, a `$ref` to a
   * document not given in `schemas`): `"refuse"` (default here) throws, `"skip"` gives a validator that
   * accepts every value and says why in `unchecked`.
   */
  readonly unsupported?: "refuse" | "skip";
}

export interface JsonSchemaValidator {
  readonly schema: JsonSchema;
  /**
   * Checks `value`; on failure `issues` reads like `count: expected integer, received string`.
   * `rootLabel` names the value in those paths (`"structuredContent"` gives `structuredContent.count: …`).
   * Never throws: limits hit by hostile data or schemas come back as issues. Works detached from its validator.
   */
  readonly validate: (value: unknown, rootLabel?: string) => ValidationResult<unknown>;
  /** Set only under `unsupported: "skip"`, when the schema could not be compiled: why `validate` accepts every value. */
  readonly unchecked?: string | undefined;
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
  if (typeof compiled === "string") return { schema, validate: (value) => ({ ok: true, value }), unchecked: compiled };
  return {
    schema,
    validate: (value, rootLabel) => validateDocument(compiled, settings.maxDepth, value, rootLabel),
  };
}

interface Settings extends CompilerSettings {
  readonly unsupported: "refuse" | "skip";
}

function readSettings(options: JsonSchemaOptions): Settings {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (!Number.isInteger(maxDepth) || maxDepth < 1) {
    throw new MCPError(MCP_CODES.INVALID_PARAMS, `maxDepth must be a positive integer, got ${String(maxDepth)}`);
  }
  return {
    formats: options.formats === "assert" ? "assert" : "annotate",
    maxDepth,
    schemas: readSchemas(options.schemas ?? {}),
    unsupported: options.unsupported === "skip" ? "skip" : "refuse",
  };
}

/** The `schemas` option by normalised URI; a key that is no absolute URI, or a value that is no schema, is refused. */
function readSchemas(schemas: Readonly<Record<string, JsonSchema>>): ReadonlyMap<string, unknown> {
  const documents = new Map<string, unknown>();
  for (const [uri, document] of Object.entries(schemas)) {
    const [resource, fragment] = splitFragment(uri);
    if (!isAbsoluteUri(uri) || fragment !== "")
      throw new MCPError(MCP_CODES.INVALID_PARAMS, `schemas: ${JSON.stringify(uri)} must be an absolute URI without a fragment`);
    if (typeof document !== "boolean" && !isJsonObject(document))
      throw new MCPError(MCP_CODES.INVALID_PARAMS, `schemas: the schema given for ${JSON.stringify(uri)} is not an object or a boolean`);
    // Normalised as a reference to it resolves (dot segments removed), so the two compare equal.
    documents.set(resolveUri(resource, resource), document);
  }
  return documents;
}

/** The compiled document, or (under `unsupported: "skip"`) why it could not be compiled. */
function compileSafely(schema: JsonSchema, settings: Settings): CompiledDocument | string {
  try {
    return compileDocument(schema, settings);
  } catch (error) {
    if (settings.unsupported === "skip" && isUnsupported(error)) return error.message;
    if (error instanceof MCPError) throw error;
    const problem = error instanceof RangeError ? "it is nested too deeply to compile" : describeThrown(error);
    throw new MCPError(MCP_CODES.INVALID_PARAMS, `invalid JSON Schema: ${problem}`, { cause: error });
  }
}

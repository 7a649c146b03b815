import { MCPError, MCP_CODES } from "../error-codes/index.js";
import { appendPointer } from "./json-pointer.js";
import { canonicalKey, isJsonObject, type JsonObject } from "./json-values.js";
import type { SchemaNode } from "./node.js";
import { compilePattern } from "./patterns.js";

export interface CompilerSettings {
  readonly formats: "annotate" | "assert";
  readonly maxDepth: number;
  /** The documents of the `schemas` option, by absolute URI without fragment. */
  readonly schemas: ReadonlyMap<string, unknown>;
}

/** What keyword compilers may ask of the compiler. */
export interface CompileContext {
  readonly settings: CompilerSettings;
  /** Whether `schema` is read as draft-07 or older, where a `$ref` hides its sibling keywords. */
  legacyRefs(schema: JsonObject): boolean;
  compile(schema: unknown, pointer: string): SchemaNode;
  /** The node `ref` names, resolved against the base URI of `holder`, the schema object that holds it. */
  resolveRef(ref: string, holder: JsonObject, pointer: string): SchemaNode;
  /** Called by `unevaluated*`: every run must then record what each subschema evaluated. */
  trackEvaluation(): void;
}

export function invalidSchema(pointer: string, problem: string): MCPError {
  return new MCPError(MCP_CODES.INVALID_PARAMS, `invalid JSON Schema at ${pointer}: ${problem}`);
}

// The errors of schemas that may well be valid but use what this validator cannot check. A mark, not a
// subclass: `instanceof` on MCPError and its subclasses reads a brand, which every MCPError carries.
const unsupportedErrors = /* @__PURE__ */ new WeakSet<MCPError>();

/**
 * A schema that uses what this validator cannot check (`$dynamicRef`, a document it was not given):
 * refused like an invalid one, unless the option `unsupported` is `"skip"`.
 */
export function unsupportedSchema(pointer: string, problem: string): MCPError {
  const error = new MCPError(MCP_CODES.INVALID_PARAMS, `unsupported JSON Schema at ${pointer}: ${problem}`);
  unsupportedErrors.add(error);
  return error;
}

export function isUnsupported(error: unknown): error is MCPError {
  // `has` answers false for anything not in the set, a non-object included.
  return unsupportedErrors.has(error as MCPError);
}

const isString = (value: unknown): value is string => typeof value === "string";
const isBoolean = (value: unknown): value is boolean => typeof value === "boolean";
const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
const isPositiveNumber = (value: unknown): value is number => isNumber(value) && value > 0;
const isNumberOrBoolean = (value: unknown): value is number | boolean => isNumber(value) || isBoolean(value);
const isList = (value: unknown): value is readonly unknown[] => Array.isArray(value);
const isStringList = (value: unknown): value is readonly string[] => isList(value) && value.every(isString);
const isSchemaList = (value: unknown): value is readonly unknown[] => isList(value) && value.length > 0;

/** Reads the keywords of one schema object, checking their types; a wrong one is an `MCPError` naming its pointer. */
export class SchemaReader {
  readonly schema: JsonObject;
  readonly pointer: string;
  readonly context: CompileContext;

  constructor(schema: JsonObject, pointer: string, context: CompileContext) {
    this.schema = schema;
    this.pointer = pointer;
    this.context = context;
  }

  has(keyword: string): boolean {
    return this.raw(keyword) !== undefined;
  }

  raw(keyword: string): unknown {
    return Object.hasOwn(this.schema, keyword) ? this.schema[keyword] : undefined;
  }

  fail(keyword: string, problem: string): never {
    throw invalidSchema(appendPointer(this.pointer, keyword), problem);
  }

  string(keyword: string): string | undefined {
    return this.#read(keyword, isString, "must be a string");
  }

  boolean(keyword: string): boolean | undefined {
    return this.#read(keyword, isBoolean, "must be a boolean");
  }

  number(keyword: string): number | undefined {
    return this.#read(keyword, isNumber, "must be a number");
  }

  /** `exclusiveMinimum`/`exclusiveMaximum`: a number since draft 6, a boolean in draft 4. */
  numberOrBoolean(keyword: string): number | boolean | undefined {
    return this.#read(keyword, isNumberOrBoolean, "must be a number (or, in draft 4, a boolean)");
  }

  positiveNumber(keyword: string): number | undefined {
    return this.#read(keyword, isPositiveNumber, "must be a number greater than 0");
  }

  count(keyword: string): number | undefined {
    return this.#read(keyword, isCount, "must be a non-negative integer");
  }

  list(keyword: string): readonly unknown[] | undefined {
    return this.#read(keyword, isList, "must be an array");
  }

  /** A copy, so changing the schema after compiling changes nothing. */
  strings(keyword: string): readonly string[] | undefined {
    const strings = this.#read(keyword, isStringList, "must be an array of strings");
    return strings === undefined ? undefined : [...strings];
  }

  pattern(keyword: string): RegExp | undefined {
    const source = this.string(keyword);
    return source === undefined ? undefined : this.#regex(source, appendPointer(this.pointer, keyword));
  }

  /** `patternProperties`: each key compiled as a regular expression, each value as a schema. */
  patternSchemas(keyword: string): { readonly pattern: RegExp; readonly node: SchemaNode }[] | undefined {
    const nodes = this.schemaMap(keyword);
    if (nodes === undefined) return undefined;
    const at = appendPointer(this.pointer, keyword);
    return [...nodes].map(([source, node]) => ({ pattern: this.#regex(source, appendPointer(at, source)), node }));
  }

  schemaNode(keyword: string): SchemaNode | undefined {
    const schema = this.raw(keyword);
    return schema === undefined ? undefined : this.context.compile(schema, appendPointer(this.pointer, keyword));
  }

  schemaNodes(keyword: string): SchemaNode[] | undefined {
    const schemas = this.#read(keyword, isSchemaList, "must be a non-empty array of schemas");
    const at = appendPointer(this.pointer, keyword);
    return schemas?.map((schema, index) => this.context.compile(schema, appendPointer(at, index)));
  }

  schemaMap(keyword: string): ReadonlyMap<string, SchemaNode> | undefined {
    const schemas = this.#read(keyword, isJsonObject, "must be an object of schemas");
    if (schemas === undefined) return undefined;
    const at = appendPointer(this.pointer, keyword);
    return new Map(Object.entries(schemas).map(([name, schema]) => [name, this.context.compile(schema, appendPointer(at, name))]));
  }

  /** `canonicalKey` of a `const`/`enum` value, refused when it nests past `maxDepth`. */
  canonical(keyword: string, value: unknown): string {
    try {
      return canonicalKey(value, this.context.settings.maxDepth);
    } catch {
      return this.fail(keyword, `holds a value nested deeper than ${this.context.settings.maxDepth} levels`);
    }
  }

  #regex(source: string, pointer: string): RegExp {
    const pattern = compilePattern(source);
    if (pattern === undefined) throw invalidSchema(pointer, `is not a valid regular expression: ${source}`);
    return pattern;
  }

  #read<T>(keyword: string, accepts: (value: unknown) => value is T, problem: string): T | undefined {
    const value = this.raw(keyword);
    if (value === undefined) return undefined;
    return accepts(value) ? value : this.fail(keyword, problem);
  }
}

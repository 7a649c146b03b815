import type { $ZodType } from "zod/v4/core";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, describeThrown } from "../../error-codes/mcp-error.js";
import { compileJsonSchema, type JsonSchemaOptions } from "../../json-schema/json-schema.js";
import { loadedJsonSchemaConverter } from "../../schemas/wire-loader.js";
import { ownParse, validateWithZod } from "../../schemas/zod-validation.js";
import type { ValidationResult } from "../../wire/wire-schema.js";
import { summarizeIssues } from "../../wire/issues.js";
import type { ElicitRequestParams, ElicitResult } from "../../schemas/schemas.js";
import type {
  ArgumentsSchema,
  JsonSchemaObject,
  StandardElicitParams,
  StandardSchemaResult,
  StandardSchemaV1,
} from "./mcp-server.types.js";
import { withFields } from "../../types/objects.js";

/**
 * A schema given at registration, ready for the wire (JSON Schema) and for checking values (a Standard Schema validator may answer later).
 */
export interface PreparedSchema {
  readonly jsonSchema: JsonSchemaObject;
  check(value: unknown): ValidationResult<unknown> | Promise<ValidationResult<unknown>>;
}

/**
 * How a server compiles the plain JSON Schemas of its tools and prompts, and where it tells of one it
 * cannot check. Each server has its own (with its own caches of what it prepared: tools.ts, prompts.ts),
 * so two servers registering the same configuration object each apply theirs.
 */
export interface SchemaSettings {
  readonly options: JsonSchemaOptions;
  readonly unchecked: (subject: string, reason: string) => void;
}

const DEFAULT_SETTINGS: SchemaSettings = { options: {}, unchecked: () => undefined };

function isZodSchema(schema: ArgumentsSchema): schema is $ZodType {
  return "_zod" in schema;
}

type JsonSchemaParams = NonNullable<Parameters<typeof import("zod/v4/core").toJSONSchema>[1]>;

/** Zod's own converter on the schema (classic zod has one), else the one the server loaded for a zod/mini schema. */
function converterOf(schema: $ZodType): ((params: JsonSchemaParams) => unknown) | undefined {
  const own = (schema as { toJSONSchema?: unknown }).toJSONSchema;
  if (typeof own === "function") return (params) => (own as (params: JsonSchemaParams) => unknown).call(schema, params);
  const converter = loadedJsonSchemaConverter();
  return converter && ((params) => converter.toJSONSchema(schema, params));
}

/** Whether a schema can be prepared now: anything but a zod/mini schema before the converter loads (the server loads it for them). */
function preparable(schema: ArgumentsSchema | undefined): boolean {
  return schema === undefined || !isZodSchema(schema) || converterOf(schema) !== undefined;
}

/**
 * Whether a schema waits for zod's converter (a zod/mini one before it loads), checked till then by
 * its definition: it must be a zod object, which the converter turns into `type: "object"`.
 */
export function waitsForConverter(schema: ArgumentsSchema | undefined, io: "input" | "output", owner: string): boolean {
  if (preparable(schema)) return false;
  checkParsable(schema as $ZodType, io);
  if ((schema as $ZodType)["_zod"].def.type !== "object") throw notAnObjectSchema(io, owner);
  return true;
}

/** A zod schema is checked through its own `safeParse`, which classic and zod/mini schemas carry. */
function checkParsable(schema: $ZodType, io: "input" | "output"): void {
  if (typeof (schema as { safeParse?: unknown }).safeParse !== "function")
    throw new MCPError(MCP_CODES.INVALID_PARAMS, `The ${io} schema must be a classic zod or zod/mini schema, or JSON Schema`);
}

function notAnObjectSchema(io: "input" | "output", owner: string): MCPError {
  return new MCPError(MCP_CODES.INVALID_PARAMS, `The ${io} schema of ${owner} must describe an object (type "object")`);
}

/**
 * Prepares an input or output schema of a tool: Zod schemas are advertised through Zod's own
 * JSON Schema 2020-12 converter and checked by Zod; another Standard Schema validator through its
 * own converter (Standard JSON Schema, or `toJsonSchema()`) and its `validate`; plain JSON Schema
 * is checked by our interpreter.
 */
export function prepareObjectSchema(
  schema: ArgumentsSchema,
  io: "input" | "output",
  owner: string,
  settings: SchemaSettings = DEFAULT_SETTINGS,
): PreparedSchema {
  // A zod/mini schema before the converter loads (only an elicitation's gets here) is one without Standard JSON Schema.
  const prepared =
    isZodSchema(schema) && converterOf(schema)
      ? fromZod(schema, io)
      : "~standard" in schema
        ? fromStandard(schema as StandardSchemaV1, io, owner)
        : fromJsonSchema(schema, `the ${io} schema of ${owner}`, settings);
  if (prepared.jsonSchema["type"] !== "object") throw notAnObjectSchema(io, owner);
  return prepared;
}

const preparedElicitations = new WeakMap<object, PreparedSchema>();

/**
 * A handler's elicitation: a form whose `requestedSchema` is a Standard Schema validator asks with
 * the validator's JSON Schema, and an accepted answer is checked by it (zod's through zod's own
 * converter and parse, as a tool's are).
 */
export async function elicitWith(
  ask: (params: ElicitRequestParams) => Promise<ElicitResult>,
  params: ElicitRequestParams | StandardElicitParams<StandardSchemaV1>,
): Promise<ElicitResult> {
  const schema = params.requestedSchema as object | undefined;
  if (!schema || !("~standard" in schema)) return ask(params as ElicitRequestParams);
  // Converted once per validator: a handler asks with the same one on every call (and, in the stateless era, every round).
  let prepared = preparedElicitations.get(schema);
  if (!prepared) {
    prepared = prepareObjectSchema(schema, "input", "the elicitation");
    preparedElicitations.set(schema, prepared);
  }
  const result = await ask(withFields(params, { requestedSchema: prepared.jsonSchema }) as ElicitRequestParams);
  if (result.action !== "accept") return result;
  const checked = await prepared.check(result.content ?? {});
  if (!checked.ok)
    throw new MCPError(MCP_CODES.INVALID_PARAMS, `The client's elicitation answer does not match the requested schema: ${checked.issues}`, {
      data: result,
    });
  return withFields(result, { content: checked.value as ElicitResult["content"] });
}

function fromZod(schema: $ZodType, io: "input" | "output"): PreparedSchema {
  checkParsable(schema, io);
  // Tools are prepared only once their schemas are preparable (the server loads the converter otherwise).
  const convert = converterOf(schema) as (params: JsonSchemaParams) => unknown;
  const { $schema: _dialect, ...jsonSchema } = convert({ target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchemaObject;
  return { jsonSchema, check: (value) => validateWithZod(ownParse, schema, value) };
}

/** A validator's own JSON Schema of the `io` side, and its `validate` (sync or async) with its issues summarised as zod's are. */
function fromStandard(schema: StandardSchemaV1, io: "input" | "output", owner: string): PreparedSchema {
  const standard = schema["~standard"];
  let converted: JsonSchemaObject | undefined;
  try {
    converted = standard.jsonSchema
      ? standard.jsonSchema[io]({ target: "draft-2020-12" })
      : (schema as { toJsonSchema?: () => JsonSchemaObject }).toJsonSchema?.();
  } catch (error) {
    // A converter refuses what JSON Schema cannot say (valibot: a transform, a custom check).
    throw new MCPError(
      MCP_CODES.INVALID_PARAMS,
      `The ${io} schema of ${owner} (${standard.vendor}) cannot be given as JSON Schema: ${describeThrown(error)}`,
      { cause: error },
    );
  }
  if (!converted)
    throw new MCPError(
      MCP_CODES.INVALID_PARAMS,
      `The ${io} schema of ${owner} (${standard.vendor}) has no JSON Schema: ` +
        "wrap it in its Standard JSON Schema converter (valibot: toStandardJsonSchema)",
    );
  const { $schema: _dialect, ...jsonSchema } = converted;
  return { jsonSchema, check: async (value) => fromResult(await standard.validate(value)) };
}

function fromResult(result: StandardSchemaResult<unknown>): ValidationResult<unknown> {
  if (!result.issues) return { ok: true, value: result.value };
  // A path segment is a key or an object with one.
  return {
    ok: false,
    issues: summarizeIssues(
      result.issues.map(({ message, path = [] }) => ({
        code: "custom",
        message,
        path: path.map((key) => (key as { key?: PropertyKey }).key ?? (key as PropertyKey)),
      })),
    ),
  };
}

/**
 * Checked by our interpreter. A legal schema it cannot check (`$dynamicRef`, a document not given)
 * is still served: its values pass unchecked, and the server tells of it (unless told to refuse it).
 */
function fromJsonSchema(schema: JsonSchemaObject, subject: string, settings: SchemaSettings): PreparedSchema {
  const validator = compileJsonSchema(schema, { ...settings.options, unsupported: settings.options.unsupported ?? "skip" });
  if (validator.unchecked !== undefined) settings.unchecked(subject, validator.unchecked);
  return { jsonSchema: schema, check: (value) => validator.validate(value) };
}

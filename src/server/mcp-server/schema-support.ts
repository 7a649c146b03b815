import { toJSONSchema, type $ZodType } from "zod/v4/core";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { compileJsonSchema } from "../../json-schema/json-schema.js";
import { validate, type ValidationResult } from "../../schemas/validate.js";
import type { ArgumentsSchema, JsonSchemaObject } from "./mcp-server.types.js";

/** A schema given at registration, ready for the wire (JSON Schema) and for checking values. */
export interface PreparedSchema {
  readonly jsonSchema: JsonSchemaObject;
  check(value: unknown): ValidationResult<unknown>;
}

function isZodSchema(schema: ArgumentsSchema): schema is $ZodType {
  return "_zod" in schema;
}

/**
 * Prepares an input or output schema of a tool: Zod schemas are advertised through Zod's own
 * JSON Schema 2020-12 converter and checked by Zod; plain JSON Schema is checked by our interpreter.
 */
export function prepareObjectSchema(schema: ArgumentsSchema, io: "input" | "output", owner: string): PreparedSchema {
  const prepared = isZodSchema(schema) ? fromZod(schema, io) : fromJsonSchema(schema);
  if (prepared.jsonSchema["type"] !== "object") {
    throw new MCPError(MCP_CODES.INVALID_PARAMS, `The ${io} schema of ${owner} must describe an object (type "object")`);
  }
  return prepared;
}

function fromZod(schema: $ZodType, io: "input" | "output"): PreparedSchema {
  const { $schema: _dialect, ...jsonSchema } = toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchemaObject;
  return { jsonSchema, check: (value) => validate(schema, value) };
}

function fromJsonSchema(schema: JsonSchemaObject): PreparedSchema {
  const validator = compileJsonSchema(schema);
  return { jsonSchema: schema, check: (value) => validator.validate(value) };
}

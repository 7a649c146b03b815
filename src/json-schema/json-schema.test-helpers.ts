import { compileJsonSchema, type JsonSchemaOptions } from "./json-schema.js";

/** Whether `value` passes `schema`. */
export function passes(schema: unknown, value: unknown, options?: JsonSchemaOptions): boolean {
  return compileJsonSchema(schema, options).validate(value).ok;
}

/** The issue line for a value that must fail. */
export function issuesOf(schema: unknown, value: unknown, options?: JsonSchemaOptions): string {
  const result = compileJsonSchema(schema, options).validate(value);
  if (result.ok) throw new Error(`expected ${JSON.stringify(value)} to fail`);
  return result.issues;
}

/** The message of the error `compileJsonSchema` throws for an invalid schema. */
export function compileErrorOf(schema: unknown, options?: JsonSchemaOptions): string {
  try {
    compileJsonSchema(schema, options);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected the schema to be refused");
}

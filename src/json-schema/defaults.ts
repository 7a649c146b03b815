import { isJsonObject, type JsonObject } from "./json-values.js";
import type { JsonSchema } from "./json-schema.js";

// Defaults are filled as deep as schemas and data nest, up to the validator's default depth.
const MAX_DEPTH = 64;

/**
 * A copy of `value` with each absent (or `undefined`) property that `schema.properties` gives a
 * `default` filled with a copy of that default, recursively into nested objects, filled defaults
 * included (SEP-1034: a client fills an elicitation answer before sending it). `value` and `schema`
 * are never mutated; values that are not objects come back unchanged.
 */
export function applyDefaults(schema: JsonSchema, value: unknown): unknown {
  return fillDefaults(schema, value, 0);
}

function fillDefaults(schema: unknown, value: unknown, depth: number): unknown {
  const properties = isJsonObject(schema) && Object.hasOwn(schema, "properties") ? schema["properties"] : undefined;
  if (!isJsonObject(properties) || !isJsonObject(value) || depth >= MAX_DEPTH) return value;
  const filled: Record<string, unknown> = { ...value };
  for (const [key, propertySchema] of Object.entries(properties)) {
    const current = Object.hasOwn(value, key) ? value[key] : undefined;
    const next = current === undefined ? defaultOf(propertySchema) : current;
    if (next !== undefined) setOwn(filled, key, fillDefaults(propertySchema, next, depth + 1));
  }
  return filled;
}

function defaultOf(schema: unknown): unknown {
  return isJsonObject(schema) && Object.hasOwn(schema, "default") ? copyJson(schema["default"], 0) : undefined;
}

// A plain assignment to "__proto__" would set the prototype instead of a property.
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function copyJson(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => copyJson(item, depth + 1));
  return Object.fromEntries(Object.entries(value as JsonObject).map(([key, item]) => [key, copyJson(item, depth + 1)]));
}

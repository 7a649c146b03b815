import { appendPointer } from "./json-pointer.js";
import { isJsonObject, type JsonObject } from "./json-values.js";

const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  "additionalProperties",
  "propertyNames",
  "items",
  "additionalItems",
  "contains",
  "unevaluatedProperties",
  "unevaluatedItems",
  "not",
  "if",
  "then",
  "else",
]);
const SCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set(["allOf", "anyOf", "oneOf", "prefixItems", "items"]);
const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
]);

/**
 * Calls `visit` with each schema directly inside `schema` (not inside `const`, `enum`, `default`…), its keyword, and its name in a map of
 * schemas.
 */
export function forEachSubschema(
  schema: JsonObject,
  pointer: string,
  visit: (subschema: unknown, pointer: string, keyword: string, name?: string) => void,
): void {
  for (const [keyword, value] of Object.entries(schema)) {
    const at = appendPointer(pointer, keyword);
    if (SCHEMA_MAP_KEYWORDS.has(keyword) && isJsonObject(value)) {
      for (const [name, subschema] of Object.entries(value)) visit(subschema, appendPointer(at, name), keyword, name);
    } else if (SCHEMA_LIST_KEYWORDS.has(keyword) && Array.isArray(value)) {
      value.forEach((subschema, index) => visit(subschema, appendPointer(at, index), keyword));
    } else if (SCHEMA_KEYWORDS.has(keyword)) {
      visit(value, at, keyword);
    }
  }
}

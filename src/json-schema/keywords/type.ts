import { canonicalKey, describeValue, hasJsonType, isJsonTypeName, jsonTypeOf, type JsonTypeName } from "../json-values.js";
import { describeTypeMismatch, describeValueMismatch } from "../issues.js";
import type { KeywordCheck } from "../node.js";
import type { SchemaReader } from "../schema-reader.js";

/** `type`, `const` and `enum`. */
export function compileTypeKeywords(reader: SchemaReader): KeywordCheck[] {
  const checks: KeywordCheck[] = [];
  const types = readTypes(reader);
  if (types !== undefined) checks.push(checkType(types));
  if (reader.has("const")) checks.push(checkValues(reader, "const", [reader.raw("const")]));
  const values = reader.list("enum");
  if (values !== undefined) checks.push(checkValues(reader, "enum", values));
  return checks;
}

const TYPE_PROBLEM =
  'must be a type name ("null", "boolean", "object", "array", "number", "string", "integer") or a non-empty array of them';

function readTypes(reader: SchemaReader): readonly JsonTypeName[] | undefined {
  const type = reader.raw("type");
  if (type === undefined) return undefined;
  const types: readonly unknown[] = Array.isArray(type) ? type : [type];
  if (types.length === 0 || !types.every(isJsonTypeName)) return reader.fail("type", TYPE_PROBLEM);
  return [...types];
}

function checkType(types: readonly JsonTypeName[]): KeywordCheck {
  return (value, at, run) =>
    types.some((type) => hasJsonType(value, type)) || run.fail(at, () => describeTypeMismatch(types, jsonTypeOf(value)));
}

function checkValues(reader: SchemaReader, keyword: string, values: readonly unknown[]): KeywordCheck {
  const { maxDepth } = reader.context.settings;
  const allowed = new Set(values.map((value) => reader.canonical(keyword, value)));
  const described = values.map(describeValue);
  return (value, at, run) => allowed.has(canonicalKey(value, maxDepth)) || run.fail(at, () => describeValueMismatch(described));
}

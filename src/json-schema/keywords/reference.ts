import { appendPointer } from "../json-pointer.js";
import { validateNode, type KeywordCheck } from "../node.js";
import { unsupportedSchema, type SchemaReader } from "../schema-reader.js";

const UNSUPPORTED_REFERENCES = ["$dynamicRef", "$recursiveRef"];

/** `$ref`, resolved at compile time; `$dynamicRef` and `$recursiveRef` are refused rather than ignored. */
export function compileReference(reader: SchemaReader): KeywordCheck[] {
  for (const keyword of UNSUPPORTED_REFERENCES) {
    if (reader.has(keyword)) throw unsupportedSchema(appendPointer(reader.pointer, keyword), "is not supported (only $ref is)");
  }
  const ref = reader.string("$ref");
  if (ref === undefined) return [];
  const target = reader.context.resolveRef(ref, reader.schema, appendPointer(reader.pointer, "$ref"));
  return [(value, at, run, evaluation) => run.followRef(at, ref, () => validateNode(target, value, at, run, evaluation))];
}

import { validateInto, validateNode, type KeywordCheck } from "../node.js";
import type { SchemaReader } from "../schema-reader.js";

/** `if`/`then`/`else`: `then` applies where `if` passes, `else` where it fails; without `if` both are ignored. */
export function compileConditional(reader: SchemaReader): KeywordCheck[] {
  const condition = reader.schemaNode("if");
  if (condition === undefined) return [];
  const whenTrue = reader.schemaNode("then");
  const whenFalse = reader.schemaNode("else");
  return [
    (value, at, run, evaluation) => {
      const branch = validateInto(undefined, condition, value, at, run, evaluation) ? whenTrue : whenFalse;
      return branch === undefined || validateNode(branch, value, at, run, evaluation);
    },
  ];
}

import { IGNORED_EVALUATION } from "../evaluation.js";
import { validateInto, type KeywordCheck } from "../node.js";
import type { SchemaReader } from "../schema-reader.js";
import { countItems } from "./items.js";

/** `contains` with `minContains` (default 1) and `maxContains`; the matching items count as evaluated. */
export function compileContains(reader: SchemaReader): KeywordCheck[] {
  const node = reader.schemaNode("contains");
  const minContains = reader.count("minContains") ?? 1;
  const maxContains = reader.count("maxContains");
  if (node === undefined) return [];
  return [
    (value, at, run, evaluation) => {
      if (!Array.isArray(value)) return true;
      let matches = 0;
      for (const [index, item] of value.entries()) {
        if (!validateInto(undefined, node, item, run.child(at, index), run, IGNORED_EVALUATION)) continue;
        matches++;
        evaluation.addItem(index);
      }
      if (matches < minContains) return run.fail(at, () => describeBound("least", minContains));
      return maxContains === undefined || matches <= maxContains || run.fail(at, () => describeBound("most", maxContains));
    },
  ];
}

function describeBound(bound: "least" | "most", count: number): string {
  return `must contain at ${bound} ${countItems(count)} matching the "contains" schema`;
}

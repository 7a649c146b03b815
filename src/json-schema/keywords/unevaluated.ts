import type { TrackedEvaluation } from "../evaluation.js";
import { describeName, isJsonObject } from "../json-values.js";
import { validateChild, type KeywordCheck, type SchemaNode } from "../node.js";
import type { SchemaReader } from "../schema-reader.js";

/** `unevaluatedProperties` and `unevaluatedItems`; they run last, once every sibling has recorded what it evaluated. */
export function compileUnevaluated(reader: SchemaReader): KeywordCheck[] {
  const checks: KeywordCheck[] = [];
  const properties = reader.schemaNode("unevaluatedProperties");
  if (properties !== undefined) checks.push(checkUnevaluatedProperties(properties, reader.raw("unevaluatedProperties") === false));
  const items = reader.schemaNode("unevaluatedItems");
  if (items !== undefined) checks.push(checkUnevaluatedItems(items));
  if (checks.length > 0) reader.context.trackEvaluation();
  return checks;
}

// Compiling either keyword turns tracking on for every run, so the evaluation here is always a tracked one.
function checkUnevaluatedProperties(node: SchemaNode, rejects: boolean): KeywordCheck {
  return (value, at, run, evaluation) => {
    if (!isJsonObject(value)) return true;
    const evaluated = evaluation as TrackedEvaluation;
    let valid = true;
    for (const key of Object.keys(value)) {
      if (evaluated.hasProperty(key)) continue;
      evaluated.addProperty(key);
      const passed = rejects
        ? run.fail(at, () => `unexpected property ${describeName(key)}`)
        : validateChild(node, value[key], run.child(at, key), run);
      if (passed) continue;
      if (!run.collecting) return false;
      valid = false;
    }
    return valid;
  };
}

function checkUnevaluatedItems(node: SchemaNode): KeywordCheck {
  return (value, at, run, evaluation) => {
    if (!Array.isArray(value)) return true;
    const evaluated = evaluation as TrackedEvaluation;
    let valid = true;
    for (const [index, item] of value.entries()) {
      if (evaluated.hasItem(index) || validateChild(node, item, run.child(at, index), run)) continue;
      if (!run.collecting) return false;
      valid = false;
    }
    evaluated.addAllItems();
    return valid;
  };
}

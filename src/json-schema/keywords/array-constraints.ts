import { canonicalKey } from "../json-values.js";
import type { KeywordCheck } from "../node.js";
import type { SchemaReader } from "../schema-reader.js";
import { countItems } from "./items.js";

/** `minItems`, `maxItems` and `uniqueItems`. */
export function compileArrayConstraints(reader: SchemaReader): KeywordCheck[] {
  const checks: KeywordCheck[] = [];
  const minItems = reader.count("minItems");
  if (minItems !== undefined) checks.push(checkLength(`must have at least ${countItems(minItems)}`, (length) => length >= minItems));
  const maxItems = reader.count("maxItems");
  if (maxItems !== undefined) checks.push(checkLength(`must have at most ${countItems(maxItems)}`, (length) => length <= maxItems));
  if (reader.boolean("uniqueItems") === true) checks.push(checkUniqueItems(reader.context.settings.maxDepth));
  return checks;
}

function checkLength(message: string, accepts: (length: number) => boolean): KeywordCheck {
  return (value, at, run) => !Array.isArray(value) || accepts(value.length) || run.fail(at, () => message);
}

// One canonical key per item keeps this linear where comparing every pair would be quadratic.
function checkUniqueItems(maxDepth: number): KeywordCheck {
  return (value, at, run) => {
    if (!Array.isArray(value)) return true;
    const firstIndexOf = new Map<string, number>();
    for (const [index, item] of value.entries()) {
      const key = canonicalKey(item, maxDepth);
      const first = firstIndexOf.get(key);
      if (first !== undefined) return run.fail(at, () => `must not contain duplicates: items [${first}] and [${index}] are equal`);
      firstIndexOf.set(key, index);
    }
    return true;
  };
}

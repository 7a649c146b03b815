import type { EvaluationSink } from "../evaluation.js";
import type { InstancePath } from "../instance-path.js";
import { validateChild, type KeywordCheck, type SchemaNode } from "../node.js";
import type { ValidationRun } from "../run.js";
import type { SchemaReader } from "../schema-reader.js";

/** Positional subschemas, then one for every later item. */
interface ItemLayout {
  readonly prefix: readonly SchemaNode[];
  readonly rest: SchemaNode | undefined;
  /** `items: false` after `prefixItems` (or `additionalItems: false`): reported as a length limit. */
  readonly rejectsRest: boolean;
}

/** `prefixItems` + `items` (2020-12), or `items` as an array + `additionalItems` (draft-07 tuples). */
export function compileItemKeywords(reader: SchemaReader): KeywordCheck[] {
  const layout = readItemLayout(reader);
  if (layout.prefix.length === 0 && layout.rest === undefined) return [];
  return [(value, at, run, evaluation) => !Array.isArray(value) || checkItems(layout, value, at, run, evaluation)];
}

function readItemLayout(reader: SchemaReader): ItemLayout {
  if (Array.isArray(reader.raw("items"))) {
    if (reader.has("prefixItems")) return reader.fail("items", "must be a schema when prefixItems is present");
    return {
      // `items` is an array here, so it reads as one (or throws).
      prefix: reader.schemaNodes("items") as SchemaNode[],
      rest: reader.schemaNode("additionalItems"),
      rejectsRest: reader.raw("additionalItems") === false,
    };
  }
  return {
    prefix: reader.schemaNodes("prefixItems") ?? [],
    rest: reader.schemaNode("items"),
    rejectsRest: reader.raw("items") === false,
  };
}

function checkItems(
  layout: ItemLayout,
  items: readonly unknown[],
  at: InstancePath,
  run: ValidationRun,
  evaluation: EvaluationSink,
): boolean {
  const { prefix, rest } = layout;
  if (items.length > prefix.length && layout.rejectsRest) return run.fail(at, () => `must have at most ${countItems(prefix.length)}`);
  let valid = true;
  for (let index = 0; index < items.length; index++) {
    const node = prefix[index] ?? rest;
    if (node === undefined) break;
    evaluation.addItem(index);
    if (validateChild(node, items[index], run.child(at, index), run)) continue;
    if (!run.collecting) return false;
    valid = false;
  }
  return valid;
}

export function countItems(count: number): string {
  return count === 1 ? "1 item" : `${count} items`;
}

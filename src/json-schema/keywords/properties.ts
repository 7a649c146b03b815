import type { EvaluationSink } from "../evaluation.js";
import type { InstancePath } from "../instance-path.js";
import { describeName, isJsonObject, type JsonObject } from "../json-values.js";
import { validateChild, type KeywordCheck, type SchemaNode } from "../node.js";
import type { ValidationRun } from "../run.js";
import type { SchemaReader } from "../schema-reader.js";

interface PatternProperty {
  readonly pattern: RegExp;
  readonly node: SchemaNode;
}

/** Which subschemas the properties of an object answer to, read together since `additionalProperties` depends on the rest. */
interface PropertyLayout {
  readonly named: ReadonlyMap<string, SchemaNode>;
  readonly patterns: readonly PatternProperty[];
  readonly additional: SchemaNode | undefined;
  /** `additionalProperties: false`: reported at the object, naming the property. */
  readonly rejectsAdditional: boolean;
}

/** `properties`, `patternProperties` and `additionalProperties`. */
export function compilePropertyKeywords(reader: SchemaReader): KeywordCheck[] {
  const named = reader.schemaMap("properties");
  const patterns = reader.patternSchemas("patternProperties") ?? [];
  const additional = reader.schemaNode("additionalProperties");
  if (named === undefined && patterns.length === 0 && additional === undefined) return [];
  const layout: PropertyLayout = {
    named: named ?? new Map(),
    patterns,
    additional,
    rejectsAdditional: reader.raw("additionalProperties") === false,
  };
  return [(value, at, run, evaluation) => !isJsonObject(value) || checkProperties(layout, value, at, run, evaluation)];
}

function checkProperties(
  layout: PropertyLayout,
  object: JsonObject,
  at: InstancePath,
  run: ValidationRun,
  evaluation: EvaluationSink,
): boolean {
  let valid = true;
  for (const key of Object.keys(object)) {
    if (checkProperty(layout, object, key, at, run, evaluation)) continue;
    if (!run.collecting) return false;
    valid = false;
  }
  return valid;
}

function checkProperty(
  layout: PropertyLayout,
  object: JsonObject,
  key: string,
  at: InstancePath,
  run: ValidationRun,
  evaluation: EvaluationSink,
): boolean {
  const nodes = nodesForProperty(layout, key);
  if (nodes.length === 0) {
    if (layout.additional === undefined) return true;
    if (layout.rejectsAdditional) return run.fail(at, () => `unexpected property ${describeName(key)}`);
    nodes.push(layout.additional);
  }
  evaluation.addProperty(key);
  const childAt = run.child(at, key);
  let valid = true;
  for (const node of nodes) {
    if (validateChild(node, object[key], childAt, run)) continue;
    if (!run.collecting) return false;
    valid = false;
  }
  return valid;
}

/** The `properties` and `patternProperties` subschemas that name `key`. */
function nodesForProperty(layout: PropertyLayout, key: string): SchemaNode[] {
  const nodes: SchemaNode[] = [];
  const named = layout.named.get(key);
  if (named !== undefined) nodes.push(named);
  for (const { pattern, node } of layout.patterns) if (pattern.test(key)) nodes.push(node);
  return nodes;
}

import { IGNORED_EVALUATION } from "../evaluation.js";
import type { Issue } from "../issues.js";
import { appendPointer } from "../json-pointer.js";
import { describeName, isJsonObject } from "../json-values.js";
import { validateAll, validateInto, type KeywordCheck, type SchemaNode } from "../node.js";
import type { SchemaReader } from "../schema-reader.js";

/** `propertyNames`, `dependentSchemas` (and the schema form of draft-07 `dependencies`). */
export function compileObjectApplicators(reader: SchemaReader): KeywordCheck[] {
  const checks: KeywordCheck[] = [];
  const propertyNames = reader.schemaNode("propertyNames");
  if (propertyNames !== undefined) checks.push(checkPropertyNames(propertyNames));
  const dependentSchemas = readDependentSchemas(reader);
  if (dependentSchemas.length > 0) checks.push(checkDependentSchemas(dependentSchemas));
  return checks;
}

function readDependentSchemas(reader: SchemaReader): [string, SchemaNode][] {
  const dependencies = reader.raw("dependencies");
  const legacySchemas = isJsonObject(dependencies)
    ? Object.entries(dependencies).filter(([, dependency]) => !Array.isArray(dependency))
    : [];
  const legacy = legacySchemas.map(([trigger, schema]): [string, SchemaNode] => [
    trigger,
    reader.context.compile(schema, appendPointer(appendPointer(reader.pointer, "dependencies"), trigger)),
  ]);
  return [...(reader.schemaMap("dependentSchemas") ?? []), ...legacy];
}

function checkDependentSchemas(dependencies: readonly (readonly [string, SchemaNode])[]): KeywordCheck {
  return (value, at, run, evaluation) => {
    if (!isJsonObject(value)) return true;
    const applicable = dependencies.filter(([trigger]) => Object.hasOwn(value, trigger)).map(([, node]) => node);
    return validateAll(applicable, value, at, run, evaluation);
  };
}

/** Each property name is validated as a string; a failure is reported at the object, quoting the name. */
function checkPropertyNames(node: SchemaNode): KeywordCheck {
  return (value, at, run) => {
    if (!isJsonObject(value)) return true;
    const keys = Object.keys(value);
    if (!run.collecting) return keys.every((key) => validateInto(undefined, node, key, at, run, IGNORED_EVALUATION));
    let valid = true;
    for (const key of keys) {
      const reasons: Issue[] = [];
      if (validateInto(reasons, node, key, at, run, IGNORED_EVALUATION)) continue;
      valid = run.fail(at, () => `invalid property name ${describeName(key)}: ${reasons.map((reason) => reason.message).join(", ")}`);
    }
    return valid;
  };
}

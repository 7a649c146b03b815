import { describeName, isJsonObject, type JsonObject } from "../json-values.js";
import type { KeywordCheck } from "../node.js";
import type { SchemaReader } from "../schema-reader.js";

/** `required`, `dependentRequired` (and the array form of draft-07 `dependencies`), `minProperties`, `maxProperties`. */
export function compileObjectConstraints(reader: SchemaReader): KeywordCheck[] {
  const checks: KeywordCheck[] = [];
  const required = reader.strings("required");
  if (required !== undefined) checks.push(checkRequired(required));
  const dependencies = readDependentRequired(reader);
  if (dependencies.size > 0) checks.push(checkDependentRequired(dependencies));
  const minProperties = reader.count("minProperties");
  if (minProperties !== undefined) checks.push(checkPropertyCount(minProperties, "least", (count) => count >= minProperties));
  const maxProperties = reader.count("maxProperties");
  if (maxProperties !== undefined) checks.push(checkPropertyCount(maxProperties, "most", (count) => count <= maxProperties));
  return checks;
}

function readDependentRequired(reader: SchemaReader): ReadonlyMap<string, readonly string[]> {
  const dependencies = new Map<string, readonly string[]>();
  for (const keyword of ["dependentRequired", "dependencies"]) {
    const map = reader.raw(keyword);
    if (map === undefined) continue;
    if (!isJsonObject(map)) return reader.fail(keyword, "must be an object");
    for (const [trigger, names] of Object.entries(map)) {
      if (keyword === "dependencies" && !Array.isArray(names)) continue; // a schema: see dependentSchemas
      if (!Array.isArray(names) || !names.every((name) => typeof name === "string")) {
        return reader.fail(keyword, `"${trigger}" must list property names (an array of strings)`);
      }
      dependencies.set(trigger, [...names]);
    }
  }
  return dependencies;
}

function checkRequired(names: readonly string[]): KeywordCheck {
  return (value, at, run) => {
    if (!isJsonObject(value)) return true;
    let valid = true;
    for (const name of names) {
      if (Object.hasOwn(value, name)) continue;
      valid = run.fail(at, () => ({ message: `missing required property ${describeName(name)}`, missing: true }));
      if (!run.collecting) return false;
    }
    return valid;
  };
}

function checkDependentRequired(dependencies: ReadonlyMap<string, readonly string[]>): KeywordCheck {
  return (value, at, run) => {
    if (!isJsonObject(value)) return true;
    let valid = true;
    for (const [trigger, names] of dependencies) {
      if (!Object.hasOwn(value, trigger)) continue;
      for (const name of missingNames(value, names)) {
        valid = run.fail(at, () => ({
          message: `missing property ${describeName(name)}, required when ${describeName(trigger)} is present`,
          missing: true,
        }));
        if (!run.collecting) return false;
      }
    }
    return valid;
  };
}

function missingNames(object: JsonObject, names: readonly string[]): string[] {
  return names.filter((name) => !Object.hasOwn(object, name));
}

function checkPropertyCount(limit: number, bound: "least" | "most", accepts: (count: number) => boolean): KeywordCheck {
  const message = `must have at ${bound} ${limit} ${limit === 1 ? "property" : "properties"}`;
  return (value, at, run) => !isJsonObject(value) || accepts(Object.keys(value).length) || run.fail(at, () => message);
}

import { IGNORED_EVALUATION } from "../evaluation.js";
import type { Issue } from "../issues.js";
import { validateAll, validateInto, type KeywordCheck, type SchemaNode } from "../node.js";
import type { SchemaReader } from "../schema-reader.js";

/** `allOf`, `anyOf`, `oneOf` and `not`. */
export function compileCombinators(reader: SchemaReader): KeywordCheck[] {
  const checks: KeywordCheck[] = [];
  const allOf = reader.schemaNodes("allOf");
  if (allOf !== undefined) checks.push((value, at, run, evaluation) => validateAll(allOf, value, at, run, evaluation));
  const anyOf = reader.schemaNodes("anyOf");
  if (anyOf !== undefined) checks.push(checkAnyOf(anyOf));
  const oneOf = reader.schemaNodes("oneOf");
  if (oneOf !== undefined) checks.push(checkOneOf(oneOf));
  const not = reader.schemaNode("not");
  if (not !== undefined) checks.push(checkNot(not));
  return checks;
}

// Every branch runs once, collecting its own issues, so a failure needs no second pass to explain itself.
// With unevaluated* in play every branch must run: each passing one contributes what it evaluated.
function checkAnyOf(branches: readonly SchemaNode[]): KeywordCheck {
  return (value, at, run, evaluation) => {
    const failures: Issue[][] = [];
    let matched = false;
    for (const branch of branches) {
      const issues: Issue[] | undefined = run.collecting && !matched ? [] : undefined;
      if (validateInto(issues, branch, value, at, run, evaluation)) {
        matched = true;
        if (!run.tracksEvaluation) return true;
      } else if (issues !== undefined) {
        failures.push(issues);
      }
    }
    return matched || run.failUnion(at, failures);
  };
}

function checkOneOf(branches: readonly SchemaNode[]): KeywordCheck {
  return (value, at, run, evaluation) => {
    const failures: Issue[][] = [];
    const matches: number[] = [];
    for (const [index, branch] of branches.entries()) {
      const issues: Issue[] | undefined = run.collecting ? [] : undefined;
      if (validateInto(issues, branch, value, at, run, evaluation)) matches.push(index);
      else if (issues !== undefined) failures.push(issues);
      if (matches.length > 1) {
        return run.fail(at, () => `must match exactly one "oneOf" schema, but matches #${matches.join(" and #")}`);
      }
    }
    return matches.length === 1 || run.failUnion(at, failures);
  };
}

function checkNot(node: SchemaNode): KeywordCheck {
  return (value, at, run) =>
    !validateInto(undefined, node, value, at, run, IGNORED_EVALUATION) || run.fail(at, () => 'must not match the "not" schema');
}

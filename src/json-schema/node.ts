import { IGNORED_EVALUATION, TrackedEvaluation, type EvaluationSink } from "./evaluation.js";
import type { InstancePath } from "./instance-path.js";
import type { Issue } from "./issues.js";
import type { ValidationRun } from "./run.js";

/**
 * One compiled keyword (or group of keywords that must be read together). It reports its issues
 * through `run` and returns whether `value` passed; `evaluation` collects what it evaluated.
 */
export type KeywordCheck = (value: unknown, at: InstancePath, run: ValidationRun, evaluation: EvaluationSink) => boolean;

/** A compiled schema: its checks, filled in after the node is registered so `$ref` cycles can point at it. */
export interface SchemaNode {
  readonly checks: KeywordCheck[];
}

export const TRUE_NODE: SchemaNode = { checks: [] };

export const FALSE_NODE: SchemaNode = { checks: [(_value, at, run) => run.fail(at, () => "is not allowed here")] };

/** Runs every check of `node`; while issues are collected it goes on past a failure to report them all. */
export function validateNode(node: SchemaNode, value: unknown, at: InstancePath, run: ValidationRun, evaluation: EvaluationSink): boolean {
  run.spend();
  const local = run.tracksEvaluation ? new TrackedEvaluation() : IGNORED_EVALUATION;
  let valid = true;
  for (const check of node.checks) {
    if (check(value, at, run, local)) continue;
    if (!run.collecting) return false;
    valid = false;
  }
  if (valid) local.copyTo(evaluation);
  return valid;
}

/** `validateNode` with its issues sent to `issues` (`undefined`: only the answer matters). */
export function validateInto(
  issues: Issue[] | undefined,
  node: SchemaNode,
  value: unknown,
  at: InstancePath,
  run: ValidationRun,
  evaluation: EvaluationSink,
): boolean {
  const outer = run.issues;
  run.issues = issues;
  const valid = validateNode(node, value, at, run, evaluation);
  run.issues = outer;
  return valid;
}

/** Every node against the same value, as `allOf` and `dependentSchemas` apply them. */
export function validateAll(
  nodes: Iterable<SchemaNode>,
  value: unknown,
  at: InstancePath,
  run: ValidationRun,
  evaluation: EvaluationSink,
): boolean {
  let valid = true;
  for (const node of nodes) {
    if (validateNode(node, value, at, run, evaluation)) continue;
    if (!run.collecting) return false;
    valid = false;
  }
  return valid;
}

/** A child value (property or item) against one node: a new location, so its own evaluation scope. */
export function validateChild(node: SchemaNode, value: unknown, at: InstancePath, run: ValidationRun): boolean {
  return validateNode(node, value, at, run, IGNORED_EVALUATION);
}

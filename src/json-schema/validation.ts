import { describeThrown } from "../error-codes/index.js";
import type { ValidationResult } from "../wire/wire-schema.js";
import { ValidationAborted } from "./aborted.js";
import type { CompiledDocument } from "./compiler.js";
import { ROOT_PATH, formatLocated } from "./instance-path.js";
import { summarizeIssues } from "./issues.js";
import { countValues } from "./json-values.js";
import { IGNORED_EVALUATION } from "./evaluation.js";
import { validateNode } from "./node.js";
import { ValidationRun } from "./run.js";

// Every run may make this many schema evaluations: far above what a real schema needs for a
// message-sized value, far below what an exponential one wants. A run that needs more gets, once,
// one evaluation of every compiled schema at every value of the data (what a memoising validator
// would spend), and fails when that runs out too.
const BASE_STEPS = 100_000;
const MAX_COUNTED_VALUES = 10_000_000;

/** Validates `value` against a compiled document; never throws. */
export function validateDocument(
  compiled: CompiledDocument,
  maxDepth: number,
  value: unknown,
  rootLabel?: string,
): ValidationResult<unknown> {
  try {
    const run = new ValidationRun({
      maxDepth,
      steps: BASE_STEPS,
      moreSteps: () => countValues(value, maxDepth, MAX_COUNTED_VALUES) * compiled.nodeCount,
      tracksEvaluation: compiled.tracksEvaluation,
    });
    if (validateNode(compiled.root, value, ROOT_PATH, run, IGNORED_EVALUATION)) return { ok: true, value };
    return { ok: false, issues: summarizeIssues(run.collected, rootLabel) };
  } catch (error) {
    return { ok: false, issues: describeAbort(error, rootLabel) };
  }
}

function describeAbort(error: unknown, rootLabel: string | undefined): string {
  if (error instanceof ValidationAborted) return formatLocated(error.at ?? ROOT_PATH, error.message, rootLabel);
  // The engine's own stack limit: reachable only when maxDepth is set far above the default.
  if (error instanceof RangeError)
    return formatLocated(ROOT_PATH, "validation stopped: the schema or the data is nested too deeply", rootLabel);
  return formatLocated(ROOT_PATH, `validation stopped: reading the value threw (${describeThrown(error)})`, rootLabel);
}

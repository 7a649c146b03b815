import type { InstancePath } from "./instance-path.js";
import { describeTypeMismatch, describeValueMismatch, type Issue } from "./issues.js";

/**
 * The issues a failed `anyOf`/`oneOf` reports. When every branch only wanted another type or value
 * of the whole thing, one merged issue says so (`expected string | null, received number`);
 * otherwise the branch the data most likely meant: the one whose type matched, then the one
 * missing the fewest properties, then the one with the fewest issues (the earlier on a tie).
 */
export function chooseUnionIssues(at: InstancePath, branches: readonly (readonly Issue[])[]): readonly Issue[] {
  const merged = mergeAlternatives(at, branches);
  if (merged !== undefined) return [merged];
  return branches.reduce((best, branch) => (compareCloseness(at, branch, best) < 0 ? branch : best));
}

function mergeAlternatives(at: InstancePath, branches: readonly (readonly Issue[])[]): Issue | undefined {
  const alternatives = branches.map((branch) => (branch.length === 1 && branch[0]?.at === at ? branch[0].expected : undefined));
  if (!alternatives.every((alternative) => alternative !== undefined)) return undefined;
  const options = [...new Set(alternatives.flatMap((alternative) => alternative.options))];
  const typeMismatch = alternatives.find((alternative) => alternative.kind === "type");
  return { at, ...(typeMismatch === undefined ? describeValueMismatch(options) : describeTypeMismatch(options, typeMismatch.received)) };
}

function compareCloseness(at: InstancePath, branch: readonly Issue[], best: readonly Issue[]): number {
  const typeDifference = Number(hasTypeMismatchAt(at, branch)) - Number(hasTypeMismatchAt(at, best));
  if (typeDifference !== 0) return typeDifference;
  const missingDifference = countMissing(branch) - countMissing(best);
  return missingDifference !== 0 ? missingDifference : branch.length - best.length;
}

function hasTypeMismatchAt(at: InstancePath, issues: readonly Issue[]): boolean {
  return issues.some((issue) => issue.at === at && issue.expected?.kind === "type");
}

function countMissing(issues: readonly Issue[]): number {
  return issues.filter((issue) => issue.missing === true).length;
}

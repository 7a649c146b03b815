import { formatLocated, type InstancePath } from "./instance-path.js";

/** What a failed union can merge: the types or values each branch wanted. */
export type ExpectedAlternatives =
  | { readonly kind: "type"; readonly options: readonly string[]; readonly received: string }
  | { readonly kind: "value"; readonly options: readonly string[] };

export interface IssueDetails {
  readonly message: string;
  /** A required property that is absent: a union prefers the branch missing the fewest. */
  readonly missing?: boolean;
  readonly expected?: ExpectedAlternatives;
}

export interface Issue extends IssueDetails {
  readonly at: InstancePath;
}

const MAX_REPORTED_ISSUES = 5;

/** One line, like `src/wire/issues.ts` writes: `count: expected integer, received string; and 2 more`. */
export function summarizeIssues(issues: readonly Issue[], rootLabel?: string): string {
  const shown = new Set<string>();
  let consumed = 0;
  for (const issue of issues) {
    if (shown.size === MAX_REPORTED_ISSUES) break;
    shown.add(formatLocated(issue.at, issue.message, rootLabel));
    consumed++;
  }
  const hidden = issues.length - consumed;
  const text = [...shown].join("; ");
  return hidden > 0 ? `${text}; and ${hidden} more` : text;
}

const MAX_LISTED_OPTIONS = 10;

/** `"a" | "b" | 3`, cut after ten options. */
export function listOptions(options: readonly string[]): string {
  const listed = options.slice(0, MAX_LISTED_OPTIONS).join(" | ");
  const hidden = options.length - MAX_LISTED_OPTIONS;
  return hidden > 0 ? `${listed} | … (${hidden} more)` : listed;
}

export function describeTypeMismatch(types: readonly string[], received: string): IssueDetails {
  return { message: `expected ${listOptions(types)}, received ${received}`, expected: { kind: "type", options: types, received } };
}

export function describeValueMismatch(values: readonly string[]): IssueDetails {
  const message = values.length === 0 ? "no value is allowed (the enum is empty)" : `expected ${listOptions(values)}`;
  return { message, expected: { kind: "value", options: values } };
}

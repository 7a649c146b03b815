// The one way the library parses wire data: never through zod's eval-based fast path (CSP and edge
// runtimes forbid it), and with issues summarised into a line fit for a JSON-RPC error message.
import * as z from "zod/mini";

export type ValidationResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: string };

const MAX_REPORTED_ISSUES = 5;

/** Parses `value` with `schema`; on failure, `issues` reads like `params.name: expected string, received number`. */
export function validate<S extends z.core.$ZodType>(schema: S, value: unknown): ValidationResult<z.output<S>> {
  const parsed = z.safeParse(schema, value, { jitless: true, error: describeIssue });
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, issues: summarizeIssues(parsed.error.issues) };
}

interface LocatedMessage {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

function summarizeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const located = issues.flatMap((issue) => locateIssue(issue, []));
  const shown = located.slice(0, MAX_REPORTED_ISSUES).map(formatLocatedMessage);
  const hidden = located.length - shown.length;
  return hidden > 0 ? `${shown.join("; ")}; and ${hidden} more` : shown.join("; ");
}

// A failed union reports every branch; the branch with the fewest issues is most likely the one meant.
function locateIssue(issue: z.core.$ZodIssue, base: readonly PropertyKey[]): LocatedMessage[] {
  const path = [...base, ...issue.path];
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    const closest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best));
    return closest.flatMap((inner) => locateIssue(inner, path));
  }
  return [{ path, message: issue.message }];
}

function formatLocatedMessage({ path, message }: LocatedMessage): string {
  return path.length === 0 ? message : `${formatPath(path)}: ${message}`;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => {
      if (typeof key === "number") return `[${key}]`;
      const name = String(key);
      if (!IDENTIFIER.test(name)) return `[${JSON.stringify(name)}]`;
      return index === 0 ? name : `.${name}`;
    })
    .join("");
}

function describeIssue(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return describeInvalidType(issue.expected, issue.input);
    case "invalid_value":
      return `expected ${listValues(issue.values)}`;
    case "invalid_union":
      return Array.isArray(issue.options)
        ? `expected one of ${listValues(issue.options)}`
        : "matches none of the accepted shapes";
    case "too_big":
      return `${issue.origin === "number" ? "must be" : "length must be"} at most ${String(issue.maximum)}`;
    case "too_small":
      return `${issue.origin === "number" ? "must be" : "length must be"} at least ${String(issue.minimum)}`;
    default:
      return `invalid (${issue.code})`;
  }
}

function describeInvalidType(expected: string, input: unknown): string {
  if (expected === "never") return "is not allowed here";
  if (input === undefined) return "is required";
  return `expected ${expected === "int" ? "integer" : expected}, received ${typeName(input)}`;
}

function typeName(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "array";
  return typeof input;
}

function listValues(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(" | ");
}

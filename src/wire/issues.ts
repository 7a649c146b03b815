// Validation issues, as zod reports them and as the wire schemas report them in zod's shape, and the
// one line a JSON-RPC error message carries: `params.name: expected string, received number`.

interface IssueBase {
  readonly path: readonly PropertyKey[];
  readonly input?: unknown;
}

/** What the summary reads of an issue (zod's `$ZodIssue` has this shape). */
export type Issue = IssueBase &
  (
    | { readonly code: "invalid_type"; readonly expected: string }
    | { readonly code: "invalid_value"; readonly values: readonly unknown[] }
    | {
        readonly code: "invalid_union";
        readonly errors: readonly (readonly Issue[])[];
        readonly options?: readonly unknown[];
        readonly inclusive?: boolean;
      }
    | { readonly code: "too_big"; readonly origin: string; readonly maximum: number | bigint }
    | { readonly code: "too_small"; readonly origin: string; readonly minimum: number | bigint }
    | { readonly code: "invalid_format"; readonly format: string }
    | { readonly code: "not_multiple_of"; readonly divisor: number | bigint }
    | { readonly code: "unrecognized_keys"; readonly keys: readonly string[] }
    | { readonly code: "custom"; readonly message: string }
    | { readonly code: "invalid_key" | "invalid_element"; readonly origin: string }
  );

const MAX_REPORTED_ISSUES = 5;

interface LocatedMessage {
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly missing: boolean;
}

/** The issues in one line: at most five, the closest branch of a failed union, paths in JS notation. */
export function summarizeIssues(issues: readonly Issue[]): string {
  const located = issues.flatMap((issue) => locateIssue(issue, []));
  const shown = located.slice(0, MAX_REPORTED_ISSUES).map(formatLocatedMessage);
  const hidden = located.length - shown.length;
  return hidden > 0 ? `${shown.join("; ")}; and ${hidden} more` : shown.join("; ");
}

function locateIssue(issue: Issue, base: readonly PropertyKey[]): LocatedMessage[] {
  const path = [...base, ...issue.path];
  if (issue.code === "invalid_union" && issue.errors.length > 0 && !isScalarMismatch(issue.errors)) {
    const branches = issue.errors.map((branch) => branch.flatMap((inner) => locateIssue(inner, path)));
    return branches.reduce((best, branch) => (isCloser(branch, best) ? branch : best));
  }
  return [{ path, message: describeIssue(issue), missing: issue.input === undefined }];
}

// A failed union reports every branch. The one meant is likely the branch missing the fewest
// fields, then the one with the fewest issues; on a tie the earlier branch wins.
function isCloser(branch: readonly LocatedMessage[], best: readonly LocatedMessage[]): boolean {
  const missingDifference = countMissing(branch) - countMissing(best);
  return missingDifference !== 0 ? missingDifference < 0 : branch.length < best.length;
}

function countMissing(messages: readonly LocatedMessage[]): number {
  return messages.filter((message) => message.missing).length;
}

/** True for a union of primitives (`string | integer`) that the value matched none of. */
function isScalarMismatch(branches: readonly (readonly Issue[])[]): boolean {
  return branches.every(([first, ...rest]) => rest.length === 0 && first?.code === "invalid_type" && first.path.length === 0);
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

function describeIssue(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type":
      return describeInvalidType(issue.expected, issue.input);
    case "invalid_value":
      return `${issue.input === undefined ? "is required, " : ""}expected ${listValues(issue.values)}`;
    case "invalid_union":
      return describeInvalidUnion(issue);
    case "too_big":
      return `${boundSubject(issue.origin)} at most ${String(issue.maximum)}`;
    case "too_small":
      return `${boundSubject(issue.origin)} at least ${String(issue.minimum)}`;
    case "invalid_format":
      return `expected ${issue.format} format`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    case "unrecognized_keys":
      return `unknown keys ${listValues(issue.keys)}`;
    case "custom":
      return issue.message;
    case "invalid_key":
      return `invalid ${issue.origin} key`;
    case "invalid_element":
      break;
  }
  return `invalid ${issue.origin} element`;
}

const SIZED_ORIGINS: ReadonlySet<string> = new Set(["array", "string", "set", "file"]);

function boundSubject(origin: string): string {
  return SIZED_ORIGINS.has(origin) ? "length must be" : "must be";
}

function describeInvalidType(expected: string, input: unknown): string {
  if (expected === "never") return "is not allowed here";
  if (input === undefined) return "is required";
  return `expected ${typeLabel(expected)}, received ${typeName(input)}`;
}

// Reached for a discriminator mismatch, a union of primitives, or an exclusive union that matched
// several shapes; locateIssue descends into the rest.
function describeInvalidUnion(issue: Extract<Issue, { readonly code: "invalid_union" }>): string {
  if (issue.inclusive === false) return "matches more than one of the exclusive shapes";
  if (issue.options) return `expected one of ${listValues(issue.options)}`;
  // Each type once: shapes that are all objects read "expected object".
  const expected = new Set(
    issue.errors
      .flat()
      .filter(isInvalidType)
      .map((inner) => typeLabel(inner.expected)),
  );
  return describeInvalidType([...expected].join(" | "), issue.input);
}

function isInvalidType(issue: Issue): issue is Extract<Issue, { readonly code: "invalid_type" }> {
  return issue.code === "invalid_type";
}

function typeLabel(expected: string): string {
  return expected === "int" ? "integer" : expected;
}

function typeName(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "array";
  return typeof input;
}

function listValues(values: readonly unknown[]): string {
  return values.map((value) => (typeof value === "string" ? JSON.stringify(value) : String(value))).join(" | ");
}

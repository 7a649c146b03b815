import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../error-codes/index.js";
import { MCPError } from "../error-codes/mcp-error.js";
import { UriTemplate, type UriVariables } from "./uri-template.js";

// The community test suite of RFC 6570 (uritemplate-test): the copy that the npm package
// uri-templates 0.2.0 holds in test/uritemplate-test, a 2015 snapshot. The dev dependency is pinned,
// so the cases cannot change under us. Each case is a template and its expansion: one string,
// several acceptable strings (an associative array may be expanded in any order of its keys), or
// false when parse or expand must refuse the template.
type Expected = string | readonly string[] | false;
interface Group {
  readonly level?: number;
  readonly variables: UriVariables;
  readonly testcases: readonly (readonly [string, Expected])[];
}
type SuiteFile = Readonly<Record<string, Group>>;

const require = createRequire(import.meta.url);
const SUITE_FILES = ["spec-examples", "spec-examples-by-section", "extended-tests", "negative-tests"] as const;
const suite = (file: string): SuiteFile => require(`uri-templates/test/uritemplate-test/${file}.json`) as SuiteFile;

const cases = SUITE_FILES.flatMap((file) =>
  Object.entries(suite(file)).flatMap(([group, { variables, testcases }]) =>
    testcases.map(([template, expected]) => ({ file, group, template, variables, expected })),
  ),
);

/** Whether the template explodes an associative array with the simple, label or path operator. */
function explodesPairs({ template, variables }: { template: string; variables: UriVariables }): boolean {
  return [...template.matchAll(/\{[./]?([^}+#;?&]*)\}/g)].some(([, specs]) =>
    (specs as string).split(",").some((spec) => {
      const value = variables[spec.slice(0, -1)];
      return spec.endsWith("*") && typeof value === "object" && value !== null && !Array.isArray(value);
    }),
  );
}

/** The expansion, or the error that parse or expand threw. */
function outcome(template: string, variables: UriVariables): string | MCPError {
  try {
    return UriTemplate.parse(template).expand(variables);
  } catch (error) {
    if (error instanceof MCPError) return error;
    throw error;
  }
}

describe("UriTemplate against the uritemplate-test suite", () => {
  it("loads every file of the suite, with cases of every kind", () => {
    for (const file of SUITE_FILES) expect(cases.filter((entry) => entry.file === file).length).toBeGreaterThan(10);
    expect(cases.some(({ expected }) => expected === false)).toBe(true);
    expect(cases.some(({ expected }) => Array.isArray(expected))).toBe(true);
    expect(
      cases.some(({ variables }) => Object.values(variables).some((value) => typeof value === "object" && !Array.isArray(value))),
    ).toBe(true);
  });

  it.each(cases.filter(({ expected }) => expected !== false))("$file, $group: $template", ({ template, variables, expected }) => {
    const result = outcome(template, variables);
    // A string is the one acceptable expansion.
    expect([expected].flat()).toContain(result);
  });

  // Matching goes the other way: every expansion of the suite matches its template back, but those
  // that explode an associative array with an operator whose values never hold a raw '=' (uri-template.md).
  const matchable = cases.filter(({ expected }) => expected !== false);
  it.each(matchable.filter((entry) => !explodesPairs(entry)))("$file, $group: $template matches back", ({ template, expected }) => {
    const parsed = UriTemplate.parse(template);
    expect([expected].flat().filter((uri) => parsed.match(uri as string) === undefined)).toEqual([]);
  });

  it.each(matchable.filter(explodesPairs))("$file, $group: $template does not match its '=' back", ({ template, expected }) => {
    const parsed = UriTemplate.parse(template);
    expect([expected].flat().filter((uri) => parsed.match(uri as string) !== undefined)).toEqual([]);
  });

  it.each(cases.filter(({ expected }) => expected === false))("$file, $group: $template is refused", ({ template, variables }) => {
    const result = outcome(template, variables);
    expect(result).toBeInstanceOf(MCPError);
    expect((result as MCPError).code).toBe(MCP_CODES.INVALID_PARAMS);
  });

  // The suite's later versions refuse more malformed variable specs than this snapshot: the same
  // kinds of mistakes, written here on names of our own.
  it.each(["{n:}", "{n:00}", "{n:12345}", "{a-b}", "x{?q,page-size}", "{ a}", "{a }", "{a.}", "{%4g}"])("refuses %s", (template) => {
    const result = outcome(template, { n: "value", a: "value" });
    expect(result).toBeInstanceOf(MCPError);
    expect((result as MCPError).code).toBe(MCP_CODES.INVALID_PARAMS);
  });
});

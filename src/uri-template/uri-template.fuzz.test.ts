import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../error-codes/index.js";
import { MCPError } from "../error-codes/mcp-error.js";
import { UriTemplate, type UriVariables } from "./uri-template.js";

/** Runs per property: small in `npm test`, `FUZZ_RUNS=<n>` for a longer campaign. */
const runs = (normal: number): number => Number(process.env["FUZZ_RUNS"]) || normal;
const SEED = 0x5eed_0006;
// Thousands of runs take seconds on a loaded machine or under coverage: more than vitest's default 5 s.
const FUZZ_TIMEOUT = 60_000;

const templateText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "{",
        "}",
        "{x}",
        "{+p}",
        "{#f}",
        "{.e}",
        "{/s}",
        "{;m}",
        "{?q,r}",
        "{&c}",
        "{l*}",
        "{v:3}",
        "{=}",
        "{%41}",
        "{a.b}",
        "{}",
        ":",
        "/",
        "?",
        "%",
        "%2",
        "é",
      ),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(""));

const uriText = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc
    .array(fc.constantFrom("a", "b", "/", ".", "?", "&", "=", ";", "#", ",", "%", "%2F", "%zz", "%C3%A9", "%FF", "é", "q=1", "m=", "x"), {
      maxLength: 16,
    })
    .map((parts) => parts.join("")),
);

function checkVariables(variables: UriVariables): void {
  for (const value of Object.values(variables)) for (const item of [value].flat()) expect(item).toBeTypeOf("string");
}

function decoded(uri: string): string {
  try {
    return decodeURIComponent(uri);
  } catch {
    return uri;
  }
}

describe("UriTemplate under fuzzing", () => {
  it(
    "parse accepts or refuses any text with MCP.INVALID_PARAMS; match never throws and returns strings",
    () => {
      fc.assert(
        fc.property(templateText, fc.array(uriText, { maxLength: 4 }), (text, uris) => {
          let template: UriTemplate | undefined;
          let refusal: unknown;
          try {
            template = UriTemplate.parse(text);
          } catch (error) {
            refusal = error;
          }
          // Either parsed, or refused with MCP.INVALID_PARAMS and nothing else.
          expect(refusal === undefined || (refusal instanceof MCPError && refusal.code === "MCP.INVALID_PARAMS")).toBe(true);
          if (template === undefined) return;
          expect(UriTemplate.isTemplate(text) || template.variableNames.length === 0).toBe(true);
          for (const uri of uris) {
            const matched = template.match(uri);
            if (matched !== undefined) checkVariables(matched);
          }
        }),
        { numRuns: runs(2000), seed: SEED },
      );
    },
    FUZZ_TIMEOUT,
  );

  // Templates whose expressions are separated by literals, with every operator. Adjacent
  // expressions ("{;a}{b}") are ambiguous by nature (uri-template.md, "How ambiguities are resolved").
  const operator = fc.constantFrom("", "+", "#", ".", "/", ";", "?", "&");
  // Literals no value can produce, or the split is ambiguous again. No "%" in values: "{#v}" keeps
  // a triplet such as "%aa" as it is, and a URI holding invalid UTF-8 escapes does not match (RELIABILITY.md).
  const literal = fc.constantFrom("-", "~", "-~-");
  const wellFormed = fc
    .array(fc.tuple(literal, operator, fc.constantFrom("a", "b", "c", "d"), fc.constantFrom("", "*")), { minLength: 1, maxLength: 4 })
    .map((parts) => "scheme://h/" + parts.map(([lit, op, name, explode], index) => `${lit}{${op}${name}${index}${explode}}`).join(""));
  const valueText = fc.string({
    unit: fc.constantFrom("a", "b", "1", "é", " ", "?", "=", "&", ";", "/", ".", ",", "#", "🌍"),
    maxLength: 6,
  });
  const value = fc.oneof(valueText, fc.array(valueText, { maxLength: 3 }), fc.constant(undefined));

  it(
    "what a template expands it matches back to variables that expand to the same URI",
    () => {
      fc.assert(
        fc.property(wellFormed, fc.array(value, { minLength: 4, maxLength: 4 }), (text, values) => {
          const template = UriTemplate.parse(text);
          const variables: Record<string, string | string[] | undefined> = {};
          template.variableNames.forEach((name, index) => (variables[name] = values[index]));
          const uri = template.expand(variables);
          const matched = template.match(uri);
          expect(matched).toBeDefined();
          checkVariables(matched as UriVariables);
          // Reserved expansion keeps %XX triplets while matching decodes them (RFC 6570 §3.2.3 is not
          // reversible there), so the URIs are compared up to percent-encoding.
          expect(decoded(template.expand(matched as UriVariables))).toBe(decoded(uri));
        }),
        { numRuns: runs(2000), seed: SEED + 1 },
      );
    },
    FUZZ_TIMEOUT,
  );

  it(
    "expands any value or refuses it with MCP.INVALID_PARAMS, never another error",
    () => {
      const template = UriTemplate.parse("{v}{+v}{#v*}{.v}{/v*}{;v}{?v*}{&v}");
      const anything = fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withNullPrototype: true });
      fc.assert(
        fc.property(anything, (input) => {
          let result: unknown;
          try {
            result = template.expand({ v: input as string });
          } catch (error) {
            result = error;
          }
          expect(typeof result === "string" || (result instanceof MCPError && result.code === MCP_CODES.INVALID_PARAMS)).toBe(true);
        }),
        { numRuns: runs(500), seed: SEED + 2 },
      );
    },
    FUZZ_TIMEOUT,
  );

  it(
    "gives back what {+p} expanded, encoded slashes and '%' included",
    () => {
      const template = UriTemplate.parse("file:///{+p}");
      // No "a" to "f" alone: after a '%' they would make a triplet of a byte that is not UTF-8.
      const unit = fc.constantFrom("x", "/", "%2F", "%3F", "%25", "%", " ", "é", "?", "#", "&", "=", ";", "@");
      fc.assert(
        fc.property(fc.string({ unit, maxLength: 8 }), (text) => {
          // A lone '%' expands as "%25", which is what comes back.
          const expected = text.replace(/%(?![\dA-F]{2})/g, "%25");
          expect(template.match(template.expand({ p: text }))).toEqual({ p: expected });
        }),
        { numRuns: runs(500), seed: SEED + 3 },
      );
    },
    FUZZ_TIMEOUT,
  );
});

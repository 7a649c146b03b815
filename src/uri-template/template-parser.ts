import { MCPError, MCP_CODES } from "../error-codes/index.js";
import { OPERATOR_SYMBOLS, RESERVED_OPERATORS, operatorOf, type Operator } from "./operators.js";
import { percentEncode } from "./percent-encoding.js";

/** One variable of an expression: `name`, `name*` or `name:maxLength`. */
export interface VariableSpec {
  readonly name: string;
  readonly explode: boolean;
  /** The prefix modifier `:n`, in characters. */
  readonly maxLength: number | undefined;
}

export interface ExpressionPart {
  readonly operator: Operator;
  readonly variables: readonly VariableSpec[];
}

/** A literal (template text outside expressions, already in its expanded, percent-encoded form) or an expression. */
export type TemplatePart = string | ExpressionPart;

/**
 * A variable name: varchars (`\w` and `%XX` triplets) joined by single dots. It stops before a '%'
 * that starts no triplet and before a '.' that joins nothing, which the parser reports.
 */
const VARIABLE_NAME = /(?:\w|%[\dA-Fa-f]{2})(?:\w|%[\dA-Fa-f]{2}|\.(?=[\w%]))*/y;
/** An integer from 1 to 9999 not followed by a further digit, where a prefix modifier's ':' left off. */
const PREFIX_LENGTH = /[1-9]\d{0,3}(?!\d)/y;

/** Says what is wrong with the template, and where (a 0-based index). */
function fail(template: string, position: number, problem: string): never {
  throw new MCPError(MCP_CODES.INVALID_PARAMS, `Malformed URI template at position ${position}: ${problem}`, {
    data: { template, position },
  });
}

/** The variable spec starting at `start`, and the index just past it. */
function parseVariableSpec(template: string, start: number): [VariableSpec, number] {
  VARIABLE_NAME.lastIndex = start;
  const end = VARIABLE_NAME.test(template) ? VARIABLE_NAME.lastIndex : start;
  const modifier = template.charAt(end);
  if (modifier === "%") fail(template, end, "'%' in a variable name must start a percent-encoded triplet such as %41");
  if (modifier === ".") fail(template, end, "'.' may only join two parts of a variable name");
  if (end === start) fail(template, start, `expected a variable name, found '${modifier}'`);
  let digits = "";
  if (modifier === ":") {
    PREFIX_LENGTH.lastIndex = end + 1;
    digits =
      PREFIX_LENGTH.exec(template)?.[0] ?? fail(template, end + 1, "a prefix modifier ':' must be followed by an integer from 1 to 9999");
  }
  const explode = modifier === "*";
  const spec = { name: template.slice(start, end), explode, maxLength: digits === "" ? undefined : Number(digits) };
  // Past the name and its modifier: ":" and the digits, or "*".
  return [spec, end + (digits === "" ? Number(explode) : 1 + digits.length)];
}

/** Parses the expression between `{` (at start - 1) and `}` (at end). */
function parseExpression(template: string, start: number, end: number): ExpressionPart {
  if (start === end) fail(template, start - 1, "empty expression '{}'");
  const symbol = template.charAt(start);
  if (RESERVED_OPERATORS.includes(symbol)) fail(template, start, `operator '${symbol}' is reserved by RFC 6570 for future extensions`);
  const operator = OPERATOR_SYMBOLS.includes(symbol) ? symbol : "";
  const variables: VariableSpec[] = [];
  let index = start + operator.length;
  for (;;) {
    const [spec, next] = parseVariableSpec(template, index);
    variables.push(spec);
    if (next === end) return { operator: operatorOf(operator), variables };
    const char = template.charAt(next);
    if (char === "*" && spec.maxLength !== undefined)
      fail(template, next, "a variable cannot have both a prefix ':n' and an explode '*' modifier");
    if (char !== ",") fail(template, next, `unexpected '${char}' in an expression, expected ',' or '}'`);
    index = next + 1;
  }
}

/** The index of the `}` closing the expression opened at `open`. */
function expressionEnd(template: string, open: number): number {
  for (let index = open + 1; index < template.length; index++) {
    const char = template.charAt(index);
    if (char === "}") return index;
    if (char === "{") fail(template, index, `'{' inside the expression opened at position ${open}`);
  }
  return fail(template, open, "'{' is never closed by a '}'");
}

/** Splits a template into literals and expressions; throws an INVALID_PARAMS `MCPError` if malformed. */
export function parseTemplate(template: string): readonly TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literalStart = 0;
  // RFC 6570 §3.1: literal characters not allowed in a URI are percent-encoded, the rest is copied.
  const pushLiteral = (end: number): void => {
    if (end > literalStart) parts.push(percentEncode(template.slice(literalStart, end), true));
  };
  for (let index = 0; index < template.length; index++) {
    const char = template.charAt(index);
    if (char === "}") fail(template, index, "'}' without a matching '{'");
    if (char === "{") {
      pushLiteral(index);
      const close = expressionEnd(template, index);
      parts.push(parseExpression(template, index + 1, close));
      index = close;
      literalStart = close + 1;
    }
  }
  pushLiteral(template.length);
  return parts;
}

/** Whether the text holds at least one well-formed `{...}` expression (the rest is not checked). */
export function containsExpression(template: string): boolean {
  let open = -1;
  for (let index = 0; index < template.length; index++) {
    const char = template.charAt(index);
    if (char === "{") {
      open = index;
    } else if (char === "}" && open !== -1) {
      try {
        parseExpression(template, open + 1, index);
        return true;
      } catch {
        open = -1;
      }
    }
  }
  return false;
}

import { MCPError, MCP_CODES } from "../error-codes/index.js";
import { OPERATOR_BY_SYMBOL, RESERVED_OPERATORS, SIMPLE_OPERATOR, type Operator } from "./operators.js";
import { percentEncode } from "./percent-encoding.js";

/** One variable of an expression: `name`, `name*` or `name:maxLength`. */
export interface VariableSpec {
  readonly name: string;
  readonly explode: boolean;
  /** The prefix modifier `:n`, in characters. */
  readonly maxLength: number | undefined;
}

/** Template text outside expressions, already in its expanded (percent-encoded) form. */
export interface LiteralPart {
  readonly kind: "literal";
  readonly text: string;
}

export interface ExpressionPart {
  readonly kind: "expression";
  readonly operator: Operator;
  readonly variables: readonly VariableSpec[];
}

export type TemplatePart = LiteralPart | ExpressionPart;

/** What is wrong with a template, and where (a 0-based index into the template). */
interface SyntaxProblem {
  readonly problem: string;
  readonly position: number;
}

interface ParsedSpec {
  readonly spec: VariableSpec;
  readonly next: number;
}

const VARIABLE_CHAR = /^[A-Za-z0-9_]$/;
const HEX_DIGIT = /^[0-9A-Fa-f]$/;
const DIGIT = /^[0-9]$/;
const MAX_PREFIX_DIGITS = 4;

function problemAt(position: number, problem: string): SyntaxProblem {
  return { problem, position };
}

function isProblem(value: object): value is SyntaxProblem {
  return "problem" in value;
}

function startsVariableChar(char: string): boolean {
  return VARIABLE_CHAR.test(char) || char === "%";
}

/** The index just past a variable name starting at `start`, or what is wrong with it. */
function scanVariableName(template: string, start: number, end: number): number | SyntaxProblem {
  let index = start;
  while (index < end) {
    const char = template.charAt(index);
    if (VARIABLE_CHAR.test(char)) {
      index += 1;
    } else if (char === "%") {
      if (!HEX_DIGIT.test(template.charAt(index + 1)) || !HEX_DIGIT.test(template.charAt(index + 2))) {
        return problemAt(index, "'%' in a variable name must start a percent-encoded triplet such as %41");
      }
      index += 3;
    } else if (char === ".") {
      if (index === start || !startsVariableChar(template.charAt(index + 1))) {
        return problemAt(index, "'.' may only join two parts of a variable name");
      }
      index += 1;
    } else {
      break;
    }
  }
  return index;
}

function parsePrefix(template: string, name: string, start: number, end: number): ParsedSpec | SyntaxProblem {
  let index = start;
  while (index < end && DIGIT.test(template.charAt(index))) index += 1;
  const digits = template.slice(start, index);
  if (digits === "" || digits.startsWith("0") || digits.length > MAX_PREFIX_DIGITS) {
    return problemAt(start, "a prefix modifier ':' must be followed by an integer from 1 to 9999");
  }
  return { spec: { name, explode: false, maxLength: Number(digits) }, next: index };
}

function parseVariableSpec(template: string, start: number, end: number): ParsedSpec | SyntaxProblem {
  const nameEnd = scanVariableName(template, start, end);
  if (typeof nameEnd !== "number") return nameEnd;
  if (nameEnd === start) return problemAt(start, `expected a variable name, found '${template.charAt(start)}'`);
  const name = template.slice(start, nameEnd);
  const modifier = template.charAt(nameEnd);
  if (modifier === ":") return parsePrefix(template, name, nameEnd + 1, end);
  const explode = modifier === "*";
  return { spec: { name, explode, maxLength: undefined }, next: explode ? nameEnd + 1 : nameEnd };
}

function unexpectedInList(template: string, index: number, previous: VariableSpec): SyntaxProblem {
  const char = template.charAt(index);
  if (char === "*" && previous.maxLength !== undefined) {
    return problemAt(index, "a variable cannot have both a prefix ':n' and an explode '*' modifier");
  }
  return problemAt(index, `unexpected '${char}' in an expression, expected ',' or '}'`);
}

/** Parses the expression between `{` (at start - 1) and `}` (at end). */
function parseExpression(template: string, start: number, end: number): ExpressionPart | SyntaxProblem {
  if (start === end) return problemAt(start - 1, "empty expression '{}'");
  const symbol = template.charAt(start);
  if (RESERVED_OPERATORS.includes(symbol)) {
    return problemAt(start, `operator '${symbol}' is reserved by RFC 6570 for future extensions`);
  }
  const operator = OPERATOR_BY_SYMBOL.get(symbol);
  const variables: VariableSpec[] = [];
  let index = operator === undefined ? start : start + 1;
  for (;;) {
    const parsed = parseVariableSpec(template, index, end);
    if (isProblem(parsed)) return parsed;
    variables.push(parsed.spec);
    index = parsed.next;
    if (index === end) return { kind: "expression", operator: operator ?? SIMPLE_OPERATOR, variables };
    if (template.charAt(index) !== ",") return unexpectedInList(template, index, parsed.spec);
    index += 1;
  }
}

/** The index of the `}` closing the expression opened at `open`. */
function findExpressionEnd(template: string, open: number): number | SyntaxProblem {
  for (let index = open + 1; index < template.length; index++) {
    const char = template.charAt(index);
    if (char === "}") return index;
    if (char === "{") return problemAt(index, `'{' inside the expression opened at position ${open}`);
  }
  return problemAt(open, "'{' is never closed by a '}'");
}

function syntaxError(template: string, { problem, position }: SyntaxProblem): MCPError {
  return new MCPError(MCP_CODES.INVALID_PARAMS, `Malformed URI template at position ${position}: ${problem}`, {
    data: { template, position },
  });
}

function pushLiteral(parts: TemplatePart[], raw: string): void {
  // RFC 6570 §3.1: literal characters not allowed in a URI are percent-encoded, the rest is copied.
  if (raw !== "") parts.push({ kind: "literal", text: percentEncode(raw, true) });
}

/** Splits a template into literals and expressions; throws an INVALID_PARAMS `MCPError` if malformed. */
export function parseTemplate(template: string): readonly TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literalStart = 0;
  let index = 0;
  while (index < template.length) {
    const char = template.charAt(index);
    if (char === "}") throw syntaxError(template, problemAt(index, "'}' without a matching '{'"));
    if (char !== "{") {
      index += 1;
      continue;
    }
    pushLiteral(parts, template.slice(literalStart, index));
    const close = findExpressionEnd(template, index);
    if (typeof close !== "number") throw syntaxError(template, close);
    const expression = parseExpression(template, index + 1, close);
    if (isProblem(expression)) throw syntaxError(template, expression);
    parts.push(expression);
    index = close + 1;
    literalStart = index;
  }
  pushLiteral(parts, template.slice(literalStart));
  return parts;
}

/** Whether the text holds at least one well-formed `{...}` expression (the rest is not checked). */
export function containsExpression(text: string): boolean {
  let open = -1;
  for (let index = 0; index < text.length; index++) {
    const char = text.charAt(index);
    if (char === "{") {
      open = index;
    } else if (char === "}" && open !== -1) {
      if (!isProblem(parseExpression(text, open + 1, index))) return true;
      open = -1;
    }
  }
  return false;
}

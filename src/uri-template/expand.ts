import { MCPError, MCP_CODES } from "../error-codes/index.js";
import type { Operator } from "./operators.js";
import { percentEncode, truncateCharacters } from "./percent-encoding.js";
import type { ExpressionPart, TemplatePart, VariableSpec } from "./template-parser.js";
import { isList, type UriVariableValue, type UriVariables } from "./variables.js";

function lookUp(variables: UriVariables, name: string): UriVariableValue | undefined {
  // Own properties only: a variable named "constructor" must not find Object.prototype's.
  return Object.hasOwn(variables, name) ? variables[name] : undefined;
}

function withName(operator: Operator, name: string, encoded: string): string {
  if (!operator.named) return encoded;
  return encoded === "" ? name + operator.ifEmpty : `${name}=${encoded}`;
}

function expandList(operator: Operator, spec: VariableSpec, items: readonly string[]): string {
  if (spec.maxLength !== undefined) {
    throw new MCPError(
      MCP_CODES.INVALID_PARAMS,
      `The prefix modifier of {${spec.name}:${spec.maxLength}} cannot apply to a list value (RFC 6570 §2.4.1)`,
    );
  }
  const encoded = items.map((item) => percentEncode(item, operator.allowReserved));
  if (!spec.explode) return withName(operator, spec.name, encoded.join(","));
  return encoded.map((item) => withName(operator, spec.name, item)).join(operator.separator);
}

function expandString(operator: Operator, spec: VariableSpec, value: string): string {
  const text = spec.maxLength === undefined ? value : truncateCharacters(value, spec.maxLength, operator.allowReserved);
  return withName(operator, spec.name, percentEncode(text, operator.allowReserved));
}

function expandExpression(expression: ExpressionPart, variables: UriVariables): string {
  const { operator } = expression;
  const expanded: string[] = [];
  for (const spec of expression.variables) {
    const value = lookUp(variables, spec.name);
    if (value === undefined || (isList(value) && value.length === 0)) continue;
    expanded.push(isList(value) ? expandList(operator, spec, value) : expandString(operator, spec, value));
  }
  return expanded.length === 0 ? "" : operator.first + expanded.join(operator.separator);
}

/** RFC 6570 §3.2: the URI a parsed template stands for with these variables. */
export function expandTemplate(parts: readonly TemplatePart[], variables: UriVariables): string {
  return parts.map((part) => (part.kind === "literal" ? part.text : expandExpression(part, variables))).join("");
}

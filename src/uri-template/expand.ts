import { MCPError, MCP_CODES } from "../error-codes/index.js";
import type { Operator } from "./operators.js";
import { percentEncode, truncateCharacters } from "./percent-encoding.js";
import type { TemplatePart, VariableSpec } from "./template-parser.js";
import { isList, type UriVariableValue, type UriVariables } from "./variables.js";

/** An encoded value as the operator writes it: `name=value` (or `name` + ifemp) for the named ones. */
function withName(operator: Operator, name: string, encoded: string): string {
  if (!operator.named) return encoded;
  return encoded === "" ? name + operator.ifEmpty : `${name}=${encoded}`;
}

function expandVariable(operator: Operator, { name, explode, maxLength }: VariableSpec, value: UriVariableValue): string {
  const encode = (text: string): string => percentEncode(text, operator.allowReserved);
  if (!isList(value)) {
    return withName(operator, name, encode(maxLength === undefined ? value : truncateCharacters(value, maxLength, operator.allowReserved)));
  }
  if (maxLength !== undefined) {
    throw new MCPError(
      MCP_CODES.INVALID_PARAMS,
      `The prefix modifier of {${name}:${maxLength}} cannot apply to a list value (RFC 6570 §2.4.1)`,
    );
  }
  if (explode) return value.map((item) => withName(operator, name, encode(item))).join(operator.separator);
  return withName(operator, name, value.map(encode).join(","));
}

/** RFC 6570 §3.2: the URI a parsed template stands for with these variables. */
export function expandTemplate(parts: readonly TemplatePart[], variables: UriVariables): string {
  return parts
    .map((part) => {
      if (typeof part === "string") return part;
      const { operator } = part;
      const expanded = part.variables.flatMap((spec) => {
        // Own properties only: a variable named "constructor" must not find Object.prototype's.
        const value = Object.hasOwn(variables, spec.name) ? variables[spec.name] : undefined;
        return value === undefined || (isList(value) && value.length === 0) ? [] : [expandVariable(operator, spec, value)];
      });
      return expanded.length === 0 ? "" : operator.first + expanded.join(operator.separator);
    })
    .join("");
}

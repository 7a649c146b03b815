import { MCPError, MCP_CODES } from "../error-codes/index.js";
import { expansionValue, type ExpansionValue } from "./expansion-values.js";
import type { Operator } from "./operators.js";
import { percentEncode, truncateCharacters } from "./percent-encoding.js";
import type { TemplatePart, VariableSpec } from "./template-parser.js";
import type { UriVariables } from "./variables.js";

/** An encoded value as the operator writes it: `name=value` (or `name` + ifemp) for the named ones. */
function withName(operator: Operator, name: string, encoded: string): string {
  if (!operator.named) return encoded;
  return encoded === "" ? name + operator.ifEmpty : `${name}=${encoded}`;
}

/** RFC 6570 §3.2.1 for one defined variable. */
function expandVariable(operator: Operator, { name, explode, maxLength }: VariableSpec, value: ExpansionValue): string {
  const encode = (text: string): string => percentEncode(text, operator.allowReserved);
  if (value.kind === "string") {
    return withName(
      operator,
      name,
      encode(maxLength === undefined ? value.text : truncateCharacters(value.text, maxLength, operator.allowReserved)),
    );
  }
  if (maxLength !== undefined) {
    const composite = value.kind === "list" ? "a list" : "an associative array";
    throw new MCPError(
      MCP_CODES.INVALID_PARAMS,
      `The prefix modifier of {${name}:${maxLength}} cannot apply to ${composite} value (RFC 6570 §2.4.1)`,
      { data: { variable: name } },
    );
  }
  if (value.kind === "list") {
    if (explode) return value.items.map((item) => withName(operator, name, encode(item))).join(operator.separator);
    return withName(operator, name, value.items.map(encode).join(","));
  }
  if (explode) {
    // Each pair as its own parameter: "key=value", and for the named operators "key" + ifemp when empty.
    const pair = ([key, text]: readonly [string, string]): string =>
      operator.named ? withName(operator, encode(key), encode(text)) : `${encode(key)}=${encode(text)}`;
    return value.pairs.map(pair).join(operator.separator);
  }
  return withName(operator, name, value.pairs.flatMap(([key, text]) => [encode(key), encode(text)]).join(","));
}

/** RFC 6570 §3.2: the URI a parsed template stands for with these variables. */
export function expandTemplate(parts: readonly TemplatePart[], variables: UriVariables): string {
  if (typeof variables !== "object" || variables === null) {
    throw new MCPError(MCP_CODES.INVALID_PARAMS, "The variables of a URI template expansion must be an object of values by name");
  }
  return parts
    .map((part) => {
      if (typeof part === "string") return part;
      const { operator } = part;
      const expanded = part.variables.flatMap((spec) => {
        // Own properties only: a variable named "constructor" must not find Object.prototype's.
        const value = expansionValue(spec.name, Object.hasOwn(variables, spec.name) ? variables[spec.name] : undefined);
        return value === undefined ? [] : [expandVariable(operator, spec, value)];
      });
      return expanded.length === 0 ? "" : operator.first + expanded.join(operator.separator);
    })
    .join("");
}

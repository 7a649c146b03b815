import { percentDecode, truncateCharacters } from "./percent-encoding.js";
import type { ExpressionPart, TemplatePart, VariableSpec } from "./template-parser.js";
import { isList, type UriVariableValue } from "./variables.js";

/** An expression and the text of the URI it matched. */
interface MatchedExpression {
  readonly expression: ExpressionPart;
  readonly text: string;
}

/** A value found for one occurrence of a variable, still percent-encoded. */
interface Capture {
  readonly spec: VariableSpec;
  readonly raw: string | readonly string[];
}

interface DecodedCapture {
  readonly spec: VariableSpec;
  readonly value: UriVariableValue;
}

interface Parameter {
  readonly name: string;
  readonly value: string;
}

/** A raw ',' in a value joins list items (a string's commas are encoded); prefixed values are strings. */
function listOrString(raw: string, spec: VariableSpec): string | readonly string[] {
  if (spec.maxLength !== undefined) return raw;
  const items = raw.split(",");
  return items.length === 1 ? raw : items;
}

/**
 * Unnamed operators: the body is cut at the separator and the pieces go to the variables in order.
 * An exploded variable takes every piece the variables after it do not need; the last variable
 * takes what is left.
 */
function captureUnnamed({ expression, text }: MatchedExpression): readonly Capture[] {
  const { first, separator } = expression.operator;
  if (text === "" && first !== "") return [];
  const pieces = text.slice(first.length).split(separator);
  const captures: Capture[] = [];
  let next = 0;
  expression.variables.forEach((spec, index) => {
    const remaining = pieces.length - next;
    if (remaining === 0) return;
    const variablesAfter = expression.variables.length - index - 1;
    const count = spec.explode ? Math.max(1, remaining - variablesAfter) : variablesAfter === 0 ? remaining : 1;
    const taken = pieces.slice(next, next + count);
    next += count;
    captures.push({ spec, raw: spec.explode ? taken : listOrString(taken.join(separator), spec) });
  });
  return captures;
}

function parseParameters({ expression, text }: MatchedExpression): readonly Parameter[] {
  const { first, separator } = expression.operator;
  return text
    .slice(first.length)
    .split(separator)
    .filter((piece) => piece !== "")
    .map((piece) => {
      const equals = piece.indexOf("=");
      return equals === -1 ? { name: piece, value: "" } : { name: piece.slice(0, equals), value: piece.slice(equals + 1) };
    });
}

function captureParameter(spec: VariableSpec, parameters: readonly Parameter[]): readonly Capture[] {
  const values = parameters.filter((parameter) => parameter.name === spec.name).map((parameter) => parameter.value);
  if (values.length === 0) return [];
  return [{ spec, raw: spec.explode ? values : listOrString(values[0] as string, spec) }];
}

/** Named operators: parameters in any order, shared by adjacent expressions of the same pool. */
function captureNamed(group: readonly MatchedExpression[]): readonly Capture[] {
  const parameters = group.flatMap(parseParameters);
  return group.flatMap(({ expression }) =>
    expression.variables.flatMap((spec) => captureParameter(spec, parameters)),
  );
}

function sharesPool(previous: TemplatePart | undefined, expression: ExpressionPart): boolean {
  return (
    previous?.kind === "expression" && expression.operator.pool !== "" && previous.operator.pool === expression.operator.pool
  );
}

/** The expressions with their text; adjacent named expressions of one pool form one group. */
function groupExpressions(
  parts: readonly TemplatePart[],
  uri: string,
  starts: readonly number[],
): readonly (readonly MatchedExpression[])[] {
  const groups: MatchedExpression[][] = [];
  parts.forEach((part, index) => {
    if (part.kind === "literal") return;
    const matched = { expression: part, text: uri.slice(starts[index], starts[index + 1]) };
    if (sharesPool(parts[index - 1], part)) (groups.at(-1) as MatchedExpression[]).push(matched);
    else groups.push([matched]);
  });
  return groups;
}

function decodeCapture({ spec, raw }: Capture): DecodedCapture | undefined {
  if (!isList(raw)) {
    const value = percentDecode(raw);
    return value === undefined ? undefined : { spec, value };
  }
  const items = raw.map(percentDecode);
  return items.includes(undefined) ? undefined : { spec, value: items as string[] };
}

function sameValue(left: UriVariableValue, right: UriVariableValue): boolean {
  if (!isList(left) || !isList(right)) return left === right;
  return left.length === right.length && left.every((item, index) => item === right[index]);
}

/** A capture fits the value kept for its variable: equal, or for a prefix `:n`, its first n characters. */
function agrees({ spec, value }: DecodedCapture, kept: UriVariableValue): boolean {
  if (spec.maxLength === undefined) return sameValue(value, kept);
  return !isList(kept) && truncateCharacters(kept, spec.maxLength, false) === value;
}

/** One value per variable: a capture without prefix if any, else the longest. */
function keptValue(captures: readonly DecodedCapture[]): UriVariableValue {
  const full = captures.find((capture) => capture.spec.maxLength === undefined);
  if (full !== undefined) return full.value;
  return captures
    .map((capture) => capture.value)
    .reduce((longest, value) => (value.length > longest.length ? value : longest));
}

function mergeCaptures(captures: readonly Capture[]): Record<string, UriVariableValue> | undefined {
  const byName = new Map<string, DecodedCapture[]>();
  for (const capture of captures) {
    const decoded = decodeCapture(capture);
    if (decoded === undefined) return undefined;
    byName.set(capture.spec.name, [...(byName.get(capture.spec.name) ?? []), decoded]);
  }
  const entries: [string, UriVariableValue][] = [];
  for (const [name, decoded] of byName) {
    const kept = keptValue(decoded);
    if (!decoded.every((capture) => agrees(capture, kept))) return undefined;
    entries.push([name, kept]);
  }
  return Object.fromEntries(entries);
}

/** The variables of a URI already cut at `starts`; `undefined` when a value is not valid. */
export function extractVariables(
  parts: readonly TemplatePart[],
  uri: string,
  starts: readonly number[],
): Record<string, UriVariableValue> | undefined {
  const captures = groupExpressions(parts, uri, starts).flatMap((group) => {
    const head = group[0] as MatchedExpression;
    return head.expression.operator.named ? captureNamed(group) : captureUnnamed(head);
  });
  return mergeCaptures(captures);
}

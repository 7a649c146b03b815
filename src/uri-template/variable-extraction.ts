import { percentDecode, percentDecodeKeepingReserved, truncateCharacters } from "./percent-encoding.js";
import type { ExpressionPart, TemplatePart, VariableSpec } from "./template-parser.js";
import { isList, type UriVariableValue } from "./variables.js";

/** An expression and the text of the URI it matched. */
type MatchedExpression = readonly [ExpressionPart, string];

/**
 * A value found for one occurrence of a variable, still percent-encoded, and whether its operator
 * allows reserved characters (`+`, `#`): those keep triplets of reserved characters when decoded.
 */
type Capture = readonly [VariableSpec, string | readonly string[], boolean];

/** A raw ',' in a value joins list items (a string's commas are encoded); prefixed values are strings. */
function listOrString(raw: string, spec: VariableSpec): string | readonly string[] {
  const items = raw.split(",");
  return spec.maxLength !== undefined || items.length === 1 ? raw : items;
}

/**
 * Unnamed operators: the body is cut at the separator and the pieces go to the variables in order.
 * An exploded variable takes every piece the variables after it do not need; the last variable
 * takes what is left.
 */
function captureUnnamed([{ operator, variables }, text]: MatchedExpression): Capture[] {
  const { first, separator, allowReserved } = operator;
  if (text === "" && first !== "") return [];
  const pieces = text.slice(first.length).split(separator);
  const captures: Capture[] = [];
  let next = 0;
  variables.forEach((spec, index) => {
    const remaining = pieces.length - next;
    if (remaining === 0) return;
    const variablesAfter = variables.length - index - 1;
    const count = spec.explode ? Math.max(1, remaining - variablesAfter) : variablesAfter === 0 ? remaining : 1;
    const taken = pieces.slice(next, next + count);
    next += count;
    captures.push([spec, spec.explode ? taken : listOrString(taken.join(separator), spec), allowReserved]);
  });
  return captures;
}

/** Named operators: parameters in any order, shared by adjacent expressions of the same pool. */
function captureNamed(group: readonly MatchedExpression[]): Capture[] {
  const parameters = group.flatMap(([{ operator }, text]) =>
    text
      .slice(operator.first.length)
      .split(operator.separator)
      .filter((piece) => piece !== "")
      .map((piece): [string, string] => {
        const equals = piece.indexOf("=");
        return equals === -1 ? [piece, ""] : [piece.slice(0, equals), piece.slice(equals + 1)];
      }),
  );
  return group.flatMap(([{ variables }]) =>
    variables.flatMap((spec): Capture[] => {
      const values = parameters.filter(([name]) => name === spec.name).map(([, value]) => value);
      if (values.length === 0) return [];
      return [[spec, spec.explode ? values : listOrString(values[0] as string, spec), false]];
    }),
  );
}

/** The expressions with their text; adjacent named expressions of one pool form one group. */
function groupExpressions(parts: readonly TemplatePart[], uri: string, starts: readonly number[]): MatchedExpression[][] {
  const groups: MatchedExpression[][] = [];
  parts.forEach((part, index) => {
    if (typeof part === "string") return;
    const matched: MatchedExpression = [part, uri.slice(starts[index], starts[index + 1])];
    const previous = parts[index - 1];
    // Named operators with the same separator (";", or "&" for "?" and "&") share their parameters.
    if (
      typeof previous === "object" &&
      previous.operator.named &&
      part.operator.named &&
      previous.operator.separator === part.operator.separator
    )
      (groups.at(-1) as MatchedExpression[]).push(matched);
    else groups.push([matched]);
  });
  return groups;
}

/** A capture decoded: `value` as `match` returns it, `plain` with every triplet decoded, to compare occurrences. */
interface Decoded {
  readonly spec: VariableSpec;
  readonly value: UriVariableValue;
  readonly plain: UriVariableValue;
}

/** Decodes a string or each item of a list; `undefined` if any of them is not valid. */
function decodeAll(raw: string | readonly string[], decode: (text: string) => string | undefined): UriVariableValue | undefined {
  if (!isList(raw)) return decode(raw);
  const items = raw.map(decode);
  return items.includes(undefined) ? undefined : (items as string[]);
}

/** Decodes a capture; `undefined` when a part of it is not valid percent-encoded UTF-8. */
function decodeCapture([spec, raw, allowReserved]: Capture): Decoded | undefined {
  const plain = decodeAll(raw, percentDecode);
  if (plain === undefined) return undefined;
  // Keeping reserved triplets fails exactly when decoding them does: a UTF-8 sequence holds no ASCII byte.
  return { spec, plain, value: allowReserved ? (decodeAll(raw, percentDecodeKeepingReserved) as UriVariableValue) : plain };
}

/**
 * One value per variable, or `undefined` when a value is not valid percent-encoded UTF-8 or the
 * occurrences of a variable disagree. The value kept is that of an occurrence without prefix if
 * any, else the longest; a prefixed occurrence `:n` must be its first n characters. Occurrences are
 * compared fully decoded, so `{+x}` and `{x}` agree on "a/b" and "a%2Fb".
 */
function mergeCaptures(captures: readonly Capture[]): Record<string, UriVariableValue> | undefined {
  const byName = new Map<string, Decoded[]>();
  for (const capture of captures) {
    const decoded = decodeCapture(capture);
    if (decoded === undefined) return undefined;
    byName.set(decoded.spec.name, [...(byName.get(decoded.spec.name) ?? []), decoded]);
  }
  const entries: [string, UriVariableValue][] = [];
  for (const [name, occurrences] of byName) {
    const kept =
      occurrences.find(({ spec }) => spec.maxLength === undefined) ??
      occurrences.reduce((longest, occurrence) => (occurrence.plain.length > longest.plain.length ? occurrence : longest));
    const agrees = ({ spec, plain }: Decoded): boolean =>
      // Strings and lists of strings: equal exactly when their JSON is.
      spec.maxLength === undefined
        ? JSON.stringify(plain) === JSON.stringify(kept.plain)
        : !isList(kept.plain) && truncateCharacters(kept.plain, spec.maxLength, false) === plain;
    if (!occurrences.every(agrees)) return undefined;
    entries.push([name, kept.value]);
  }
  // Own properties even for a variable named "__proto__".
  return Object.fromEntries(entries);
}

/** The variables of a URI already cut at `starts`; `undefined` when a value is not valid. */
export function extractVariables(
  parts: readonly TemplatePart[],
  uri: string,
  starts: readonly number[],
): Record<string, UriVariableValue> | undefined {
  const captures = groupExpressions(parts, uri, starts).flatMap((group) =>
    (group[0] as MatchedExpression)[0].operator.named ? captureNamed(group) : captureUnnamed(group[0] as MatchedExpression),
  );
  return mergeCaptures(captures);
}

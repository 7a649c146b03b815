import { PositionSet } from "./position-set.js";
import { findOccurrences } from "./string-search.js";
import type { ExpressionPart, TemplatePart } from "./template-parser.js";

// How a URI is cut into the text of each template part, without backtracking: a backward pass
// records, before each part, every position from which the rest of the template can match the
// rest of the URI; a forward pass then picks one end per expression among those positions.
// Both passes are O(URI length) per template part.

function valueAt(array: Int32Array, index: number): number {
  return array[index] as number;
}

/** Stops a non-exploded "/" body before the separator that would exceed one per variable. */
function capSeparators(ends: Int32Array, uri: string, separator: string, allowed: number): void {
  const positions = findOccurrences(uri, separator);
  let firstAtOrAfter = positions.length;
  for (let start = uri.length; start >= 0; start--) {
    if (uri.charAt(start) === separator) firstAtOrAfter -= 1;
    const limit = positions[firstAtOrAfter + allowed] ?? uri.length;
    ends[start] = Math.min(valueAt(ends, start), limit);
  }
}

/** For each position, the furthest end of an expansion body (the text after `first`) starting there. */
function furthestBodyEnds(expression: ExpressionPart, uri: string): Int32Array {
  const { stopChars, boundedSeparators, separator } = expression.operator;
  const ends = new Int32Array(uri.length + 1);
  ends[uri.length] = uri.length;
  for (let index = uri.length - 1; index >= 0; index--) {
    ends[index] = stopChars.includes(uri.charAt(index)) ? index : valueAt(ends, index + 1);
  }
  if (boundedSeparators && !expression.variables.some((spec) => spec.explode)) {
    capSeparators(ends, uri, separator, expression.variables.length - 1);
  }
  return ends;
}

/** For each position p, the smallest position >= p in the set, or size + 1. */
function nearestInSet(set: PositionSet, size: number): Int32Array {
  const nearest = new Int32Array(size + 2);
  nearest[size + 1] = size + 1;
  for (let position = size; position >= 0; position--) {
    nearest[position] = set.has(position) ? position : valueAt(nearest, position + 1);
  }
  return nearest;
}

function literalReach(literal: string, uri: string, after: PositionSet): PositionSet {
  const before = new PositionSet(uri.length + 1);
  for (const start of findOccurrences(uri, literal)) {
    if (after.has(start + literal.length)) before.add(start);
  }
  return before;
}

function expressionReach(expression: ExpressionPart, uri: string, after: PositionSet): PositionSet {
  const bodyEnds = furthestBodyEnds(expression, uri);
  const nearest = nearestInSet(after, uri.length);
  const { first } = expression.operator;
  const before = new PositionSet(uri.length + 1);
  for (let start = 0; start <= uri.length; start++) {
    const bodyStart = start + first.length;
    const fitsWithBody = uri.startsWith(first, start) && valueAt(nearest, bodyStart) <= valueAt(bodyEnds, bodyStart);
    if (after.has(start) || fitsWithBody) before.add(start);
  }
  return before;
}

interface Reachability {
  /** Positions from which the whole template matches the URI's tail. */
  readonly beforeAll: PositionSet;
  /** Per part, the positions from which the parts after it match the URI's tail. */
  readonly afterPart: readonly PositionSet[];
}

function computeReachability(parts: readonly TemplatePart[], uri: string): Reachability {
  const afterPart: PositionSet[] = [];
  let reach = new PositionSet(uri.length + 1);
  reach.add(uri.length);
  for (let index = parts.length - 1; index >= 0; index--) {
    const part = parts[index] as TemplatePart;
    afterPart[index] = reach;
    reach = part.kind === "literal" ? literalReach(part.text, uri, reach) : expressionReach(part, uri, reach);
  }
  return { beforeAll: reach, afterPart };
}

/** The first (or last) position in [from, to] that `accepts`, or -1. */
function scan(from: number, to: number, fromFirst: boolean, accepts: (position: number) => boolean): number {
  if (fromFirst) {
    for (let position = from; position <= to; position++) if (accepts(position)) return position;
  } else {
    for (let position = to; position >= from; position--) if (accepts(position)) return position;
  }
  return -1;
}

/**
 * Where an expression starting at `start` ends. It takes the longest text that lets the rest
 * match, except that it leaves a following expression its first character when it can: the
 * first '?', '&', ';' or '#', the last '.' or '/'.
 */
function chooseEnd(
  expression: ExpressionPart,
  after: PositionSet,
  following: TemplatePart | undefined,
  uri: string,
  start: number,
): number {
  const { first } = expression.operator;
  if (!uri.startsWith(first, start)) return start;
  const bodyStart = start + first.length;
  const bodyEnd = valueAt(furthestBodyEnds(expression, uri), bodyStart);
  const fitsRest = (end: number): boolean => after.has(end);
  const next = following?.kind === "expression" ? following.operator : undefined;
  if (next !== undefined && next.first !== "") {
    const opensNext = (end: number): boolean => fitsRest(end) && uri.startsWith(next.first, end);
    const preferred = scan(bodyStart, bodyEnd, next.splitAtFirstOccurrence, opensNext);
    if (preferred !== -1) return preferred;
  }
  const longest = scan(bodyStart, bodyEnd, false, fitsRest);
  return longest === -1 ? start : longest;
}

/**
 * Where each template part starts in the URI, followed by the URI's length; `undefined` when the
 * URI is not an expansion of the template.
 */
export function splitUri(parts: readonly TemplatePart[], uri: string): readonly number[] | undefined {
  const { beforeAll, afterPart } = computeReachability(parts, uri);
  if (!beforeAll.has(0)) return undefined;
  const starts = [0];
  let position = 0;
  parts.forEach((part, index) => {
    position =
      part.kind === "literal"
        ? position + part.text.length
        : chooseEnd(part, afterPart[index] as PositionSet, parts[index + 1], uri, position);
    starts.push(position);
  });
  return starts;
}

import { findOccurrences } from "./string-search.js";
import type { ExpressionPart, TemplatePart } from "./template-parser.js";

// How a URI is cut into the text of each template part, without backtracking: a backward pass
// records, before each part, every position from which the rest of the template can match the
// rest of the URI; a forward pass then picks one end per expression among those positions.
// Both passes are O(URI length) per template part.

/** A set of positions 0..size-1 in a URI, one bit each (the matcher keeps one per template part). */
type PositionSet = Uint32Array;

const positionSet = (size: number): PositionSet => new Uint32Array((size >>> 5) + 1);
const add = (set: PositionSet, position: number): void => {
  set[position >>> 5] = (set[position >>> 5] as number) | (1 << (position & 31));
};
const has = (set: PositionSet, position: number): boolean => (((set[position >>> 5] as number) >>> (position & 31)) & 1) === 1;

/** For each position, the furthest end of an expansion body (the text after `first`) starting there. */
function furthestBodyEnds({ operator, variables }: ExpressionPart, uri: string): Int32Array {
  const ends = new Int32Array(uri.length + 1);
  ends[uri.length] = uri.length;
  for (let index = uri.length - 1; index >= 0; index--) {
    ends[index] = operator.stopChars.includes(uri.charAt(index)) ? index : (ends[index + 1] as number);
  }
  // A non-exploded "{/...}" body holds at most one "/" between two of its variables: it stops
  // before the separator that would exceed that.
  if (operator.first === "/" && !variables.some((spec) => spec.explode)) {
    const separators = findOccurrences(uri, "/");
    let firstAtOrAfter = separators.length;
    for (let start = uri.length; start >= 0; start--) {
      if (uri.charAt(start) === "/") firstAtOrAfter -= 1;
      ends[start] = Math.min(ends[start] as number, separators[firstAtOrAfter + variables.length - 1] ?? uri.length);
    }
  }
  return ends;
}

/** The positions from which `part` followed by the rest (which matches from the positions in `after`) matches. */
function reach(part: TemplatePart, uri: string, after: PositionSet): PositionSet {
  const before = positionSet(uri.length + 1);
  if (typeof part === "string") {
    for (const start of findOccurrences(uri, part)) if (has(after, start + part.length)) add(before, start);
    return before;
  }
  const bodyEnds = furthestBodyEnds(part, uri);
  const { first } = part.operator;
  // nearest[p]: the smallest position >= p in `after` (or past the URI's end), filled from the end:
  // the body starts at or after `start`, so its entry is known when `start` is looked at.
  const nearest = new Int32Array(uri.length + 2);
  nearest[uri.length + 1] = uri.length + 1;
  for (let start = uri.length; start >= 0; start--) {
    nearest[start] = has(after, start) ? start : (nearest[start + 1] as number);
    const bodyStart = start + first.length;
    if (nearest[start] === start || (uri.startsWith(first, start) && (nearest[bodyStart] as number) <= (bodyEnds[bodyStart] as number))) {
      add(before, start);
    }
  }
  return before;
}

/** The first (or last) position in [from, to] that `accepts`. */
function scan(from: number, to: number, fromFirst: boolean, accepts: (position: number) => boolean): number | undefined {
  for (let step = 0; step <= to - from; step++) {
    const position = fromFirst ? from + step : to - step;
    if (accepts(position)) return position;
  }
  return undefined;
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
  const bodyEnd = furthestBodyEnds(expression, uri)[bodyStart] as number;
  const fitsRest = (end: number): boolean => has(after, end);
  const nextFirst = typeof following === "object" ? following.operator.first : "";
  const preferred =
    nextFirst === ""
      ? undefined
      : scan(bodyStart, bodyEnd, nextFirst !== "." && nextFirst !== "/", (end) => fitsRest(end) && uri.startsWith(nextFirst, end));
  // No end fits: the expression matches nothing (the rest matches from `start`).
  return preferred ?? scan(bodyStart, bodyEnd, false, fitsRest) ?? start;
}

/**
 * Where each template part starts in the URI, followed by the URI's length; `undefined` when the
 * URI is not an expansion of the template.
 */
export function splitUri(parts: readonly TemplatePart[], uri: string): readonly number[] | undefined {
  // afterPart[i]: the positions from which the parts after part i match the URI's tail.
  const afterPart: PositionSet[] = [];
  let before = positionSet(uri.length + 1);
  add(before, uri.length);
  for (let index = parts.length - 1; index >= 0; index--) {
    afterPart[index] = before;
    before = reach(parts[index] as TemplatePart, uri, before);
  }
  if (!has(before, 0)) return undefined;
  const starts = [0];
  parts.forEach((part, index) => {
    const position = starts[index] as number;
    starts.push(
      typeof part === "string" ? position + part.length : chooseEnd(part, afterPart[index] as PositionSet, parts[index + 1], uri, position),
    );
  });
  return starts;
}

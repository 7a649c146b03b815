/** The media type of a header value without parameters, lower-cased ("application/json; charset=utf-8" → "application/json"). */
function essenceOf(value: string): string {
  const parameters = value.indexOf(";");
  return (parameters === -1 ? value : value.slice(0, parameters)).trim().toLowerCase();
}

function refused(range: string): boolean {
  // Stryker disable next-line MethodExpression: the piece before the first ";" is the range itself, and one that reads q=0 has no "/": it
  // admits no type either way
  const parameters = range.split(";").slice(1);
  return parameters.some((parameter) => /^\s*q\s*=\s*0(\.0*)?\s*$/i.test(parameter));
}

/** The media ranges an `Accept` header admits (q=0 ones left out), as essences. */
function admittedRanges(accept: string): readonly string[] {
  return accept
    .split(",")
    .filter((range) => !refused(range))
    .map(essenceOf);
}

// A client sends the same Accept on every request: the last one's ranges are kept.
// Stryker disable next-line StringLiteral: the cache starts as "" with no ranges, which is what "" admits; any other header without a "/"
// admits none as well
let lastAccept = "";
let lastRanges: readonly string[] = [];

/** Whether an `Accept` header admits `type`: exactly, by `type/*` or by `*\/*`, unless with q=0. No header admits anything (RFC 9110). */
export function accepts(accept: string | null, type: string): boolean {
  if (accept === null) return true;
  // Stryker disable next-line ConditionalExpression: computing the ranges on every call gives the same ranges, the cache only saves the
  // work (the `false` twin is killed by a test)
  if (accept !== lastAccept) {
    lastRanges = admittedRanges(accept);
    lastAccept = accept;
  }
  const wildcard = `${type.slice(0, type.indexOf("/"))}/*`;
  return lastRanges.some((essence) => essence === type || essence === wildcard || essence === "*/*");
}

export function isJsonContentType(contentType: string | null): boolean {
  return contentType !== null && essenceOf(contentType) === "application/json";
}

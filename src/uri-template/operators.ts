/** The reserved characters of RFC 3986 (gen-delims and sub-delims) but ",", which joins list items. */
const RESERVED_BUT_COMMA = ":/?#[]@!$&'()*+;=";

/**
 * One row of RFC 6570's operator table (appendix A), with what the matcher needs to know to find
 * where an expansion of this operator ends inside a URI.
 */
export interface Operator {
  /** Written before the first defined variable ("" for simple, "+" expansion). */
  readonly first: string;
  /** Written between two variables, and between the items of an exploded list. */
  readonly separator: string;
  /** Whether each value is written as name=value (";", "?", "&"). */
  readonly named: boolean;
  /** What follows the name of a named variable whose value is empty. */
  readonly ifEmpty: string;
  /** Whether reserved characters and percent-encoded triplets are written as they are (U+R). */
  readonly allowReserved: boolean;
  /** Characters that end this operator's expansion in a URI (its values never contain them raw). */
  readonly stopChars: string;
}

/** The characters that select an operator after "{"; any other is the start of a variable name. */
export const OPERATOR_SYMBOLS = "+#./;?&";
/** Operator characters RFC 6570 keeps for future extensions: a template using one is malformed. */
export const RESERVED_OPERATORS = "=,!@|";

/** The operator of `symbol`, one of OPERATOR_SYMBOLS or "" for simple string expansion. */
export function operatorOf(symbol: string): Operator {
  const named = symbol === ";" || symbol === "?" || symbol === "&";
  const allowReserved = symbol === "+" || symbol === "#";
  const query = symbol === "?" || symbol === "&";
  return {
    first: symbol === "+" ? "" : symbol,
    separator: query ? "&" : symbol === "." || symbol === "/" || symbol === ";" ? symbol : ",",
    named,
    ifEmpty: query ? "=" : "",
    allowReserved,
    // A "{/var}" expansion may hold "/" between its values (uri-splitter.ts counts them): RESERVED_BUT_COMMA but "/".
    stopChars: allowReserved ? "" : query ? "#" : named ? "/?#" : symbol === "/" ? ":?#[]@!$&'()*+;=" : RESERVED_BUT_COMMA,
  };
}

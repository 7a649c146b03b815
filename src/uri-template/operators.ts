/** The reserved characters of RFC 3986 (gen-delims and sub-delims) but ",", which joins list items. */
const RESERVED_BUT_COMMA = ":/?#[]@!$&'()*+;=";

/**
 * One row of RFC 6570's operator table (appendix A), followed by what the matcher needs to know to
 * find where an expansion of this operator ends inside a URI.
 */
export interface Operator {
  /** The character after "{": "" for simple string expansion. */
  readonly symbol: string;
  /** Written before the first defined variable. */
  readonly first: string;
  /** Written between two variables, and between the items of an exploded list. */
  readonly separator: string;
  /** Whether each value is written as name=value. */
  readonly named: boolean;
  /** What follows the name of a named variable whose value is empty. */
  readonly ifEmpty: string;
  /** Whether reserved characters and percent-encoded triplets are written as they are (U+R). */
  readonly allowReserved: boolean;
  /** Characters that end this operator's expansion in a URI (its values never contain them raw). */
  readonly stopChars: string;
  /** Whether a non-exploded expansion holds at most (variables - 1) separators. */
  readonly boundedSeparators: boolean;
  /** Adjacent named expressions with the same pool look their variables up among each other's parameters. */
  readonly pool: string;
  /** When an expression is followed by this one, split at the first (true) or last (false) occurrence of `first`. */
  readonly splitAtFirstOccurrence: boolean;
}

function operator(row: Operator): Operator {
  return Object.freeze(row);
}

/** Simple string expansion: `{var}`. */
export const SIMPLE_OPERATOR = /* @__PURE__ */ operator({
  symbol: "",
  first: "",
  separator: ",",
  named: false,
  ifEmpty: "",
  allowReserved: false,
  stopChars: RESERVED_BUT_COMMA,
  boundedSeparators: false,
  pool: "",
  splitAtFirstOccurrence: false,
});

/** The operators that start with a character of their own, by that character. */
export const OPERATOR_BY_SYMBOL: ReadonlyMap<string, Operator> = /* @__PURE__ */ operatorsBySymbol();

// Built by a pure call, so a bundle that never parses a template leaves the table out.
function operatorsBySymbol(): ReadonlyMap<string, Operator> {
  const rows: readonly Operator[] = [
    { ...SIMPLE_OPERATOR, symbol: "+", allowReserved: true, stopChars: "" },
    { ...SIMPLE_OPERATOR, symbol: "#", first: "#", allowReserved: true, stopChars: "", splitAtFirstOccurrence: true },
    { ...SIMPLE_OPERATOR, symbol: ".", first: ".", separator: "." },
    {
      ...SIMPLE_OPERATOR,
      symbol: "/",
      first: "/",
      separator: "/",
      stopChars: RESERVED_BUT_COMMA.replace("/", ""),
      boundedSeparators: true,
    },
    {
      ...SIMPLE_OPERATOR,
      symbol: ";",
      first: ";",
      separator: ";",
      named: true,
      stopChars: "/?#",
      pool: ";",
      splitAtFirstOccurrence: true,
    },
    {
      ...SIMPLE_OPERATOR,
      symbol: "?",
      first: "?",
      separator: "&",
      named: true,
      ifEmpty: "=",
      stopChars: "#",
      pool: "?",
      splitAtFirstOccurrence: true,
    },
    {
      ...SIMPLE_OPERATOR,
      symbol: "&",
      first: "&",
      separator: "&",
      named: true,
      ifEmpty: "=",
      stopChars: "#",
      pool: "?",
      splitAtFirstOccurrence: true,
    },
  ];
  return new Map(rows.map((row) => [row.symbol, operator(row)]));
}

/** Operator characters RFC 6570 keeps for future extensions: a template using one is malformed. */
export const RESERVED_OPERATORS = "=,!@|";

/** A variable's value as `match` returns it: a string, or a list of strings. */
export type UriVariableValue = string | readonly string[];

/** A value that expands as its string form: `42` as `"42"`, `true` as `"true"` (numbers must be finite). */
export type UriScalar = string | number | boolean | bigint;

/**
 * A value `expand` accepts: a scalar, a list, an associative array (a plain object, expanded in
 * the order of its keys), or `null` / `undefined` for "not defined". Undefined members of a list or
 * an associative array are skipped; a composite value without defined members is not defined.
 */
export type UriExpansionValue =
  UriScalar | readonly (UriScalar | null | undefined)[] | { readonly [key: string]: UriScalar | null | undefined } | null | undefined;

/** The variables of an expansion, by name. */
export type UriVariables = Readonly<Record<string, UriExpansionValue>>;

export function isList(value: UriVariableValue): value is readonly string[] {
  return Array.isArray(value);
}

/** A variable's value: a string, or a list of strings (associative arrays are not supported). */
export type UriVariableValue = string | readonly string[];

/** The variables of an expansion, by name; `undefined` (or an empty list) means "not defined". */
export type UriVariables = Readonly<Record<string, UriVariableValue | undefined>>;

export function isList(value: UriVariableValue): value is readonly string[] {
  return Array.isArray(value);
}

import { MCPError, MCP_CODES } from "../error-codes/index.js";

/** A defined variable's value, checked and converted to strings: what RFC 6570 §2.3 calls its type. */
export type ExpansionValue =
  | { readonly kind: "string"; readonly text: string }
  | { readonly kind: "list"; readonly items: readonly string[] }
  | { readonly kind: "pairs"; readonly pairs: readonly (readonly [string, string])[] };

/** What a value other than null is, for an error message: its type or class, never its content (it may be a secret). */
function describe(value: unknown): string {
  if (typeof value === "number") return `the number ${String(value)}`;
  // "[object Date]" gives "Date": the class, read without calling the value's own methods.
  return typeof value === "object" ? `an object of type ${Object.prototype.toString.call(value).slice(8, -1)}` : `a ${typeof value}`;
}

function refuse(name: string, problem: string): never {
  throw new MCPError(MCP_CODES.INVALID_PARAMS, `Cannot expand the URI template variable '${name}': ${problem}`, {
    data: { variable: name },
  });
}

/** A scalar's string form, or `undefined` for null and undefined (an undefined member is skipped). */
function scalarText(name: string, value: unknown, where: string): string | undefined {
  if (value === undefined || value === null || typeof value === "string") return value ?? undefined;
  if (typeof value === "boolean" || typeof value === "bigint" || (typeof value === "number" && Number.isFinite(value))) {
    return String(value);
  }
  return refuse(name, `${where} is ${describe(value)}, not a string, a finite number or a boolean`);
}

/** Whether a value is an associative array: an object made by `{...}` or `Object.create(null)`. */
function isPlainObject(value: object): value is Readonly<Record<string, unknown>> {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The value of variable `name` as RFC 6570 expands it, or `undefined` when it is not defined: null,
 * undefined, or a list or associative array without a defined member. Anything else that is not a
 * scalar, a list of scalars or a plain object of scalars is refused with an INVALID_PARAMS `MCPError`.
 */
export function expansionValue(name: string, value: unknown): ExpansionValue | undefined {
  if (Array.isArray(value)) {
    const items = value.flatMap((item: unknown, index) => scalarText(name, item, `item ${index} of its list`) ?? []);
    return items.length === 0 ? undefined : { kind: "list", items };
  }
  if (typeof value === "object" && value !== null) {
    if (!isPlainObject(value)) refuse(name, `${describe(value)} is neither a list nor a plain object (an associative array)`);
    const pairs = Object.entries(value).flatMap(([key, member]): [string, string][] => {
      const text = scalarText(name, member, `the member '${key}' of its associative array`);
      return text === undefined ? [] : [[key, text]];
    });
    return pairs.length === 0 ? undefined : { kind: "pairs", pairs };
  }
  const text = scalarText(name, value, "its value");
  return text === undefined ? undefined : { kind: "string", text };
}

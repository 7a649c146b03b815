import { appendPointer } from "../json-schema/json-pointer.js";
import { isJsonObject } from "../json-schema/json-values.js";
import { forEachSubschema } from "../json-schema/subschemas.js";
import { encodeHeaderValue } from "./header-encoding.js";

/** One tool parameter mirrored into a `Mcp-Param-{header}` request header. */
export interface HeaderParam {
  /** The annotated property's own name: the last key of `path`. */
  readonly property: string;
  /** The chain of `properties` keys from the inputSchema's root to the annotated property (length ≥ 1). */
  readonly path: readonly string[];
  /** The Name part of `Mcp-Param-{Name}`, as annotated. */
  readonly header: string;
  readonly type: "string" | "integer" | "boolean";
}

type Json = Record<string, unknown>;

const ANNOTATION = "x-mcp-header";
/** RFC 9110 `token` (`1*tchar`): no empty name, no space, separator, control or non-ASCII character. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES: ReadonlySet<unknown> = new Set(["string", "integer", "boolean"]);
/** Deeper than any real schema; also ends the walk of a cyclic object built in code. */
const MAX_DEPTH = 1000;

interface Visit {
  readonly schema: Json;
  readonly pointer: string;
  /** The `properties` chain that reaches this schema from the root, or undefined when something else is on the way. */
  readonly path: readonly string[] | undefined;
  readonly depth: number;
}

/**
 * The `x-mcp-header` annotations of a tool's inputSchema, in document order, or the first reason the
 * definition is invalid: an annotation that is not a token, repeats another case-insensitively, sits
 * on a property whose type is not string, integer or boolean (alone or with "null"), or sits anywhere
 * but a property reached from the root through `properties` keys alone (the root itself, `items`,
 * `anyOf`, `$defs`, …). The values of `const`, `enum`, `default` and `examples` are data, not schemas.
 */
export function headerParamsOf(
  inputSchema: Record<string, unknown>,
): { ok: true; params: readonly HeaderParam[] } | { ok: false; reason: string } {
  const params: HeaderParam[] = [];
  const names = new Set<string>();
  const stack: Visit[] = isJsonObject(inputSchema) ? [{ schema: inputSchema, pointer: "", path: [], depth: 0 }] : [];
  while (stack.length > 0) {
    const visit = stack.pop() as Visit;
    if (visit.depth > MAX_DEPTH) return { ok: false, reason: `the inputSchema nests deeper than ${MAX_DEPTH} levels` };
    if (Object.hasOwn(visit.schema, ANNOTATION)) {
      const found = annotatedParam(visit, names);
      if (typeof found === "string") return { ok: false, reason: found };
      names.add(found.header.toLowerCase());
      params.push(found);
    }
    for (const child of childrenOf(visit).toReversed()) stack.push(child);
  }
  return { ok: true, params };
}

/** The HeaderParam an annotated schema declares, or why it is invalid. */
function annotatedParam({ schema, pointer, path }: Visit, earlier: ReadonlySet<string>): HeaderParam | string {
  const header = schema[ANNOTATION];
  const where = `x-mcp-header at ${pointer === "" ? "the root" : pointer}`;
  if (path === undefined || path.length === 0) return `${where} is not on a property reached from the root through "properties" alone`;
  if (typeof header !== "string" || !TOKEN.test(header))
    return `${where} must be a non-empty HTTP token (letters, digits, !#$%&'*+-.^_\`|~)`;
  if (earlier.has(header.toLowerCase())) return `${where}: "${header}" repeats another x-mcp-header (case-insensitively)`;
  const type = headerType(schema["type"]);
  if (type === undefined) return `${where}: the property's type must be string, integer or boolean`;
  return { property: path[path.length - 1] as string, path, header, type };
}

/** `"string"`, `"integer"` or `"boolean"` from a `type` keyword that names one of them, alone or with `"null"`. */
function headerType(type: unknown): HeaderParam["type"] | undefined {
  const named = Array.isArray(type) ? type.filter((entry) => entry !== "null") : [type];
  const only = named.length === 1 && (!Array.isArray(type) || type.length <= 2) ? named[0] : undefined;
  return HEADER_TYPES.has(only) ? (only as HeaderParam["type"]) : undefined;
}

function childrenOf({ schema, pointer, path, depth }: Visit): Visit[] {
  const children: Visit[] = [];
  const add = (value: unknown, at: string, keyword?: string, name?: string): void => {
    // Only a `properties` chain from the root keeps a property reachable.
    if (isJsonObject(value))
      children.push({
        schema: value,
        pointer: at,
        path: keyword === "properties" && path ? [...path, name as string] : undefined,
        depth: depth + 1,
      });
  };
  forEachSubschema(schema, pointer, add);
  // A schema too, though the validator never applies it.
  add(schema["contentSchema"], appendPointer(pointer, "contentSchema"));
  return children;
}

/** The argument a HeaderParam mirrors: the value at its `path` in the call's arguments (own properties only), or undefined. */
export function headerParamArgument(param: HeaderParam, args: unknown): unknown {
  let value = args;
  for (const key of param.path) {
    if (!isJsonObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/**
 * The text an argument stands for in its header, before encoding: a string as is, a safe integer in
 * decimal, a boolean as `true`/`false`. Undefined when the argument has no such form: null or absent,
 * of another JSON type than the annotation's, or an integer outside ±(2^53 − 1).
 */
export function headerParamText(param: HeaderParam, value: unknown): string | undefined {
  if (param.type === "integer") return Number.isSafeInteger(value) ? String(value) : undefined;
  return typeof value === param.type ? String(value) : undefined;
}

/**
 * The header value a client sends for an argument, encoded; undefined means no header: the argument is
 * null or absent, or has no header form (see `headerParamText`: such a call does not match the tool's
 * schema, and a server rejects it whether or not the header is sent).
 */
export function headerParamValue(param: HeaderParam, value: unknown): string | undefined {
  const text = headerParamText(param, value);
  return text === undefined ? undefined : encodeHeaderValue(text);
}

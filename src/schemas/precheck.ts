// A pre-check in front of zod: closures built once per schema (no code generation) that accept the
// common valid message without allocating. It only ever vouches for a value when zod would accept it
// and hand back an equal value; everything else (defaults, transforms, refinements, stripped keys,
// errors) goes on to zod, which stays the one source of answers and error messages. It imports no
// zod: a refinement runs through the zod parse it is given (`ZodParse`).
import type * as z from "zod/mini";

/** Zod would accept the value and return an equal one. */
export const VALID = 0;
/** Zod would certainly reject the value (lets a union try its next option). */
export const INVALID = 1;
/** Only zod can tell. */
export const UNKNOWN = 2;

export type Verdict = typeof VALID | typeof INVALID | typeof UNKNOWN;
export type Precheck = (value: unknown) => Verdict;

type Schema = z.core.$ZodType;
type Internals = Schema["_zod"];

const unknown: Precheck = () => UNKNOWN;
const valid: Precheck = () => VALID;
const invalid: Precheck = () => INVALID;

/** zod's `safeParse` (the core function, or a classic schema's own method bound to the same engine). */
export type ZodParse = (
  schema: Schema,
  value: unknown,
  options: z.core.ParseContext<z.core.$ZodIssue>,
) => z.core.util.SafeParseResult<unknown>;

const PARSE_OPTIONS = { jitless: true } as const;

const compiled = new WeakMap<Schema, Precheck>();

/** The pre-check of `schema`, built on first use and kept as long as the schema lives. */
export function precheckOf(schema: Schema, parse: ZodParse): Precheck {
  let check = compiled.get(schema);
  if (!check) {
    // Set before building, so a recursive (lazy) schema finds itself through the getter below.
    let built: Precheck | undefined;
    compiled.set(schema, (value) => (built as Precheck)(value));
    built = build(schema, parse);
    check = built;
    compiled.set(schema, check);
  }
  return check;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// zod returns a plain object: a class instance or a prototype-less object is left to it.
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return isObject(value) && Object.getPrototypeOf(value) === Object.prototype;
}

// zod drops an own "__proto__" key from what it returns: such a value is left to zod.
function hasProtoKey(value: object): boolean {
  return Object.hasOwn(value, "__proto__");
}

/** Refinements live in `checks`; a format (`z.int()`, `z.email()`) is a schema that is its own check. */
/** Zod's internals: the definition and traits the pre-check is built from (zod's documented `_zod` property). */
function internalsOf(schema: Schema): Internals {
  return schema["_zod"];
}

function hasChecks(internals: Internals): boolean {
  return (internals.def.checks?.length ?? 0) > 0 || internals.traits.has("$ZodCheck");
}

type Def = z.core.$ZodTypeDef & { readonly coerce?: boolean };
type Builder = (schema: Schema, def: Def, internals: Internals, parse: ZodParse) => Precheck;

const scalar: Builder = (schema, def, internals, parse) =>
  def.coerce ? unknown : hasChecks(internals) ? delegated(schema, parse) : primitive(def.type as "string" | "number" | "boolean");
/** A container with refinements (a length, a custom check) is left to zod. */
const container =
  (builder: (def: never, parse: ZodParse) => Precheck): Builder =>
  (_schema, def, internals, parse) =>
    hasChecks(internals) ? unknown : builder(def as never, parse);

// A type missing here (defaults, transforms, pipes, readonly, tuples, intersections…) may return
// something other than its input: zod parses it.
const BUILDERS: Partial<Record<Def["type"], Builder>> = {
  string: scalar,
  number: scalar,
  boolean: scalar,
  null: () => (value) => (value === null ? VALID : INVALID),
  any: () => valid,
  unknown: () => valid,
  never: () => invalid,
  literal: (_schema, _def, internals) => members(internals.values as ReadonlySet<unknown>),
  enum: (_schema, _def, internals) => members(internals.values as ReadonlySet<unknown>),
  optional: (_schema, def, _internals, parse) => optional(def as z.core.$ZodOptionalDef, parse),
  nullable: (_schema, def, _internals, parse) => nullable(def as z.core.$ZodNullableDef, parse),
  array: container(array),
  object: container(object),
  record: container(record),
  union: container(union),
  lazy: (_schema, def, _internals, parse) => lazy(def as z.core.$ZodLazyDef, parse),
  custom: (schema, _def, _internals, parse) => delegated(schema, parse),
};

function build(schema: Schema, parse: ZodParse): Precheck {
  const internals = internalsOf(schema);
  const def = internals.def as Def;
  return BUILDERS[def.type]?.(schema, def, internals, parse) ?? unknown;
}

function primitive(type: "string" | "number" | "boolean"): Precheck {
  if (type === "number") return (value) => (typeof value === "number" && Number.isFinite(value) ? VALID : INVALID);
  return (value) => (typeof value === type ? VALID : INVALID);
}

/** A scalar with refinements: zod runs them; the pre-check only avoids the copy a container would make. */
function delegated(schema: Schema, parse: ZodParse): Precheck {
  return (value) => {
    const parsed = parse(schema, value, PARSE_OPTIONS);
    if (!parsed.success) return INVALID;
    return Object.is(parsed.data, value) ? VALID : UNKNOWN;
  };
}

function members(values: ReadonlySet<unknown>): Precheck {
  return (value) => (values.has(value) ? VALID : INVALID);
}

function optional(def: z.core.$ZodOptionalDef, parse: ZodParse): Precheck {
  const inner = precheckOf(def.innerType, parse);
  // An inner schema that takes undefined itself (optional, defaulted) decides what undefined becomes.
  if (internalsOf(def.innerType).optin !== undefined) return inner;
  return (value) => (value === undefined ? VALID : inner(value));
}

function nullable(def: z.core.$ZodNullableDef, parse: ZodParse): Precheck {
  const inner = precheckOf(def.innerType, parse);
  return (value) => (value === null ? VALID : inner(value));
}

function array(def: z.core.$ZodArrayDef, parse: ZodParse): Precheck {
  const element = precheckOf(def.element, parse);
  return (value) => {
    if (!Array.isArray(value)) return INVALID;
    if (Object.getPrototypeOf(value) !== Array.prototype) return UNKNOWN;
    for (const item of value) {
      const verdict = element(item);
      if (verdict !== VALID) return verdict;
    }
    return VALID;
  };
}

interface Field {
  readonly key: string;
  readonly check: Precheck;
  /** An absent key is fine and stays absent (optional in and out). */
  readonly mayBeAbsent: boolean;
}

function fieldsOf(shape: Readonly<Record<string, Schema>>, parse: ZodParse): Field[] {
  return Object.keys(shape).map((key) => {
    const schema = shape[key] as Schema;
    return {
      key,
      check: precheckOf(schema, parse),
      mayBeAbsent: internalsOf(schema).optin === "optional" && internalsOf(schema).optout === "optional",
    };
  });
}

function checkFields(fields: readonly Field[], value: Record<string, unknown>): Verdict {
  for (const field of fields) {
    const item = value[field.key];
    if (item === undefined && !(field.key in value)) {
      if (field.mayBeAbsent) continue;
      return UNKNOWN;
    }
    const verdict = field.check(item);
    if (verdict !== VALID) return verdict;
  }
  return VALID;
}

function object(def: z.core.$ZodObjectDef, parse: ZodParse): Precheck {
  if (Object.getOwnPropertySymbols(def.shape).length > 0 || Object.hasOwn(def.shape, "__proto__")) return unknown;
  const fields = fieldsOf(def.shape, parse);
  const catchallType = def.catchall && internalsOf(def.catchall).def.type;
  // A loose object keeps unknown keys as they are: only the declared ones need looking at.
  if (catchallType === "unknown" || catchallType === "any") {
    return (value) => (!isObject(value) ? INVALID : !isPlainObject(value) || hasProtoKey(value) ? UNKNOWN : checkFields(fields, value));
  }
  const declared = new Set(fields.map((field) => field.key));
  // A stripping object drops unknown keys, a strict one refuses them, a catchall checks them: zod decides.
  return (value) => {
    if (!isObject(value)) return INVALID;
    if (!isPlainObject(value)) return UNKNOWN;
    // An own "__proto__" is an undeclared key too.
    for (const key in value) if (!declared.has(key)) return UNKNOWN;
    return checkFields(fields, value);
  };
}

function record(def: z.core.$ZodRecordDef, parse: ZodParse): Precheck {
  const keyType = internalsOf(def.keyType);
  if (keyType.def.type !== "string" || hasChecks(keyType)) return unknown;
  const item = precheckOf(def.valueType, parse);
  return (value) => {
    if (!isObject(value)) return INVALID;
    if (!isPlainObject(value)) return UNKNOWN;
    for (const key in value) {
      if (key === "__proto__") return UNKNOWN;
      const verdict = item(value[key]);
      if (verdict !== VALID) return verdict;
    }
    return VALID;
  };
}

function union(
  def: z.core.$ZodUnionDef & { readonly discriminator?: string; readonly inclusive?: boolean; readonly unionFallback?: boolean },
  parse: ZodParse,
): Precheck {
  if (def.discriminator !== undefined) return discriminated(def.discriminator, def.options, def, parse);
  // An exclusive union (z.xor) must match exactly one option: zod decides.
  if (def.inclusive === false) return unknown;
  const options = def.options.map((option) => precheckOf(option, parse));
  // zod takes the first option that accepts: an option it might accept stops the search.
  return (value) => {
    for (const option of options) {
      const verdict = option(value);
      if (verdict !== INVALID) return verdict;
    }
    return INVALID;
  };
}

function discriminated(key: string, options: readonly Schema[], def: { readonly unionFallback?: boolean }, parse: ZodParse): Precheck {
  const byValue = new Map<unknown, Precheck>();
  for (const option of options) {
    const values = internalsOf(option).propValues?.[key];
    if (!values) return unknown;
    for (const tag of values) byValue.set(tag, precheckOf(option, parse));
  }
  const miss = def.unionFallback ? UNKNOWN : INVALID;
  return (value) => {
    if (!isObject(value)) return INVALID;
    const option = byValue.get(value[key]);
    return option ? option(value) : miss;
  };
}

function lazy(def: z.core.$ZodLazyDef, parse: ZodParse): Precheck {
  let inner: Precheck | undefined;
  return (value) => (inner ??= precheckOf(def.getter(), parse))(value);
}

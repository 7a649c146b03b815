// Test support for the downgrade: random values of any zod/mini schema of the library's revisions,
// and a strict twin of a schema, which refuses every key the schema does not declare (the
// revisions' own schemas are loose: they let unknown keys through).
import * as fc from "fast-check";
import * as z from "zod/mini";

type Schema = z.core.$ZodType;
type Def = Schema["_zod"]["def"] & Record<string, unknown>;

function defOf(schema: Schema): Def {
  return schema["_zod"].def as Def;
}

function numberArbitrary(def: Def): fc.Arbitrary<number> {
  if (def["format"] === "safeint") return fc.integer({ min: 0, max: 1000 });
  const checks = ((def["checks"] ?? []) as unknown as Schema[]).map(
    (check) => check["_zod"].def as unknown as { check: string; value: number },
  );
  const min = checks.find((check) => check.check === "greater_than")?.value ?? -1000;
  const max = checks.find((check) => check.check === "less_than")?.value ?? 1000;
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function objectArbitrary(def: Def): fc.Arbitrary<unknown> {
  const shape = def["shape"] as Record<string, Schema>;
  const required = Object.keys(shape).filter((key) => defOf(shape[key] as Schema).type !== "optional");
  const model = Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, arbitraryOf(schema)]));
  return fc.record(model, { requiredKeys: required });
}

const arbitraries = new WeakMap<Schema, fc.Arbitrary<unknown>>();

/** Values the schema accepts, optional keys present or absent; no undeclared keys. */
export function arbitraryOf(schema: Schema): fc.Arbitrary<unknown> {
  let arbitrary = arbitraries.get(schema);
  if (!arbitrary) {
    arbitrary = build(schema);
    arbitraries.set(schema, arbitrary);
  }
  return arbitrary;
}

type Builder = (def: Def) => fc.Arbitrary<unknown>;

const inner = (def: Def): fc.Arbitrary<unknown> => arbitraryOf(def["innerType"] as Schema);

const BUILDERS: Readonly<Record<string, Builder>> = {
  string: () => fc.string({ maxLength: 6 }),
  number: numberArbitrary,
  boolean: () => fc.boolean(),
  literal: (def) => fc.constantFrom(...(def["values"] as unknown[])),
  enum: (def) => fc.constantFrom(...Object.values(def["entries"] as Record<string, unknown>)),
  optional: inner,
  nullable: (def) => fc.option(inner(def), { nil: null }),
  array: (def) => fc.array(arbitraryOf(def["element"] as Schema), { maxLength: 3 }),
  record: (def) => fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), arbitraryOf(def["valueType"] as Schema), { maxKeys: 2 }),
  union: (def) => fc.oneof(...(def["options"] as Schema[]).map((option) => arbitraryOf(option))),
  object: objectArbitrary,
  unknown: () => fc.jsonValue({ maxDepth: 1 }),
};

function build(schema: Schema): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const builder = BUILDERS[def.type];
  if (!builder) throw new Error(`No arbitrary for zod type ${def.type}`);
  return builder(def);
}

const strict = new WeakMap<Schema, Schema>();

/**
 * The schema with every declared object made strict. Objects that declare nothing (the spec's bare
 * `object`) stay open, and so do the schemas in `open` (e.g. a tool's JSON Schema documents).
 */
export function strictOf(schema: Schema, open: ReadonlySet<Schema>): Schema {
  if (open.has(schema)) return schema;
  let twin = strict.get(schema);
  if (!twin) {
    twin = strictTwin(schema, open);
    strict.set(schema, twin);
  }
  return twin;
}

type Twin = (def: Def, open: ReadonlySet<Schema>, schema: Schema) => Schema;

const TWINS: Readonly<Record<string, Twin>> = {
  optional: (def, open) => z.optional(strictOf(def["innerType"] as Schema, open)),
  nullable: (def, open) => z.nullable(strictOf(def["innerType"] as Schema, open)),
  array: (def, open) => z.array(strictOf(def["element"] as Schema, open)),
  record: (def, open) => z.record(def["keyType"] as z.core.$ZodRecordKey, strictOf(def["valueType"] as Schema, open)),
  union: (def, open) => {
    const options = (def["options"] as Schema[]).map((option) => strictOf(option, open)) as unknown as [
      z.core.$ZodTypeDiscriminable,
      ...z.core.$ZodTypeDiscriminable[],
    ];
    return def["discriminator"] === undefined ? z.union(options) : z.discriminatedUnion(def["discriminator"] as string, options);
  },
  object: (def, open, schema) => {
    const shape = def["shape"] as Record<string, Schema>;
    if (Object.keys(shape).length === 0) return schema;
    return z.strictObject(Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, strictOf(field, open)])));
  },
};

function strictTwin(schema: Schema, open: ReadonlySet<Schema>): Schema {
  const def = defOf(schema);
  return TWINS[def.type]?.(def, open, schema) ?? schema;
}

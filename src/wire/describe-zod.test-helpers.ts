// Turns the zod schemas of src/schemas into wire tables (wire-tables.types.ts). Test tooling: the
// wire-tables test compares its output with the committed wire-tables.generated.ts and rewrites
// that file when asked. A zod construct the tables cannot express throws, naming it.
import type * as z from "zod/mini";

import { ALL_PROTOCOL_VERSIONS, type AnyProtocolVersion } from "../constants/index.js";
import type { RevisionCodec } from "../schemas/codec.js";
import { CODECS } from "../schemas/codecs.js";
import { ElicitationCompleteNotificationParamsSchema, URLElicitationRequiredErrorDataSchema } from "../schemas/revisions/2025-11-25.js";
import type { RevisionTable, WireLiteral, WireNode, WireTables } from "./wire-tables.types.js";

type Schema = z.core.$ZodType;
interface Check {
  readonly check: string;
  readonly value?: number;
  readonly inclusive?: boolean;
  readonly minimum?: number;
  readonly maximum?: number;
}

class TableBuilder {
  readonly nodes: WireNode[] = [];
  readonly #bySchema = new Map<Schema, number>();
  readonly #byShape = new Map<string, number>();

  ref(schema: Schema): number {
    const known = this.#bySchema.get(schema);
    if (known !== undefined) return known;
    const node = this.#describe(schema);
    const shape = JSON.stringify(node);
    let index = this.#byShape.get(shape);
    if (index === undefined) {
      index = this.nodes.push(node) - 1;
      this.#byShape.set(shape, index);
    }
    this.#bySchema.set(schema, index);
    return index;
  }

  #describe(schema: Schema): WireNode {
    const internals = schema["_zod"];
    const def = internals.def as z.core.$ZodTypeDef & Record<string, unknown>;
    const checks = (def.checks ?? []).map((check) => check["_zod"].def as unknown as Check);
    const describe = this.#describers[def.type];
    if (!describe) throw new Error(`Wire tables cannot express a zod ${def.type}`);
    return describe(def, checks, internals);
  }

  readonly #describers: Partial<
    Record<
      z.core.$ZodTypeDef["type"],
      (def: Record<string, unknown>, checks: readonly Check[], internals: z.core.$ZodTypeInternals) => WireNode
    >
  > = {
    string: (_def, checks) => leaf("string", "s", checks),
    boolean: (_def, checks) => leaf("boolean", "b", checks),
    unknown: (_def, checks) => leaf("unknown", "x", checks),
    number: describeNumber,
    literal: (_def, checks, internals) => literalValues(checks, internals),
    enum: (_def, checks, internals) => literalValues(checks, internals),
    optional: (def) => ["o", this.ref(def["innerType"] as Schema)],
    nullable: (def) => ["n", this.ref(def["innerType"] as Schema)],
    array: (def, checks) => arrayNode(this.ref(def["element"] as Schema), boundOf(checks, "min_length"), boundOf(checks, "max_length")),
    object: (def) => this.#describeObject(def as unknown as z.core.$ZodObjectDef),
    record: (def) => this.#describeRecord(def as unknown as z.core.$ZodRecordDef),
    union: (def) => this.#describeUnion(def as unknown as z.core.$ZodUnionDef & { discriminator?: string }),
  };

  #describeObject(def: z.core.$ZodObjectDef): WireNode {
    const catchall = def.catchall?.["_zod"].def.type;
    if (catchall !== "unknown") throw new Error("Wire tables hold loose objects only");
    return Object.entries(def.shape)
      .map(([key, field]) => {
        const internals = field["_zod"];
        const optional = internals.optin === "optional" && internals.optout === "optional";
        if (optional !== (internals.def.type === "optional"))
          throw new Error(`Field ${key}: only z.optional makes a field optional in wire tables`);
        if (/[,?]|\d$|^$/.test(key)) throw new Error(`Field ${key}: wire tables hold no key with "," or "?", empty or ending in a digit`);
        return optional ? `${key}?${this.ref((internals.def as z.core.$ZodOptionalDef).innerType)}` : `${key}${this.ref(field)}`;
      })
      .join(",");
  }

  #describeRecord(def: z.core.$ZodRecordDef): WireNode {
    const key = def.keyType["_zod"];
    if (key.def.type !== "string" || (key.def.checks?.length ?? 0) > 0) throw new Error("Wire tables hold records with string keys only");
    return ["r", this.ref(def.valueType)];
  }

  #describeUnion(def: z.core.$ZodUnionDef & { discriminator?: string }): WireNode {
    const options = def.options.map((option) => this.ref(option));
    if (def.discriminator === undefined) {
      // zod runs a union of one option as that option.
      if (options.length === 1) return this.nodes[options[0] as number] as WireNode;
      return ["u", options];
    }
    for (const option of options) {
      const node = this.nodes[option];
      const tag = typeof node === "string" ? node.split(",").find((field) => field.replace(/\d+$/, "") === def.discriminator) : undefined;
      if (tag === undefined || this.nodes[Number(tag.slice(def.discriminator.length))]?.[0] !== "v")
        throw new Error(`Discriminated union on ${def.discriminator}: an option without a literal tag`);
    }
    return ["d", def.discriminator, options];
  }
}

function noChecks(type: string, checks: readonly Check[]): void {
  if (checks.length > 0) throw new Error(`Wire tables cannot express checks on a zod ${type}`);
}

function leaf(type: string, kind: "s" | "b" | "x", checks: readonly Check[]): WireNode {
  noChecks(type, checks);
  return [kind];
}

function literalValues(checks: readonly Check[], internals: z.core.$ZodTypeInternals): WireNode {
  noChecks("literal", checks);
  return ["v", [...(internals.values as ReadonlySet<WireLiteral>)]];
}

function describeNumber(def: Record<string, unknown>, checks: readonly Check[]): WireNode {
  if (def["format"] === "safeint") {
    noChecks("int", checks);
    return ["i"];
  }
  if (def["format"] !== undefined) throw new Error(`Wire tables cannot express the number format ${JSON.stringify(def["format"])}`);
  for (const check of checks) {
    if ((check.check !== "greater_than" && check.check !== "less_than") || check.inclusive !== true)
      throw new Error(`Wire tables cannot express the number check ${check.check}`);
  }
  const bound = (name: string): number | null => checks.find((check) => check.check === name)?.value ?? null;
  return ["f", bound("greater_than"), bound("less_than")];
}

/** An array node, without the bounds it does not have at its end. */
function arrayNode(element: number, minLength: number | null, maxLength: number | null): WireNode {
  if (maxLength !== null) return ["a", element, minLength, maxLength];
  return minLength === null ? ["a", element] : ["a", element, minLength];
}

function boundOf(checks: readonly Check[], name: "min_length" | "max_length"): number | null {
  for (const check of checks)
    if (check.check !== "min_length" && check.check !== "max_length")
      throw new Error(`Wire tables cannot express the array check ${check.check}`);
  const found = checks.find((check) => check.check === name);
  return found ? ((name === "min_length" ? found.minimum : found.maximum) ?? null) : null;
}

function describeRevision(builder: TableBuilder, codec: RevisionCodec): RevisionTable {
  const requests = (methods: RevisionCodec["clientRequests"]) =>
    Object.fromEntries(
      Object.entries(methods).map(([method, { params, result }]) => [method, [builder.ref(params), builder.ref(result)] as const]),
    );
  const notifications = (methods: RevisionCodec["clientNotifications"]) =>
    Object.fromEntries(Object.entries(methods).map(([method, params]) => [method, builder.ref(params)]));
  return {
    batching: codec.batching,
    clientRequests: requests(codec.clientRequests),
    serverRequests: requests(codec.serverRequests),
    clientNotifications: notifications(codec.clientNotifications),
    serverNotifications: notifications(codec.serverNotifications),
  };
}

/** The wire tables of every revision's zod codec. */
export function describeWireTables(): WireTables {
  const builder = new TableBuilder();
  const revisions = Object.fromEntries(
    ALL_PROTOCOL_VERSIONS.map((version) => [version, describeRevision(builder, CODECS[version])]),
  ) as Record<AnyProtocolVersion, RevisionTable>;
  const named = {
    elicitationCompleteParams: builder.ref(ElicitationCompleteNotificationParamsSchema),
    urlElicitationRequiredData: builder.ref(URLElicitationRequiredErrorDataSchema),
  };
  return { nodes: builder.nodes, revisions, named };
}

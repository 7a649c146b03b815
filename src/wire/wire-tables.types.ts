// The zod-free form of the protocol's wire schemas: a table of nodes that refer to each other by
// index, and per revision the node of every method's params and result. Generated from the zod
// schemas in src/schemas (see describe-zod.test-helpers.ts); compiled by wire-schema.ts.
import type { AnyProtocolVersion } from "../constants/index.js";

/** A literal value a node accepts (zod `literal` and `enum`). */
export type WireLiteral = string | number | boolean | null;

/**
 * An object's fields in one string, each its key then its node's index, joined by commas: `"name0,title?3"`. A `?` between the two
 * marks a field that may be absent (zod `optional`, which a node of its own is only elsewhere, as method params that may be left out).
 * A key holds no comma and no `?`, and does not end in a digit. A string, not a list of pairs: a fifth of the tables' bytes less.
 */
export type WireFields = string;

/**
 * One schema: an object (its fields alone; object nodes are loose: unknown keys pass through), or a kind and its parts. A kind is one
 * letter (the tables hold hundreds of them): each is named below by the label of its first element.
 */
export type WireNode =
  | WireFields
  | readonly [string: "s"]
  | readonly [boolean: "b"]
  | readonly [unknown: "x"]
  | readonly [int: "i"]
  | readonly [number: "f", minimum: number | null, maximum: number | null]
  | readonly [values: "v", values: readonly WireLiteral[]]
  | readonly [optional: "o", inner: number]
  | readonly [nullable: "n", inner: number]
  | readonly [array: "a", element: number, minLength?: number | null, maxLength?: number]
  | readonly [record: "r", value: number]
  | readonly [union: "u", options: readonly number[]]
  | readonly [discriminated: "d", key: string, options: readonly number[]];

/** The nodes of one revision's methods: `[params, result]` per request, params per notification. */
export interface RevisionTable {
  readonly batching: boolean;
  readonly clientRequests: Readonly<Record<string, readonly [params: number, result: number]>>;
  readonly serverRequests: Readonly<Record<string, readonly [params: number, result: number]>>;
  readonly clientNotifications: Readonly<Record<string, number>>;
  readonly serverNotifications: Readonly<Record<string, number>>;
}

export interface WireTables {
  readonly nodes: readonly WireNode[];
  readonly revisions: Readonly<Record<AnyProtocolVersion, RevisionTable>>;
  /** Schemas the library checks data with outside a method's params and result. */
  readonly named: Readonly<Record<"elicitationCompleteParams" | "urlElicitationRequiredData", number>>;
}

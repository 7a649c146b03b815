import { ValidationAborted } from "./aborted.js";

export type JsonTypeName = "null" | "boolean" | "object" | "array" | "number" | "string" | "integer";

const JSON_TYPE_NAMES: ReadonlySet<string> = new Set(["null", "boolean", "object", "array", "number", "string", "integer"]);

export type JsonObject = { readonly [key: string]: unknown };

export function isJsonTypeName(name: unknown): name is JsonTypeName {
  return typeof name === "string" && JSON_TYPE_NAMES.has(name);
}

export { isJsonObject } from "../types/objects.js";

/** The type of a value as issues name it: a JSON type, or the `typeof` of anything JSON has no word for. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

export function hasJsonType(value: unknown, type: JsonTypeName): boolean {
  return type === "integer" ? Number.isInteger(value) : jsonTypeOf(value) === type;
}

/** String length in Unicode code points, as JSON Schema counts it (a surrogate pair is one). */
export function countCodePoints(text: string): number {
  let count = text.length;
  for (let index = 0; index < text.length - 1; index++) {
    if (isHighSurrogate(text.charCodeAt(index)) && isLowSurrogate(text.charCodeAt(index + 1))) {
      count--;
      index++;
    }
  }
  return count;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/**
 * A string that two values share exactly when JSON Schema calls them equal (object key order and
 * `1` vs `1.0` do not matter), so `enum` and `uniqueItems` cost one hash lookup per value.
 */
export function canonicalKey(value: unknown, maxDepth: number): string {
  return canonicalKeyAt(value, maxDepth, 0);
}

function canonicalKeyAt(value: unknown, maxDepth: number, depth: number): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value !== "object" || value === null) return String(value);
  if (depth >= maxDepth) throw new ValidationAborted(`a value is nested deeper than ${maxDepth} levels`);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalKeyAt(item, maxDepth, depth + 1)).join(",")}]`;
  const entries = Object.keys(value)
    .toSorted()
    .map((key) => `${JSON.stringify(key)}:${canonicalKeyAt((value as JsonObject)[key], maxDepth, depth + 1)}`);
  return `{${entries.join(",")}}`;
}

const MAX_DESCRIBED_LENGTH = 60;

/** A value as an issue quotes it: compact JSON, cut short when long. */
export function describeValue(value: unknown): string {
  return truncate(toJsonText(value));
}

/** A property name as an issue quotes it. */
export function describeName(name: string): string {
  return truncate(JSON.stringify(name));
}

/** A value as JSON text, or as `String(value)` where JSON has none (undefined, a BigInt, a cycle). */
export function toJsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // Not JSON (a BigInt, a cycle): it came from code, not from the wire.
    return String(value);
  }
}

function truncate(text: string): string {
  return text.length > MAX_DESCRIBED_LENGTH ? `${text.slice(0, MAX_DESCRIBED_LENGTH)}…` : text;
}

/**
 * How many values `root` holds down to `maxDepth`, stopping at `cap`: it sizes the work budget of a
 * large run, and the cap keeps a shared or cyclic object graph from making the count itself explode.
 */
export function countValues(root: unknown, maxDepth: number, cap: number): number {
  const containers: object[] = [];
  const depths: number[] = [];
  const enqueue = (value: unknown, depth: number): void => {
    if (typeof value !== "object" || value === null || depth >= maxDepth) return;
    containers.push(value);
    depths.push(depth);
  };
  let count = 1;
  enqueue(root, 0);
  while (containers.length > 0 && count < cap) {
    const container = containers.pop() as object;
    const depth = depths.pop() as number;
    for (const child of Array.isArray(container) ? container : Object.values(container)) {
      count++;
      enqueue(child, depth + 1);
    }
  }
  return count;
}

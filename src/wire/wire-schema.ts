// Wire schemas compiled from the node table (wire-tables.types.ts) into closures, no code
// generation and no zod. Each node gets two functions: a verdict that accepts the common valid
// message without allocating, and a full run that answers exactly as the zod schema it was
// generated from would (the same value, the same issues), for everything else.
import { isJsonObject } from "../types/objects.js";
import { type Issue, summarizeIssues } from "./issues.js";
import type { WireLiteral, WireNode } from "./wire-tables.types.js";

export type ValidationResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: string };

/** A compiled wire schema. */
export interface WireSchema {
  /** Checks `value`; on failure, `issues` reads like `params.name: expected string, received number`. */
  validate(value: unknown): ValidationResult<unknown>;
}

/** Valid, and the value goes on as it is. */
const VALID = 0;
/** Certainly invalid. */
const INVALID = 1;
/** The full run decides (a copy is due: an own `__proto__` key, an object that is not plain). */
const UNSURE = 2;
type Verdict = typeof VALID | typeof INVALID | typeof UNSURE;

/** An issue as a run builds it: its path grows as it goes up, and it may say whether what follows still runs. */
type MutableIssue = Issue & { path: PropertyKey[]; readonly continue?: boolean };
type NewIssue = MutableIssue extends infer I ? (I extends unknown ? Omit<I, "path"> : never) : never;

interface Outcome {
  value: unknown;
  readonly issues: MutableIssue[];
}

interface Compiled {
  readonly verdict: (value: unknown) => Verdict;
  readonly run: (value: unknown) => Outcome;
  /** The literal values a `values` node accepts (a discriminated union's tags); none for the rest. */
  readonly values: readonly WireLiteral[];
  /** The fields of an object node; none for the rest. */
  readonly fields: readonly Field[];
  /** An `optional` node: a field of it may be absent. */
  readonly optional: boolean;
}

/** What a node is not, unless it says so. */
const LEAF = { values: [], fields: [], optional: false } as const;

interface Field {
  readonly key: string;
  readonly node: Compiled;
}

const ok = (value: unknown): Outcome => ({ value, issues: [] });
const failed = (issue: NewIssue): Outcome => ({ value: issue.input, issues: [{ ...issue, path: [] }] });

function isPlain(value: Record<string, unknown>): boolean {
  return Object.getPrototypeOf(value) === Object.prototype && !Object.hasOwn(value, "__proto__");
}

/** An issue stops what follows (checks after the type, a union's one-survivor rule) unless it says continue. */
function aborted(outcome: Outcome): boolean {
  return outcome.issues.some((issue) => issue.continue !== true);
}

function prefixed(key: PropertyKey, issues: MutableIssue[]): MutableIssue[] {
  for (const issue of issues) issue.path.unshift(key);
  return issues;
}

/** Compiles the nodes a lookup reaches, each once, on first use. */
export class WireSchemaTable {
  readonly #nodes: readonly WireNode[];
  readonly #compiled: (Compiled | undefined)[] = [];
  readonly #schemas: (WireSchema | undefined)[] = [];

  constructor(nodes: readonly WireNode[]) {
    this.#nodes = nodes;
  }

  /** The schema of node `index`. */
  schema(index: number): WireSchema {
    let schema = this.#schemas[index];
    if (schema === undefined) {
      let node: Compiled | undefined;
      schema = { validate: (value) => validateWith((node ??= this.#node(index)), value) };
      this.#schemas[index] = schema;
    }
    return schema;
  }

  #node(index: number): Compiled {
    let compiled = this.#compiled[index];
    if (compiled === undefined) {
      compiled = this.#compile(this.#nodes[index] as WireNode);
      this.#compiled[index] = compiled;
    }
    return compiled;
  }

  #compile(node: WireNode): Compiled {
    if (typeof node === "string")
      return object(
        Array.from(node.matchAll(FIELD), ([, key, absent, index]) => {
          const inner = this.#node(Number(index));
          return { key: key as string, node: absent ? optional(inner) : inner };
        }),
      );
    switch (node[0]) {
      case "s":
        return typed("string");
      case "b":
        return typed("boolean");
      case "x":
        return { ...LEAF, verdict: () => VALID, run: ok };
      case "i":
        return integer();
      case "f":
        return number(node[1], node[2]);
      case "v":
        return literals(node[1]);
      case "o":
        return optional(this.#node(node[1]));
      case "n":
        return nullable(this.#node(node[1]));
      case "a":
        return array(this.#node(node[1]), node[2] ?? null, node[3] ?? null);
      case "r":
        return record(this.#node(node[1]));
      case "u":
        return union(node[1].map((index) => this.#node(index)));
      case "d":
        break;
    }
    return discriminated(
      node[1],
      node[2].map((index) => this.#node(index)),
    );
  }
}

/** One field of an object node (`WireFields`): its key, a `?` if it may be absent, its node's index. */
const FIELD = /([^,?]+?)(\?)?(\d+)(?:,|$)/g;

function validateWith(node: Compiled, value: unknown): ValidationResult<unknown> {
  if (node.verdict(value) === VALID) return { ok: true, value };
  const outcome = node.run(value);
  return outcome.issues.length === 0 ? { ok: true, value: outcome.value } : { ok: false, issues: summarizeIssues(outcome.issues) };
}

function typed(type: "string" | "boolean"): Compiled {
  return {
    ...LEAF,
    verdict: (value) => (typeof value === type ? VALID : INVALID),
    run: (value) => (typeof value === type ? ok(value) : failed({ code: "invalid_type", expected: type, input: value })),
  };
}

function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

const notANumber = (value: unknown): Outcome => failed({ code: "invalid_type", expected: "number", input: value });

function integer(): Compiled {
  return {
    ...LEAF,
    verdict: (value) => (Number.isSafeInteger(value) ? VALID : INVALID),
    run: (value) => {
      if (!isNumber(value)) return notANumber(value);
      if (!Number.isInteger(value)) return failed({ code: "invalid_type", expected: "int", input: value, continue: false });
      if (Number.isSafeInteger(value)) return ok(value);
      if (value > 0) return failed({ code: "too_big", origin: "int", maximum: Number.MAX_SAFE_INTEGER, input: value, continue: true });
      return failed({ code: "too_small", origin: "int", minimum: Number.MIN_SAFE_INTEGER, input: value, continue: true });
    },
  };
}

function number(minimum: number | null, maximum: number | null): Compiled {
  const within = (value: number): boolean => (minimum === null || value >= minimum) && (maximum === null || value <= maximum);
  return {
    ...LEAF,
    verdict: (value) => (isNumber(value) && within(value) ? VALID : INVALID),
    run: (value) => {
      if (!isNumber(value)) return notANumber(value);
      const outcome = ok(value);
      if (minimum !== null && value < minimum)
        outcome.issues.push({ code: "too_small", origin: "number", minimum, input: value, continue: true, path: [] });
      if (maximum !== null && value > maximum)
        outcome.issues.push({ code: "too_big", origin: "number", maximum, input: value, continue: true, path: [] });
      return outcome;
    },
  };
}

/** A literal or an enum. */
function literals(values: readonly WireLiteral[]): Compiled {
  const accepted: ReadonlySet<unknown> = new Set(values);
  return {
    ...LEAF,
    values,
    verdict: (value) => (accepted.has(value) ? VALID : INVALID),
    run: (value) => (accepted.has(value) ? ok(value) : failed({ code: "invalid_value", values, input: value })),
  };
}

function optional(inner: Compiled): Compiled {
  return {
    ...LEAF,
    optional: true,
    verdict: (value) => (value === undefined ? VALID : inner.verdict(value)),
    run: (value) => (value === undefined ? ok(value) : inner.run(value)),
  };
}

function nullable(inner: Compiled): Compiled {
  return {
    ...LEAF,
    verdict: (value) => (value === null ? VALID : inner.verdict(value)),
    run: (value) => (value === null ? ok(value) : inner.run(value)),
  };
}

function array(element: Compiled, minLength: number | null, maxLength: number | null): Compiled {
  const fits = (length: number): boolean => (minLength === null || length >= minLength) && (maxLength === null || length <= maxLength);
  return {
    ...LEAF,
    verdict: (value) => {
      if (!Array.isArray(value)) return INVALID;
      if (!fits(value.length)) return INVALID;
      if (Object.getPrototypeOf(value) !== Array.prototype) return UNSURE;
      for (const item of value) {
        const verdict = element.verdict(item);
        if (verdict !== VALID) return verdict;
      }
      return VALID;
    },
    run: (value) => {
      // Too long: refused before any element is looked at, the value left as it came.
      if (Array.isArray(value) && maxLength !== null && value.length > maxLength)
        return failed({ code: "too_big", origin: "array", maximum: maxLength, input: value, continue: false });
      const outcome = Array.isArray(value) ? elements(element, value) : failed({ code: "invalid_type", expected: "array", input: value });
      checkLength(outcome, value, minLength, maxLength);
      return outcome;
    },
  };
}

function elements(element: Compiled, value: readonly unknown[]): Outcome {
  // Sized, not filled (as zod does): a sparse array with a huge length costs no memory up front.
  const copy: unknown[] = [];
  copy.length = value.length;
  const outcome: Outcome = { value: copy, issues: [] };
  for (let index = 0; index < value.length; index++) {
    const item = element.run(value[index]);
    outcome.issues.push(...prefixed(index, item.issues));
    copy[index] = item.value;
  }
  return outcome;
}

/**
 * zod's length checks: they run after the element (or type) issues unless one of those stopped
 * everything, on anything with a `length` (a string counts code points, so "received string" comes
 * with its own length issue).
 */
function checkLength(outcome: Outcome, value: unknown, minLength: number | null, maxLength: number | null): void {
  if (value === null || value === undefined || (value as { length?: unknown }).length === undefined) return;
  if (outcome.issues.some((issue) => issue.continue === false)) return;
  const length = (typeof value === "string" ? Array.from(value).length : (value as { length: unknown }).length) as number;
  const origin = Array.isArray(value) ? "array" : typeof value === "string" ? "string" : "unknown";
  if (minLength !== null && !(length >= minLength))
    outcome.issues.push({ code: "too_small", origin, minimum: minLength, input: value, continue: true, path: [] });
  if (maxLength !== null && !(length <= maxLength))
    outcome.issues.push({ code: "too_big", origin, maximum: maxLength, input: value, continue: true, path: [] });
}

function object(fields: readonly Field[]): Compiled {
  const declared: ReadonlySet<string> = new Set(fields.map((field) => field.key));
  return {
    ...LEAF,
    fields,
    verdict: (value) => {
      if (!isJsonObject(value)) return INVALID;
      if (!isPlain(value)) return UNSURE;
      for (const { key, node } of fields) {
        const item = value[key];
        // An absent required field is an issue even where the field itself takes undefined (unknown).
        if (item === undefined && !(key in value)) {
          if (node.optional) continue;
          return INVALID;
        }
        const verdict = node.verdict(item);
        if (verdict !== VALID) return verdict;
      }
      return VALID;
    },
    run: (value) => {
      if (!isJsonObject(value)) return failed({ code: "invalid_type", expected: "object", input: value });
      const copy: Record<string, unknown> = {};
      const outcome: Outcome = { value: copy, issues: [] };
      for (const { key, node } of fields) runField(outcome, copy, value, key, node);
      // Loose: unknown keys pass through as they are, except an own "__proto__", which zod drops.
      for (const key in value) if (!declared.has(key) && key !== "__proto__") copy[key] = value[key];
      return outcome;
    },
  };
}

function runField(outcome: Outcome, copy: Record<string, unknown>, input: Record<string, unknown>, key: string, node: Compiled): void {
  const present = key in input;
  if (!present && node.optional) return;
  const item = node.run(input[key]);
  outcome.issues.push(...prefixed(key, item.issues));
  if (!present) {
    if (item.issues.length === 0) outcome.issues.push({ code: "invalid_type", expected: "nonoptional", input: undefined, path: [key] });
    return;
  }
  copy[key] = item.value;
}

function record(item: Compiled): Compiled {
  return {
    ...LEAF,
    verdict: (value) => {
      if (!isJsonObject(value)) return INVALID;
      if (!isPlain(value) || Object.getOwnPropertySymbols(value).length > 0) return UNSURE;
      for (const key in value) {
        const verdict = item.verdict(value[key]);
        if (verdict !== VALID) return verdict;
      }
      return VALID;
    },
    run: (value) => {
      if (!isRecordLike(value)) return failed({ code: "invalid_type", expected: "record", input: value });
      const copy: Record<string, unknown> = {};
      const outcome: Outcome = { value: copy, issues: [] };
      for (const key of Reflect.ownKeys(value)) {
        if (key === "__proto__" || !Object.prototype.propertyIsEnumerable.call(value, key)) continue;
        // A symbol is no string key.
        if (typeof key === "symbol") {
          outcome.issues.push({ code: "invalid_key", origin: "record", input: key, path: [key] });
          continue;
        }
        const result = item.run(value[key]);
        outcome.issues.push(...prefixed(key, result.issues));
        copy[key] = result.value;
      }
      return outcome;
    },
  };
}

/** zod's record test: an object whose constructor, if any, is Object-like (a class instance is refused). */
function isRecordLike(value: unknown): value is Record<PropertyKey, unknown> {
  if (!isJsonObject(value)) return false;
  const constructor: unknown = value.constructor;
  if (typeof constructor !== "function") return true;
  const prototype: unknown = constructor.prototype;
  return isJsonObject(prototype) && Object.hasOwn(prototype, "isPrototypeOf");
}

function union(options: readonly Compiled[]): Compiled {
  return {
    ...LEAF,
    verdict: (value) => {
      // zod takes the first option that accepts: an option that might stops the search.
      for (const option of options) {
        const verdict = option.verdict(value);
        if (verdict !== INVALID) return verdict;
      }
      return INVALID;
    },
    run: (value) => {
      const results: Outcome[] = [];
      for (const option of options) {
        const result = option.run(value);
        if (result.issues.length === 0) return result;
        results.push(result);
      }
      const survivors = results.filter((result) => !aborted(result));
      const [survivor] = survivors;
      if (survivors.length === 1 && survivor) return survivor;
      return failed({ code: "invalid_union", input: value, errors: results.map((result) => result.issues) });
    },
  };
}

function discriminated(key: string, options: readonly Compiled[]): Compiled {
  const byTag = new Map<unknown, Compiled>();
  for (const option of options) {
    for (const field of option.fields) if (field.key === key) for (const value of field.node.values) byTag.set(value, option);
  }
  const tags = [...byTag.keys()];
  return {
    ...LEAF,
    verdict: (value) => {
      if (!isJsonObject(value)) return INVALID;
      return byTag.get(value[key])?.verdict(value) ?? INVALID;
    },
    run: (value) => {
      if (!isJsonObject(value)) return failed({ code: "invalid_type", expected: "object", input: value });
      const option = byTag.get(value[key]);
      if (option) return option.run(value);
      return { value, issues: [{ code: "invalid_union", errors: [], options: tags, input: value, path: [key] }] };
    },
  };
}

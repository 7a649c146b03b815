// Each kind of wire node, compiled from a small hand-written table, against the zod schema it stands
// for: the same value on success, the same summary on failure, for values of every awkward kind.
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";

import { WireSchemaTable } from "./wire-schema.js";
import type { WireNode } from "./wire-tables.types.js";
import { zodAnswer } from "./wire.test-helpers.js";

const text = z.string();
const int = z.int();
const optionalText = z.optional(text);
const pair = z.looseObject({ a: text, b: optionalText });
const shortList = z.array(text).check(z.minLength(1), z.maxLength(2));
const tagged = [z.looseObject({ type: z.literal("x"), a: text }), z.looseObject({ type: z.enum(["y", "w"]), n: int })] as const;

/** Node `i` of NODES stands for ZOD[i]. */
const NODES: readonly WireNode[] = [
  ["s"],
  ["i"],
  ["f", 0, 1],
  ["a", 0, 1, 2],
  ["a", 1, 2],
  ["r", 0],
  "b?0",
  "a0,b?0",
  ["x"],
  "u8",
  ["u", [0, 1]],
  ["v", ["x"]],
  "type11,a0",
  ["v", ["y", "w"]],
  "type13,n1",
  ["d", "type", [12, 14]],
  ["n", 1],
  ["b"],
  ["u", [7, 3]],
  ["u", [12, 14]],
  ["f", null, null],
  ["a", 0],
  ["a", 0, null, 1],
  ["o", 0],
  // A key with digits inside it, a node index of two digits, an empty object.
  "a1b10,c?23",
  "",
];
const ZOD: readonly z.core.$ZodType[] = [
  text,
  int,
  z.number().check(z.gte(0), z.lte(1)),
  shortList,
  z.array(int).check(z.minLength(2)),
  z.record(z.string(), text),
  z.looseObject({ b: optionalText }),
  pair,
  z.unknown(),
  z.looseObject({ u: z.unknown() }),
  z.union([text, int]),
  z.literal("x"),
  tagged[0],
  z.enum(["y", "w"]),
  tagged[1],
  z.discriminatedUnion("type", [...tagged]),
  z.nullable(int),
  z.boolean(),
  z.union([pair, shortList]),
  z.union([...tagged]),
  z.number(),
  z.array(text),
  z.array(text).check(z.maxLength(1)),
  optionalText,
  z.looseObject({ a1b: z.union([text, int]), c: optionalText }),
  z.looseObject({}),
];

class Point {
  a = "x";
}
class Strings extends Array<string> {}
function Odd(): void {}
Odd.prototype = 5;

const symbol = Symbol("s");
const withHidden = Object.defineProperty({ a: "x" }, "hidden", { value: 1, enumerable: false });
const sparse: unknown[] = ["a"];
sparse[2] = "c";

const VALUES: readonly unknown[] = [
  undefined,
  null,
  "s",
  "x",
  "y",
  "abc",
  "😀😀",
  { length: 0 },
  { length: "9" },
  5,
  1.5,
  -1,
  0.5,
  2,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 60,
  -(2 ** 60),
  true,
  [],
  ["a"],
  ["a", "b"],
  ["a", "b", "c"],
  [1],
  [1.5],
  [1, 2],
  [1.5, "a"],
  ["a", 1],
  Strings.from(["a"]),
  sparse,
  {},
  { a: "x" },
  { a: 1 },
  { a: "x", b: 2 },
  { b: "y" },
  { a: "x", extra: [1] },
  { u: undefined },
  { u: 1 },
  { a1b: 5, c: "x" },
  { a1b: true, c: 1 },
  { type: "x", a: "s" },
  { type: "y", n: 1 },
  { type: "w", n: 2 },
  { type: "z" },
  { type: "y", n: "no" },
  { type: "x" },
  new Point(),
  Object.create(null),
  Object.assign(Object.create(null), { a: "x" }),
  JSON.parse('{"__proto__": {"a": 1}, "a": "x"}'),
  withHidden,
  { constructor: 5 },
  { constructor: Object },
  { constructor: Odd },
  { a: ["x", "__proto__"] },
];

describe("wire schemas compiled from a table", () => {
  const table = new WireSchemaTable(NODES);

  it.each(NODES.map((node, index) => [index, JSON.stringify(node)] as const))("node %i (%s) answers as its zod schema", (index) => {
    const zodSchema = ZOD[index] as z.core.$ZodType;
    VALUES.forEach((value, which) =>
      expect(table.schema(index).validate(value), `value ${which}`).toStrictEqual(zodAnswer(zodSchema, value)),
    );
  });

  it("gives one schema per node, and a valid plain message back as it is", () => {
    expect(table.schema(7)).toBe(table.schema(7));
    const message = { a: "x", extra: [1] };
    expect(table.schema(7).validate(message)).toEqual({ ok: true, value: message });
    expect((table.schema(7).validate(message) as { value: unknown }).value).toBe(message);
  });

  it("hands a valid object with a symbol key back as it is, where zod would copy it without the key", () => {
    const message = { a: "x", [symbol]: "y" };
    expect((table.schema(7).validate(message) as { value: unknown }).value).toBe(message);
    // A record checks its keys: a symbol is no string key (zod's answer too).
    expect(table.schema(5).validate(message)).toStrictEqual(zodAnswer(z.record(z.string(), text), message));
    expect(table.schema(5).validate(message)).toMatchObject({ ok: false, issues: expect.stringContaining("invalid record key") });
  });

  it("copies what zod copies: an own __proto__ key is dropped, a class instance becomes a plain object", () => {
    const answer = table.schema(7).validate(JSON.parse('{"__proto__": {"polluted": true}, "a": "x"}'));
    expect(answer).toEqual({ ok: true, value: { a: "x" } });
    expect(Object.hasOwn((answer as { value: object }).value, "__proto__")).toBe(false);
    expect(Object.getPrototypeOf((table.schema(7).validate(new Point()) as { value: object }).value)).toBe(Object.prototype);
  });
});

import { describe, expect, it, vi } from "vitest";

import { compileJsonSchema } from "./json-schema.js";
import { issuesOf, passes } from "./json-schema.test-helpers.js";
import { ValidationRun } from "./run.js";

/** `{ child: { child: … } }`, `levels` objects deep. */
function nest(levels: number): unknown {
  let value: unknown = {};
  for (let level = 0; level < levels; level++) value = { child: value };
  return value;
}

/** A chain of $defs where each one tries the next twice: 2^levels paths when the leaf keeps failing. */
function exponentialSchema(levels: number): Record<string, unknown> {
  const $defs: Record<string, unknown> = { [`d${levels}`]: { type: "string" } };
  for (let level = 0; level < levels; level++) {
    $defs[`d${level}`] = { anyOf: [{ $ref: `#/$defs/d${level + 1}` }, { $ref: `#/$defs/d${level + 1}` }] };
  }
  return { $defs, $ref: "#/$defs/d0" };
}

/** Counts the schema evaluations of every run from here on, failing the run past `cap` of them. */
function countEvaluations(cap: number): { readonly count: number } {
  const spend = Object.getOwnPropertyDescriptor(ValidationRun.prototype, "spend")?.value as (this: ValidationRun) => void;
  const counter = { count: 0 };
  vi.spyOn(ValidationRun.prototype, "spend").mockImplementation(function (this: ValidationRun) {
    if (++counter.count > cap) throw new Error(`more than ${cap} evaluations`);
    spend.call(this);
  });
  return counter;
}

/** An array of the integers below `length` that counts every read of an item. */
function countingArray(length: number): { readonly values: number[]; reads(): number } {
  let reads = 0;
  const values = new Proxy(
    Array.from({ length }, (_, index) => index),
    {
      get: (target, key, receiver) => {
        if (typeof key === "string" && /^\d+$/u.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    },
  );
  return { values, reads: () => reads };
}

/** The evaluations and item reads of validating the integers below `length` as an array of non-negative integers. */
function integerArrayWork(length: number): { readonly evaluations: number; readonly reads: number } {
  const items = countingArray(length);
  const evaluations = countEvaluations(2 ** 22);
  expect(passes({ type: "array", items: { type: "integer", minimum: 0 } }, items.values)).toBe(true);
  vi.restoreAllMocks();
  return { evaluations: evaluations.count, reads: items.reads() };
}

describe("limits on hostile schemas and data", () => {
  const tree = { type: "object", properties: { child: { $ref: "#" } } };

  it("validates data nested up to maxDepth", () => {
    expect(passes(tree, nest(64))).toBe(true);
    expect(passes(tree, nest(10), { maxDepth: 10 })).toBe(true);
  });

  it("fails data nested deeper than maxDepth, naming where", () => {
    expect(issuesOf(tree, nest(4), { maxDepth: 2 })).toBe("child.child.child: nested deeper than 2 levels");
    expect(issuesOf(tree, nest(100))).toMatch(/^child(\.child){64}: nested deeper than 64 levels$/u);
  });

  it("fails a $ref cycle that never descends into the data, however it is wrapped", () => {
    const cycle = { $defs: { a: { allOf: [{ $ref: "#/$defs/a" }] } }, $ref: "#/$defs/a" };
    expect(issuesOf(cycle, 1)).toBe('$ref "#/$defs/a" recursed more than 64 times without descending into the data');
    expect(issuesOf({ $defs: cycle.$defs, not: { $ref: "#/$defs/a" } }, 1)).toBe(
      '$ref "#/$defs/a" recursed more than 64 times without descending into the data',
    );
    expect(issuesOf({ $defs: cycle.$defs, properties: { x: { $ref: "#/$defs/a" } } }, { x: 1 }, { maxDepth: 3 })).toBe(
      'x: $ref "#/$defs/a" recursed more than 3 times without descending into the data',
    );
  });

  it("counts a $ref chain per data location, so a recursive schema may recurse as deep as the data", () => {
    const list = {
      $defs: { node: { properties: { next: { $ref: "#/$defs/node" } } } },
      allOf: [{ $ref: "#/$defs/node" }, { $ref: "#/$defs/node" }],
    };
    let value: unknown = {};
    for (let level = 0; level < 60; level++) value = { next: value };
    expect(passes(list, value, { maxDepth: 64 })).toBe(true);
  });

  it("stops a schema whose work grows exponentially instead of hanging, within its budget of evaluations", () => {
    const schema = exponentialSchema(40);
    // 2^41 evaluations unchecked; the cap turns a budget that never stops it into a failure instead of a hang.
    const evaluations = countEvaluations(2 ** 20);
    expect(issuesOf(schema, 5)).toBe("validation stopped: the schema needs too much work for this data (is it exponential?)");
    const stoppedAfter = evaluations.count;
    expect(passes(schema, "text")).toBe(true);
    expect(issuesOf({ $defs: schema["$defs"], items: { $ref: "#/$defs/d0" } }, [1, 2, 3])).toBe(
      "validation stopped: the schema needs too much work for this data (is it exponential?)",
    );
    // The data grew from one value to four, so the second stop may spend a little more than the first, never an exponent more.
    expect(evaluations.count - stoppedAfter).toBeLessThan(2 * stoppedAfter);
  });

  it("gives a large document a budget sized to it", () => {
    const items = Array.from({ length: 60_000 }, (_, index) => ({ id: index }));
    const schema = { items: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] } };
    expect(passes(schema, items)).toBe(true);
  });

  it("fails cyclic data instead of walking it forever", () => {
    const cyclic: unknown[] = [];
    cyclic.push(cyclic, cyclic);
    expect(issuesOf({ items: { $ref: "#" } }, cyclic, { maxDepth: 3 })).toBe("[0][0][0][0]: nested deeper than 3 levels");
    expect(issuesOf({ uniqueItems: true }, cyclic)).toBe("a value is nested deeper than 64 levels");
    expect(issuesOf({ const: 1 }, cyclic)).toBe("a value is nested deeper than 64 levels");
  });

  it("turns the engine's stack overflow into an issue when maxDepth is set too high", () => {
    const cycle = { $defs: { a: { allOf: [{ $ref: "#/$defs/a" }] } }, $ref: "#/$defs/a" };
    expect(issuesOf(cycle, 1, { maxDepth: 10_000_000 })).toBe("validation stopped: the schema or the data is nested too deeply");
    expect(compileJsonSchema(cycle, { maxDepth: 10_000_000 }).validate(1, "value")).toEqual({
      ok: false,
      issues: "value: validation stopped: the schema or the data is nested too deeply",
    });
  });

  it("turns data that throws when read into an issue", () => {
    const hostile = {
      get name(): string {
        throw new Error("boom");
      },
    };
    expect(issuesOf({ properties: { name: { type: "string" } } }, hostile)).toBe("validation stopped: reading the value threw (boom)");
  });

  it("validates a huge array in linear work: each more item, the same evaluations and reads more", () => {
    // Both sizes are past the base budget, so both also pay for sizing the bigger one.
    const [none, some, twice] = [integerArrayWork(0), integerArrayWork(120_000), integerArrayWork(240_000)];
    expect(some.evaluations).toBeGreaterThan(120_000);
    expect(twice.evaluations - some.evaluations).toBe(some.evaluations - none.evaluations);
    expect(some.reads).toBeGreaterThanOrEqual(120_000);
    expect(twice.reads - some.reads).toBe(some.reads - none.reads);
  });

  it("keeps the issue line short however many issues there are", () => {
    const items = Array.from({ length: 100_000 }, () => "x");
    expect(issuesOf({ items: { type: "integer" } }, items)).toBe(
      "[0]: expected integer, received string; [1]: expected integer, received string; [2]: expected integer, received string; " +
        "[3]: expected integer, received string; [4]: expected integer, received string; and 99995 more",
    );
  });

  it("reports every issue of a branch, even a huge one", () => {
    const items = Array.from({ length: 200_000 }, () => "x");
    expect(issuesOf({ anyOf: [{ items: { type: "integer" } }, { type: "string" }] }, items)).toMatch(/; and 199995 more$/u);
  });
});

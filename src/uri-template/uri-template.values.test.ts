import { describe, expect, it } from "vitest";
import { MCPError, MCP_CODES } from "../error-codes/index.js";
import { UriTemplate, type UriVariables } from "./index.js";

// Level 4 values: scalars that are not strings, associative arrays, undefined members, and the
// values expand refuses. Cases written for this library, on variables of its own.

function expand(template: string, variables: UriVariables): string {
  return UriTemplate.parse(template).expand(variables);
}

/** The MCPError that expanding throws (the test fails on any other outcome). */
function refusal(template: string, variables: unknown): MCPError {
  const thrown = outcome(() => UriTemplate.parse(template).expand(variables as UriVariables));
  expect(thrown).toBeInstanceOf(MCPError);
  expect((thrown as MCPError).code).toBe(MCP_CODES.INVALID_PARAMS);
  return thrown as MCPError;
}

/** What the action returns, or what it throws. */
function outcome(action: () => unknown): unknown {
  try {
    return action();
  } catch (error) {
    return error;
  }
}

const OPTIONS = { mode: "dark mode", size: "10", note: "a/b" };

describe("UriTemplate.expand: scalars", () => {
  it.each<[string, UriVariables, string]>([
    ["{n}", { n: 42 }, "42"],
    ["{n}", { n: -0.5 }, "-0.5"],
    ["{n}", { n: 1e21 }, "1e%2B21"],
    ["{?page,exact}", { page: 3, exact: false }, "?page=3&exact=false"],
    ["{;on}", { on: true }, ";on=true"],
    ["{n:2}", { n: 2048 }, "20"],
    ["{/ids*}", { ids: [1, true, "x"] }, "/1/true/x"],
    ["{ids}", { ids: [7, 8] }, "7,8"],
  ])("%s with %j gives %s", (template, variables, expected) => {
    expect(expand(template, variables)).toBe(expected);
  });

  it("expands a bigint as its digits", () => {
    expect(expand("{big}", { big: 12345678901234567890n })).toBe("12345678901234567890");
  });
});

describe("UriTemplate.expand: undefined values and members", () => {
  it.each<[string, UriVariables, string]>([
    ["a{/x}{?y,z}", { x: null, y: null, z: "1" }, "a?z=1"],
    ["{?list*}", { list: [null, "b", undefined] }, "?list=b"],
    ["X{.list}", { list: [null, undefined] }, "X"],
    ["{?opts*}", { opts: { a: null, b: "2", c: undefined } }, "?b=2"],
    ["X{;opts}", { opts: { a: null } }, "X"],
    ["X{#opts*}", { opts: {} }, "X"],
  ])("%s with %j gives %s", (template, variables, expected) => {
    expect(expand(template, variables)).toBe(expected);
  });
});

describe("UriTemplate.expand: associative arrays", () => {
  it.each([
    ["{opts}", "mode,dark%20mode,size,10,note,a%2Fb"],
    ["{opts*}", "mode=dark%20mode,size=10,note=a%2Fb"],
    ["{+opts}", "mode,dark%20mode,size,10,note,a/b"],
    ["{+opts*}", "mode=dark%20mode,size=10,note=a/b"],
    ["{#opts}", "#mode,dark%20mode,size,10,note,a/b"],
    ["{#opts*}", "#mode=dark%20mode,size=10,note=a/b"],
    ["{.opts}", ".mode,dark%20mode,size,10,note,a%2Fb"],
    ["{.opts*}", ".mode=dark%20mode.size=10.note=a%2Fb"],
    ["{/opts}", "/mode,dark%20mode,size,10,note,a%2Fb"],
    ["{/opts*}", "/mode=dark%20mode/size=10/note=a%2Fb"],
    ["{;opts}", ";opts=mode,dark%20mode,size,10,note,a%2Fb"],
    ["{;opts*}", ";mode=dark%20mode;size=10;note=a%2Fb"],
    ["{?opts}", "?opts=mode,dark%20mode,size,10,note,a%2Fb"],
    ["{?opts*}", "?mode=dark%20mode&size=10&note=a%2Fb"],
    ["{&opts}", "&opts=mode,dark%20mode,size,10,note,a%2Fb"],
    ["{&opts*}", "&mode=dark%20mode&size=10&note=a%2Fb"],
  ])("%s gives %s, pairs in the order of the keys", (template, expected) => {
    expect(expand(template, { opts: OPTIONS })).toBe(expected);
  });

  it.each([
    ["{opts*}", "e=,n=1"],
    ["{;opts*}", ";e;n=1"],
    ["{?opts*}", "?e=&n=1"],
    ["{?opts}", "?opts=e,,n,1"],
  ])("writes an empty member of %s as %s", (template, expected) => {
    expect(expand(template, { opts: { e: "", n: 1 } })).toBe(expected);
  });

  it("encodes the keys as the values are encoded", () => {
    expect(expand("{?opts*}", { opts: { "a b": "1", "c/d": "2" } })).toBe("?a%20b=1&c%2Fd=2");
    expect(expand("{+opts*}", { opts: { "c/d": "2" } })).toBe("c/d=2");
  });

  it("accepts an object without prototype, and mixes pairs with other variables", () => {
    const opts = Object.assign(Object.create(null) as Record<string, string>, { k: "v" });
    expect(expand("{?id,opts*,x}", { id: 7, opts, x: "y" })).toBe("?id=7&k=v&x=y");
  });

  it("refuses a prefix modifier on an associative array, naming the variable", () => {
    const error = refusal("{opts:2}", { opts: { k: "v" } });
    expect(error.message).toContain("{opts:2}");
    expect(error.message).toContain("associative array");
    expect(error.data).toEqual({ variable: "opts" });
  });

  it("refuses a prefix modifier on a list, naming the variable", () => {
    expect(refusal("{?ids:2}", { ids: [1, 2] }).data).toEqual({ variable: "ids" });
  });
});

describe("UriTemplate.expand: values it cannot expand", () => {
  it.each<[string, unknown, string]>([
    ["NaN", Number.NaN, "its value is the number NaN"],
    ["Infinity", Number.POSITIVE_INFINITY, "its value is the number Infinity"],
    ["a symbol", Symbol("s"), "its value is a symbol"],
    ["a function", () => "x", "its value is a function"],
    ["a Date", new Date(0), "an object of type Date is neither a list nor a plain object"],
    ["a Map", new Map([["k", "v"]]), "an object of type Map is neither"],
    ["a class instance", new URL("https://example.com/"), "an object of type URL"],
    ["a list in a list", [["a"]], "item 0 of its list is an object of type Array"],
    ["an object in a list", ["a", { k: "v" }], "item 1 of its list is an object of type Object"],
    ["an object in an object", { inner: { k: "v" } }, "the member 'inner' of its associative array is an object"],
    ["NaN in an object", { n: Number.NaN }, "the member 'n' of its associative array is the number NaN"],
  ])("refuses %s with MCP.INVALID_PARAMS naming the variable and the problem", (_, value, problem) => {
    const error = refusal("/x{/v}", { v: value });
    expect(error.message.startsWith("Cannot expand the URI template variable 'v': ")).toBe(true);
    expect(error.message).toContain(problem);
    expect(error.data).toEqual({ variable: "v" });
  });

  it("says what a value is without showing its content", () => {
    const error = refusal("{token}", { token: { secret: { value: "s3cr3t-value" } } });
    expect(error.message).toContain("'secret'");
    expect(error.message).not.toContain("s3cr3t-value");
    expect(refusal("{d}", { d: new Date(1_700_000_000_000) }).message).not.toContain("2023");
  });

  it("refuses variables that are not an object", () => {
    expect(refusal("{x}", null).message).toContain("must be an object");
    expect(refusal("{x}", "x=1").message).toContain("must be an object");
  });

  it("does not check a value the template does not use", () => {
    expect(expand("{x}", { x: "1", unused: Symbol("s") as unknown as string })).toBe("1");
  });
});

import { describe, expect, it } from "vitest";

import { ROOT_PATH, childPath, formatInstancePath, formatLocated } from "./instance-path.js";
import { listOptions, summarizeIssues, type Issue } from "./issues.js";
import { countValues } from "./json-values.js";

const at = (...keys: (string | number)[]): typeof ROOT_PATH => keys.reduce(childPath, ROOT_PATH);

describe("formatInstancePath", () => {
  it("writes identifiers with dots, indexes and other names in brackets", () => {
    expect(formatInstancePath(at("items", 2, "name"))).toBe("items[2].name");
    expect(formatInstancePath(at(0, "$ok", "first name", "a.b"))).toBe('[0].$ok["first name"]["a.b"]');
    expect(formatInstancePath(ROOT_PATH)).toBe("");
  });

  it("prefixes a root label", () => {
    expect(formatInstancePath(at("count"), "structuredContent")).toBe("structuredContent.count");
    expect(formatInstancePath(at(1), "content")).toBe("content[1]");
    expect(formatInstancePath(ROOT_PATH, "arguments")).toBe("arguments");
  });

  it("cuts a long property name short", () => {
    expect(formatInstancePath(at("x y".repeat(40)))).toBe(`[${JSON.stringify("x y".repeat(40)).slice(0, 60)}…]`);
  });
});

describe("formatLocated", () => {
  it("leaves the message bare at an unlabelled root", () => {
    expect(formatLocated(ROOT_PATH, "is required")).toBe("is required");
    expect(formatLocated(at("a"), "is required")).toBe("a: is required");
  });
});

const issue = (message: string): Issue => ({ at: at("a"), message });

describe("summarizeIssues", () => {
  it("joins issues, shows five and counts the rest", () => {
    const issues = ["1", "2", "3", "4", "5", "6", "7"].map(issue);
    expect(summarizeIssues(issues)).toBe("a: 1; a: 2; a: 3; a: 4; a: 5; and 2 more");
    expect(summarizeIssues(issues.slice(0, 5))).toBe("a: 1; a: 2; a: 3; a: 4; a: 5");
  });

  it("shows an issue repeated by two subschemas once", () => {
    expect(summarizeIssues([issue("x"), issue("x"), issue("y")], "value")).toBe("value.a: x; value.a: y");
  });
});

describe("listOptions", () => {
  it("lists up to ten options", () => {
    expect(listOptions(["a", "b"])).toBe("a | b");
    expect(listOptions(Array.from({ length: 11 }, (_, index) => String(index)))).toBe("0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | … (1 more)");
  });
});

describe("countValues", () => {
  it("counts every value down to the depth limit", () => {
    expect(countValues({ a: [1, 2, { b: null }], c: "x" }, 64, 1_000)).toBe(7);
    expect(countValues([[[[1]]]], 2, 1_000)).toBe(3);
    expect(countValues(5, 64, 1_000)).toBe(1);
  });

  it("stops at the cap, so a cyclic graph costs a bounded walk", () => {
    const cyclic: unknown[] = [];
    cyclic.push(cyclic, cyclic);
    expect(countValues(cyclic, 64, 100)).toBe(101);
  });
});

import { describe, expect, it } from "vitest";
import { UriTemplate, type UriVariableValue } from "./index.js";

// How match decodes what it found: `{+var}` and `{#var}` keep triplets of reserved characters (and
// of '%') as sent; every other operator, which never lets a reserved character through raw, decodes all.

function match(template: string, uri: string): Record<string, UriVariableValue> | undefined {
  return UriTemplate.parse(template).match(uri);
}

describe("UriTemplate.match: reserved expansion keeps encoded reserved characters", () => {
  it("tells an encoded slash from a raw one", () => {
    expect(match("file:///{+path}", "file:///a%2Fb")).toEqual({ path: "a%2Fb" });
    expect(match("file:///{+path}", "file:///a/b")).toEqual({ path: "a/b" });
    expect(match("page{#section}", "page#x%2Fy/z")).toEqual({ section: "x%2Fy/z" });
  });

  it.each([
    ["{+p}", "%3A%2F%3F%23%5B%5D%40", ":/?#[]@ encoded", "%3A%2F%3F%23%5B%5D%40"],
    ["{+p}", "%21%24%26%27%28%29%2A%2B%2C%3B%3D", "sub-delims encoded", "%21%24%26%27%28%29%2A%2B%2C%3B%3D"],
    ["{+p}", "100%25", "an encoded '%'", "100%25"],
    ["{+p}", "a%252Fb", "an encoded '%' before 2F", "a%252Fb"],
    ["{+p}", "a%2fb", "lower-case hex", "a%2fb"],
    ["{+p}", "a%20b%C3%A9%E2%82%AC", "a space and UTF-8", "a bé€"],
    ["{+p}", "%41%7e%2D", "unreserved characters", "A~-"],
    ["{+p}", "%22%3C%3E%5C%5E%60%7B%7C%7D", "characters a URI cannot hold raw", '"<>\\^`{|}'],
    ["{#f}", "#%23a%20b", "a fragment", "%23a b"],
  ])("%s on %s (%s) gives %s", (template, uri, _, expected) => {
    expect(match(template, uri)).toEqual({ [template.replace(/\W/g, "")]: expected });
  });

  it("lets raw '..' segments through: the handler must check them", () => {
    expect(match("file:///{+path}", "file:///docs/../../secret")).toEqual({ path: "docs/../../secret" });
  });

  it("splits a list at raw commas only, keeping encoded ones in its items", () => {
    expect(match("{+list}", "a%2Cb,c%2F")).toEqual({ list: ["a%2Cb", "c%2F"] });
    expect(match("{#list*}", "#a%2Cb,c")).toEqual({ list: ["a%2Cb", "c"] });
  });

  it.each([
    ["{+p}", "%C3%2F"],
    ["{+p}", "%FF"],
    ["{+p}", "a%2"],
    ["{#f}", "#%zz"],
  ])("does not match %s against malformed or invalid UTF-8 %s", (template, uri) => {
    expect(match(template, uri)).toBeUndefined();
  });

  it("compares the occurrences of a variable decoded, keeping the first one's form", () => {
    expect(match("{+x}-{x}", "a/b-a%2Fb")).toEqual({ x: "a/b" });
    expect(match("{x}-{+x}", "a%2Fb-a%2Fb")).toEqual({ x: "a/b" });
    expect(match("{+x:3}-{+x}", "a%2Fb-a%2Fbc")).toEqual({ x: "a%2Fbc" });
    expect(match("{+x:2}-{x:3}", "a%2F-a%2Fb")).toEqual({ x: "a/b" });
    expect(match("{+x}-{x}", "a/b-a%2Fc")).toBeUndefined();
  });
});

describe("UriTemplate.match: the other operators decode everything", () => {
  it.each([
    ["users/{id}", "users/a%2Fb", { id: "a/b" }],
    ["users/{id}", "users/..%2F..%2Fetc%2Fpasswd", { id: "../../etc/passwd" }],
    ["users/{id}", "users/%2E%2E", { id: ".." }],
    ["users/{id}", "users/a%2Cb", { id: "a,b" }],
    ["users{/id}", "users/a%2Fb%25", { id: "a/b%" }],
    ["x{.ext}", "x.a%2Eb", { ext: "a.b" }],
    ["x{;m}", "x;m=a%3Bb", { m: "a;b" }],
    ["x{?q}", "x?q=a%26b%3Dc%23", { q: "a&b=c#" }],
    ["x{?q}{&r}", "x?q=1&r=%2F", { q: "1", r: "/" }],
    ["files/{name}", "files/..%2F..%2Fetc%2Fpasswd", { name: "../../etc/passwd" }],
  ])("%s on %s gives %j", (template, uri, expected) => {
    expect(match(template, uri)).toEqual(expected);
  });
});

describe("UriTemplate.match: associative arrays do not come back", () => {
  it("leaves the pairs of {?keys*} to the parameters of their names", () => {
    const template = UriTemplate.parse("search{?keys*}");
    expect(template.match(template.expand({ keys: { lang: "en", page: 2 } }))).toEqual({});
    expect(match("search{?lang,page}", "search?lang=en&page=2")).toEqual({ lang: "en", page: "2" });
  });
});

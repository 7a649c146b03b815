import { describe, expect, it } from "vitest";
import { MCPError, MCP_CODES } from "../error-codes/index.js";
import { DEFAULT_MAX_TEMPLATE_LENGTH, DEFAULT_MAX_URI_LENGTH, UriTemplate, type UriVariableValue, type UriVariables } from "./index.js";

function expand(template: string, variables: UriVariables): string {
  return UriTemplate.parse(template).expand(variables);
}

function match(template: string, uri: string): Record<string, UriVariableValue> | undefined {
  return UriTemplate.parse(template).match(uri);
}

function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error("expected the action to throw");
}

// The variables RFC 6570 uses for its examples (section 1.2 and 3.2), without the associative
// array `keys`: its examples run in uri-template.suite.test.ts, and uri-template.values.test.ts has more.
const RFC_VARIABLES: UriVariables = {
  count: ["one", "two", "three"],
  dom: ["example", "com"],
  dub: "me/too",
  hello: "Hello World!",
  half: "50%",
  var: "value",
  who: "fred",
  base: "http://example.com/home/",
  path: "/foo/bar",
  list: ["red", "green", "blue"],
  v: "6",
  x: "1024",
  y: "768",
  empty: "",
  empty_keys: [],
  undef: undefined,
};

describe("UriTemplate.expand: the examples of RFC 6570", () => {
  it.each([
    // 1.2, level 1
    ["{var}", "value"],
    ["{hello}", "Hello%20World%21"],
    // 1.2, level 2
    ["{+var}", "value"],
    ["{+hello}", "Hello%20World!"],
    ["{+path}/here", "/foo/bar/here"],
    ["here?ref={+path}", "here?ref=/foo/bar"],
    ["X{#var}", "X#value"],
    ["X{#hello}", "X#Hello%20World!"],
    // 1.2, level 3
    ["map?{x,y}", "map?1024,768"],
    ["{x,hello,y}", "1024,Hello%20World%21,768"],
    ["{+x,hello,y}", "1024,Hello%20World!,768"],
    ["{+path,x}/here", "/foo/bar,1024/here"],
    ["{#x,hello,y}", "#1024,Hello%20World!,768"],
    ["{#path,x}/here", "#/foo/bar,1024/here"],
    ["X{.var}", "X.value"],
    ["X{.x,y}", "X.1024.768"],
    ["{/var}", "/value"],
    ["{/var,x}/here", "/value/1024/here"],
    ["{;x,y}", ";x=1024;y=768"],
    ["{;x,y,empty}", ";x=1024;y=768;empty"],
    ["{?x,y}", "?x=1024&y=768"],
    ["{?x,y,empty}", "?x=1024&y=768&empty="],
    ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
    ["{&x,y,empty}", "&x=1024&y=768&empty="],
    // 1.2, level 4
    ["{var:3}", "val"],
    ["{var:30}", "value"],
    ["{list}", "red,green,blue"],
    ["{list*}", "red,green,blue"],
    ["{+path:6}/here", "/foo/b/here"],
    ["{+list}", "red,green,blue"],
    ["{+list*}", "red,green,blue"],
    ["{#path:6}/here", "#/foo/b/here"],
    ["{#list}", "#red,green,blue"],
    ["{#list*}", "#red,green,blue"],
    ["X{.var:3}", "X.val"],
    ["X{.list}", "X.red,green,blue"],
    ["X{.list*}", "X.red.green.blue"],
    ["{/var:1,var}", "/v/value"],
    ["{/list}", "/red,green,blue"],
    ["{/list*}", "/red/green/blue"],
    ["{/list*,path:4}", "/red/green/blue/%2Ffoo"],
    ["{;hello:5}", ";hello=Hello"],
    ["{;list}", ";list=red,green,blue"],
    ["{;list*}", ";list=red;list=green;list=blue"],
    ["{?var:3}", "?var=val"],
    ["{?list}", "?list=red,green,blue"],
    ["{?list*}", "?list=red&list=green&list=blue"],
    ["{&var:3}", "&var=val"],
    ["{&list}", "&list=red,green,blue"],
    ["{&list*}", "&list=red&list=green&list=blue"],
    // 3.2.1 variable expansion
    ["{count}", "one,two,three"],
    ["{count*}", "one,two,three"],
    ["{/count}", "/one,two,three"],
    ["{/count*}", "/one/two/three"],
    ["{;count}", ";count=one,two,three"],
    ["{;count*}", ";count=one;count=two;count=three"],
    ["{?count}", "?count=one,two,three"],
    ["{?count*}", "?count=one&count=two&count=three"],
    ["{&count*}", "&count=one&count=two&count=three"],
    // 3.2.2 simple string expansion
    ["{half}", "50%25"],
    ["O{empty}X", "OX"],
    ["O{undef}X", "OX"],
    ["{x,y}", "1024,768"],
    ["?{x,empty}", "?1024,"],
    ["?{x,undef}", "?1024"],
    ["?{undef,y}", "?768"],
    // 3.2.3 reserved expansion
    ["{+half}", "50%25"],
    ["{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"],
    ["{+base}index", "http://example.com/home/index"],
    ["O{+empty}X", "OX"],
    ["O{+undef}X", "OX"],
    ["up{+path}{var}/here", "up/foo/barvalue/here"],
    // 3.2.4 fragment expansion
    ["{#var}", "#value"],
    ["{#half}", "#50%25"],
    ["foo{#empty}", "foo#"],
    ["foo{#undef}", "foo"],
    // 3.2.5 label expansion with dot-prefix
    ["{.who}", ".fred"],
    ["{.who,who}", ".fred.fred"],
    ["{.half,who}", ".50%25.fred"],
    ["www{.dom*}", "www.example.com"],
    ["X{.empty}", "X."],
    ["X{.undef}", "X"],
    ["X{.empty_keys}", "X"],
    ["X{.empty_keys*}", "X"],
    // 3.2.6 path segment expansion
    ["{/who}", "/fred"],
    ["{/who,who}", "/fred/fred"],
    ["{/half,who}", "/50%25/fred"],
    ["{/who,dub}", "/fred/me%2Ftoo"],
    ["{/var,empty}", "/value/"],
    ["{/var,undef}", "/value"],
    // 3.2.7 path-style parameter expansion
    ["{;who}", ";who=fred"],
    ["{;half}", ";half=50%25"],
    ["{;empty}", ";empty"],
    ["{;v,empty,who}", ";v=6;empty;who=fred"],
    ["{;v,bar,who}", ";v=6;who=fred"],
    ["{;x,y,undef}", ";x=1024;y=768"],
    // 3.2.8 form-style query expansion
    ["{?who}", "?who=fred"],
    ["{?half}", "?half=50%25"],
    ["{?x,y,undef}", "?x=1024&y=768"],
    // 3.2.9 form-style query continuation
    ["{&who}", "&who=fred"],
    ["{&half}", "&half=50%25"],
    ["{&x,y,undef}", "&x=1024&y=768"],
  ])("%s expands to %s", (template, expected) => {
    expect(expand(template, RFC_VARIABLES)).toBe(expected);
  });
});

describe("UriTemplate.expand: encoding and values", () => {
  it.each([
    ["{x}", "é", "%C3%A9"],
    ["{x}", "€", "%E2%82%AC"],
    ["{x}", "😀", "%F0%9F%98%80"],
    ["{x}", "a\uD800b", "a%EF%BF%BDb"],
    ["{x}", "!*'()", "%21%2A%27%28%29"],
    ["{+x}", "a%2Fb%zz%", "a%2Fb%25zz%25"],
    ["{x}", "a%2Fb", "a%252Fb"],
    ["{x:2}", "😀é!", "%F0%9F%98%80%C3%A9"],
    ["{+x:2}", "%41bc", "%41b"],
    ["{#x}", "a b#c", "#a%20b#c"],
  ])("%s with %j gives %s", (template, value, expected) => {
    expect(expand(template, { x: value })).toBe(expected);
  });

  it("percent-encodes literal characters that a URI cannot hold, and keeps triplets", () => {
    expect(expand("my docs/é%7B100%/{x}", { x: "1" })).toBe("my%20docs/%C3%A9%7B100%25/1");
  });

  it("expands to the literals alone when no variable is defined", () => {
    expect(expand("a{/x,y}{?p,q}{#f}b", {})).toBe("ab");
  });

  it("treats an empty list as undefined and writes ifemp for an empty item", () => {
    expect(expand("{?a,b,c}", { a: [], b: [""], c: "" })).toBe("?b=&c=");
    expect(expand("{;a,b}", { a: [""], b: [] })).toBe(";a");
    expect(expand("{?x*}", { x: ["a", ""] })).toBe("?x=a&x=");
    expect(expand("{;x*}", { x: ["a", ""] })).toBe(";x=a;x");
  });

  it("reads only the variables' own properties", () => {
    expect(expand("{constructor}{toString}", {})).toBe("");
    const variables = JSON.parse('{"__proto__":"proto"}') as UriVariables;
    expect(expand("{__proto__}", variables)).toBe("proto");
  });

  it("refuses a prefix modifier on a list value", () => {
    const error = thrownBy(() => expand("{list:3}", { list: ["a", "b"] }));
    expect(error).toBeInstanceOf(MCPError);
    expect((error as MCPError).code).toBe(MCP_CODES.INVALID_PARAMS);
    expect((error as MCPError).message).toContain("{list:3}");
  });

  it("uses the same value for every occurrence of a variable", () => {
    expect(expand("{x}/{x:2}/{+x}", { x: "a b" })).toBe("a%20b/a%20/a%20b");
  });
});

describe("UriTemplate.parse", () => {
  it("keeps the template text and lists each variable once, in order", () => {
    const template = UriTemplate.parse("{/b,a}{?c,b}x{a.b}{%41}{_1*}{y:9999}");
    expect(template.template).toBe("{/b,a}{?c,b}x{a.b}{%41}{_1*}{y:9999}");
    expect(template.toString()).toBe(template.template);
    expect(String(template)).toBe(template.template);
    expect(template.variableNames).toEqual(["b", "a", "c", "a.b", "%41", "_1", "y"]);
  });

  it("accepts a template without expressions, and the empty template", () => {
    expect(UriTemplate.parse("file:///etc/hosts").variableNames).toEqual([]);
    expect(UriTemplate.parse("").expand({ x: "1" })).toBe("");
  });

  it.each([
    ["{/id*", 0, "never closed"],
    ["/id*}", 4, "without a matching '{'"],
    ["{a{b}}", 2, "inside the expression opened at position 0"],
    ["x{}", 1, "empty expression"],
    ["{/?id}", 2, "expected a variable name"],
    ["{??hello}", 2, "expected a variable name"],
    ["{$var}", 1, "expected a variable name"],
    ["{*keys?}", 1, "expected a variable name"],
    ["{var}{-prefix|/-/|var}", 6, "expected a variable name"],
    ["{a,}", 3, "expected a variable name, found '}'"],
    ["{!hello}", 1, "operator '!' is reserved"],
    ["{=path}", 1, "operator '=' is reserved"],
    ["{|var*}", 1, "operator '|' is reserved"],
    ["{,a}", 1, "operator ',' is reserved"],
    ["{@a}", 1, "operator '@' is reserved"],
    ["{var:prefix}", 5, "integer from 1 to 9999"],
    ["{x:0}", 3, "integer from 1 to 9999"],
    ["{x:01}", 3, "integer from 1 to 9999"],
    ["{x:10000}", 3, "integer from 1 to 9999"],
    ["{hello:2*}", 8, "both a prefix"],
    ["{a*:3}", 3, "unexpected ':'"],
    ["{?empty=default,var}", 7, "unexpected '='"],
    ["/h{#hello+}", 9, "unexpected '+'"],
    ["/resolution{?x, y}", 15, "expected a variable name, found ' '"],
    ["{x y}", 2, "unexpected ' '"],
    ["{a..b}", 2, "'.' may only join"],
    ["{a.}", 2, "'.' may only join"],
    ["{.a.}", 3, "'.' may only join"],
    ["{..a}", 2, "'.' may only join"],
    ["{%4}", 1, "percent-encoded triplet"],
    ["{%zz}", 1, "percent-encoded triplet"],
    ["{a%4", 0, "never closed"],
  ])("rejects %s at position %i", (template, position, fragment) => {
    const error = thrownBy(() => UriTemplate.parse(template));
    expect(error).toBeInstanceOf(MCPError);
    const mcpError = error as MCPError;
    expect(mcpError.code).toBe(MCP_CODES.INVALID_PARAMS);
    expect(mcpError.message).toContain(`at position ${position}:`);
    expect(mcpError.message).toContain(fragment);
    expect(mcpError.data).toEqual({ template, position });
  });

  it("refuses a template longer than the limit, 8 KiB unless configured", () => {
    expect(DEFAULT_MAX_TEMPLATE_LENGTH).toBe(8192);
    expect(UriTemplate.parse("x".repeat(8192)).template).toHaveLength(8192);
    const error = thrownBy(() => UriTemplate.parse("x".repeat(8193)));
    expect(error).toBeInstanceOf(MCPError);
    expect((error as MCPError).code).toBe(MCP_CODES.INVALID_PARAMS);
    expect((error as MCPError).message).toContain("8193 characters long, over the limit of 8192");
    expect(() => UriTemplate.parse("{abcdef}", { maxTemplateLength: 7 })).toThrow(/limit of 7/);
    expect(UriTemplate.parse("y".repeat(9000), { maxTemplateLength: 9000 }).template).toHaveLength(9000);
  });
});

describe("UriTemplate.isTemplate", () => {
  it.each([
    ["file:///{path}", true],
    ["{x}", true],
    ["a}{b}", true],
    ["{bad name}{ok}", true],
    ["{{x}", true],
    ["{x}}", true],
    ["file:///etc/hosts", false],
    ["", false],
    ["{}", false],
    ["}{", false],
    ["{x", false],
    ["{!x}", false],
    ["{bad name}", false],
  ])("%j -> %s", (text, expected) => {
    expect(UriTemplate.isTemplate(text)).toBe(expected);
  });
});

describe("UriTemplate.match: operators", () => {
  it.each<[string, string, Record<string, UriVariableValue> | undefined]>([
    // simple: one segment, percent-decoded, raw commas make a list
    ["users/{id}", "users/42", { id: "42" }],
    ["users/{id}", "users/Hello%20World%21", { id: "Hello World!" }],
    ["users/{id}", "users/a,b", { id: ["a", "b"] }],
    ["users/{id}", "users/", { id: "" }],
    ["users/{id}", "users/a/b", undefined],
    ["users/{id}", "users/a?b", undefined],
    ["users/{id}", "users/café a", { id: "café a" }],
    ["users/{id}", "groups/42", undefined],
    // reserved: spans '/', '?', '#'
    ["file:///{+path}", "file:///a/b%20c?d#e", { path: "a/b c?d#e" }],
    ["file:///{+path}", "file:///", { path: "" }],
    ["{+path}/here", "/foo/bar/here", { path: "/foo/bar" }],
    // fragment
    ["page{#section}", "page#intro/part%201", { section: "intro/part 1" }],
    ["page{#section}", "page#", { section: "" }],
    ["page{#section}", "page", {}],
    ["page{#a,b}", "page#1,2", { a: "1", b: "2" }],
    // label
    ["www{.dom*}", "www.example.com", { dom: ["example", "com"] }],
    ["X{.x}", "X", {}],
    ["X{.x}", "X.", { x: "" }],
    ["X{.x,y}", "X.a.b.c", { x: "a", y: "b.c" }],
    // path segments
    ["{/a,b}", "/1/2", { a: "1", b: "2" }],
    ["{/a,b}", "/1", { a: "1" }],
    ["{/a,b}", "/1/2/3", undefined],
    ["{/a}", "/1,2", { a: ["1", "2"] }],
    ["{/a*}", "/1/2/3", { a: ["1", "2", "3"] }],
    ["{/a*}", "/1", { a: ["1"] }],
    ["{/a*,b}", "/1/2/3", { a: ["1", "2"], b: "3" }],
    ["{/a,b*}", "/1/2/3", { a: "1", b: ["2", "3"] }],
    ["{/a,b*}", "/1", { a: "1" }],
    ["{/a}/x", "/x", {}],
    // path-style parameters: any order, unknown ones ignored
    ["p{;x,y}", "p;y=2;x=1", { x: "1", y: "2" }],
    ["p{;x,y}", "p;x;z=3", { x: "" }],
    ["p{;list*}", "p;list=a;list=b", { list: ["a", "b"] }],
    ["p{;x}/rest", "p;x=1/rest", { x: "1" }],
    ["p{;x}", "p;x=1/rest", undefined],
  ])("%s matches %s as %j", (template, uri, expected) => {
    expect(match(template, uri)).toEqual(expected);
  });
});

describe("UriTemplate.match: query parameters", () => {
  const template = UriTemplate.parse("db://{table}/rows{?limit,offset,tags*,sort}");

  it.each<[string, Record<string, UriVariableValue> | undefined]>([
    ["db://users/rows?limit=10&offset=20", { table: "users", limit: "10", offset: "20" }],
    ["db://users/rows?offset=20&limit=10", { table: "users", limit: "10", offset: "20" }],
    ["db://users/rows?debug=1&limit=10&x", { table: "users", limit: "10" }],
    ["db://users/rows", { table: "users" }],
    ["db://users/rows?", { table: "users" }],
    ["db://users/rows?&&limit=1&", { table: "users", limit: "1" }],
    ["db://users/rows?limit", { table: "users", limit: "" }],
    ["db://users/rows?limit=1&limit=2", { table: "users", limit: "1" }],
    ["db://users/rows?tags=a&sort=x&tags=b%20c", { table: "users", tags: ["a", "b c"], sort: "x" }],
    ["db://users/rows?tags=a", { table: "users", tags: ["a"] }],
    ["db://users/rows?sort=name,-date", { table: "users", sort: ["name", "-date"] }],
    ["db://users/rows?sort=a+b&limit=/:?", { table: "users", sort: "a+b", limit: "/:?" }],
    ["db://users/rows?limit=1#top", undefined],
    ["db://users/rows/extra?limit=1", undefined],
  ])("%s -> %j", (uri, expected) => {
    expect(template.match(uri)).toEqual(expected);
  });

  it("pools adjacent '?' and '&' expressions, so their parameters may come in any order", () => {
    expect(match("s{?a}{&b,c}", "s?c=3&b=2&a=1")).toEqual({ a: "1", b: "2", c: "3" });
    expect(match("s{?a}{&b}", "s?a=1&b=2")).toEqual({ a: "1", b: "2" });
  });

  it("matches a literal query start literally, then the continuation in any order", () => {
    expect(match("/search?fixed=yes{&x,y}", "/search?fixed=yes&y=2&x=1")).toEqual({ x: "1", y: "2" });
    expect(match("/search?fixed=yes{&x}", "/search?fixed=yes")).toEqual({});
    expect(match("/search?fixed=yes{&x}", "/search?x=1&fixed=yes")).toBeUndefined();
  });

  it("does not pool parameters across a literal or across families", () => {
    expect(match("{?a}/x{&b}", "?b=2/x&a=1")).toEqual({});
    expect(match("p{;a}{?b}", "p;b=1?a=2")).toEqual({});
  });

  it("reads a fragment after the query", () => {
    expect(match("s{?q}{#f}", "s?q=1#top")).toEqual({ q: "1", f: "top" });
  });
});

describe("UriTemplate.match: ambiguities", () => {
  it.each<[string, string, Record<string, UriVariableValue> | undefined]>([
    // a following expression gets the last '.' or '/', the first '?', '&', ';' or '#'
    ["file:///{name}{.ext}", "file:///my.report.pdf", { name: "my.report", ext: "pdf" }],
    ["file:///{name}{.ext}", "file:///README", { name: "README" }],
    ["{+dir}{/file}", "a/b/c", { dir: "a/b", file: "c" }],
    ["{/dirs*}{.ext}", "/a/b.txt", { dirs: ["a", "b"], ext: "txt" }],
    ["{/a}{/b*}", "/1/2/3", { a: "1", b: ["2", "3"] }],
    ["{.a}{.b}", ".x.y", { a: "x", b: "y" }],
    ["file:///{+path}{?v}", "file:///a/b?v=2", { path: "a/b", v: "2" }],
    ["file:///{+path}{?v}", "file:///a?b?v=2", { path: "a" }],
    ["{+path}{#f}", "a/b#c#d", { path: "a/b", f: "c#d" }],
    ["{+path}{;p}", "a;p=1;p=2", { path: "a", p: "1" }],
    ["{#f}{?q}", "#a?q=1", { f: "a", q: "1" }],
    // otherwise an expression takes as much as it can
    ["{a}-{b}", "x-y-z", { a: "x-y", b: "z" }],
    ["{name}.json", "my.file.json", { name: "my.file" }],
    ["{x}{y}", "abc", { x: "abc", y: "" }],
    ["{+a}{+b}", "a/b", { a: "a/b", b: "" }],
    // unnamed values go to the variables in order; the last takes what is left
    ["{x,y,z}", "1,2", { x: "1", y: "2" }],
    ["{x,y}", "a,b,c", { x: "a", y: ["b", "c"] }],
    ["{x,y}", "", { x: "" }],
    ["{x*,y}", "1,2,3", { x: ["1", "2"], y: "3" }],
    ["{x,y*}", "1", { x: "1" }],
    ["{+x,y}", "/a,b/c", { x: "/a", y: "b/c" }],
  ])("%s matches %s as %j", (template, uri, expected) => {
    expect(match(template, uri)).toEqual(expected);
  });

  it("starts the query at the first '?', so a later '?' belongs to a parameter value", () => {
    expect(match("file:///{+path}{?v}", "file:///a?v=1?x")).toEqual({ path: "a", v: "1?x" });
  });
});

describe("UriTemplate.match: prefixes and repeated variables", () => {
  it.each<[string, string, Record<string, UriVariableValue> | undefined]>([
    ["{x:3}", "abc", { x: "abc" }],
    ["{x:3}", "ab", { x: "ab" }],
    ["{x:3}", "abcd", undefined],
    ["{x:3}", "%C3%A9t%C3%A9", { x: "été" }],
    ["{x:3}", "a,b", { x: "a,b" }],
    ["{?x:2}", "?x=abc", undefined],
    ["{x}/{x}", "a/a", { x: "a" }],
    ["{x}/{x}", "a/b", undefined],
    ["{x}/{x}", "a,b/a,b", { x: ["a", "b"] }],
    ["{x}/{x}", "a,b/a,c", undefined],
    ["{x}/{x}", "a,b/a,b,c", undefined],
    ["{x}/{x}", "a,b/a", undefined],
    ["{var:1}/{var}", "v/value", { var: "value" }],
    ["{var:1}/{var}", "x/value", undefined],
    ["{x:2}/{x:4}", "ab/abcd", { x: "abcd" }],
    ["{x:4}/{x:2}", "abcd/ab", { x: "abcd" }],
    ["{x:2}/{x:4}", "ab/abxy", { x: "abxy" }],
    ["{x:2}/{x:4}", "ac/abcd", undefined],
    ["{x}/{x:2}", "a,b/ab", undefined],
    ["{?x}{&x}", "?x=1", { x: "1" }],
  ])("%s matches %s as %j", (template, uri, expected) => {
    expect(match(template, uri)).toEqual(expected);
  });
});

describe("UriTemplate.match: malformed and hostile URIs", () => {
  it.each([
    ["{x}", "50%"],
    ["{x}", "%zz"],
    ["{x}", "%C3"],
    ["{x}", "a,%FF"],
    ["{/x*}", "/a/%E2%82"],
    ["{?q}", "?q=%"],
    ["{+p}", "a%2"],
  ])("does not match %s against the malformed percent-encoding %s", (template, uri) => {
    expect(match(template, uri)).toBeUndefined();
  });

  it("returns a variable named __proto__ as an own property", () => {
    const result = match("{__proto__}", "x");
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result ?? {}, "__proto__")).toBe(true);
    expect(result?.["__proto__"]).toBe("x");
  });

  it("ignores URIs longer than the limit, 64 KiB unless configured", () => {
    expect(DEFAULT_MAX_URI_LENGTH).toBe(65536);
    const any = UriTemplate.parse("{+all}");
    expect(any.match("a".repeat(65536))).toEqual({ all: "a".repeat(65536) });
    expect(any.match("a".repeat(65537))).toBeUndefined();
    const short = UriTemplate.parse("{+all}", { maxUriLength: 3 });
    expect(short.match("abc")).toEqual({ all: "abc" });
    expect(short.match("abcd")).toBeUndefined();
  });

  it("matches only the empty URI with the empty template", () => {
    expect(match("", "")).toEqual({});
    expect(match("", "x")).toBeUndefined();
  });

  // Each of these would take hours with a backtracking regular expression (e.g. (.*)(.*)(.*)x$ is
  // O(n^4)); each takes well under a second here, and has 30 s, room for a loaded machine or
  // mutation testing's instrumentation, far from hours.
  const HOSTILE = 100_000;
  const As = "a".repeat(HOSTILE);
  const slashes = "/".repeat(HOSTILE);
  const dots = ".".repeat(HOSTILE);
  it.each<[string, string, boolean, string]>([
    ["{a}{b}{c}{d}{e}x", "100k 'a'", false, As],
    ["{a}{b}{c}{d}{e}x", "100k 'a' then 'x'", true, `${As}x`],
    ["{+a}{+b}{+c}{+d}/end", "100k '/'", false, slashes],
    ["{+a}{+b}{+c}{+d}/end", "100k '/' then 'end'", true, `${slashes}end`],
    ["{a}aaaaaaaaab{b}", "100k 'a'", false, As],
    ["{a}aaaaaaaaaa{b}", "100k 'a'", true, As],
    ["{/a*}{/b*}{/c}", "100k '/'", true, slashes],
    ["{/a,b,c}", "100k '/'", false, slashes],
    ["{.a}{.b}{.c}z", "100k '.'", false, dots],
    ["{;a}{;b}{?c}{&d}{#e}!", "';' then 100k 'a'", false, `;${As}`],
    ["{x}/{x}", "100k 'a' twice", true, `${As}/${As}`],
    ["{x}/{x}", "100k 'a' twice, one longer", false, `${As}/${As}b`],
    ["{?a,b}", "'?' then 25k 'a=1&'", true, `?${"a=1&".repeat(HOSTILE / 4)}`],
  ])(
    "%s against %s: matched = %s",
    (template, _label, matches, uri) => {
      const result = UriTemplate.parse(template, { maxUriLength: 400_000 }).match(uri);
      expect(result !== undefined).toBe(matches);
    },
    30_000,
  );

  it("splits a hostile URI of slashes sensibly", () => {
    const result = UriTemplate.parse("{/a*}{/b}", { maxUriLength: 400_000 }).match(slashes);
    expect(result?.["b"]).toBe("");
    expect(result?.["a"]).toHaveLength(HOSTILE - 1);
  }, 30_000);

  it("refuses a hostile URI over the default limit at once", () => {
    expect(match("{a}{b}{c}{d}{e}x", `${As}x`)).toBeUndefined();
  });
});

// Round trip: for values without reserved characters, match(expand(v)) gives v back.
// Documented limits respected by the values below: a non-exploded list has two items or more
// (one item reads back as a string), an exploded variable always reads back as a list, values of
// the '.' operator hold no '.', and a prefixed value is no longer than its prefix.
const OPERATORS = ["", "+", "#", ".", "/", ";", "?", "&"];
const SHAPES: readonly [string, readonly UriVariables[]][] = [
  ["a", [{ a: "alpha" }, { a: "čaj ☕-_~" }, { a: "" }, { a: ["red", "green"] }, { a: ["", "x", ""] }]],
  [
    "a,b",
    [
      { a: "alpha", b: "beta" },
      { a: "", b: "beta" },
      { a: "alpha", b: "" },
      { a: "alpha", b: ["x", "y"] },
    ],
  ],
  ["a*", [{ a: ["x"] }, { a: ["x", "y z", "w"] }, { a: ["", "q"] }]],
  [
    "a,b*",
    [
      { a: "alpha", b: ["x", "y"] },
      { a: "alpha", b: ["x"] },
    ],
  ],
  ["a*,b", [{ a: ["x", "y"], b: "beta" }]],
  ["a:3", [{ a: "abc" }, { a: "ab" }, { a: "é☕x" }]],
  ["a,b:2,c", [{ a: "alpha", b: "be", c: "gamma" }]],
];
const CONTEXTS = ["{}", "res://host/{}", "res://host/{}/tail"];

const GENERATED_ROUND_TRIPS = OPERATORS.flatMap((operator) =>
  SHAPES.flatMap(([shape, valueSets]) =>
    CONTEXTS.flatMap((context) =>
      valueSets.map((values): [string, UriVariables] => [context.replace("{}", `{${operator}${shape}}`), values]),
    ),
  ),
);

const COMPOSITE_ROUND_TRIPS: readonly [string, UriVariables][] = [
  ["db://{table}/rows{?limit,offset}", { table: "users", limit: "10", offset: "20" }],
  ["file:///{+path}", { path: "dir/sub dir/file.txt" }],
  ["file:///{+path}{?version}", { path: "a/b.txt", version: "3" }],
  ["file:///{name}{.ext}", { name: "report", ext: "pdf" }],
  [
    "{scheme}://{host}{/segments*}{;params*}{?query*}{#fragment}",
    {
      scheme: "https",
      host: "example.com",
      segments: ["a", "b"],
      params: ["p1", "p2"],
      query: ["q1", "q2"],
      fragment: "top",
    },
  ],
  ["repo://{/owner,repo}/contents{/path*}{?ref}", { owner: "octo", repo: "hello", path: ["src", "main.ts"], ref: "main" }],
  ["mail:{user}@{domain}", { user: "john.doe", domain: "example.org" }],
  ["{x}/{x}", { x: "same" }],
  ["{var:2}/{var}", { var: "value" }],
  ["{.a}{.b}", { a: "x", b: "y" }],
  ["{/a}{/b*}", { a: "1", b: ["2", "3"] }],
  ["{?a}{&b,c*}", { a: "1", b: "2", c: ["3", "4"] }],
  ["?fixed=yes{&x}", { x: "1" }],
  ["{#frag,more}", { frag: "a", more: "b" }],
  ["{+base}/api{/rest*}{?q}", { base: "http://h/v1", rest: ["x", "y"], q: "1" }],
  ["{x,y}{.z}", { x: "1", y: "2", z: "3" }],
  ["{;a}{;b}", { a: "1", b: "2" }],
  ["{/a}{;p}{?q}{#f}", { a: "1", p: "2", q: "3", f: "4" }],
];

describe("UriTemplate: match(expand(v)) gives v back", () => {
  it("covers every operator", () => {
    const operatorsUsed = new Set(GENERATED_ROUND_TRIPS.map(([template]) => /\{([+#./;?&]?)/.exec(template)?.[1]));
    expect(operatorsUsed).toEqual(new Set(OPERATORS));
    expect(GENERATED_ROUND_TRIPS.length).toBeGreaterThan(300);
  });

  it.each([...GENERATED_ROUND_TRIPS, ...COMPOSITE_ROUND_TRIPS])("%s with %j", (text, values) => {
    const template = UriTemplate.parse(text);
    const uri = template.expand(values);
    expect(template.match(uri)).toEqual(values);
  });
});

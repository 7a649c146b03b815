import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  STATELESS_HEADERS,
  checkStatelessHeaders,
  encodeHeaderValue,
  expectedMcpName,
  headerParamArgument,
  headerParamsOf,
  headerParamValue,
  type HeaderParam,
} from "./mcp-headers.js";

/** Runs per property: small in `npm test`, `FUZZ_RUNS=<n>` for a longer campaign. */
const runs = (normal: number): number => Number(process.env["FUZZ_RUNS"]) || normal;
const SEED = 0x5eed_0022;

/** A lookup through the Fetch `Headers` API, as a web handler has it (case-insensitive, trimmed). */
const fetchHeaders = (init: Record<string, string>): ((name: string) => string | null) => {
  const headers = new Headers(init);
  return (name) => headers.get(name);
};
/** A lookup in a plain lower-case map, as Node's `req.headers` has it (and untrimmed). */
const rawHeaders = (init: Record<string, string>): ((name: string) => string | null) => {
  const lower = new Map(Object.entries(init).map(([name, value]) => [name.toLowerCase(), value]));
  return (name) => lower.get(name) ?? null;
};

/** The conformance suite's custom-header tool: a string, an integer and a boolean mirrored, one not. */
const sqlTool = headerParamsOf({
  type: "object",
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    priority: { type: "integer", "x-mcp-header": "Priority" },
    verbose: { type: "boolean", "x-mcp-header": "Verbose" },
    query: { type: "string" },
  },
  required: ["region", "priority", "query"],
});
const SQL_PARAMS = sqlTool.ok ? sqlTool.params : [];
const call = (args: Record<string, unknown>): Record<string, unknown> => ({ name: "execute_sql", arguments: args });
const callHeaders = (extra: Record<string, string>): Record<string, string> => ({
  "Mcp-Method": "tools/call",
  "Mcp-Name": "execute_sql",
  ...extra,
});
const checkCall = (args: Record<string, unknown>, extra: Record<string, string>): string | undefined =>
  checkStatelessHeaders(fetchHeaders(callHeaders(extra)), "tools/call", call(args), SQL_PARAMS);

describe("STATELESS_HEADERS", () => {
  it("names the headers in lower case, as Headers reports them", () => {
    expect(STATELESS_HEADERS).toEqual({
      method: "mcp-method",
      name: "mcp-name",
      paramPrefix: "mcp-param-",
      protocolVersion: "mcp-protocol-version",
    });
  });
});

describe("expectedMcpName", () => {
  it.each([
    ["tools/call", { name: "get_weather", arguments: {} }, "get_weather"],
    ["prompts/get", { name: "code_review" }, "code_review"],
    ["resources/read", { uri: "file:///projects/myapp/config.json", name: "ignored" }, "file:///projects/myapp/config.json"],
    ["tasks/get", { taskId: "t-1" }, "t-1"],
    ["tasks/update", { taskId: "t-2" }, "t-2"],
    ["tasks/cancel", { taskId: "t-3" }, "t-3"],
    ["tools/call", { name: "" }, ""],
  ])("%s carries Mcp-Name from the body: %j", (method, params, name) => {
    expect(expectedMcpName(method, params)).toBe(name);
  });

  it.each([
    ["tools/list", { name: "x" }],
    ["tasks/list", { taskId: "t" }],
    ["resources/read", { name: "no uri" }],
    ["tools/call", { name: 42 }],
    ["tools/call", undefined],
    ["TOOLS/CALL", { name: "x" }],
    ["tools/call", ["x"] as unknown as Record<string, unknown>],
    ["toString", {}],
  ])("%s with %j has no Mcp-Name", (method, params) => {
    expect(expectedMcpName(method, params)).toBeUndefined();
  });
});

describe("checkStatelessHeaders: Mcp-Method and Mcp-Name (http-header-validation)", () => {
  it.each([
    ["tools/list", undefined, { "Mcp-Method": "tools/list" }],
    ["tools/list", undefined, { "mcp-method": "tools/list" }],
    ["tools/list", undefined, { "MCP-METHOD": "tools/list" }],
    ["tools/list", { cursor: "c" }, { "Mcp-Method": "tools/list", "Mcp-Name": "unrelated" }],
    [
      "tools/call",
      { name: "get_weather", arguments: { location: "Seattle, WA" } },
      { "Mcp-Method": "tools/call", "Mcp-Name": "get_weather" },
    ],
    [
      "resources/read",
      { uri: "file:///projects/myapp/config.json" },
      { "Mcp-Method": "resources/read", "Mcp-Name": "file:///projects/myapp/config.json" },
    ],
    [
      "resources/read",
      { uri: "file:///path/to/file%20name.txt" },
      { "Mcp-Method": "resources/read", "Mcp-Name": "file:///path/to/file%20name.txt" },
    ],
    ["prompts/get", { name: "code_review" }, { "Mcp-Method": "prompts/get", "Mcp-Name": "code_review" }],
    ["tasks/get", { taskId: "t-1" }, { "Mcp-Method": "tasks/get", "Mcp-Name": "t-1" }],
    ["tools/call", { name: "wetter-überblick" }, { "Mcp-Method": "tools/call", "Mcp-Name": encodeHeaderValue("wetter-überblick") }],
    ["tools/call", { name: "plain" }, { "Mcp-Method": "tools/call", "Mcp-Name": "=?base64?cGxhaW4=?=" }],
    ["tools/call", { name: "" }, { "Mcp-Method": "tools/call", "Mcp-Name": "" }],
  ])("accepts %s %j with %j", (method, params, headers) => {
    expect(checkStatelessHeaders(fetchHeaders(headers), method, params, undefined)).toBeUndefined();
  });

  it("accepts whitespace around values even from a lookup that does not trim (RFC 9110 drops it)", () => {
    const headers = rawHeaders({ "Mcp-Method": " tools/call\t", "Mcp-Name": "  get_weather  " });
    expect(checkStatelessHeaders(headers, "tools/call", { name: "get_weather" }, undefined)).toBeUndefined();
  });

  it.each([
    [
      "tools/list",
      undefined,
      { "Mcp-Method": "prompts/list" },
      "Header mismatch: Mcp-Method header value 'prompts/list' does not match body value 'tools/list'",
    ],
    ["tools/list", undefined, {}, "Header mismatch: the Mcp-Method header is missing"],
    [
      "tools/list",
      undefined,
      { "Mcp-Method": "TOOLS/LIST" },
      "Header mismatch: Mcp-Method header value 'TOOLS/LIST' does not match body value 'tools/list'",
    ],
    [
      "tools/list",
      undefined,
      { "Mcp-Method": "=?base64?dG9vbHMvbGlzdA==?=" },
      "Header mismatch: Mcp-Method header value '=?base64?dG9vbHMvbGlzdA==?=' does not match body value 'tools/list'",
    ],
    [
      "tools/call",
      { name: "bar" },
      { "Mcp-Method": "tools/call", "Mcp-Name": "foo" },
      "Header mismatch: Mcp-Name header value 'foo' does not match body value 'bar'",
    ],
    ["tools/call", { name: "get_weather" }, { "Mcp-Method": "tools/call" }, "Header mismatch: the Mcp-Name header is missing"],
    [
      "tools/call",
      { name: "Get_Weather" },
      { "Mcp-Method": "tools/call", "Mcp-Name": "get_weather" },
      "Header mismatch: Mcp-Name header value 'get_weather' does not match body value 'Get_Weather'",
    ],
    ["resources/read", { uri: "file:///a" }, { "Mcp-Method": "resources/read" }, "Header mismatch: the Mcp-Name header is missing"],
    [
      "prompts/get",
      { name: "p" },
      { "Mcp-Method": "prompts/get", "Mcp-Name": "q" },
      "Header mismatch: Mcp-Name header value 'q' does not match body value 'p'",
    ],
    [
      "tasks/cancel",
      { taskId: "t-1" },
      { "Mcp-Method": "tasks/cancel", "Mcp-Name": "wrong-task" },
      "Header mismatch: Mcp-Name header value 'wrong-task' does not match body value 't-1'",
    ],
    ["tasks/update", { taskId: "t-1" }, { "Mcp-Method": "tasks/update" }, "Header mismatch: the Mcp-Name header is missing"],
    [
      "tools/call",
      { name: "Hello" },
      { "Mcp-Method": "tools/call", "Mcp-Name": "=?base64?SGVsbG8?=" },
      "Header mismatch: the Mcp-Name header value is not canonical padded Base64",
    ],
    [
      "tools/call",
      { name: "x" },
      { "Mcp-Method": "tools/call", "Mcp-Name": "=?base64?/w==?=" },
      "Header mismatch: the Mcp-Name header value is Base64 of bytes that are not UTF-8",
    ],
    [
      "tools/call",
      { name: "wetter-überblick" },
      { "Mcp-Method": "tools/call", "Mcp-Name": "wetter-\u00c3\u00bcberblick" },
      "Header mismatch: the Mcp-Name header value holds a character",
    ],
    ["tools/call", { name: "x" }, { "Mcp-Name": "y" }, "Header mismatch: the Mcp-Method header is missing"],
  ])("rejects %s %j with %j", (method, params, headers, message) => {
    expect(checkStatelessHeaders(rawHeaders(headers), method, params, undefined)).toContain(message);
  });

  it("repeats at most 64 characters of a value, never half a surrogate pair", () => {
    const long = `${"a".repeat(63)}😀${"b".repeat(100)}`;
    const message = checkStatelessHeaders(
      fetchHeaders({ "Mcp-Method": "tools/call", "Mcp-Name": "c".repeat(65) }),
      "tools/call",
      { name: long },
      undefined,
    );
    expect(message).toBe(`Header mismatch: Mcp-Name header value '${"c".repeat(64)}…' does not match body value '${"a".repeat(63)}…'`);
    const exact = "d".repeat(64);
    expect(
      checkStatelessHeaders(fetchHeaders({ "Mcp-Method": "tools/call", "Mcp-Name": exact }), "tools/call", { name: "e" }, undefined),
    ).toContain(`'${exact}' does`);
  });
});

describe("checkStatelessHeaders: Mcp-Param-* (http-custom-header-server-validation)", () => {
  const present = { region: "us-west1", priority: 0, query: "SELECT 1" };
  const headersFor = { "Mcp-Param-Region": "us-west1", "Mcp-Param-Priority": "0" };

  it.each([
    ["plain values", present, headersFor],
    ["valid Base64 of the value", { ...present, region: "Hello" }, { ...headersFor, "Mcp-Param-Region": "=?base64?SGVsbG8=?=" }],
    ["a literal without the prefix", { ...present, region: "SGVsbG8=" }, { ...headersFor, "Mcp-Param-Region": "SGVsbG8=" }],
    [
      "a literal without the suffix",
      { ...present, region: "=?base64?SGVsbG8=" },
      { ...headersFor, "Mcp-Param-Region": "=?base64?SGVsbG8=" },
    ],
    [
      "an encoded non-ASCII value",
      { ...present, region: "Hello, 世界" },
      { ...headersFor, "Mcp-Param-Region": "=?base64?SGVsbG8sIOS4lueVjA==?=" },
    ],
    ["an empty string", { ...present, region: "" }, { ...headersFor, "Mcp-Param-Region": "" }],
    ["a null argument and no header", { ...present, verbose: null }, headersFor],
    ["an absent argument and no header", present, headersFor],
    ["booleans", { ...present, verbose: false }, { ...headersFor, "Mcp-Param-Verbose": "false" }],
    ["an integer written 42.0", { ...present, priority: 42 }, { ...headersFor, "Mcp-Param-Priority": "42.0" }],
    ["an integer with leading zeros and a sign", { ...present, priority: 42 }, { ...headersFor, "Mcp-Param-Priority": "+042" }],
    ["a negative integer", { ...present, priority: -7 }, { ...headersFor, "Mcp-Param-Priority": "-7.00" }],
    ["minus zero", { ...present, priority: 0 }, { ...headersFor, "Mcp-Param-Priority": "-0" }],
    ["an integer in Base64", { ...present, priority: 42 }, { ...headersFor, "Mcp-Param-Priority": "=?base64?NDI=?=" }],
    [
      "the largest safe integer",
      { ...present, priority: Number.MAX_SAFE_INTEGER },
      { ...headersFor, "Mcp-Param-Priority": "9007199254740991" },
    ],
    ["header names in any case", present, { "MCP-PARAM-REGION": "us-west1", "mcp-param-priority": "0" }],
    ["an unknown Mcp-Param header", present, { ...headersFor, "Mcp-Param-Other": "x" }],
  ])("accepts %s", (_, args, extra) => {
    expect(checkCall(args, extra)).toBeUndefined();
  });

  it.each([
    [
      "invalid Base64 padding",
      { ...present, region: "Hello" },
      { ...headersFor, "Mcp-Param-Region": "=?base64?SGVsbG8?=" },
      "the Mcp-Param-Region header value is not canonical padded Base64",
    ],
    [
      "invalid Base64 characters",
      { ...present, region: "Hello" },
      { ...headersFor, "Mcp-Param-Region": "=?base64?SGVs!!!bG8=?=" },
      "the Mcp-Param-Region header value is not canonical padded Base64",
    ],
    [
      "a missing header for a value in the body",
      { ...present, region: "test-value" },
      { "Mcp-Param-Priority": "0" },
      "the Mcp-Param-Region header is missing (the argument 'region' is present)",
    ],
    [
      "a mismatching value",
      present,
      { ...headersFor, "Mcp-Param-Region": "us-east1" },
      "Mcp-Param-Region header value 'us-east1' does not match body value 'us-west1'",
    ],
    ["a value in another case", present, { ...headersFor, "Mcp-Param-Region": "US-WEST1" }, "Mcp-Param-Region header value 'US-WEST1'"],
    [
      "a header for a null argument",
      { ...present, verbose: null },
      { ...headersFor, "Mcp-Param-Verbose": "true" },
      "the Mcp-Param-Verbose header is sent but the argument 'verbose' is absent or null",
    ],
    [
      "a header for an absent argument",
      present,
      { ...headersFor, "Mcp-Param-Verbose": "false" },
      "the Mcp-Param-Verbose header is sent but the argument 'verbose'",
    ],
    [
      "a boolean in capitals",
      { ...present, verbose: true },
      { ...headersFor, "Mcp-Param-Verbose": "TRUE" },
      "Mcp-Param-Verbose header value 'TRUE' does not match body value 'true'",
    ],
    [
      "a different integer",
      { ...present, priority: 43 },
      { ...headersFor, "Mcp-Param-Priority": "42" },
      "Mcp-Param-Priority header value '42' does not match body value '43'",
    ],
    [
      "an integer in exponent form",
      { ...present, priority: 42 },
      { ...headersFor, "Mcp-Param-Priority": "4.2e1" },
      "Mcp-Param-Priority header value '4.2e1'",
    ],
    [
      "an integer in hex",
      { ...present, priority: 42 },
      { ...headersFor, "Mcp-Param-Priority": "0x2A" },
      "Mcp-Param-Priority header value '0x2A'",
    ],
    [
      "an integer with a fraction",
      { ...present, priority: 42 },
      { ...headersFor, "Mcp-Param-Priority": "42.5" },
      "Mcp-Param-Priority header value '42.5'",
    ],
    [
      "an integer header past the safe range",
      { ...present, priority: Number.MAX_SAFE_INTEGER },
      { ...headersFor, "Mcp-Param-Priority": "9007199254740993" },
      "header value '9007199254740993'",
    ],
    [
      "an unsafe integer argument",
      { ...present, priority: 2 ** 53 },
      { ...headersFor, "Mcp-Param-Priority": "9007199254740992" },
      "the argument 'priority' is not a safe integer, so no Mcp-Param-Priority header can carry it",
    ],
    [
      "a fractional integer argument",
      { ...present, priority: 1.5 },
      { ...headersFor, "Mcp-Param-Priority": "1.5" },
      "the argument 'priority' is not a safe integer",
    ],
    [
      "a number for a string",
      { ...present, region: 5 },
      { ...headersFor, "Mcp-Param-Region": "5" },
      "the argument 'region' is not a string, so no Mcp-Param-Region header can carry it",
    ],
    [
      "a string for a boolean",
      { ...present, verbose: "true" },
      { ...headersFor, "Mcp-Param-Verbose": "true" },
      "the argument 'verbose' is not a boolean",
    ],
    [
      "a control character in a plain value",
      { ...present, region: "a\u0001b" },
      { ...headersFor, "Mcp-Param-Region": "a\u0001b" },
      "the Mcp-Param-Region header value holds a character",
    ],
  ])("rejects %s", (_, args, extra, message) => {
    const problem = checkStatelessHeaders(rawHeaders(callHeaders(extra)), "tools/call", call(args), SQL_PARAMS);
    expect(problem).toMatch(/^Header mismatch: /);
    expect(problem).toContain(message);
  });

  it("reads nested arguments along the property path", () => {
    const nested = headerParamsOf({
      type: "object",
      properties: { config: { type: "object", properties: { tenant: { type: "string", "x-mcp-header": "Tenant" } } } },
    });
    const params = nested.ok ? nested.params : [];
    const headers = { "Mcp-Method": "tools/call", "Mcp-Name": "t" };
    const body = { name: "t", arguments: { config: { tenant: "acme" } } };
    expect(checkStatelessHeaders(fetchHeaders({ ...headers, "Mcp-Param-Tenant": "acme" }), "tools/call", body, params)).toBeUndefined();
    expect(checkStatelessHeaders(fetchHeaders(headers), "tools/call", body, params)).toBe(
      "Header mismatch: the Mcp-Param-Tenant header is missing (the argument 'config.tenant' is present)",
    );
  });

  it("checks no Mcp-Param header without toolParams, and finds no arguments when they are not an object", () => {
    expect(
      checkStatelessHeaders(fetchHeaders(callHeaders({ "Mcp-Param-Region": "x" })), "tools/call", call(present), undefined),
    ).toBeUndefined();
    const notObject = { name: "execute_sql", arguments: ["us-west1"] };
    expect(checkStatelessHeaders(fetchHeaders(callHeaders({})), "tools/call", notObject, SQL_PARAMS)).toBeUndefined();
    expect(checkStatelessHeaders(fetchHeaders(callHeaders({ "Mcp-Param-Region": "x" })), "tools/call", notObject, SQL_PARAMS)).toContain(
      "is absent or null",
    );
  });

  it("reports the first problem: Mcp-Method, then Mcp-Name, then the params in order", () => {
    const args = { region: "a", priority: 1 };
    const all = { "Mcp-Method": "tools/list", "Mcp-Name": "other", "Mcp-Param-Region": "b", "Mcp-Param-Priority": "2" };
    const check = (headers: Record<string, string>): string | undefined =>
      checkStatelessHeaders(fetchHeaders(headers), "tools/call", call(args), SQL_PARAMS);
    expect(check(all)).toContain("Mcp-Method header value");
    expect(check({ ...all, "Mcp-Method": "tools/call" })).toContain("Mcp-Name header value");
    expect(check({ ...all, "Mcp-Method": "tools/call", "Mcp-Name": "execute_sql" })).toContain("Mcp-Param-Region header value");
    expect(check({ ...all, "Mcp-Method": "tools/call", "Mcp-Name": "execute_sql", "Mcp-Param-Region": "a" })).toContain(
      "Mcp-Param-Priority header value",
    );
  });

  it("asks the lookup for lower-case names only", () => {
    const asked: string[] = [];
    checkStatelessHeaders((name) => (asked.push(name), null), "tools/call", call(present), SQL_PARAMS);
    checkStatelessHeaders(
      (name) => (asked.push(name), name === "mcp-method" ? "tools/call" : name === "mcp-name" ? "execute_sql" : null),
      "tools/call",
      call({}),
      SQL_PARAMS,
    );
    expect(asked).toEqual(["mcp-method", "mcp-method", "mcp-name", "mcp-param-region", "mcp-param-priority", "mcp-param-verbose"]);
  });
});

/** An argument of the given type, or null, or absent. */
function argumentOf(type: string): fc.Arbitrary<unknown> {
  const typed = type === "string" ? fc.string({ unit: "binary", maxLength: 80 }) : type === "integer" ? fc.maxSafeInteger() : fc.boolean();
  return fc.oneof(typed, fc.constant(null), fc.constant(undefined));
}

describe("checkStatelessHeaders under fuzzing", () => {
  const headerParam = fc.record({
    property: fc.string({ maxLength: 4 }),
    path: fc.array(fc.constantFrom("a", "b", "__proto__", "constructor", ""), { minLength: 1, maxLength: 3 }),
    header: fc.string({ maxLength: 6 }),
    type: fc.constantFrom("string", "integer", "boolean"),
  }) as fc.Arbitrary<HeaderParam>;
  const headerName = fc.oneof(
    fc.constantFrom("mcp-method", "mcp-name", "mcp-param-a", "mcp-param-b", "mcp-param-"),
    fc.string({ maxLength: 12 }),
  );
  const headerValue = fc.oneof(
    fc.string({ unit: "binary", maxLength: 20 }),
    fc.string({ maxLength: 12 }).map((text) => `=?base64?${text}?=`),
  );
  const anything = fc.oneof(
    fc.anything({ maxDepth: 3 }),
    fc.record({ name: fc.anything({ maxDepth: 1 }), uri: fc.string(), taskId: fc.string(), arguments: fc.anything({ maxDepth: 3 }) }),
  );

  it("never throws on arbitrary header maps, methods, params and toolParams; answers undefined or a HeaderMismatch message", () => {
    fc.assert(
      fc.property(
        fc.dictionary(headerName, headerValue, { maxKeys: 6 }),
        fc.oneof(fc.constantFrom("tools/call", "resources/read", "prompts/get", "tasks/get", "tools/list"), fc.string({ maxLength: 10 })),
        anything,
        fc.option(fc.array(headerParam, { maxLength: 3 }), { nil: undefined }),
        (headers, method, params, toolParams) => {
          const result = checkStatelessHeaders((name) => headers[name] ?? null, method, params as Record<string, unknown>, toolParams);
          expect(result === undefined || result.startsWith("Header mismatch: ")).toBe(true);
        },
      ),
      { numRuns: runs(400), seed: SEED },
    );
  });

  it("accepts exactly what a conforming client sends, and rejects any one mirrored value changed", () => {
    const types = fc.array(fc.constantFrom("string", "integer", "boolean"), { minLength: 1, maxLength: 4 });
    const toolCall = types.chain((list) =>
      fc.tuple(fc.constant(list), fc.string({ unit: "binary", maxLength: 80 }), fc.tuple(...list.map(argumentOf)), fc.nat()),
    );
    fc.assert(
      fc.property(toolCall, ([list, toolName, values, pick]) => {
        const properties = Object.fromEntries(list.map((type, index) => [`p${index}`, { type, "x-mcp-header": `H${index}` }]));
        const schema = headerParamsOf({ type: "object", properties });
        const params = schema.ok ? schema.params : [];
        const args = Object.fromEntries(values.flatMap((value, index) => (value === undefined ? [] : [[`p${index}`, value]])));
        const headers = new Headers({ "Mcp-Method": "tools/call", "Mcp-Name": encodeHeaderValue(toolName) });
        for (const param of params) {
          const sent = headerParamValue(param, headerParamArgument(param, args));
          if (sent !== undefined) headers.set(`Mcp-Param-${param.header}`, sent);
        }
        const body = { name: toolName, arguments: args };
        expect(params).toHaveLength(list.length);
        expect(checkStatelessHeaders((name) => headers.get(name), "tools/call", body, params)).toBeUndefined();
        const index = pick % list.length;
        const before = args[`p${index}`];
        const changed = {
          ...args,
          [`p${index}`]: list[index] === "string" ? `${typeof before === "string" ? before : ""}x` : list[index] === "integer" ? 0.5 : "no",
        };
        const problem = checkStatelessHeaders((name) => headers.get(name), "tools/call", { ...body, arguments: changed }, params);
        expect(problem).toContain(`H${index}`);
        expect(problem?.length).toBeLessThan(260);
      }),
      { numRuns: runs(300), seed: SEED },
    );
  });
});

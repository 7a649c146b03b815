import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { presentedToken, tokenInQuery } from "./bearer.js";
import { bearerChallenge, checkedScopes, union } from "./challenge.js";

describe("presentedToken (RFC 6750 §2.1: the Authorization header only)", () => {
  it.each([
    ["Bearer abc.DEF-ghi_~+/", "abc.DEF-ghi_~+/"],
    ["bearer tok", "tok"],
    ["BEARER tok==", "tok=="],
    ["Bearer   spaced", "spaced"],
    ["  Bearer trimmed  ", "trimmed"],
  ])("takes the one token of %j", (header, token) => {
    expect(presentedToken(header)).toEqual({ kind: "token", token });
  });

  it.each([null, "Basic dXNlcjpwYXNz", "DPoP tok", "Bearerish tok", "", "Basic Bearer x"])(
    "finds no bearer token in %j (no error code for those: RFC 6750 §3.1)",
    (header) => {
      expect(presentedToken(header)).toEqual({ kind: "none" });
    },
  );

  it.each(["Bearer", "Bearer ", "Bearer a b", "Bearer a, Bearer b", "Bearer tok=x", "Bearer t\u00e9", 'Bearer "quoted"', "Bearer a,b"])(
    "finds %j malformed: not exactly one token",
    (header) => {
      expect(presentedToken(header)).toEqual({ kind: "malformed" });
    },
  );
});

describe("tokenInQuery (RFC 6750 §2.3 is refused)", () => {
  it.each([
    ["http://127.0.0.1/mcp", false],
    ["http://127.0.0.1/mcp?sessionId=1", false],
    ["http://127.0.0.1/mcp?access_token=abc", true],
    ["http://127.0.0.1/mcp?a=1&access_token=", true],
    ["http://127.0.0.1/mcp?access%5Ftoken=abc", true],
    ["http://127.0.0.1/access_token", false],
  ])("%s → %s", (url, found) => {
    expect(tokenInQuery(url)).toBe(found);
  });
});

describe("bearerChallenge (RFC 6750 §3, RFC 9728 §5.1)", () => {
  it("writes each parameter once, quoted, in a fixed order, leaving out what is not given", () => {
    expect(bearerChallenge({ scopes: ["a", "b"], resourceMetadata: "https://rs.example/.well-known/oauth-protected-resource/mcp" })).toBe(
      'Bearer scope="a b", resource_metadata="https://rs.example/.well-known/oauth-protected-resource/mcp"',
    );
    expect(
      bearerChallenge({ error: "insufficient_scope", errorDescription: "needs b", scopes: ["b"], resourceMetadata: "https://rs/x" }),
    ).toBe('Bearer error="insufficient_scope", error_description="needs b", scope="b", resource_metadata="https://rs/x"');
    expect(bearerChallenge({ scopes: [] })).toBe("Bearer");
    expect(bearerChallenge({})).toBe("Bearer");
  });

  it("escapes quotes and backslashes in quoted values, and keeps a description to the characters RFC 6750 allows", () => {
    expect(bearerChallenge({ resourceMetadata: 'https://rs/a"b\\c' })).toBe('Bearer resource_metadata="https://rs/a\\"b\\\\c"');
    expect(bearerChallenge({ error: "invalid_token", errorDescription: 'bad "token"\r\nSet-Cookie: x\\y é' })).toBe(
      'Bearer error="invalid_token", error_description="bad ?token???Set-Cookie: x?y ?"',
    );
    expect(bearerChallenge({ errorDescription: "x".repeat(300) })).toBe(`Bearer error_description="${"x".repeat(200)}"`);
  });
});

describe("checkedScopes and union", () => {
  it("accepts scope tokens and refuses what is not one, naming it", () => {
    expect(checkedScopes(["files:read", "a!#[]~"], "here")).toEqual(["files:read", "a!#[]~"]);
    for (const bad of ["two words", 'a"b', "a\\b", "", "é", "tab\t"]) {
      expect(() => checkedScopes(["ok", bad], "here")).toThrow(
        expect.objectContaining({
          code: MCP_CODES.INVALID_PARAMS,
          message: expect.stringContaining(`here: ${JSON.stringify(bad)} is not an OAuth scope`),
        }),
      );
    }
  });

  it("unites lists, each scope once, in the order first named", () => {
    expect(union(["a", "b"], ["b", "c"], [], ["a"])).toEqual(["a", "b", "c"]);
  });
});

import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { authFailure } from "./auth-client.test-helpers.js";
import {
  type AuthChallenge,
  MAX_HEADER_CHARS,
  formatChallenge,
  formatWwwAuthenticate,
  parseWwwAuthenticate,
  readBearerChallenge,
} from "./www-authenticate.js";

/** Runs per property: small in `npm test`, `FUZZ_RUNS=<n>` for a longer campaign. */
const runs = (normal: number): number => Number(process.env["FUZZ_RUNS"]) || normal;

describe("parseWwwAuthenticate", () => {
  it("reads the RFC 6750 Bearer challenge MCP servers send", () => {
    const header = 'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read"';
    expect(parseWwwAuthenticate(header)).toEqual([
      {
        scheme: "Bearer",
        params: { resource_metadata: "https://mcp.example.com/.well-known/oauth-protected-resource", scope: "files:read" },
      },
    ]);
  });

  it("splits several challenges in one header although their params use commas too (RFC 9110 §11.6.1's example)", () => {
    const header = 'Basic realm="simple", Newauth realm="apps", type=1, title="Login to \\"apps\\""';
    expect(parseWwwAuthenticate(header)).toEqual([
      { scheme: "Basic", params: { realm: "simple" } },
      { scheme: "Newauth", params: { realm: "apps", type: "1", title: 'Login to "apps"' } },
    ]);
  });

  it("reads token68 challenges, with and without padding, next to param challenges", () => {
    expect(parseWwwAuthenticate('Negotiate YIIx+/9a==, Bearer realm="x", Mutual abc, Empty')).toEqual([
      { scheme: "Negotiate", token68: "YIIx+/9a==", params: {} },
      { scheme: "Bearer", params: { realm: "x" } },
      { scheme: "Mutual", token68: "abc", params: {} },
      { scheme: "Empty", params: {} },
    ]);
  });

  it("keeps the scheme as sent and lower-cases param names", () => {
    expect(parseWwwAuthenticate('bEaReR Scope="a b", ERROR=invalid_token')).toEqual([
      { scheme: "bEaReR", params: { scope: "a b", error: "invalid_token" } },
    ]);
  });

  it("takes token and quoted values, whitespace around '=', and empty list elements", () => {
    expect(parseWwwAuthenticate(' , ,Bearer realm = "x" ,, scope= y ,\terror =z,')).toEqual([
      { scheme: "Bearer", params: { realm: "x", scope: "y", error: "z" } },
    ]);
  });

  it("reads params after an empty first list element, with or without a space before the comma", () => {
    expect(parseWwwAuthenticate('Bearer , realm="x"')).toEqual([{ scheme: "Bearer", params: { realm: "x" } }]);
    expect(parseWwwAuthenticate('Bearer, realm="x", Basic')).toEqual([
      { scheme: "Bearer", params: { realm: "x" } },
      { scheme: "Basic", params: {} },
    ]);
  });

  it("keeps the first value of a param sent twice, so a later copy cannot override it", () => {
    expect(parseWwwAuthenticate('Bearer scope="a", Scope="b"')).toEqual([{ scheme: "Bearer", params: { scope: "a" } }]);
  });

  it("unescapes quoted-pairs and reads an unterminated quoted-string to the end", () => {
    expect(parseWwwAuthenticate('Bearer a="x\\\\y\\"z\\q"')[0]?.params).toEqual({ a: 'x\\y"zq' });
    expect(parseWwwAuthenticate('Bearer a="open, b=c')[0]?.params).toEqual({ a: "open, b=c" });
    expect(parseWwwAuthenticate('Bearer a="ends with \\')[0]?.params).toEqual({ a: "ends with \\" });
  });

  it("gives an empty value for a param with none (right after the scheme, `name=` is a token68)", () => {
    expect(parseWwwAuthenticate("Bearer a=1, error=, scope=")[0]?.params).toEqual({ a: "1", error: "", scope: "" });
    expect(parseWwwAuthenticate("Bearer error=")).toEqual([{ scheme: "Bearer", token68: "error=", params: {} }]);
  });

  it("does not let a param name reach the object prototype", () => {
    const [challenge] = parseWwwAuthenticate('Bearer __proto__="x", constructor="y"');
    expect(challenge?.params["__proto__"]).toBe("x");
    expect(challenge?.params["constructor"]).toBe("y");
    expect(Object.getPrototypeOf(challenge?.params)).toBeNull();
  });

  it.each([
    ["nothing", null, []],
    ["undefined", undefined, []],
    ["an empty header", "", []],
    ["separators only", " , ,\t", []],
    ["punctuation", "@@@, ;;;", []],
    ["a param with no challenge", '=x, realm="y", Bearer a=b', [{ scheme: "Bearer", params: { a: "b" } }]],
    ["a quoted-string where a scheme should be", '"quoted" Bearer, Basic', [{ scheme: "Basic", params: {} }]],
    [
      "a scheme glued to a quote",
      'Bearer"x", Basic',
      [
        { scheme: "Bearer", params: {} },
        { scheme: "Basic", params: {} },
      ],
    ],
    ["a scheme glued to '='", "Bearer=x, Basic", [{ scheme: "Basic", params: {} }]],
    [
      "two bare words",
      "Bearer abc def, Basic",
      [
        { scheme: "Bearer", params: {} },
        { scheme: "Basic", params: {} },
      ],
    ],
    ["a token68 followed by a stray param", 'Basic abc=, realm="x"', [{ scheme: "Basic", token68: "abc=", params: {} }]],
    ["garbage after a value", 'Bearer a="1" junk "q,x", b=2', [{ scheme: "Bearer", params: { a: "1", b: "2" } }]],
    ["a value that is not a token", "Bearer a=@, b=c", [{ scheme: "Bearer", params: { a: "", b: "c" } }]],
    [
      "a bare word among params (it starts a challenge)",
      'Bearer a="1", b, c="3"',
      [
        { scheme: "Bearer", params: { a: "1" } },
        { scheme: "b", params: { c: "3" } },
      ],
    ],
  ])("reads what it can from %s", (_name, header, expected) => {
    expect(parseWwwAuthenticate(header)).toEqual(expected);
  });

  it(`reads at most ${MAX_HEADER_CHARS} characters`, () => {
    const padding = `Bearer a="${"x".repeat(MAX_HEADER_CHARS)}"`;
    const challenges = parseWwwAuthenticate(`${padding}, Basic realm="late"`);
    expect(challenges.map((challenge) => challenge.scheme)).toEqual(["Bearer"]);
    expect(challenges[0]?.params["a"]).toHaveLength(MAX_HEADER_CHARS - 'Bearer a="'.length);
  });

  it("gets through hostile inputs of the full length", () => {
    for (const unit of [",", "=", '"', "\\", "a", "a=", "a ", ', a="', "Bearer a=1,"]) {
      expect(Array.isArray(parseWwwAuthenticate(unit.repeat(MAX_HEADER_CHARS)))).toBe(true);
    }
    // Nine 64 Ki headers: well under a second alone, but mutation testing runs it instrumented beside three other runners.
  }, 30_000);

  it("never throws, and every challenge it gives has a token scheme and lower-case token names", () => {
    const unit = fc.constantFrom("a", "B", " ", "\t", ",", "=", '"', "\\", "/", "+", "~", "é", "\n", "Bearer ", "DPoP ", "x=", '"v"');
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit, maxLength: 60 }), fc.string({ unit: "binary", maxLength: 60 })), (header) => {
        for (const challenge of parseWwwAuthenticate(header)) {
          expect(challenge.scheme).toMatch(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/);
          for (const name of Object.keys(challenge.params)) expect(name).toMatch(/^[!#$%&'*+\-.^_`|~0-9a-z]+$/);
        }
      }),
      { numRuns: runs(1000), seed: 0x5eed_0a01 },
    );
  });

  it("reads back every header formatWwwAuthenticate writes", () => {
    const scheme = fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,12}$/);
    const name = fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9a-z]{1,10}$/);
    const valueCode = fc.oneof(fc.constant(0x09), fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }));
    const value = fc.array(valueCode, { maxLength: 12 }).map((codes) => String.fromCharCode(...codes));
    const params = fc
      .uniqueArray(fc.tuple(name, value), { selector: ([key]) => key, maxLength: 4 })
      .map((entries) => Object.fromEntries(entries));
    const token68 = fc.stringMatching(/^[A-Za-z0-9\-._~+/]{1,16}={0,2}$/);
    const challenge: fc.Arbitrary<AuthChallenge> = fc.oneof(
      fc.record({ scheme, params }),
      fc.record({ scheme, token68 }).map(({ scheme: s, token68: t }) => ({ scheme: s, token68: t, params: {} })),
    );
    fc.assert(
      fc.property(fc.array(challenge, { minLength: 1, maxLength: 4 }), (challenges) => {
        expect(parseWwwAuthenticate(formatWwwAuthenticate(challenges))).toEqual(challenges);
      }),
      { numRuns: runs(1000), seed: 0x5eed_0a02 },
    );
  });
});

describe("formatChallenge", () => {
  it("quotes every value and escapes backslashes and quotes", () => {
    expect(formatChallenge({ scheme: "Bearer", params: { error: "insufficient_scope", error_description: 'say "hi" \\ bye' } })).toBe(
      'Bearer error="insufficient_scope", error_description="say \\"hi\\" \\\\ bye"',
    );
  });

  it("writes a token68 challenge and a bare scheme", () => {
    expect(
      formatWwwAuthenticate([
        { scheme: "Negotiate", token68: "abc==", params: {} },
        { scheme: "Basic", params: {} },
      ]),
    ).toBe("Negotiate abc==, Basic");
  });

  it.each([
    ["a scheme that is not a token", { scheme: "Bear er", params: {} }],
    ["a token68 that is not token68", { scheme: "Basic", token68: "a=b", params: {} }],
    ["a name that is not a token", { scheme: "Bearer", params: { "a b": "x" } }],
    ["a line break in a value", { scheme: "Bearer", params: { error: "x\r\nSet-Cookie: y" } }],
    ["a character above U+00FF", { scheme: "Bearer", params: { error: "\u0100" } }],
  ])("refuses %s", async (_name, challenge) => {
    expect(() => formatChallenge(challenge)).toThrow(authFailure(MCP_CODES.INVALID_PARAMS, "invalid-argument"));
  });
});

describe("readBearerChallenge", () => {
  const header =
    'Bearer resource_metadata="https://a/.well-known/oauth-protected-resource/mcp", scope="mcp:write", ' +
    'error="insufficient_scope", error_description="needs write"';

  it("picks out what the MCP client acts on", () => {
    expect(readBearerChallenge(header)).toEqual({
      scheme: "Bearer",
      resourceMetadata: "https://a/.well-known/oauth-protected-resource/mcp",
      scope: "mcp:write",
      error: "insufficient_scope",
      errorDescription: "needs write",
      params: {
        resource_metadata: "https://a/.well-known/oauth-protected-resource/mcp",
        scope: "mcp:write",
        error: "insufficient_scope",
        error_description: "needs write",
      },
    });
  });

  it("leaves out what the challenge does not say", () => {
    const challenge = readBearerChallenge('Bearer realm="x"');
    expect(challenge).toEqual({ scheme: "Bearer", params: { realm: "x" } });
    expect(challenge && "scope" in challenge).toBe(false);
  });

  it("reads a DPoP challenge when there is no Bearer one, and prefers Bearer when both are there", () => {
    expect(readBearerChallenge('DPoP algs="ES256", error="use_dpop_nonce"')?.error).toBe("use_dpop_nonce");
    expect(readBearerChallenge('DPoP error="use_dpop_nonce", bearer scope="s"')?.scheme).toBe("bearer");
    expect(readBearerChallenge('DPoP error="use_dpop_nonce", Bearer scope="s"', ["DPoP", "Bearer"])?.scheme).toBe("DPoP");
  });

  it("takes challenges parsed already", () => {
    expect(readBearerChallenge(parseWwwAuthenticate(header))?.scope).toBe("mcp:write");
  });

  it("gives undefined without a Bearer or DPoP challenge", () => {
    expect(readBearerChallenge('Basic realm="x"')).toBeUndefined();
    expect(readBearerChallenge(null)).toBeUndefined();
    expect(readBearerChallenge(undefined)).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { authFailure, expectAuthFailure } from "./auth-client.test-helpers.js";
import { type CallbackExpectation, buildAuthorizationUrl, verifyAuthorizationCallback } from "./authorization-request.js";

const AS = "http://localhost:3002";
const REDIRECT = "http://localhost:8765/callback";
const STATE = "st-0123456789abcdefghijklmnopqrstuvwxyzABCDE";

const request = {
  authorizationEndpoint: `${AS}/authorize`,
  clientId: "test-client-id",
  redirectUri: REDIRECT,
  codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
  state: STATE,
  resource: "http://localhost:3001/mcp",
  scope: "mcp:basic offline_access",
};

/** The redirect the conformance AS answers /authorize with (createAuthServer.ts), built the same way. */
function redirect(params: Record<string, string>): string {
  const url = new URL(REDIRECT);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

describe("buildAuthorizationUrl", () => {
  it("sends every parameter of the authorization code flow with PKCE S256 and the resource", () => {
    const url = new URL(buildAuthorizationUrl(request));
    expect(`${url.origin}${url.pathname}`).toBe(`${AS}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: "code",
      client_id: "test-client-id",
      redirect_uri: REDIRECT,
      code_challenge: request.codeChallenge,
      code_challenge_method: "S256",
      state: STATE,
      scope: "mcp:basic offline_access",
      resource: "http://localhost:3001/mcp",
    });
  });

  it("puts a pathless resource in exactly as published, with no slash added (resource-parameter-matches-prm)", () => {
    const url = buildAuthorizationUrl({ ...request, resource: "http://localhost:3001" });
    expect(url).toContain("&resource=http%3A%2F%2Flocalhost%3A3001");
    expect(url.endsWith("resource=http%3A%2F%2Flocalhost%3A3001")).toBe(true);
    expect(new URL(url).searchParams.get("resource")).toBe("http://localhost:3001");
  });

  it("omits an undefined or empty scope", () => {
    expect(new URL(buildAuthorizationUrl({ ...request, scope: undefined })).searchParams.get("scope")).toBeNull();
    expect(new URL(buildAuthorizationUrl({ ...request, scope: "" })).searchParams.get("scope")).toBeNull();
  });

  it("keeps the endpoint's own query parameters", () => {
    const url = new URL(
      buildAuthorizationUrl({ ...request, authorizationEndpoint: "https://as.example.com/oauth2/v1/authorize?tenant=7" }),
    );
    expect(url.searchParams.get("tenant")).toBe("7");
    expect(url.searchParams.get("client_id")).toBe("test-client-id");
  });

  it("refuses an insecure endpoint or redirect URI", async () => {
    expect(() => buildAuthorizationUrl({ ...request, authorizationEndpoint: "http://as.example.com/authorize" })).toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "insecure-url"),
    );
    expect(() => buildAuthorizationUrl({ ...request, redirectUri: "http://app.example.com/callback" })).toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "insecure-url"),
    );
    expect(() => buildAuthorizationUrl({ ...request, redirectUri: "https://app.example.com/callback#x" })).toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "invalid-url"),
    );
  });
});

describe("verifyAuthorizationCallback: RFC 9207 iss, the conformance scenarios", () => {
  const advertised: CallbackExpectation = { state: STATE, issuer: AS, issParameterSupported: true };
  const unadvertised: CallbackExpectation = { ...advertised, issParameterSupported: false };

  it("auth/iss-supported: advertised and the right iss, proceed", () => {
    expect(verifyAuthorizationCallback(redirect({ code: "test-auth-code", state: STATE, iss: AS }), advertised)).toEqual({
      code: "test-auth-code",
      iss: AS,
    });
  });

  it("auth/iss-not-advertised: not advertised and absent, proceed", () => {
    expect(verifyAuthorizationCallback(redirect({ code: "test-auth-code", state: STATE }), unadvertised)).toEqual({
      code: "test-auth-code",
    });
  });

  it("auth/iss-supported-missing: advertised and absent, reject", async () => {
    const error = await expectAuthFailure(
      () => verifyAuthorizationCallback(redirect({ code: "test-auth-code", state: STATE }), advertised),
      MCP_CODES.UNAUTHORIZED,
      "iss-missing",
    );
    expect(error.message).toBe(
      `The authorization server ${AS} advertises the iss parameter (RFC 9207) but its response has none: it is not used`,
    );
  });

  it("auth/iss-wrong-issuer: advertised and another issuer, reject", async () => {
    const error = await expectAuthFailure(
      () => verifyAuthorizationCallback(redirect({ code: "test-auth-code", state: STATE, iss: "https://evil.example.com" }), advertised),
      MCP_CODES.UNAUTHORIZED,
      "iss-mismatch",
    );
    expect(error.message).toBe(
      `The authorization response comes from issuer https://evil.example.com, not ${AS} ` +
        "(RFC 9207, compared as plain strings): it is not used",
    );
  });

  it("auth/iss-unexpected: not advertised, but present and another issuer, reject", async () => {
    expect(() =>
      verifyAuthorizationCallback(redirect({ code: "test-auth-code", state: STATE, iss: "https://evil.example.com" }), unadvertised),
    ).toThrow(authFailure(MCP_CODES.UNAUTHORIZED, "iss-mismatch"));
  });

  it("not advertised, but present and right, proceed", () => {
    expect(verifyAuthorizationCallback(redirect({ code: "c", state: STATE, iss: AS }), unadvertised)).toEqual({ code: "c", iss: AS });
  });

  it("auth/iss-normalized: the issuer with a trailing slash is another issuer, reject", async () => {
    expect(() => verifyAuthorizationCallback(redirect({ code: "test-auth-code", state: STATE, iss: `${AS}/` }), advertised)).toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "iss-mismatch"),
    );
  });

  it.each([
    ["an upper-case scheme and host", "HTTPS://AS.EXAMPLE.COM/t1"],
    ["a default port", "https://as.example.com:443/t1"],
    ["percent-encoding", "https://as.example.com/%741"],
    ["a trailing slash", "https://as.example.com/t1/"],
  ])("applies no normalisation: %s is a mismatch", async (_name, iss) => {
    const expected = { state: STATE, issuer: "https://as.example.com/t1", issParameterSupported: true };
    expect(() => verifyAuthorizationCallback(redirect({ code: "c", state: STATE, iss }), expected)).toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "iss-mismatch"),
    );
  });
});

describe("verifyAuthorizationCallback", () => {
  const expected: CallbackExpectation = { state: STATE, issuer: AS, issParameterSupported: true };

  it("reports a refusal once state and iss are right", async () => {
    const error = await expectAuthFailure(
      () =>
        verifyAuthorizationCallback(
          redirect({ error: "access_denied", error_description: "The user said no", state: STATE, iss: AS }),
          expected,
        ),
      MCP_CODES.UNAUTHORIZED,
      "authorization-denied",
    );
    expect(error.message).toBe(`The authorization server ${AS} refused: access_denied: The user said no`);
    expect(error.data).toEqual({ reason: "authorization-denied", error: "access_denied" });
    const bare = await expectAuthFailure(
      () => verifyAuthorizationCallback(redirect({ error: "server_error", state: STATE, iss: AS }), expected),
      MCP_CODES.UNAUTHORIZED,
      "authorization-denied",
    );
    expect(bare.message).toBe(`The authorization server ${AS} refused: server_error`);
  });

  it("neither acts on nor shows an error whose iss does not match", async () => {
    const error = await expectAuthFailure(
      () =>
        verifyAuthorizationCallback(
          redirect({ error: "access_denied", error_description: "Call 555-PHISH", state: STATE, iss: "https://evil.example.com" }),
          expected,
        ),
      MCP_CODES.UNAUTHORIZED,
      "iss-mismatch",
    );
    expect(error.message).not.toContain("555-PHISH");
    expect(error.message).not.toContain("access_denied");
  });

  it.each([
    ["another state", { code: "c", state: "forged", iss: AS }],
    ["no state", { code: "c", iss: AS }],
    ["another state and an error", { error: "access_denied", error_description: "Call 555-PHISH", state: "forged", iss: AS }],
  ])("refuses %s, showing nothing of the response", async (_name, params) => {
    const error = await expectAuthFailure(
      () => verifyAuthorizationCallback(redirect(params), expected),
      MCP_CODES.UNAUTHORIZED,
      "state-mismatch",
    );
    expect(error.message).toBe("The authorization response's state is missing or not the one this flow sent: it is not used");
  });

  it.each(["code", "state", "iss", "error"])("refuses %s sent twice", async (name) => {
    const url = new URL(redirect({ code: "c", state: STATE, iss: AS, error: "x" }));
    url.searchParams.append(name, "again");
    const error = await expectAuthFailure(() => verifyAuthorizationCallback(url, expected), MCP_CODES.UNAUTHORIZED, "callback-invalid");
    expect(error.message).toBe(`The authorization response has ${name} more than once: it is not used`);
  });

  it("refuses a response without a code", async () => {
    expect(() => verifyAuthorizationCallback(redirect({ state: STATE, iss: AS }), expected)).toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "callback-invalid"),
    );
    expect(() => verifyAuthorizationCallback(redirect({ code: "", state: STATE, iss: AS }), expected)).toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "callback-invalid"),
    );
  });

  it("reads a callback given as a path and query, or as a URL", () => {
    expect(verifyAuthorizationCallback(`/callback?code=abc&state=${STATE}&iss=${encodeURIComponent(AS)}`, expected).code).toBe("abc");
    expect(verifyAuthorizationCallback(new URL(redirect({ code: "abc", state: STATE, iss: AS })), expected).code).toBe("abc");
  });

  it("decodes form-encoded values before comparing", () => {
    const issuer = "https://as.example.com/tenant one";
    const url = `${REDIRECT}?code=a%2Bb&state=${STATE}&iss=https%3A%2F%2Fas.example.com%2Ftenant+one`;
    expect(verifyAuthorizationCallback(url, { ...expected, issuer }).code).toBe("a+b");
  });

  it("refuses what is not a URL", async () => {
    expect(() => verifyAuthorizationCallback("http://[", expected)).toThrow(authFailure(MCP_CODES.UNAUTHORIZED, "callback-invalid"));
  });
});

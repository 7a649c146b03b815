import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { FakeFetch, authFailure, asMetadata, expectAuthFailure } from "./auth-client.test-helpers.js";
import {
  advertisesIssParameter,
  authorizationServerCandidates,
  discoverAuthorizationServer,
  discoverLegacyAuthorizationServer,
  validateAuthorizationServerMetadata,
} from "./authorization-server.js";

const AS = "http://localhost:3002";
const TENANT = `${AS}/tenant1`;
const OAUTH_ROOT = `${AS}/.well-known/oauth-authorization-server`;
const OPENID_ROOT = `${AS}/.well-known/openid-configuration`;
const OAUTH_INSERTED = `${AS}/.well-known/oauth-authorization-server/tenant1`;
const OPENID_INSERTED = `${AS}/.well-known/openid-configuration/tenant1`;
const OPENID_APPENDED = `${AS}/tenant1/.well-known/openid-configuration`;

function urls(issuer: string): string[][] {
  return authorizationServerCandidates(new URL(issuer)).map(({ url, source }) => [url.href, source]);
}

describe("authorizationServerCandidates", () => {
  it("tries RFC 8414 insertion, OIDC insertion, then OIDC appending for an issuer with a path", () => {
    expect(urls("https://auth.example.com/tenant1")).toEqual([
      ["https://auth.example.com/.well-known/oauth-authorization-server/tenant1", "oauth"],
      ["https://auth.example.com/.well-known/openid-configuration/tenant1", "openid"],
      ["https://auth.example.com/tenant1/.well-known/openid-configuration", "openid"],
    ]);
  });

  it("drops a trailing slash of the path first", () => {
    expect(urls("https://auth.example.com/a/b/")).toEqual([
      ["https://auth.example.com/.well-known/oauth-authorization-server/a/b", "oauth"],
      ["https://auth.example.com/.well-known/openid-configuration/a/b", "openid"],
      ["https://auth.example.com/a/b/.well-known/openid-configuration", "openid"],
    ]);
  });

  it("tries the two root documents for an issuer without a path", () => {
    const expected = [
      ["https://auth.example.com/.well-known/oauth-authorization-server", "oauth"],
      ["https://auth.example.com/.well-known/openid-configuration", "openid"],
    ];
    expect(urls("https://auth.example.com")).toEqual(expected);
    expect(urls("https://auth.example.com/")).toEqual(expected);
  });
});

describe("discoverAuthorizationServer: the conformance scenarios", () => {
  it("auth/metadata-default: the RFC 8414 document at the root of a pathless issuer", async () => {
    const server = new FakeFetch().json(OAUTH_ROOT, asMetadata(AS));
    expect(await discoverAuthorizationServer(AS, { fetch: server.fetch })).toEqual({
      metadata: asMetadata(AS),
      url: OAUTH_ROOT,
      source: "oauth",
    });
    expect(server.urls).toEqual([OAUTH_ROOT]);
  });

  it("auth/metadata-var1: the OpenID configuration at the root after a 404", async () => {
    const document = asMetadata(AS, AS, { jwks_uri: `${AS}/.well-known/jwks.json`, subject_types_supported: ["public"] });
    const server = new FakeFetch().json(OPENID_ROOT, document);
    expect(await discoverAuthorizationServer(AS, { fetch: server.fetch })).toEqual({
      metadata: document,
      url: OPENID_ROOT,
      source: "openid",
    });
    expect(server.urls).toEqual([OAUTH_ROOT, OPENID_ROOT]);
  });

  it("auth/metadata-var2: the path-inserted RFC 8414 document of /tenant1, never the root one", async () => {
    const server = new FakeFetch().json(OAUTH_INSERTED, asMetadata(TENANT, TENANT)).json(OAUTH_ROOT, { error: "trap" }, 404);
    expect((await discoverAuthorizationServer(TENANT, { fetch: server.fetch })).url).toBe(OAUTH_INSERTED);
    expect(server.urls).toEqual([OAUTH_INSERTED]);
  });

  it("auth/metadata-var3: the path-appended OpenID configuration after both insertions 404", async () => {
    const server = new FakeFetch().json(OPENID_APPENDED, asMetadata(TENANT, TENANT)).json(OAUTH_ROOT, { error: "trap" }, 404);
    const found = await discoverAuthorizationServer(TENANT, { fetch: server.fetch });
    expect(found).toEqual({ metadata: asMetadata(TENANT, TENANT), url: OPENID_APPENDED, source: "openid" });
    expect(server.urls).toEqual([OAUTH_INSERTED, OPENID_INSERTED, OPENID_APPENDED]);
  });

  it("auth/metadata-issuer-mismatch: fetches the metadata, then uses none of its endpoints", async () => {
    const server = new FakeFetch().json(OAUTH_ROOT, asMetadata("https://attacker.example.com", `${AS}/mismatched-as`));
    const error = await expectAuthFailure(
      discoverAuthorizationServer(AS, { fetch: server.fetch }),
      MCP_CODES.UNAUTHORIZED,
      "issuer-mismatch",
    );
    expect(error.message).toBe(
      `The authorization server metadata at ${OAUTH_ROOT} names https://attacker.example.com, ` +
        `not the issuer ${AS} it was fetched for: it is not used`,
    );
    expect(server.urls).toEqual([OAUTH_ROOT]);
  });

  it("compares the issuer as a plain string: a trailing slash is a different issuer", async () => {
    const server = new FakeFetch().json(OAUTH_ROOT, asMetadata(`${AS}/`, AS));
    await expect(discoverAuthorizationServer(AS, { fetch: server.fetch })).rejects.toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "issuer-mismatch"),
    );
    const slashed = new FakeFetch().json(OAUTH_ROOT, asMetadata(AS));
    await expect(discoverAuthorizationServer(`${AS}/`, { fetch: slashed.fetch })).rejects.toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "issuer-mismatch"),
    );
  });
});

describe("discoverAuthorizationServer", () => {
  it("falls through CORS refusals and pages that are not JSON", async () => {
    const server = new FakeFetch()
      .on(OAUTH_INSERTED, () => Promise.reject(new TypeError("Failed to fetch")))
      .on(OPENID_INSERTED, () => new Response("<html>"))
      .json(OPENID_APPENDED, asMetadata(TENANT, TENANT));
    expect((await discoverAuthorizationServer(TENANT, { fetch: server.fetch })).url).toBe(OPENID_APPENDED);
  });

  it("says what each URL gave when none has a document", async () => {
    const server = new FakeFetch().on(OPENID_ROOT, () => new Response("gone", { status: 410 }));
    const error = await expectAuthFailure(
      discoverAuthorizationServer(AS, { fetch: server.fetch }),
      MCP_CODES.UNAUTHORIZED,
      "authorization-server-metadata-not-found",
    );
    expect(error.message).toBe(`No authorization server metadata was found for ${AS}/: ${OAUTH_ROOT}: HTTP 404; ${OPENID_ROOT}: HTTP 410`);
  });

  it("stops at a 5xx", async () => {
    const server = new FakeFetch()
      .on(OAUTH_INSERTED, () => new Response(null, { status: 500 }))
      .json(OPENID_INSERTED, asMetadata(TENANT, TENANT));
    await expect(discoverAuthorizationServer(TENANT, { fetch: server.fetch })).rejects.toThrow(
      authFailure(MCP_CODES.TRANSPORT_ERROR, "metadata-unavailable"),
    );
    expect(server.urls).toEqual([OAUTH_INSERTED]);
  });

  it.each([
    ["not https", "http://auth.example.com", "insecure-url"],
    ["not a URL", "auth.example.com", "invalid-url"],
    ["with a query", "https://auth.example.com/t?x=1", "invalid-url"],
    ["with an empty query", "https://auth.example.com/t?", "invalid-url"],
    ["with a fragment", "https://auth.example.com/t#x", "invalid-url"],
  ] as const)("refuses an issuer %s without fetching", async (_name, issuer, reason) => {
    const server = new FakeFetch();
    await expect(discoverAuthorizationServer(issuer, { fetch: server.fetch })).rejects.toThrow(authFailure(MCP_CODES.UNAUTHORIZED, reason));
    expect(server.urls).toEqual([]);
  });
});

describe("validateAuthorizationServerMetadata", () => {
  const from = new URL(OAUTH_ROOT);
  const validate = (extra: Record<string, unknown>, options?: { requirePkce?: boolean }) => () =>
    validateAuthorizationServerMetadata({ ...asMetadata(AS), ...extra }, AS, from, options);

  it("gives the document when it is right", () => {
    expect(validate({})()).toEqual(asMetadata(AS));
  });

  it("checks the issuer before anything else", async () => {
    const error = await expectAuthFailure(validate({ issuer: undefined, token_endpoint: 1 }), MCP_CODES.UNAUTHORIZED, "issuer-mismatch");
    expect(error.message).toContain("names no issuer");
  });

  it.each([
    ["no token_endpoint", { token_endpoint: undefined }, "token_endpoint is missing or not a string"],
    ["a token_endpoint that is not a string", { token_endpoint: ["x"] }, "token_endpoint is missing or not a string"],
    ["an authorization_endpoint that is not a string", { authorization_endpoint: 1 }, "authorization_endpoint is not a string"],
    ["a scopes_supported string", { scopes_supported: "a b" }, "scopes_supported is not an array of strings"],
    [
      "a bad code_challenge_methods_supported",
      { code_challenge_methods_supported: [256] },
      "code_challenge_methods_supported is not an array of strings",
    ],
    [
      "a string iss flag",
      { authorization_response_iss_parameter_supported: "true" },
      "authorization_response_iss_parameter_supported is not a boolean",
    ],
    ["a string CIMD flag", { client_id_metadata_document_supported: 1 }, "client_id_metadata_document_supported is not a boolean"],
  ])("refuses %s", async (_name, extra, what) => {
    const error = await expectAuthFailure(validate(extra), MCP_CODES.UNAUTHORIZED, "authorization-server-metadata-invalid");
    expect(error.message).toBe(`The authorization server metadata at ${OAUTH_ROOT} is invalid: ${what}`);
  });

  it.each(["authorization_endpoint", "token_endpoint", "registration_endpoint"])("refuses an insecure %s", async (member) => {
    const error = await expectAuthFailure(validate({ [member]: "http://as.example.com/x" }), MCP_CODES.UNAUTHORIZED, "insecure-url");
    expect(error.message).toContain(member);
  });

  it("takes metadata without the optional endpoints", () => {
    expect(validate({ authorization_endpoint: undefined, registration_endpoint: undefined })().token_endpoint).toBe(`${AS}/token`);
  });

  it.each([
    ["absent", undefined],
    ["plain only", ["plain"]],
    ["empty", []],
  ])("refuses to continue when code_challenge_methods_supported is %s", async (_name, methods) => {
    const error = await expectAuthFailure(
      validate({ code_challenge_methods_supported: methods }),
      MCP_CODES.UNAUTHORIZED,
      "pkce-unsupported",
    );
    expect(error.message).toBe(
      `The authorization server ${AS} does not list S256 in code_challenge_methods_supported: ` +
        "PKCE cannot be verified, so authorization stops here",
    );
  });

  it("lets a grant without an authorization request skip the PKCE check", () => {
    expect(validate({ code_challenge_methods_supported: undefined }, { requirePkce: false })().issuer).toBe(AS);
  });
});

describe("discoverLegacyAuthorizationServer (2025-03-26)", () => {
  const SERVER = "http://localhost:3001/mcp";
  const ORIGIN = "http://localhost:3001";
  const LEGACY = `${ORIGIN}/.well-known/oauth-authorization-server`;

  it("auth/2025-03-26-oauth-metadata-backcompat: the metadata at the MCP server's origin, its issuer the bare origin", async () => {
    const document = asMetadata(ORIGIN, `${ORIGIN}/oauth`);
    const server = new FakeFetch().json(LEGACY, document);
    expect(await discoverLegacyAuthorizationServer(SERVER, { fetch: server.fetch, protocolVersion: "2025-03-26" })).toEqual({
      metadata: document,
      url: LEGACY,
      source: "oauth",
    });
    expect(server.requests[0]?.init.headers).toEqual({ accept: "application/json", "mcp-protocol-version": "2025-03-26" });
  });

  it("auth/2025-03-26-oauth-endpoint-fallback: /authorize, /token and /register at the origin when there is no metadata", async () => {
    const server = new FakeFetch();
    expect(await discoverLegacyAuthorizationServer(`${ORIGIN}/v1/mcp`, { fetch: server.fetch })).toEqual({
      metadata: {
        issuer: ORIGIN,
        authorization_endpoint: `${ORIGIN}/authorize`,
        token_endpoint: `${ORIGIN}/token`,
        registration_endpoint: `${ORIGIN}/register`,
      },
      source: "defaults",
    });
    expect(server.urls).toEqual([LEGACY]);
  });

  it("takes the issuer the found document names (0.1.16's mock names <origin>/oauth) and validates the rest as usual", async () => {
    const named = asMetadata(`${ORIGIN}/oauth`);
    const server = new FakeFetch().json(LEGACY, named);
    expect(await discoverLegacyAuthorizationServer(SERVER, { fetch: server.fetch })).toEqual({
      metadata: named,
      url: LEGACY,
      source: "oauth",
    });
    const insecure = new FakeFetch().json(LEGACY, asMetadata("http://as.example.com"));
    await expect(discoverLegacyAuthorizationServer(SERVER, { fetch: insecure.fetch })).rejects.toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "insecure-url"),
    );
    const { issuer: _dropped, ...nameless } = asMetadata(ORIGIN);
    const anonymous = new FakeFetch().json(LEGACY, nameless);
    await expect(discoverLegacyAuthorizationServer(SERVER, { fetch: anonymous.fetch })).rejects.toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "issuer-mismatch"),
    );
  });

  it("stops at a 5xx rather than guessing endpoints", async () => {
    const server = new FakeFetch().on(LEGACY, () => new Response(null, { status: 502 }));
    await expect(discoverLegacyAuthorizationServer(SERVER, { fetch: server.fetch })).rejects.toThrow(
      authFailure(MCP_CODES.TRANSPORT_ERROR, "metadata-unavailable"),
    );
  });

  it("refuses an insecure MCP server URL", async () => {
    await expect(discoverLegacyAuthorizationServer("http://mcp.example.com/mcp", { fetch: new FakeFetch().fetch })).rejects.toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "insecure-url"),
    );
  });
});

describe("advertisesIssParameter", () => {
  it("is true only for a literal true", () => {
    expect(advertisesIssParameter({ authorization_response_iss_parameter_supported: true })).toBe(true);
    expect(advertisesIssParameter({ authorization_response_iss_parameter_supported: false })).toBe(false);
    expect(advertisesIssParameter({})).toBe(false);
  });
});

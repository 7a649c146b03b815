// The conformance suite's client auth scenarios (src/scenarios/client/auth/ of
// modelcontextprotocol/conformance), each run through the building blocks in the order a client
// would call them, against a fetch double that serves what the scenario's mock servers serve.
// The mocks' /authorize answers at once with a redirect; `authorize` below does the same.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { FakeFetch, authFailure, asMetadata, prm } from "./auth-client.test-helpers.js";
import { buildAuthorizationUrl, verifyAuthorizationCallback } from "./authorization-request.js";
import {
  type AuthorizationServerDiscovery,
  advertisesIssParameter,
  discoverAuthorizationServer,
  discoverLegacyAuthorizationServer,
} from "./authorization-server.js";
import { createPkce, createState } from "./pkce.js";
import { canonicalResourceUri, discoverProtectedResource } from "./protected-resource.js";
import { selectScope } from "./scopes.js";
import { readBearerChallenge } from "./www-authenticate.js";

const RS = "http://localhost:3001";
const AS = "http://localhost:3002";
const SERVER = `${RS}/mcp`;
const REDIRECT = "http://localhost:8765/callback";

interface Scenario {
  prmPath?: string;
  inWwwAuth?: boolean;
  wwwAuthScope?: string;
  prmResource?: string;
  prmScopes?: string[];
  asPrefix?: string;
  asMetadataPath?: string;
  asExtra?: Record<string, unknown>;
  iss?: "correct" | "wrong" | "omit" | "normalized";
}

/** The scenario's servers: protected resource metadata, authorization server metadata, and the 401 challenge. */
function mock(scenario: Scenario): { server: FakeFetch; challenge: string; issuer: string } {
  const prmPath = scenario.prmPath ?? "/.well-known/oauth-protected-resource/mcp";
  const issuer = `${AS}${scenario.asPrefix ?? ""}`;
  const resource = scenario.prmResource ?? (prmPath === "/.well-known/oauth-protected-resource" ? RS : SERVER);
  const server = new FakeFetch()
    .json(`${RS}${prmPath}`, prm(resource, issuer, scenario.prmScopes === undefined ? {} : { scopes_supported: scenario.prmScopes }))
    .json(`${AS}${scenario.asMetadataPath ?? "/.well-known/oauth-authorization-server"}`, asMetadata(issuer, issuer, scenario.asExtra));
  const params = [
    ...(scenario.wwwAuthScope === undefined ? [] : [`scope="${scenario.wwwAuthScope}"`]),
    ...(scenario.inWwwAuth === false ? [] : [`resource_metadata="${RS}${prmPath}"`]),
  ];
  return { server, challenge: `Bearer ${params.join(", ")}`, issuer };
}

/** The mock's /authorize: a redirect to redirect_uri with the code, the state and (as configured) iss. */
function authorize(authorizationUrl: string, issuer: string, iss: Scenario["iss"] = "correct"): string {
  const query = new URL(authorizationUrl).searchParams;
  const location = new URL(query.get("redirect_uri") as string);
  location.searchParams.set("code", "test-auth-code");
  location.searchParams.set("state", query.get("state") as string);
  const sent = { correct: issuer, wrong: "https://evil.example.com", normalized: `${issuer}/`, omit: undefined }[iss];
  if (sent !== undefined) location.searchParams.set("iss", sent);
  return location.toString();
}

/** What a client does from the 401 to the code: every building block, in order. */
async function run(scenario: Scenario) {
  const { server, challenge, issuer } = mock(scenario);
  const bearer = readBearerChallenge(challenge);
  const resource = await discoverProtectedResource(SERVER, { fetch: server.fetch, resourceMetadataUrl: bearer?.resourceMetadata });
  const authorizationServer = await discoverAuthorizationServer(resource.metadata.authorization_servers[0] as string, {
    fetch: server.fetch,
  });
  return finish(
    server,
    authorizationServer,
    resource.metadata.resource,
    selectScope({
      challengeScope: bearer?.scope,
      resourceMetadata: resource.metadata,
      authorizationServerMetadata: authorizationServer.metadata,
    }),
    issuer,
    scenario.iss,
  );
}

async function finish(
  server: FakeFetch,
  found: AuthorizationServerDiscovery,
  resource: string,
  scope: string | undefined,
  issuer: string,
  iss?: Scenario["iss"],
) {
  const pkce = await createPkce();
  const state = createState();
  const authorizationEndpoint = found.metadata.authorization_endpoint as string;
  const authorizationUrl = buildAuthorizationUrl({
    authorizationEndpoint,
    clientId: "test-client-id",
    redirectUri: REDIRECT,
    codeChallenge: pkce.challenge,
    state,
    resource,
    scope,
  });
  const query = new URL(authorizationUrl).searchParams;
  // The mock's pkce-verifier-matches-challenge check.
  expect(createHash("sha256").update(pkce.verifier).digest("base64url")).toBe(query.get("code_challenge"));
  const expected = { state, issuer: found.metadata.issuer, issParameterSupported: advertisesIssParameter(found.metadata) };
  const callback = () => verifyAuthorizationCallback(authorize(authorizationUrl, issuer, iss), expected);
  return { fetched: server.urls, query, callback };
}

describe("conformance client auth scenarios", () => {
  it("auth/metadata-default", async () => {
    const { fetched, query, callback } = await run({});
    expect(fetched).toEqual([`${RS}/.well-known/oauth-protected-resource/mcp`, `${AS}/.well-known/oauth-authorization-server`]);
    expect(query.get("resource")).toBe(SERVER);
    expect(query.get("code_challenge_method")).toBe("S256");
    expect(callback().code).toBe("test-auth-code");
  });

  it("auth/metadata-var1", async () => {
    const { fetched } = await run({ inWwwAuth: false, asMetadataPath: "/.well-known/openid-configuration" });
    expect(fetched).toEqual([
      `${RS}/.well-known/oauth-protected-resource/mcp`,
      `${AS}/.well-known/oauth-authorization-server`,
      `${AS}/.well-known/openid-configuration`,
    ]);
  });

  it("auth/metadata-var2: the resource is the pathless origin, sent exactly so", async () => {
    const { fetched, query, callback } = await run({
      prmPath: "/.well-known/oauth-protected-resource",
      inWwwAuth: false,
      asPrefix: "/tenant1",
      asMetadataPath: "/.well-known/oauth-authorization-server/tenant1",
    });
    expect(fetched).toEqual([
      `${RS}/.well-known/oauth-protected-resource/mcp`,
      `${RS}/.well-known/oauth-protected-resource`,
      `${AS}/.well-known/oauth-authorization-server/tenant1`,
    ]);
    expect(query.get("resource")).toBe(RS);
    expect(callback().code).toBe("test-auth-code");
  });

  it("auth/metadata-var3", async () => {
    const { fetched } = await run({
      prmPath: "/custom/metadata/location.json",
      asPrefix: "/tenant1",
      asMetadataPath: "/tenant1/.well-known/openid-configuration",
    });
    expect(fetched).toEqual([
      `${RS}/custom/metadata/location.json`,
      `${AS}/.well-known/oauth-authorization-server/tenant1`,
      `${AS}/.well-known/openid-configuration/tenant1`,
      `${AS}/tenant1/.well-known/openid-configuration`,
    ]);
  });

  it("auth/scope-from-www-authenticate", async () => {
    expect((await run({ wwwAuthScope: "mcp:basic", prmScopes: ["mcp:other"] })).query.get("scope")).toBe("mcp:basic");
  });

  it("auth/scope-from-scopes-supported", async () => {
    expect((await run({ prmScopes: ["mcp:basic", "mcp:read", "mcp:write"] })).query.get("scope")).toBe("mcp:basic mcp:read mcp:write");
  });

  it("auth/scope-omitted-when-undefined", async () => {
    expect((await run({})).query.has("scope")).toBe(false);
  });

  it("auth/offline-access-scope", async () => {
    expect(
      (await run({ prmScopes: ["mcp:basic"], asExtra: { scopes_supported: ["mcp:basic", "offline_access"] } })).query.get("scope"),
    ).toBe("mcp:basic offline_access");
  });

  it("auth/offline-access-not-supported", async () => {
    expect(
      (await run({ prmScopes: ["mcp:basic", "mcp:read"], asExtra: { scopes_supported: ["mcp:basic", "mcp:read"] } })).query.get("scope"),
    ).toBe("mcp:basic mcp:read");
  });

  it("auth/resource-mismatch: the metadata is fetched, /authorize never reached", async () => {
    const { server } = mock({ prmResource: "https://evil.example.com/mcp" });
    await expect(run({ prmResource: "https://evil.example.com/mcp" })).rejects.toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "resource-mismatch"),
    );
    await expect(discoverProtectedResource(SERVER, { fetch: server.fetch })).rejects.toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "resource-mismatch"),
    );
    expect(server.urls).toEqual([`${RS}/.well-known/oauth-protected-resource/mcp`]);
  });

  it("auth/metadata-issuer-mismatch: the metadata is fetched, none of its endpoints used", async () => {
    await expect(run({ asExtra: { issuer: "https://attacker.example.com" } })).rejects.toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "issuer-mismatch"),
    );
  });

  it("auth/iss-supported", async () => {
    expect((await run({ iss: "correct" })).callback()).toEqual({ code: "test-auth-code", iss: AS });
  });

  it("auth/iss-not-advertised", async () => {
    expect((await run({ iss: "omit", asExtra: { authorization_response_iss_parameter_supported: undefined } })).callback()).toEqual({
      code: "test-auth-code",
    });
  });

  it.each([
    ["auth/iss-supported-missing", { iss: "omit" }, "iss-missing"],
    ["auth/iss-wrong-issuer", { iss: "wrong" }, "iss-mismatch"],
    ["auth/iss-unexpected", { iss: "wrong", asExtra: { authorization_response_iss_parameter_supported: undefined } }, "iss-mismatch"],
    ["auth/iss-normalized", { iss: "normalized" }, "iss-mismatch"],
  ] as const)("%s: /authorize is reached, the code is not used", async (_name, scenario, reason) => {
    const { query, callback } = await run(scenario);
    expect(query.get("state")).not.toBeNull();
    expect(callback).toThrow(authFailure(MCP_CODES.UNAUTHORIZED, reason));
  });

  it("auth/2025-03-26-oauth-metadata-backcompat", async () => {
    const server = new FakeFetch().json(
      `${RS}/.well-known/oauth-authorization-server`,
      asMetadata(RS, `${RS}/oauth`, { authorization_response_iss_parameter_supported: undefined }),
    );
    const found = await discoverLegacyAuthorizationServer(SERVER, { fetch: server.fetch, protocolVersion: "2025-03-26" });
    const { query, callback } = await finish(server, found, canonicalResourceUri(SERVER), undefined, RS, "omit");
    expect(new URL(found.metadata.authorization_endpoint as string).pathname).toBe("/oauth/authorize");
    expect(query.get("resource")).toBe(SERVER);
    expect(callback().code).toBe("test-auth-code");
  });

  it("auth/2025-03-26-oauth-endpoint-fallback", async () => {
    const server = new FakeFetch();
    const found = await discoverLegacyAuthorizationServer(SERVER, { fetch: server.fetch });
    expect(found.source).toBe("defaults");
    const { callback } = await finish(server, found, canonicalResourceUri(SERVER), undefined, RS, "omit");
    expect(callback().code).toBe("test-auth-code");
  });
});

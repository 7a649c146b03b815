// MCP authorization across the official SDKs, every flow against the same real authorization
// server: oidc-provider 9 in this process (support/oidc-provider.ts: issuer with a path, headless
// login, PKCE required, DCR, ES256 JWT access tokens whose audience is the resource). Each flow is the
// whole one — 401 with the resource's challenge → RFC 9728 discovery → RFC 8414 / OIDC discovery →
// DCR → authorization code with PKCE (S256) and a resource indicator → token → the protected call —
// and each call proves it by the caller the server verified (sub ALICE, aud the endpoint):
// 1. our MCPClient (era "auto") + our Authorizer → an SDK 1.x server (requireBearerAuth,
//    mcpAuthMetadataRouter, a jose verifier);
// 2. the same → an SDK 2.x server (createMcpHandler behind @modelcontextprotocol/express's
//    requireBearerAuth and mcpAuthMetadataRouter), with step-up through its per-tool scope challenge;
// 3. the SDK 2.x client (OAuthClientProvider, finishAuth) → our server (protectedResource +
//    jwtVerifier), with step-up through our 403 insufficient_scope; and the SDK 1.x client → our server,
//    which does not step up (it refreshes, gets the same scope, and gives up with a 403 error).
// Both SDK clients register (RFC 7591) with the resource's scopes, which oidc-provider refuses
// (invalid_client_metadata): one test shows it, and the SDK clients' flows go through a host fetch
// that drops `scope` from the registration request, nothing else.
// Servers and provider listen on 127.0.0.1 only (support/sdk-protected.ts).
import {
  Client as Client2,
  RegistrationRejectedError,
  StreamableHTTPClientTransport as Transport2,
  UnauthorizedError as Unauthorized2,
} from "@modelcontextprotocol/client";
import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError as Unauthorized1 } from "@modelcontextprotocol/sdk/client/auth.js";
import { InvalidClientMetadataError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { StreamableHTTPClientTransport as Transport1, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import type { MCPClient } from "../src/index.js";
import { ALICE, SERVICE_CLIENT, startProvider, type RunningProvider } from "./support/oidc-provider.js";
import { authorizedClient, clientCredentialsToken, decodeJwt, hostAuthorizer, REDIRECT_URI, s256, Wire } from "./support/oauth-wire.js";
import {
  HeadlessOAuthProvider,
  recordingFetch,
  startOurProtected,
  startSdk1Protected,
  startSdk2Protected,
  WRITE_TOOL,
  type Caller,
  type ProtectedEndpoint,
  type SentRequest,
} from "./support/sdk-protected.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});
const defer = (cleanup: () => Promise<void>) => void cleanups.push(cleanup);

const TIMEOUT_MS = 20_000;
const params = (url: string) => new URL(url).searchParams;

/** The provider and one protected endpoint, the endpoint's URL allowed as a resource of the provider. */
async function scene(
  start: (oidc: RunningProvider) => Promise<ProtectedEndpoint>,
): Promise<{ readonly oidc: RunningProvider; readonly endpoint: ProtectedEndpoint }> {
  const oidc = await startProvider();
  defer(() => oidc.close());
  const endpoint = await start(oidc);
  defer(() => endpoint.close());
  oidc.allowResource(endpoint.url);
  return { oidc, endpoint };
}

/** The caller a tool reported (its text content is the JSON of a `Caller`). */
function callerIn(result: object): Caller {
  const [first] = ("content" in result ? result.content : []) as Array<{ type: string; text?: string }>;
  return JSON.parse(first?.text ?? "null") as Caller;
}

/** An initialize POST without a token. */
function anonymous(url: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "anonymous", version: "1" } },
    }),
  });
}

/** A tools/call of the 2025 era with `token` as its bearer. */
function bearerCall(url: string, token: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami" } }),
  });
}

/** Our MCPClient through our Authorizer against an SDK server: the flow, what went over the wire, and the SDK's refusals. */
async function ourClientAgainst(
  oidc: RunningProvider,
  endpoint: ProtectedEndpoint,
  sdk: string,
): Promise<{ readonly client: MCPClient; readonly wire: Wire }> {
  // Unauthenticated: the SDK's 401 names its protected resource metadata, which its router serves.
  const refused = await anonymous(endpoint.url);
  expect(refused.status).toBe(401);
  const challenge =
    'Bearer error="invalid_token", error_description="Missing Authorization header", ' +
    `scope="mcp:read", resource_metadata="${endpoint.metadataUrl}"`;
  expect(refused.headers.get("www-authenticate")).toBe(challenge);
  expect(endpoint.metadataUrl).toBe(`${new URL(endpoint.url).origin}/.well-known/oauth-protected-resource/mcp`);
  expect(await (await fetch(endpoint.metadataUrl)).json()).toEqual({
    resource: endpoint.url,
    authorization_servers: [oidc.issuer],
    scopes_supported: ["mcp:read", "mcp:write"],
    resource_name: `SDK ${sdk} protected`,
  });

  const wire = new Wire();
  const { authorizer, store } = hostAuthorizer(wire);
  const client = await authorizedClient(endpoint.url, authorizer, wire, defer);
  const registration = await store.getRegistration(oidc.issuer);
  // Its first request, without a token, got the same challenge.
  expect(endpoint.answers.slice(0, 2)).toEqual([`401 ${challenge}`, `401 ${challenge}`]);
  expect(callerIn(await client.callTool("whoami"))).toEqual({
    sub: ALICE,
    aud: endpoint.url,
    clientId: registration?.clientId,
    scopes: ["mcp:read"],
  });
  expect(endpoint.ran).toEqual([`whoami ${ALICE}`]);

  // Discovery started at the SDK's challenge and metadata; one DCR; PKCE S256 and the resource indicator.
  expect(wire.exchanges[0]).toMatchObject({ method: "GET", url: endpoint.metadataUrl, status: 200 });
  expect(oidc.requests.filter((request) => request === "POST /oidc/reg")).toHaveLength(1);
  const [visit] = wire.visits;
  const [exchange] = wire.tokenRequests("authorization_code");
  expect(params(visit?.authorizationUrl ?? "").get("code_challenge_method")).toBe("S256");
  expect(params(visit?.authorizationUrl ?? "").get("code_challenge")).toBe(s256(exchange?.params.get("code_verifier") ?? ""));
  expect(params(visit?.authorizationUrl ?? "").get("resource")).toBe(endpoint.url);
  expect(exchange?.params.get("resource")).toBe(endpoint.url);
  expect(decodeJwt((await store.getTokens(oidc.issuer, endpoint.url))?.accessToken ?? "")).toMatchObject({
    header: { alg: "ES256", typ: "at+jwt" },
    payload: { iss: oidc.issuer, aud: endpoint.url, sub: ALICE },
  });

  // The jose verifier is a real check: a valid token of the same provider for another audience is refused.
  const elsewhere = `${new URL(endpoint.url).origin}/other-api`;
  oidc.allowResource(elsewhere, "mcp:read");
  const foreign = await bearerCall(endpoint.url, await clientCredentialsToken(oidc.tokenEndpoint, SERVICE_CLIENT, elsewhere));
  expect(foreign.status).toBe(401);
  expect(foreign.headers.get("www-authenticate")).toBe(
    'Bearer error="invalid_token", error_description="The access token was refused", ' +
      `scope="mcp:read", resource_metadata="${endpoint.metadataUrl}"`,
  );
  expect(endpoint.refused).toEqual(["ERR_JWT_CLAIM_VALIDATION_FAILED"]);
  expect(endpoint.ran).toEqual([`whoami ${ALICE}`]);
  return { client, wire };
}

describe("our client with the official SDK servers, one oidc-provider", () => {
  it(
    "our MCPClient + Authorizer → SDK 1.x (requireBearerAuth, mcpAuthMetadataRouter, jose): 401 → discovery → DCR → PKCE → call as ALICE",
    async () => {
      const { oidc, endpoint } = await scene(startSdk1Protected);
      const { client } = await ourClientAgainst(oidc, endpoint, "1.x");
      expect(client.era).toBe("session");
    },
    TIMEOUT_MS,
  );

  it(
    "our MCPClient + Authorizer → SDK 2.x (express's requireBearerAuth, createMcpHandler), stepping up through its per-tool scope check",
    async () => {
      const { oidc, endpoint } = await scene(startSdk2Protected);
      const { client, wire } = await ourClientAgainst(oidc, endpoint, "2.x");
      expect(client.era).toBe("stateless");

      const result = await client.callTool(WRITE_TOOL);
      expect(result.content).toEqual([{ type: "text", text: "written" }]);
      expect(endpoint.answers).toContain(
        '403 Bearer error="insufficient_scope", error_description="Insufficient scope", ' +
          `scope="mcp:read mcp:write", resource_metadata="${endpoint.metadataUrl}"`,
      );
      expect(wire.visits.map((visit) => params(visit.authorizationUrl).get("scope"))).toEqual([
        "mcp:read offline_access",
        "mcp:read offline_access mcp:write",
      ]);
      expect(endpoint.ran).toEqual([`whoami ${ALICE}`, `${WRITE_TOOL} ${ALICE}`]);
      expect(oidc.requests.filter((request) => request === "POST /oidc/reg")).toHaveLength(1);
    },
    TIMEOUT_MS,
  );
});

/** The authorization request and its code exchange, as an SDK client sent them: PKCE S256 and the resource indicator. */
function expectCodeFlow(provider: HeadlessOAuthProvider, sent: readonly SentRequest[], index: number, resource: string): void {
  const authorization = params(provider.authorizationUrls[index] ?? "");
  const exchange = new URLSearchParams(sent.filter((request) => request.url.endsWith("/token"))[index]?.body ?? "");
  expect(authorization.get("code_challenge_method")).toBe("S256");
  expect(authorization.get("code_challenge")).toBe(s256(exchange.get("code_verifier") ?? ""));
  expect(authorization.get("resource")).toBe(resource);
  expect(exchange.get("grant_type")).toBe("authorization_code");
  expect(exchange.get("code")).toBe(params(provider.callbacks[index] ?? "").get("code"));
  expect(exchange.get("resource")).toBe(resource);
}

describe("the official SDK clients with our protected server, one oidc-provider", () => {
  it(
    "both SDK clients register (DCR) with the resource's scopes, which oidc-provider refuses: invalid_client_metadata",
    async () => {
      const { oidc, endpoint } = await scene(startOurProtected);
      const refused = await anonymous(endpoint.url);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toBe(`Bearer scope="mcp:read", resource_metadata="${endpoint.metadataUrl}"`);
      const sent2: SentRequest[] = [];
      const sent1: SentRequest[] = [];
      const client2 = new Client2({ name: "sdk2-e2e", version: "1.0.0" });
      defer(() => client2.close());
      await expect(
        client2.connect(new Transport2(new URL(endpoint.url), { authProvider: new HeadlessOAuthProvider(), fetch: recordingFetch(sent2) })),
      ).rejects.toBeInstanceOf(RegistrationRejectedError);
      const client1 = new Client1({ name: "sdk1-e2e", version: "1.0.0" });
      defer(() => client1.close());
      await expect(
        client1.connect(new Transport1(new URL(endpoint.url), { authProvider: new HeadlessOAuthProvider(), fetch: recordingFetch(sent1) })),
      ).rejects.toBeInstanceOf(InvalidClientMetadataError);
      // SDK 2.x asks for offline_access as well (the provider's metadata lists it); SDK 1.x does not.
      for (const [sent, scope] of [
        [sent2, "mcp:read offline_access"],
        [sent1, "mcp:read"],
      ] as const) {
        // Discovered as it should be: the challenge, the resource's metadata, the provider's metadata at the third candidate.
        expect(
          sent
            .filter((request) => request.method === "GET")
            .map((request) => `${request.status} ${request.url}`)
            .at(0),
        ).toBe(`200 ${endpoint.metadataUrl}`);
        expect(
          sent
            .filter((request) => request.method === "GET")
            .map((request) => `${request.status} ${request.url}`)
            .at(-1),
        ).toBe(`200 ${oidc.issuer}/.well-known/openid-configuration`);
        const registration = sent.at(-1);
        expect(registration).toMatchObject({ method: "POST", url: `${oidc.issuer}/reg`, status: 400 });
        expect(JSON.parse(registration?.body ?? "{}")).toMatchObject({ scope, redirect_uris: [REDIRECT_URI] });
      }
      expect(endpoint.ran).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "SDK 2.x client (OAuthClientProvider, finishAuth) → our server: 401 → discovery → DCR → PKCE → call as ALICE; step-up through our 403",
    async () => {
      const { oidc, endpoint } = await scene(startOurProtected);
      const provider = new HeadlessOAuthProvider();
      const sent: SentRequest[] = [];
      const fetch = recordingFetch(sent, { dropRegistrationScope: true });
      const first = new Client2({ name: "sdk2-e2e", version: "1.0.0" });
      defer(() => first.close());
      await expect(first.connect(new Transport2(new URL(endpoint.url), { authProvider: provider, fetch }))).rejects.toBeInstanceOf(
        Unauthorized2,
      );
      expect(sent[0]).toMatchObject({ method: "POST", url: endpoint.url, status: 401 });
      expect(sent[1]).toMatchObject({ method: "GET", url: endpoint.metadataUrl, status: 200 });
      expect(provider.authorizationUrls).toHaveLength(1);
      // Registered once the host's fetch dropped the scope the provider refuses (the previous test).
      expect(sent.find((request) => request.url === `${oidc.issuer}/reg`)).toMatchObject({ method: "POST", status: 201 });

      // As the SDK documents: finishAuth with the callback's parameters (code, iss), then connect again.
      const transport = new Transport2(new URL(endpoint.url), { authProvider: provider, fetch });
      await transport.finishAuth(provider.lastCallback);
      const client = new Client2({ name: "sdk2-e2e", version: "1.0.0" });
      defer(() => client.close());
      await client.connect(transport);
      const clientId = provider.clientInformation()?.client_id;
      expect(callerIn(await client.callTool({ name: "whoami" }))).toEqual({
        sub: ALICE,
        aud: endpoint.url,
        clientId,
        scopes: ["mcp:read"],
      });
      expectCodeFlow(provider, sent, 0, endpoint.url);
      expect(decodeJwt(provider.tokens()?.access_token ?? "")).toMatchObject({
        header: { alg: "ES256", typ: "at+jwt" },
        payload: { iss: oidc.issuer, aud: endpoint.url, sub: ALICE, client_id: clientId },
      });

      // Step-up: our 403 insufficient_scope; the SDK authorizes again for the union of the scopes, and stops at the redirect.
      await expect(client.callTool({ name: WRITE_TOOL })).rejects.toBeInstanceOf(Unauthorized2);
      expect(endpoint.answers).toContain(
        '403 Bearer error="insufficient_scope", error_description="this request needs the scopes mcp:read mcp:write", ' +
          `scope="mcp:read mcp:write", resource_metadata="${endpoint.metadataUrl}"`,
      );
      expect(provider.authorizationUrls.map((url) => params(url).get("scope"))).toEqual([
        "mcp:read offline_access",
        "mcp:read mcp:write offline_access",
      ]);
      await transport.finishAuth(provider.lastCallback);
      expectCodeFlow(provider, sent, 1, endpoint.url);
      const result = await client.callTool({ name: WRITE_TOOL });
      expect(result.content).toEqual([{ type: "text", text: "written" }]);
      expect(decodeJwt(provider.tokens()?.access_token ?? "").payload["scope"]).toBe("mcp:read mcp:write");
      expect(endpoint.ran).toEqual([`whoami ${ALICE}`, `${WRITE_TOOL} ${ALICE}`]);
      expect(oidc.requests.filter((request) => request === "POST /oidc/reg")).toHaveLength(1);
      expect(endpoint.refused).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "SDK 1.x client (OAuthClientProvider, finishAuth) → our server: 401 → discovery → DCR → PKCE → call as ALICE; no step-up on our 403",
    async () => {
      const { oidc, endpoint } = await scene(startOurProtected);
      const provider = new HeadlessOAuthProvider();
      const sent: SentRequest[] = [];
      const fetch = recordingFetch(sent, { dropRegistrationScope: true });
      const first = new Client1({ name: "sdk1-e2e", version: "1.0.0" });
      defer(() => first.close());
      await expect(first.connect(new Transport1(new URL(endpoint.url), { authProvider: provider, fetch }))).rejects.toBeInstanceOf(
        Unauthorized1,
      );
      expect(endpoint.answers[0]).toBe(`401 Bearer scope="mcp:read", resource_metadata="${endpoint.metadataUrl}"`);

      const transport = new Transport1(new URL(endpoint.url), { authProvider: provider, fetch });
      await transport.finishAuth(provider.lastCallback.get("code") ?? "");
      const client = new Client1({ name: "sdk1-e2e", version: "1.0.0" });
      defer(() => client.close());
      await client.connect(transport);
      const clientId = provider.clientInformation()?.client_id;
      expect(callerIn(await client.callTool({ name: "whoami" }))).toEqual({
        sub: ALICE,
        aud: endpoint.url,
        clientId,
        scopes: ["mcp:read"],
      });
      expectCodeFlow(provider, sent, 0, endpoint.url);
      expect(sent.find((request) => request.method === "GET")).toMatchObject({ url: endpoint.metadataUrl, status: 200 });
      expect(decodeJwt(provider.tokens()?.access_token ?? "").payload).toMatchObject({
        iss: oidc.issuer,
        aud: endpoint.url,
        sub: ALICE,
        client_id: clientId,
      });

      // No step-up from SDK 1.x: on our 403 it refreshes (the refresh asks for no scope, so the grant stays
      // mcp:read), sends again, gets the same 403, and gives up; it never asks the user for mcp:write.
      const refusal = await client.callTool({ name: WRITE_TOOL }).then(
        () => "called",
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(StreamableHTTPError);
      expect(refusal).toMatchObject({ code: 403, message: "Streamable HTTP error: Server returned 403 after trying upscoping" });
      const stepUp =
        '403 Bearer error="insufficient_scope", error_description="this request needs the scopes mcp:read mcp:write", ' +
        `scope="mcp:read mcp:write", resource_metadata="${endpoint.metadataUrl}"`;
      expect(endpoint.answers.slice(-2)).toEqual([stepUp, stepUp]);
      const refresh = new URLSearchParams(sent.filter((request) => request.url.endsWith("/token")).at(-1)?.body ?? "");
      expect([refresh.get("grant_type"), refresh.get("scope")]).toEqual(["refresh_token", null]);
      expect(provider.authorizationUrls).toHaveLength(1);
      expect(decodeJwt(provider.tokens()?.access_token ?? "").payload["scope"]).toBe("mcp:read");
      expect(oidc.requests.filter((request) => request === "POST /oidc/reg")).toHaveLength(1);
      expect(endpoint.ran).toEqual([`whoami ${ALICE}`]);
    },
    TIMEOUT_MS,
  );
});

// MCP authorization end to end against a real authorization server: oidc-provider 9 in this process
// (support/oidc-provider.ts: issuer http://127.0.0.1:<port>/oidc, headless login, PKCE required,
// DCR, Client ID Metadata Documents, resource indicators with ES256 JWT access tokens, client
// credentials, rotating refresh tokens) and our MCPServer as the protected resource
// (support/protected-mcp.ts: protectedResource with a jwtVerifier through the provider's JWKS, its
// metadata document and 401/403 challenges). Our MCPClient (era "auto") goes through the Authorizer's fetch wrapper. Everything
// listens on 127.0.0.1; nothing leaves the machine.
import { generateKeyPairSync } from "node:crypto";
import { inspect } from "node:util";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  EventBus,
  headlessInteraction,
  MCP_CODES,
  MCPClient,
  StreamableHttpTransport,
  type MCPError,
  type MCPEventMap,
  type StoredTokens,
} from "../src/index.js";
import { Telemetry } from "../src/telemetry/index.js";
import { signJwt } from "../src/auth/jose/index.js";
import { ALICE, SERVICE_CLIENT, startProvider, type RunningProvider } from "./support/oidc-provider.js";
import {
  authorizedClient,
  clientCredentialsToken,
  decodeJwt,
  hostAuthorizer,
  rawToolCall,
  REDIRECT_URI,
  s256,
  secretsOn,
  until,
  untilExpired,
  Wire,
} from "./support/oauth-wire.js";
import { startProtectedMcp, WRITE_TOOL, type ProtectedMcp, type ProtectedMcpOptions } from "./support/protected-mcp.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});
const defer = (cleanup: () => Promise<void>) => void cleanups.push(cleanup);

const TIMEOUT_MS = 20_000;

/** The jwtVerifier's refusal reasons: the JOSE check that failed, then why. */
const WRONG_AUDIENCE = "Token rejected (aud): the token is not for this audience";
const EXPIRED = "Token rejected (exp): the token has expired";
const BAD_SIGNATURE = "Token rejected (signature): the signature does not verify";

/** The provider and our protected server, the server's URL allowed as a resource of the provider. */
async function scene(options: Partial<ProtectedMcpOptions> = {}): Promise<{ readonly oidc: RunningProvider; readonly mcp: ProtectedMcp }> {
  const oidc = await startProvider();
  defer(() => oidc.close());
  const mcp = await startProtectedMcp({ issuer: oidc.issuer, jwksUri: oidc.jwksUri, ...options });
  defer(() => mcp.close());
  oidc.allowResource(mcp.url);
  return { oidc, mcp };
}

const params = (url: string) => new URL(url).searchParams;

/** The scene with 1-second access tokens, a client authorized in it (no early refresh), and the tokens it holds. */
async function shortLivedScene() {
  const { oidc, mcp } = await scene();
  oidc.setAccessTokenTtl(1);
  const wire = new Wire();
  const { authorizer, store } = hostAuthorizer(wire, { refreshBeforeExpiryMs: 0 });
  const client = await authorizedClient(mcp.url, authorizer, wire, defer);
  const held = (await store.getTokens(oidc.issuer, mcp.url)) as StoredTokens;
  return { oidc, mcp, wire, store, client, held };
}

/** Everything the library reports, captured: console output, events, spans (client and server), errors given to onError. */
function observe() {
  const printed: unknown[] = [];
  for (const method of ["log", "info", "warn", "error", "debug"] as const)
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args));
  const exporter = new InMemorySpanExporter();
  const telemetry = new Telemetry({ tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }) });
  const events = new EventBus<MCPEventMap>();
  const heard: unknown[] = [];
  for (const type of ["connection:opened", "connection:closed", "request:received", "request:completed", "notification:emitted"] as const)
    events.on(type, (payload) => void heard.push(payload));
  const reported: unknown[] = [];
  const onError = (error: unknown) => void reported.push(error);
  return {
    printed,
    heard,
    reported,
    exporter,
    observed: { server: { telemetry, events }, client: { telemetry, events, onError }, transport: { onError } },
  };
}

describe("our client and server with oidc-provider (an issuer with a path)", () => {
  it(
    "registers by DCR, authorizes with PKCE (S256), gets a JWT for our server's URL, and our server verifies it through the JWKS",
    async () => {
      const { oidc, mcp } = await scene();
      const wire = new Wire();
      const { authorizer, store } = hostAuthorizer(wire);
      const client = await authorizedClient(mcp.url, authorizer, wire, defer);
      expect(client.era).toBe("stateless");
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["whoami", WRITE_TOOL]);
      const registration = await store.getRegistration(oidc.issuer);
      const result = await client.callTool("whoami");
      expect(result.structuredContent).toEqual({
        sub: ALICE,
        clientId: registration?.clientId,
        scope: "mcp:read",
        aud: mcp.url,
        iss: oidc.issuer,
      });

      // The first request was refused with the server's challenge; the provider's metadata was found at the third candidate for an issuer
      // with a path.
      expect(mcp.answers[0]).toBe(`401 Bearer scope="mcp:read", resource_metadata="${mcp.metadataUrl}"`);
      const origin = new URL(oidc.issuer).origin;
      expect(
        wire.exchanges.filter((exchange) => exchange.method === "GET").map((exchange) => `${exchange.status} ${exchange.url}`),
      ).toEqual([
        `200 ${mcp.metadataUrl}`,
        `404 ${origin}/.well-known/oauth-authorization-server/oidc`,
        `404 ${origin}/.well-known/openid-configuration/oidc`,
        `200 ${origin}/oidc/.well-known/openid-configuration`,
      ]);

      // RFC 7591: registered once, as a public native client, and the provider keeps it.
      expect(oidc.requests.filter((request) => request === "POST /oidc/reg")).toHaveLength(1);
      expect(registration).toMatchObject({ clientId: expect.any(String), authMethod: "none" });
      const registered = await oidc.provider.Client.find(registration?.clientId ?? "");
      expect(registered?.metadata()).toMatchObject({
        client_name: "oidc-e2e host",
        redirect_uris: [REDIRECT_URI],
        application_type: "native",
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
      });

      // PKCE and RFC 9207: the challenge is the S256 of the verifier sent with the code; the callback named the issuer.
      const [visit] = wire.visits;
      const request = params(visit?.authorizationUrl ?? "");
      const [exchange] = wire.tokenRequests("authorization_code");
      expect(request.get("code_challenge_method")).toBe("S256");
      expect(request.get("code_challenge")).toBe(s256(exchange?.params.get("code_verifier") ?? ""));
      expect(request.get("scope")).toBe("mcp:read offline_access");
      expect(request.get("resource")).toBe(mcp.url);
      expect(params(visit?.callback ?? "").get("iss")).toBe(oidc.issuer);
      expect(exchange?.params.get("code")).toBe(params(visit?.callback ?? "").get("code"));
      expect(exchange?.params.get("resource")).toBe(mcp.url);

      // An RFC 9068 access token whose audience is our server.
      const tokens = await store.getTokens(oidc.issuer, mcp.url);
      const jwt = decodeJwt(tokens?.accessToken ?? "");
      expect(jwt.header).toMatchObject({ alg: "ES256", typ: "at+jwt", kid: "as-es256" });
      expect(jwt.payload).toMatchObject({
        iss: oidc.issuer,
        aud: mcp.url,
        sub: ALICE,
        client_id: registration?.clientId,
        scope: "mcp:read",
      });
      expect(tokens?.refreshToken).toEqual(expect.any(String));
      expect(mcp.ran).toEqual(["whoami"]);
    },
    TIMEOUT_MS,
  );

  it(
    "registers by Client ID Metadata Document where the provider supports them: the URL is the client_id, no DCR",
    async () => {
      const { oidc, mcp } = await scene();
      const documentUrl = "https://host.example/oauth/oidc-e2e-client.json";
      oidc.documents.set(documentUrl, {
        client_id: documentUrl,
        client_name: "oidc-e2e host (CIMD)",
        redirect_uris: [REDIRECT_URI],
        application_type: "native",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      });
      const wire = new Wire();
      const { authorizer, store } = hostAuthorizer(wire, {
        client: { metadata: { client_name: "oidc-e2e host", redirect_uris: [REDIRECT_URI] }, metadataDocumentUrl: documentUrl },
      });
      const client = await authorizedClient(mcp.url, authorizer, wire, defer);
      const result = await client.callTool("whoami");
      expect(result.structuredContent).toMatchObject({ sub: ALICE, clientId: documentUrl, aud: mcp.url });
      expect(params(wire.visits[0]?.authorizationUrl ?? "").get("client_id")).toBe(documentUrl);
      expect(oidc.documentFetches).toEqual([documentUrl]);
      expect(oidc.requests).not.toContain("POST /oidc/reg");
      expect(wire.tokenRequests("authorization_code")[0]?.params.get("client_id")).toBe(documentUrl);
      expect(await store.getRegistration(oidc.issuer)).toBeUndefined();
    },
    TIMEOUT_MS,
  );

  it(
    "refreshes once for two calls racing past the expiry, keeps the rotated refresh token, and the spent one is refused",
    async () => {
      const { oidc, mcp, wire, store, client, held: before } = await shortLivedScene();
      // Past the token's exp and the client's own expiry (taken when the answer came): it refreshes before sending.
      await untilExpired(before.accessToken);
      await until(before.expiresAt ?? 0);
      oidc.setAccessTokenTtl(300);
      const refreshesBefore = wire.tokenRequests("refresh_token").length;

      // The refresh is held until both calls have entered the Authorizer: they overlap for sure.
      let entered = 0;
      let release: (() => void) | undefined;
      const bothIn = new Promise<void>((resolve) => {
        release = resolve;
      });
      const heldWith: number[] = [];
      wire.onMcpRequest = () => void (++entered === 2 && release?.());
      wire.beforeToken = async () => {
        await bothIn;
        heldWith.push(entered);
      };
      const [sentBefore, answersBefore] = [wire.bearers.length, mcp.answers.length];
      const answers = await Promise.all([client.callTool("whoami"), client.callTool("whoami")]);
      expect(answers.map((answer) => answer.structuredContent?.["sub"])).toEqual([ALICE, ALICE]);
      expect(heldWith).toEqual([2]);

      const refreshes = wire.tokenRequests("refresh_token").slice(refreshesBefore);
      expect(refreshes).toHaveLength(1);
      expect(refreshes[0]?.params.get("refresh_token")).toBe(before.refreshToken);
      expect(refreshes[0]?.params.get("resource")).toBe(mcp.url);
      const after = await store.getTokens(oidc.issuer, mcp.url);
      expect(after?.refreshToken).toBe(refreshes[0]?.answer["refresh_token"]);
      expect(after?.refreshToken).not.toBe(before.refreshToken);
      expect(after?.accessToken).not.toBe(before.accessToken);
      // Neither call sent the expired token: both waited for the refresh.
      expect(new Set(wire.bearers.slice(sentBefore))).toEqual(new Set([`Bearer ${after?.accessToken}`]));
      expect(new Set(mcp.answers.slice(answersBefore).map((answer) => answer.slice(0, 3)))).toEqual(new Set(["200"]));

      // The spent refresh token no longer works at the provider.
      const registration = await store.getRegistration(oidc.issuer);
      const replay = await fetch(oidc.tokenEndpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: before.refreshToken ?? "",
          client_id: registration?.clientId ?? "",
        }).toString(),
      });
      expect(replay.status).toBe(400);
      expect(await replay.json()).toMatchObject({ error: "invalid_grant" });
    },
    TIMEOUT_MS,
  );

  it(
    "refreshes when our server refuses as expired (401 invalid_token) a token the client still holds as fresh",
    async () => {
      const { oidc, mcp, wire, store, client, held } = await shortLivedScene();
      await untilExpired(held.accessToken);
      oidc.setAccessTokenTtl(300);
      // The client's clock says an hour is left: it sends the token, and our server refuses it.
      await store.setTokens({ ...held, expiresAt: Date.now() + 3_600_000 });
      const [refusedBefore, refreshesBefore] = [mcp.refused.length, wire.tokenRequests("refresh_token").length];
      const result = await client.callTool("whoami");
      expect(result.structuredContent).toMatchObject({ sub: ALICE });
      expect(mcp.refused.slice(refusedBefore)).toEqual([EXPIRED]);
      expect(mcp.answers).toContain(
        `401 Bearer error="invalid_token", error_description="${EXPIRED}", scope="mcp:read", resource_metadata="${mcp.metadataUrl}"`,
      );
      const refreshes = wire.tokenRequests("refresh_token").slice(refreshesBefore);
      expect(refreshes.map((refresh) => refresh.params.get("refresh_token"))).toEqual([held.refreshToken]);
      expect((await store.getTokens(oidc.issuer, mcp.url))?.refreshToken).toBe(refreshes[0]?.answer["refresh_token"]);
      expect(wire.visits).toHaveLength(1);
    },
    TIMEOUT_MS,
  );

  it(
    "steps up through a 403 insufficient_scope: authorizes again with the union of the scopes, then the tool runs",
    async () => {
      const { oidc, mcp } = await scene();
      const wire = new Wire();
      const { authorizer, store } = hostAuthorizer(wire);
      const client = await authorizedClient(mcp.url, authorizer, wire, defer);
      await client.callTool("whoami");
      const written = await client.callTool(WRITE_TOOL);
      expect(written.content).toEqual([{ type: "text", text: "written" }]);
      expect(mcp.answers).toContain(
        '403 Bearer error="insufficient_scope", error_description="this request needs the scopes mcp:read mcp:write", ' +
          `scope="mcp:read mcp:write", resource_metadata="${mcp.metadataUrl}"`,
      );
      expect(wire.visits.map((visit) => params(visit.authorizationUrl).get("scope"))).toEqual([
        "mcp:read offline_access",
        "mcp:read offline_access mcp:write",
      ]);
      expect(wire.tokenRequests("authorization_code").map((exchange) => exchange.answer["scope"])).toEqual([
        "mcp:read",
        "mcp:read mcp:write",
      ]);
      expect(decodeJwt((await store.getTokens(oidc.issuer, mcp.url))?.accessToken ?? "").payload["scope"]).toBe("mcp:read mcp:write");
      expect(oidc.requests.filter((request) => request === "POST /oidc/reg")).toHaveLength(1);
      expect(mcp.ran).toEqual(["whoami", WRITE_TOOL]);
    },
    TIMEOUT_MS,
  );

  it(
    "gets a token by client credentials for a pre-registered confidential client (client_secret_basic), with no user",
    async () => {
      const { oidc, mcp } = await scene();
      const wire = new Wire();
      const { authorizer } = hostAuthorizer(wire, {
        clientCredentials: true,
        client: {
          metadata: { client_name: "reporter", redirect_uris: [] },
          preRegistered: { "*": { ...SERVICE_CLIENT, authMethod: "client_secret_basic" } },
        },
      });
      const client = await authorizedClient(mcp.url, authorizer, wire, defer);
      const result = await client.callTool("whoami");
      expect(result.structuredContent).toEqual({
        sub: SERVICE_CLIENT.clientId,
        clientId: SERVICE_CLIENT.clientId,
        scope: "mcp:read",
        aud: mcp.url,
        iss: oidc.issuer,
      });
      const [grant] = wire.tokenRequests("client_credentials");
      expect(Object.fromEntries(grant?.params ?? [])).toEqual({ grant_type: "client_credentials", scope: "mcp:read", resource: mcp.url });
      expect(grant?.authorization).toBe(`Basic ${btoa(`${SERVICE_CLIENT.clientId}:${SERVICE_CLIENT.clientSecret}`)}`);
      expect(wire.visits).toEqual([]);
      expect(oidc.requests.filter((request) => request.startsWith("GET /oidc/auth") || request === "POST /oidc/reg")).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "refuses a token for another audience, an expired one, a forged one and a tampered one with 401 invalid_token, and runs no tool",
    async () => {
      const { oidc, mcp } = await scene();
      const valid = await clientCredentialsToken(oidc.tokenEndpoint, SERVICE_CLIENT, mcp.url);
      const control = await rawToolCall(mcp.url, "whoami", valid);
      expect(control.status).toBe(200);
      expect(mcp.ran).toEqual(["whoami"]);

      const elsewhere = `${new URL(mcp.url).origin}/other-api`;
      oidc.allowResource(elsewhere, "mcp:read");
      const otherAudience = await clientCredentialsToken(oidc.tokenEndpoint, SERVICE_CLIENT, elsewhere);
      oidc.setAccessTokenTtl(1);
      const expired = await clientCredentialsToken(oidc.tokenEndpoint, SERVICE_CLIENT, mcp.url);
      await untilExpired(expired);
      const { header, payload } = decodeJwt(valid);
      const ours = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" });
      const key = await crypto.subtle.importKey("jwk", ours, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
      const forged = await signJwt(payload, { key, alg: "ES256", kid: String(header["kid"]) }, { typ: "at+jwt" });
      const [head, , signature] = valid.split(".");
      const widened = Buffer.from(JSON.stringify({ ...payload, scope: "mcp:read mcp:write" })).toString("base64url");
      const tampered = `${head}.${widened}.${signature}`;

      const reasons = [WRONG_AUDIENCE, EXPIRED, BAD_SIGNATURE, BAD_SIGNATURE];
      for (const [index, token] of [otherAudience, expired, forged, tampered].entries()) {
        const response = await rawToolCall(mcp.url, "whoami", token);
        expect(response.status).toBe(401);
        expect(response.headers.get("www-authenticate")).toBe(
          `Bearer error="invalid_token", error_description="${reasons[index]}", scope="mcp:read", resource_metadata="${mcp.metadataUrl}"`,
        );
        expect(await response.text()).not.toContain(token);
      }
      expect(decodeJwt(otherAudience).payload["aud"]).toBe(elsewhere);
      expect(mcp.refused).toEqual(reasons);
      expect(mcp.ran).toEqual(["whoami"]);
    },
    TIMEOUT_MS,
  );

  it(
    "lets no code, verifier, token or client secret into a log line, an event, a span or an error, on success and on failure",
    async () => {
      const { printed, heard, reported, exporter, observed } = observe();
      const { oidc, mcp } = await scene(observed.server);
      const wire = new Wire();

      // Success: DCR of a confidential client (client_secret_post), a code grant, a step-up, a refresh with rotation.
      const { authorizer, store } = hostAuthorizer(wire, {
        client: {
          metadata: { client_name: "oidc-e2e host", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "client_secret_post" },
        },
      });
      const client = await authorizedClient(mcp.url, authorizer, wire, defer, observed);
      await client.callTool("whoami");
      await client.callTool(WRITE_TOOL);
      await store.setTokens({ ...((await store.getTokens(oidc.issuer, mcp.url)) as StoredTokens), expiresAt: Date.now() - 1 });
      await client.callTool("whoami");

      // Failure: a code the provider refuses, a wrong client secret, a token our server refuses.
      const user = headlessInteraction(REDIRECT_URI);
      const badCode = hostAuthorizer(wire, {
        interact: async (url, signal) => {
          const callback = new URL(await user(url, signal));
          wire.visits.push({ authorizationUrl: url, callback: callback.href });
          callback.searchParams.set("code", `${callback.searchParams.get("code")}x`);
          return callback.href;
        },
      });
      const wrongSecret = {
        clientId: SERVICE_CLIENT.clientId,
        clientSecret: "wrong-secret-5b2f0c9e1d7a4e3f8c6b",
        authMethod: "client_secret_basic" as const,
      };
      const badSecret = hostAuthorizer(wire, {
        clientCredentials: true,
        client: { metadata: { client_name: "reporter", redirect_uris: [] }, preRegistered: { "*": wrongSecret } },
      });
      const held = (await store.getTokens(oidc.issuer, mcp.url)) as StoredTokens;
      const [head, payload, signature = ""] = held.accessToken.split(".");
      const refusedToken = `${head}.${payload}.${signature.slice(1)}A`;
      const plain = new MCPClient({ name: "plain", version: "1" }, observed.client);
      defer(() => plain.close());
      const thrown = await Promise.all([
        authorizedClient(mcp.url, badCode.authorizer, wire, defer, observed).then(
          () => "connected",
          (error: unknown) => error,
        ),
        authorizedClient(mcp.url, badSecret.authorizer, wire, defer, observed).then(
          () => "connected",
          (error: unknown) => error,
        ),
        plain
          .connect(new StreamableHttpTransport(mcp.url, { ...observed.transport, headers: { authorization: `Bearer ${refusedToken}` } }))
          .then(
            () => "connected",
            (error: unknown) => error,
          ),
      ]);
      expect(thrown.map((error) => (error as MCPError).code)).toEqual([
        MCP_CODES.UNAUTHORIZED,
        MCP_CODES.UNAUTHORIZED,
        MCP_CODES.UNAUTHORIZED,
      ]);
      expect(thrown.map((error) => (error as MCPError).data)).toMatchObject([
        { status: 400, error: "invalid_grant" },
        { status: 401, error: "invalid_client" },
        {},
      ]);

      const secrets = secretsOn(wire);
      secrets.others.push(refusedToken);
      expect(secrets.codes.length).toBeGreaterThanOrEqual(4);
      expect(secrets.verifiers).toHaveLength(3);
      expect(secrets.accessTokens.length).toBeGreaterThanOrEqual(3);
      expect(secrets.refreshTokens.length).toBeGreaterThanOrEqual(3);
      expect(secrets.clientSecrets).toEqual([expect.any(String), wrongSecret.clientSecret]);
      const spans = exporter
        .getFinishedSpans()
        .map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status }));
      expect(spans.length).toBeGreaterThan(0);
      expect(heard.length).toBeGreaterThan(0);
      const haystack = inspect({ printed, heard, spans, reported, thrown }, { depth: 12, maxArrayLength: null, maxStringLength: null });
      // Each secret whole, and each part of a JWT but its header (the same for every token of the provider).
      const needles = Object.values(secrets)
        .flat()
        .flatMap((secret) => (secret.split(".").length === 3 ? [secret, ...secret.split(".").slice(1)] : [secret]));
      expect(needles.filter((needle) => haystack.includes(needle))).toEqual([]);
    },
    TIMEOUT_MS,
  );
});

// A real authorization server on loopback for the auth demo and the e2e tests: oidc-provider 9 in
// this process, on 127.0.0.1 with a free port, its issuer under a path (`http://127.0.0.1:<port>/oidc`:
// the provider's Koa app mounted there). Its login is headless: the interaction route signs in ALICE
// and grants what the consent prompt asks (the Grant API) without a page, so `headlessInteraction`
// reaches the redirect URI by following redirects. PKCE (S256) is required; dynamic client
// registration, Client ID Metadata Documents (draft-02, an experiment of oidc-provider 9, whose
// documents come from `documents` instead of the network), client credentials and resource
// indicators are on. Each resource allowed gets JWT access tokens (ES256, RFC 9068) whose audience is
// the resource itself, with the resource's scopes; refresh tokens (for `offline_access`) rotate on
// each use. DPoP (RFC 9449) proofs are taken at the token endpoint (oidc-provider 9 has them on by
// default: a proof binds the tokens to its key, `cnf.jkt`); `startProvider({ dpop: { nonce: true } })`
// has the token endpoint demand its nonce too. Types: oidc-provider.d.mts.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { errors, Provider } from "oidc-provider";

/** The account the headless login signs in. */
export const ALICE = "alice";
/** The scopes of the MCP resources: resource scopes, not OIDC ones (those would be asked at every consent). */
export const MCP_SCOPES = "mcp:read mcp:write";
/** A confidential client registered in the provider's configuration, for the client credentials grant. */
export const SERVICE_CLIENT = Object.freeze({ clientId: "svc-reporter", clientSecret: "svc-secret-9f1c2e7a4b6d8e0f1a3c5e7b9d1f3a5c" });

/**
 * Starts a provider on 127.0.0.1 (port 0) with the issuer `http://127.0.0.1:<port>/oidc`.
 * `options.dpop.nonce`: DPoP proofs at the token endpoint must carry the provider's nonce (RFC 9449 §8).
 */
export async function startProvider(options = {}) {
  const http = createServer();
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${http.address().port}/oidc`;
  const resources = new Map();
  const requests = [];
  const running = {
    issuer,
    jwksUri: `${issuer}/jwks`,
    tokenEndpoint: `${issuer}/token`,
    requests,
    documentFetches: [],
    documents: new Map(),
    accessTokenTtlSec: 300,
    setAccessTokenTtl: (seconds) => void (running.accessTokenTtlSec = seconds),
    allowResource: (resource, scope = MCP_SCOPES) => void resources.set(resource, scope),
  };
  const provider = new Provider(issuer, configuration(running, resources, options.dpop));
  const app = provider.callback();
  http.on("request", (request, response) => {
    const path = request.url ?? "/";
    requests.push(`${request.method} ${path.split("?")[0]}`);
    if (path.startsWith("/interaction/")) {
      void headlessLogin(provider, request, response);
    } else if (path === "/oidc" || path.startsWith("/oidc/") || path.startsWith("/oidc?")) {
      // Mounted as Express mounts it: the provider reads its mount path off originalUrl.
      Object.assign(request, { originalUrl: path, url: path.slice("/oidc".length) || "/" });
      void app(request, response);
    } else {
      response.writeHead(404, { "content-type": "application/json" }).end('{"error":"not_found"}');
    }
  });
  return {
    ...running,
    provider,
    close: () =>
      new Promise((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

/** The provider's configuration: `settings` are read at each use, so a test can change the token lifetime. */
function configuration(settings, resources, dpop) {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const signingKey = { ...privateKey.export({ format: "jwk" }), kid: "as-es256", alg: "ES256", use: "sig" };
  return {
    jwks: { keys: [signingKey] },
    clientDefaults: { id_token_signed_response_alg: "ES256" },
    cookies: { keys: ["cookie-key-for-the-loopback-provider"] },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    // OIDC Core §11 has oidc-provider drop `offline_access` from a request without `prompt=consent`,
    // which our client does not send (SEP-2207 asks for neither): refresh tokens go to every client
    // registered for the refresh_token grant (OAuth 2.1: the server's decision), and rotate on use.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: () => settings.accessTokenTtlSec,
      ClientCredentials: () => settings.accessTokenTtlSec,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 3600,
      Interaction: 600,
      RefreshToken: 3600,
      Session: 3600,
    },
    clients: [
      {
        client_id: SERVICE_CLIENT.clientId,
        client_secret: SERVICE_CLIENT.clientSecret,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    ...(dpop === undefined ? {} : { enabledJWA: { dPoPSigningAlgValues: ["ES256"] } }),
    features: {
      devInteractions: { enabled: false },
      dPoP: dpopFeature(dpop),
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      clientIdMetadataDocument: { enabled: true, ack: "draft-02" },
      resourceIndicators: {
        enabled: true,
        getResourceServerInfo: (_ctx, indicator) => {
          const scope = resources.get(indicator);
          if (scope === undefined) throw new errors.InvalidTarget();
          return {
            scope,
            audience: indicator,
            accessTokenTTL: settings.accessTokenTtlSec,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: "ES256" } },
          };
        },
      },
    },
    fetch: documentFetch(settings),
  };
}

/**
 * DPoP, on as oidc-provider 9 has it by default; with `nonce`, a secret to derive nonces from (32
 * bytes) and every proof at the token endpoint made to carry one: a proof without it is refused with
 * 400 `use_dpop_nonce` and a `DPoP-Nonce` header.
 */
function dpopFeature(dpop) {
  if (dpop?.nonce !== true) return { enabled: true };
  return { enabled: true, nonceSecret: randomBytes(32), requireNonce: () => true };
}

/** The provider's fetch: Client ID Metadata Documents come from `settings.documents`, and nothing leaves the machine. */
function documentFetch(settings) {
  return (input) => {
    const url = input instanceof Request ? input.url : String(input);
    settings.documentFetches.push(url);
    const document = settings.documents.get(url);
    if (document === undefined) return Promise.resolve(new Response("not found", { status: 404 }));
    return Promise.resolve(
      new Response(JSON.stringify(document), {
        status: 200,
        headers: { "content-type": "application/json", "cache-control": "max-age=300" },
      }),
    );
  };
}

/** The login and consent pages, without a user: ALICE signs in, and the consent asked for is granted. */
async function headlessLogin(provider, request, response) {
  try {
    const interaction = await provider.interactionDetails(request, response);
    if (interaction.prompt.name === "login") {
      await provider.interactionFinished(request, response, { login: { accountId: ALICE } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant =
      interaction.grantId === undefined
        ? new provider.Grant({ accountId: interaction.session?.accountId ?? ALICE, clientId: String(interaction.params["client_id"]) })
        : await provider.Grant.find(interaction.grantId);
    if (grant === undefined) throw new Error("the interaction's grant is gone");
    const details = interaction.prompt.details;
    if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(" "));
    if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {}))
      grant.addResourceScope(indicator, scopes.join(" "));
    await provider.interactionFinished(request, response, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  } catch (error) {
    response.writeHead(500, { "content-type": "text/plain" }).end(`headless login failed: ${error.message}`);
  }
}

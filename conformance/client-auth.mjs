// The client auth/* scenarios of the conformance suites (0.1.16 `--suite auth`, and 0.2.0-alpha.12 at
// 2026-07-28), played by the fixture client through the library's Authorizer: a fetch wrapper for the
// Streamable HTTP transport that answers the mock's 401 with discovery, registration (pre-registered,
// Client ID Metadata Document or dynamic), PKCE and a token, refreshes, and steps up on 403. The mock
// authorization server grants at once, so the user's part is the headless redirect follower. Each
// scenario connects (era "auto"), lists the tools and calls test-tool, as the reference client does.
// The scenarios that test a refusal pass when the client stops for the right reason (and fail when it
// goes on, or stops for another).
import { Authorizer, headlessInteraction, importPkcs8Pem, privateKeyJwtAssertion } from "@suaveplan/mcp";
import { log, session, textOf } from "./client-2026.mjs";

const REDIRECT_URI = "http://localhost:3000/callback";
/** The URL the suite's CIMD scenario expects as client_id (its mock never fetches it). */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/** The suite's context for this scenario (client ids, secrets, keys), when it gives one. */
function context() {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  return raw === undefined ? {} : JSON.parse(raw);
}

function authorizer(options = {}) {
  return new Authorizer({
    client: {
      metadata: { client_name: "suaveplan-conformance-client", redirect_uris: [REDIRECT_URI], application_type: "native" },
      metadataDocumentUrl: CLIENT_METADATA_URL,
    },
    redirectUri: REDIRECT_URI,
    interact: headlessInteraction(REDIRECT_URI),
    ...options,
  });
}

/** Connects through `auth`, lists the tools, calls test-tool. */
function authorizedSession(url, auth) {
  const fetchImpl = auth.wrap((target, init) => fetch(target, init));
  return session(
    url,
    {},
    async (client) => {
      const { tools } = await client.listTools();
      log(`tools/list: ${tools.map((tool) => tool.name).join(", ")}`);
      const result = await client.callTool("test-tool", {});
      log(`test-tool: ${textOf(result)}`);
    },
    { fetchImpl },
  );
}

const flow = (url) => authorizedSession(url, authorizer());

function preRegistered(url) {
  const { client_id: clientId, client_secret: clientSecret } = context();
  return authorizedSession(
    url,
    authorizer({
      client: {
        metadata: { client_name: "pre", redirect_uris: [REDIRECT_URI] },
        preRegistered: { "*": { clientId, clientSecret, authMethod: "client_secret_basic" } },
      },
    }),
  );
}

function clientCredentialsBasic(url) {
  const { client_id: clientId, client_secret: clientSecret } = context();
  return authorizedSession(
    url,
    authorizer({
      clientCredentials: true,
      client: {
        metadata: { client_name: "svc", redirect_uris: [] },
        preRegistered: { "*": { clientId, clientSecret, authMethod: "client_secret_basic" } },
      },
    }),
  );
}

/** Why the client must stop, by scenario: the reason an authorization error gives (`data.reason`), or the HTTP status it gave up on. */
const REFUSALS = {
  "auth/resource-mismatch": "resource-mismatch",
  "auth/iss-supported-missing": "iss-missing",
  "auth/iss-wrong-issuer": "iss-mismatch",
  "auth/iss-unexpected": "iss-mismatch",
  "auth/iss-normalized": "iss-mismatch",
  "auth/metadata-issuer-mismatch": "issuer-mismatch",
  // The server answers every request 403 insufficient_scope: after maxAuthorizations (3) authorizations the client gives up.
  "auth/scope-retry-limit": 403,
};

/** What `error` (or an error it was caused by) says stopped the flow. */
function stoppedBy(error) {
  for (let cause = error; cause !== undefined && cause !== null; cause = cause.cause) {
    if (cause.data?.reason !== undefined) return cause.data.reason;
    if (cause.data?.status !== undefined) return cause.data.status;
  }
  return undefined;
}

/** A scenario whose flow must stop for `expected`: done when it does. */
const refusal = (expected) => async (url) => {
  let error;
  await flow(url).catch((thrown) => (error = thrown));
  if (error === undefined) throw new Error(`the client went on where it should have stopped (${expected})`);
  if (stoppedBy(error) !== expected) throw error;
  log(`stopped as it should (${expected}): ${error.message}`);
};

/**
 * Client credentials with private_key_jwt: the context's PEM key signs an assertion whose audience is the authorization server's issuer.
 */
async function clientCredentialsJwt(url) {
  const { client_id: clientId, private_key_pem: pem, signing_algorithm: alg = "ES256" } = context();
  const key = await importPkcs8Pem(pem, alg);
  const assertion = ({ issuer }) => privateKeyJwtAssertion({ clientId, issuer, key });
  return authorizedSession(
    url,
    authorizer({
      clientCredentials: true,
      assertion,
      client: { metadata: { client_name: "svc", redirect_uris: [] }, preRegistered: { "*": { clientId, authMethod: "private_key_jwt" } } },
    }),
  );
}

/** Enterprise-managed authorization (cross-app access): the context's ID token, exchanged at its identity provider for an ID-JAG. */
function enterpriseManaged(url) {
  const {
    client_id: clientId,
    client_secret: clientSecret,
    idp_issuer: idpIssuer,
    idp_token_endpoint: idpTokenEndpoint,
    idp_client_id: idpClientId,
    idp_id_token: idToken,
  } = context();
  const enterprise = { idpIssuer, idpTokenEndpoint, idpClientId, idToken: () => idToken };
  return authorizedSession(
    url,
    authorizer({
      enterprise,
      client: {
        metadata: { client_name: "enterprise", redirect_uris: [] },
        preRegistered: { "*": { clientId, clientSecret, authMethod: "client_secret_basic" } },
      },
    }),
  );
}

/** Workload identity federation: the context's workload JWT (its platform's token) as a JWT bearer grant, no secret. */
function workloadIdentity(url) {
  const { client_id: clientId, valid_jwt: workloadToken } = context();
  const workload = { assertion: () => workloadToken };
  return authorizedSession(
    url,
    authorizer({
      workloadIdentity: workload,
      client: { metadata: { client_name: "workload", redirect_uris: [] }, preRegistered: { "*": { clientId, authMethod: "none" } } },
    }),
  );
}

const FLOW_SCENARIOS = [
  "auth/basic-cimd",
  "auth/basic-dcr",
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/2025-03-26-oauth-metadata-backcompat",
  "auth/2025-03-26-oauth-endpoint-fallback",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
  "auth/authorization-server-migration",
  "auth/iss-supported",
  "auth/iss-not-advertised",
  // DPoP: the server's challenge is a DPoP one, so the Authorizer asks for DPoP-bound tokens by itself.
  "auth/dpop",
  "auth/dpop-nonce",
];

export const authScenarios = {
  ...Object.fromEntries(FLOW_SCENARIOS.map((name) => [name, flow])),
  ...Object.fromEntries(Object.entries(REFUSALS).map(([name, expected]) => [name, refusal(expected)])),
  "auth/pre-registration": preRegistered,
  "auth/client-credentials-basic": clientCredentialsBasic,
  "auth/client-credentials-jwt": clientCredentialsJwt,
  "auth/cross-app-access-complete-flow": enterpriseManaged,
  "auth/enterprise-managed-authorization": enterpriseManaged,
  "auth/wif-jwt-bearer": workloadIdentity,
};

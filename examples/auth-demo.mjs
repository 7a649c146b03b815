#!/usr/bin/env node
// The MCP authorization flow on loopback, step by step (`npm run demo:auth`, which builds first): an
// authorization server (oidc-provider, oidc-provider.mjs), our MCPServer as the protected resource
// (protectedResource + jwtVerifier), and our MCPClient whose fetch goes through an Authorizer. The
// steps print from what really crosses the wire: the Authorizer's own requests (its `fetch` option),
// the user's part (its `interact`), and the MCP requests (the fetch it wraps). No token, code,
// verifier or secret is printed: tokens are shown by their claims, codes and verifiers as "not shown".
import {
  Authorizer,
  headlessInteraction,
  InMemoryOAuthStore,
  jwtVerifier,
  MCPClient,
  MCPServer,
  protectedResource,
  streamableHttpHandler,
  StreamableHttpTransport,
  tokenOwner,
} from "@suaveplan/mcp";
import { serveHttp } from "@suaveplan/mcp/node";
import { startProvider } from "./oidc-provider.mjs";

/** Where the authorization server sends the user back. The headless login stops there; nothing listens on it. */
const REDIRECT_URI = "http://127.0.0.1:53682/callback";
const WRITE_TOOL = "write-note";

const step = (title) => console.log(`\n── ${title}`);
const show = (label, value) => console.log(`   ${label}: ${typeof value === "string" ? value : JSON.stringify(value)}`);

/** The steps of the first connection are named as the wire reaches them; later ones by the section they are in. */
const narration = { section: undefined, current: undefined };
function phase(title) {
  if (narration.section !== undefined || narration.current === title) return;
  narration.current = title;
  step(title);
}
function section(title) {
  narration.section = title;
  step(title);
}

/** A JWT's payload, to show its claims (the token itself is never printed). */
const claimsOf = (jwt) => JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString());

/** Our MCPServer on 127.0.0.1 as a protected resource whose tokens come from `issuer`. */
async function startMcpServer(issuer, jwksUri) {
  const server = new MCPServer({ name: "protected-notes", version: "1.0.0" }, { principalOf: (inbound) => tokenOwner(inbound?.authInfo) });
  server.tool("whoami", { description: "Who the verified token says is calling" }, (_args, ctx) => {
    const { subject, clientId, scopes, issuer: from, claims } = ctx.principal;
    const principal = { subject, clientId, scopes, issuer: from, audience: claims.aud };
    return { content: [{ type: "text", text: JSON.stringify(principal) }], structuredContent: principal };
  });
  server.tool(WRITE_TOOL, { description: "Writes a note: needs mcp:write", requiredScopes: ["mcp:write"] }, () => ({
    content: [{ type: "text", text: "note written" }],
  }));
  // The handler is made once the port, and so the resource's URL (its tokens' audience), is known.
  let handler;
  const http = await serveHttp((request) => handler.fetch(request), { port: 0 });
  const url = new URL("/mcp", http.url).href;
  const authorization = protectedResource({
    resource: url,
    authorizationServers: [issuer],
    scopesSupported: ["mcp:read", "mcp:write"],
    requiredScopes: ["mcp:read"],
    verifier: jwtVerifier({ issuer, jwks: jwksUri, typ: "at+jwt" }),
  });
  handler = streamableHttpHandler(server, { path: "/mcp", authorization });
  return {
    url,
    metadataUrl: authorization.metadataUrl,
    close: async () => {
      await handler.close();
      await http.close();
    },
  };
}

/** The Authorizer's requests (metadata, registration, token endpoint), narrated as they are answered. */
function narratedAuthFetch() {
  const endpoints = { registration: undefined, token: undefined };
  return async (url, init) => {
    const response = await fetch(url, init);
    const answer = response.ok ? await response.clone().json() : undefined;
    if (url.includes("/.well-known/oauth-protected-resource")) {
      phase("discovery");
      show("protected resource metadata", `GET ${url} → ${response.status}`);
      if (answer) show("authorization servers", answer.authorization_servers);
    } else if (url.includes("/.well-known/")) {
      show("authorization server metadata", `GET ${url} → ${response.status}`);
      if (answer) {
        Object.assign(endpoints, { registration: answer.registration_endpoint, token: answer.token_endpoint });
        show("issuer", answer.issuer);
        show("PKCE methods", answer.code_challenge_methods_supported);
      }
    } else if (url === endpoints.registration) {
      phase("dynamic client registration");
      show("registration", `POST ${url} → ${response.status}`);
      if (answer)
        show(
          "client_id",
          `${answer.client_id} (token_endpoint_auth_method ${answer.token_endpoint_auth_method}: a public client, PKCE protects its code)`,
        );
    } else if (url === endpoints.token) {
      narrateToken(new URLSearchParams(init.body).get("grant_type"), response.status, answer);
    }
    return response;
  };
}

/** A token endpoint exchange: the grant, then the token by its claims. */
function narrateToken(grantType, status, answer) {
  const sent = grantType === "authorization_code" ? "the code and the PKCE code_verifier (not shown)" : "the refresh token (not shown)";
  show("token request", `grant_type=${grantType} with ${sent} → ${status}`);
  if (answer === undefined) return;
  phase("the token");
  const claims = claimsOf(answer.access_token);
  show("access token", `a JWT (not shown) for audience ${claims.aud}, subject ${claims.sub}`);
  show("scope", answer.scope);
  show("expires", `in ${answer.expires_in} s (exp ${new Date(claims.exp * 1000).toISOString()})`);
  show(
    "refresh token",
    answer.refresh_token === undefined ? "none" : grantType === "refresh_token" ? "a new one (rotated; not shown)" : "issued (not shown)",
  );
}

/** The user's part: the authorization request, a login without a page, the redirect back. */
function narratedInteraction() {
  // A desktop host would use `loopbackInteraction()` from "@suaveplan/mcp/node": it opens the user's
  // browser and listens on 127.0.0.1 for the redirect. The demo has no user: the loopback provider
  // signs in alice and grants the consent at once, and `headlessInteraction` follows its redirects.
  const user = headlessInteraction(REDIRECT_URI);
  return async (authorizationUrl, signal) => {
    phase("authorization code + PKCE (headless login)");
    const asked = new URL(authorizationUrl);
    const param = (name) => asked.searchParams.get(name);
    show("authorization request", `GET ${asked.origin}${asked.pathname}`);
    show("  response_type", param("response_type"));
    show("  client_id", param("client_id"));
    show("  scope", param("scope"));
    show("  resource", param("resource"));
    show("  code_challenge_method", `${param("code_challenge_method")} (the challenge is the SHA-256 of a verifier the client keeps)`);
    const callback = await user(authorizationUrl, signal);
    const back = new URL(callback).searchParams;
    show("login", "alice signed in and consented (headless: the provider's interaction route grants at once)");
    show(
      "redirected to",
      `${REDIRECT_URI} with a code (not shown), ` +
        `state ${back.get("state") === param("state") ? "matching" : "NOT matching"}, iss ${back.get("iss")}`,
    );
    return callback;
  };
}

/** The MCP requests: refusals with their challenges, and the retry that follows one. */
function narratedMcpFetch() {
  let refused = false;
  return async (url, init) => {
    const response = await fetch(url, init);
    const method = init.body === undefined ? init.method : `${init.method} ${JSON.parse(init.body).method}`;
    if (response.status === 401 || response.status === 403) {
      if (init.headers["authorization"] === undefined) phase("the first call, without a token");
      show("MCP request", `${method} → ${response.status}`);
      show("WWW-Authenticate", response.headers.get("www-authenticate"));
      refused = true;
    } else if (refused) {
      show("MCP request again, with the token", `${method} → ${response.status}`);
      refused = false;
    }
    return response;
  };
}

const oidc = await startProvider();
const mcp = await startMcpServer(oidc.issuer, oidc.jwksUri);
oidc.allowResource(mcp.url);
step("the servers (127.0.0.1)");
show("authorization server", `oidc-provider, issuer ${oidc.issuer}`);
show("MCP server", `${mcp.url} (protectedResource + jwtVerifier: every request needs mcp:read, ${WRITE_TOOL} needs mcp:write)`);

const store = new InMemoryOAuthStore();
const authorizer = new Authorizer({
  client: { metadata: { client_name: "auth demo host", redirect_uris: [REDIRECT_URI] } },
  redirectUri: REDIRECT_URI,
  interact: narratedInteraction(),
  store,
  fetch: narratedAuthFetch(),
});
const client = new MCPClient({ name: "auth-demo", version: "1.0.0" });
await client.connect(new StreamableHttpTransport(mcp.url, { fetchImpl: authorizer.wrap(narratedMcpFetch()) }));

section("the protected call");
const who = await client.callTool("whoami");
show("whoami", who.structuredContent);

section(`step-up: ${WRITE_TOOL} needs mcp:write`);
const written = await client.callTool(WRITE_TOOL);
show(WRITE_TOOL, written.content[0].text);

section("refresh");
// Instead of waiting out the 300 s token, the host's store is told it has expired: the Authorizer
// refreshes it before the next request goes out.
const held = await store.getTokens(oidc.issuer, mcp.url);
await store.setTokens({ ...held, expiresAt: Date.now() });
show("stored access token", "marked expired in the host's store");
const again = await client.callTool("whoami");
show("whoami", again.structuredContent);

step("close");
await client.close();
await mcp.close();
await oidc.close();
show("closed", "client, MCP server, authorization server");

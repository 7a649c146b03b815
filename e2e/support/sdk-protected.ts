// The official SDKs on both sides of MCP authorization, and our protected server, for
// e2e/auth-interop.test.ts: each on 127.0.0.1 (port 0), trusting the one oidc-provider of support/oidc-provider.ts:
// - an SDK 1.x resource server: McpServer on a stateless StreamableHTTPServerTransport behind the
//   SDK's own requireBearerAuth and mcpAuthMetadataRouter, on the SDK's createMcpExpressApp;
// - an SDK 2.x resource server: createMcpHandler (bridged by toNodeHandler of @modelcontextprotocol/node)
//   behind requireBearerAuth and mcpAuthMetadataRouter of @modelcontextprotocol/express, its write tool
//   guarded by the SDK's per-tool scope challenge (requireScopes);
//   both verify the provider's JWT access tokens with jose (remote JWKS; ES256, issuer, audience, typ);
// - our MCPServer as a resource server: protectedResource + jwtVerifier, served by serveHttp;
// - an OAuthClientProvider for the SDK clients whose user is headless (headlessInteraction), and a
//   recording fetch for them that can drop `scope` from their registration request (oidc-provider
//   refuses resource scopes there).
// Every tool answers with who the verified token says calls: sub, aud, client and scopes.
import { createServer, type Server as NodeServer } from "node:http";
import type { AddressInfo } from "node:net";
import type {
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import {
  createMcpExpressApp as createExpress2,
  mcpAuthMetadataRouter as metadataRouter2,
  requireBearerAuth as bearerAuth2,
} from "@modelcontextprotocol/express";
import { toNodeHandler as toNodeHandler2 } from "@modelcontextprotocol/node";
import { McpServer as McpServer1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import { createMcpExpressApp as createExpress1 } from "@modelcontextprotocol/sdk/server/express.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth as bearerAuth1 } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import {
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthMetadataRouter as metadataRouter1,
} from "@modelcontextprotocol/sdk/server/auth/router.js";
import type { OAuthMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";
import { createMcpHandler, McpServer as McpServer2, OAuthError, OAuthErrorCode, requireScopes } from "@modelcontextprotocol/server";
import type { Express, NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createRemoteJWKSet, jwtVerify } from "jose";
import {
  headlessInteraction,
  jwtVerifier,
  MCPServer,
  protectedResource,
  streamableHttpHandler,
  tokenOwner,
  type StreamableHttpHandler,
  type TokenPrincipal,
} from "../../src/index.js";
import { serveHttp } from "../../src/node/index.js";
import { MCP_SCOPES, type RunningProvider } from "./oidc-provider.js";
import { REDIRECT_URI } from "./oauth-wire.js";

/** The tool that needs `mcp:write` on top of `mcp:read`. */
export const WRITE_TOOL = "write-note";
const SCOPES = MCP_SCOPES.split(" ");

/** What every tool reports of its caller, from the verified token. */
export interface Caller {
  readonly sub: unknown;
  readonly aud: unknown;
  readonly clientId: unknown;
  readonly scopes: readonly string[];
}

export interface ProtectedEndpoint {
  /** `http://127.0.0.1:<port>/mcp`: the endpoint, and the resource its tokens are issued for. */
  readonly url: string;
  readonly metadataUrl: string;
  /** Every answer of the endpoint, as "status www-authenticate" ("-" for none). */
  readonly answers: string[];
  /** The tools that ran, as "name sub". */
  readonly ran: string[];
  /** Why the token check refused tokens (jose's error codes, or our verifier's reasons). */
  readonly refused: string[];
  close(): Promise<void>;
}

type Oidc = Pick<RunningProvider, "issuer" | "jwksUri">;
interface Seen {
  readonly answers: string[];
  readonly ran: string[];
  readonly refused: string[];
}

const said = (caller: Caller) => ({ content: [{ type: "text" as const, text: JSON.stringify(caller) }] });
const written = () => ({ content: [{ type: "text" as const, text: "written" }] });

/** An SDK `OAuthTokenVerifier` on jose: the JWT's signature by the provider's JWKS, its issuer, audience (`resource`) and `typ`. */
function joseVerifier(oidc: Oidc, resource: string, refused: string[], invalid: (message: string) => Error) {
  const keys = createRemoteJWKSet(new URL(oidc.jwksUri));
  return {
    verifyAccessToken: async (token: string) => {
      try {
        const { payload } = await jwtVerify(token, keys, { issuer: oidc.issuer, audience: resource, typ: "at+jwt", algorithms: ["ES256"] });
        const scopes = typeof payload["scope"] === "string" ? payload["scope"].split(" ") : [];
        const expiry = payload.exp === undefined ? {} : { expiresAt: payload.exp };
        return {
          token,
          clientId: String(payload["client_id"]),
          scopes,
          ...expiry,
          resource: new URL(String(payload.aud)),
          extra: { sub: payload.sub, aud: payload.aud },
        };
      } catch (error) {
        refused.push((error as { code?: string }).code ?? String(error));
        throw invalid("The access token was refused");
      }
    },
  };
}

/** An SDK `AuthInfo` as the tools report it. */
function callerOf(auth: { clientId: string; scopes: string[]; extra?: Record<string, unknown> } | undefined): Caller {
  return { sub: auth?.extra?.["sub"], aud: auth?.extra?.["aud"], clientId: auth?.clientId, scopes: auth?.scopes ?? [] };
}

/** A Node HTTP server on 127.0.0.1, port 0, its app attached once its URL is known. */
async function listen(): Promise<{ readonly http: NodeServer; readonly url: string; readonly close: () => Promise<void> }> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
  return { http, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, close };
}

/** The provider's metadata, which the SDKs' metadata routers also serve at the resource's origin. */
async function providerMetadata(issuer: string): Promise<OAuthMetadata> {
  const response = await fetch(`${issuer}/.well-known/openid-configuration`);
  return (await response.json()) as OAuthMetadata;
}

/** Records each answer to /mcp (status and challenge) once it is sent. */
function recordAnswers(app: Express, answers: string[]): void {
  app.use((req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (req.path === "/mcp")
      res.on("finish", () => void answers.push(`${res.statusCode} ${String(res.getHeader("www-authenticate") ?? "-")}`));
    next();
  });
}

function sdk1Server(seen: Seen): McpServer1 {
  const server = new McpServer1({ name: "sdk1-protected", version: "1.0.0" });
  server.registerTool("whoami", { description: "Says who called, as the token said" }, (extra) => {
    const caller = callerOf(extra.authInfo);
    seen.ran.push(`whoami ${String(caller.sub)}`);
    return said(caller);
  });
  return server;
}

/** SDK 1.x: McpServer, a stateless StreamableHTTPServerTransport per POST, requireBearerAuth and mcpAuthMetadataRouter. */
export async function startSdk1Protected(oidc: Oidc): Promise<ProtectedEndpoint> {
  const { http, url, close } = await listen();
  const seen: Seen = { answers: [], ran: [], refused: [] };
  const metadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(url));
  const app = createExpress1({ host: "127.0.0.1" });
  recordAnswers(app, seen.answers);
  app.use(
    metadataRouter1({
      oauthMetadata: await providerMetadata(oidc.issuer),
      resourceServerUrl: new URL(url),
      scopesSupported: SCOPES,
      resourceName: "SDK 1.x protected",
    }),
  );
  const verifier = joseVerifier(oidc, url, seen.refused, (message) => new InvalidTokenError(message));
  const bearer = bearerAuth1({ verifier, requiredScopes: ["mcp:read"], resourceMetadataUrl: metadataUrl, expectedResource: new URL(url) });
  const serve = async (req: ExpressRequest, res: ExpressResponse) => {
    const server = sdk1Server(seen);
    // No sessionIdGenerator: the stateless mode.
    const transport = new StreamableHTTPServerTransport({});
    res.on("close", () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  };
  app.post("/mcp", bearer, (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => void serve(req, res).catch(next));
  // Stateless: no GET stream, no session to delete (the SDK's stateless example answers 405).
  app.all(
    "/mcp",
    bearer,
    (_req: ExpressRequest, res: ExpressResponse) =>
      void res
        .status(405)
        .set("allow", "POST")
        .json({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null }),
  );
  http.on("request", app);
  return { url, metadataUrl, ...seen, close };
}

function sdk2Server(seen: Seen): McpServer2 {
  const server = new McpServer2({ name: "sdk2-protected", version: "1.0.0" });
  server.registerTool("whoami", { description: "Says who called, as the token said" }, (ctx) => {
    const caller = callerOf(ctx.http?.authInfo);
    seen.ran.push(`whoami ${String(caller.sub)}`);
    return said(caller);
  });
  server.registerTool(WRITE_TOOL, { description: "Needs mcp:write", scopeChallenge: requireScopes("mcp:read", "mcp:write") }, (ctx) => {
    seen.ran.push(`${WRITE_TOOL} ${String(callerOf(ctx.http?.authInfo).sub)}`);
    return written();
  });
  return server;
}

/** SDK 2.x: createMcpHandler through toNodeHandler, behind @modelcontextprotocol/express's requireBearerAuth and mcpAuthMetadataRouter. */
export async function startSdk2Protected(oidc: Oidc): Promise<ProtectedEndpoint> {
  const { http, url, close } = await listen();
  const seen: Seen = { answers: [], ran: [], refused: [] };
  const metadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(url));
  const app = createExpress2({ host: "127.0.0.1" });
  recordAnswers(app, seen.answers);
  app.use(
    metadataRouter2({
      oauthMetadata: await providerMetadata(oidc.issuer),
      resourceServerUrl: new URL(url),
      scopesSupported: SCOPES,
      resourceName: "SDK 2.x protected",
    }),
  );
  const verifier = joseVerifier(oidc, url, seen.refused, (message) => new OAuthError(OAuthErrorCode.InvalidToken, message));
  const handler = createMcpHandler(() => sdk2Server(seen));
  const serve = toNodeHandler2(handler);
  app.all(
    "/mcp",
    bearerAuth2({ verifier, requiredScopes: ["mcp:read"], resourceMetadataUrl: metadataUrl, expectedResource: new URL(url) }),
    (req: ExpressRequest, res: ExpressResponse) => void serve(req, res, req.body),
  );
  http.on("request", app);
  return {
    url,
    metadataUrl,
    ...seen,
    close: async () => {
      await handler.close();
      await close();
    },
  };
}

/** Our MCPServer as a resource server: protectedResource + jwtVerifier, `principalOf` the token's owner; the write tool needs mcp:write. */
export async function startOurProtected(oidc: Oidc): Promise<ProtectedEndpoint> {
  const seen: Seen = { answers: [], ran: [], refused: [] };
  const server = new MCPServer(
    { name: "ours-protected", version: "1.0.0" },
    { telemetry: null, principalOf: (inbound) => tokenOwner(inbound?.authInfo) },
  );
  server.tool("whoami", { description: "Says who called, as the token said" }, (_args, ctx) => {
    const principal = ctx.principal as TokenPrincipal;
    seen.ran.push(`whoami ${String(principal.subject)}`);
    return said({ sub: principal.subject, aud: principal.claims["aud"], clientId: principal.clientId, scopes: principal.scopes });
  });
  server.tool(WRITE_TOOL, { description: "Needs mcp:write", requiredScopes: ["mcp:write"] }, (_args, ctx) => {
    seen.ran.push(`${WRITE_TOOL} ${String((ctx.principal as TokenPrincipal).subject)}`);
    return written();
  });
  // The handler is made once the port (and so the resource's URL) is known.
  let handler: StreamableHttpHandler | undefined;
  const http = await serveHttp(
    async (request) => {
      const response = await (handler as StreamableHttpHandler).fetch(request);
      if (new URL(request.url).pathname === "/mcp")
        seen.answers.push(`${response.status} ${response.headers.get("www-authenticate") ?? "-"}`);
      return response;
    },
    { port: 0 },
  );
  const url = new URL("/mcp", http.url).href;
  const verifier = jwtVerifier({ issuer: oidc.issuer, jwks: oidc.jwksUri, typ: "at+jwt" });
  const resource = protectedResource({
    resource: url,
    authorizationServers: [oidc.issuer],
    scopesSupported: SCOPES,
    requiredScopes: ["mcp:read"],
    verifier: async (token, context) => {
      const verified = await verifier(token, context);
      if ("refused" in verified) seen.refused.push(verified.refused);
      return verified;
    },
  });
  handler = streamableHttpHandler(server, { path: "/mcp", authorization: resource });
  return {
    url,
    metadataUrl: resource.metadataUrl,
    ...seen,
    close: async () => {
      await handler?.close();
      await http.close();
    },
  };
}

/** One request an SDK client sent (MCP, discovery, registration, token), with its answer's status. */
export interface SentRequest {
  readonly method: string;
  readonly url: string;
  readonly body: string;
  readonly status: number;
}

/**
 * The SDK clients' fetch: the platform's, each request recorded as the SDK made it. With
 * `dropRegistrationScope`, a registration request (RFC 7591) goes out without its `scope`: the SDKs
 * register with the scopes the resource asked for (`mcp:read offline_access`), which oidc-provider
 * refuses (`invalid_client_metadata`: they are resource scopes, not the authorization server's).
 */
export function recordingFetch(
  sent: SentRequest[],
  options: { readonly dropRegistrationScope?: boolean } = {},
): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return async (url, init) => {
    const body = typeof init?.body === "string" ? init.body : init?.body instanceof URLSearchParams ? init.body.toString() : "";
    const unscoped = init?.method === "POST" && String(url).endsWith("/reg") && options.dropRegistrationScope === true;
    const response = await fetch(
      url,
      unscoped
        ? {
            ...init,
            body: JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(body) as object).filter(([name]) => name !== "scope"))),
          }
        : init,
    );
    sent.push({ method: init?.method ?? "GET", url: String(url), body, status: response.status });
    return response;
  };
}

/**
 * An OAuthClientProvider (SDK 2.x's interface; SDK 1.x's is a subset) for a native client on
 * REDIRECT_URI, registered by DCR, its state in memory. `redirectToAuthorization` is the user:
 * headlessInteraction follows the provider's login and consent to the callback, which it keeps for
 * `finishAuth`.
 */
export class HeadlessOAuthProvider implements OAuthClientProvider {
  readonly authorizationUrls: string[] = [];
  readonly callbacks: string[] = [];
  #client: StoredOAuthClientInformation | undefined;
  #tokens: StoredOAuthTokens | undefined;
  #verifier = "";
  #discovery: OAuthDiscoveryState | undefined;
  readonly #user = headlessInteraction(REDIRECT_URI);

  get redirectUrl(): string {
    return REDIRECT_URI;
  }
  get clientMetadata() {
    return {
      client_name: "sdk-e2e host",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      application_type: "native",
    };
  }
  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.#client;
  }
  saveClientInformation(client: StoredOAuthClientInformation): void {
    this.#client = client;
  }
  tokens(): StoredOAuthTokens | undefined {
    return this.#tokens;
  }
  saveTokens(tokens: StoredOAuthTokens): void {
    this.#tokens = tokens;
  }
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.authorizationUrls.push(authorizationUrl.href);
    this.callbacks.push(await this.#user(authorizationUrl.href, AbortSignal.timeout(10_000)));
  }
  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }
  codeVerifier(): string {
    return this.#verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }
  /** The parameters of the last callback: what `finishAuth` takes. */
  get lastCallback(): URLSearchParams {
    return new URL(this.callbacks.at(-1) ?? "http://invalid/").searchParams;
  }
}

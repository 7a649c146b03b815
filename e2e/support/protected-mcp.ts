// Our MCPServer as a protected resource (RFC 9728) in front of a real authorization server, written
// the way a host would with what the library has: a small router serves the protected resource
// metadata document; `authenticate` verifies the bearer JWT (RFC 9068) with `verifyJwt` against the
// authorization server's JWKS (`remoteJwks`), its issuer and our URL as audience; it answers 401
// with a Bearer challenge (`error="invalid_token"` when a token was sent) and 403
// `insufficient_scope` for the tool that needs `mcp:write`, which it reads off the stateless era's
// `Mcp-Name` header (the server checks that header against the body, so the body is not read here).
import { MCPServer, streamableHttpHandler, type Authenticate, type EventBus, type MCPEventMap } from "../../src/index.js";
import { remoteJwks, verifyJwt, type JoseCheck } from "../../src/auth/jose/index.js";
import { serveHttp } from "../../src/node/index.js";
import type { Telemetry } from "../../src/telemetry/index.js";

/** What `authenticate` hands to the tools: the verified claims, never the token. */
export interface Principal {
  readonly sub: unknown;
  readonly clientId: unknown;
  readonly scope: unknown;
  readonly aud: unknown;
  readonly iss: unknown;
}

export interface ProtectedMcp {
  /** `http://127.0.0.1:<port>/mcp`: the endpoint, and the resource (the audience of its tokens). */
  readonly url: string;
  readonly metadataUrl: string;
  /** The tools that ran, by name. */
  readonly ran: string[];
  /** Why tokens were refused: the failed check of `verifyJwt` ("aud", "exp", "signature"…). */
  readonly refused: JoseCheck[];
  /** Every answer of the endpoint, as "status www-authenticate". */
  readonly answers: string[];
  close(): Promise<void>;
}

export interface ProtectedMcpOptions {
  readonly issuer: string;
  readonly jwksUri: string;
  readonly telemetry?: Telemetry | null;
  readonly events?: EventBus<MCPEventMap>;
  /** `verifyJwt`'s clock tolerance (default 0 here: the expiry test waits for a real expiry). */
  readonly clockToleranceSec?: number;
}

/** The tool that needs `mcp:write` on top of `mcp:read`. */
export const WRITE_TOOL = "write-note";
const READ_SCOPE = "mcp:read";
const WRITE_SCOPES = "mcp:read mcp:write";

/** Serves our protected MCPServer on 127.0.0.1 (port 0). */
export async function startProtectedMcp(options: ProtectedMcpOptions): Promise<ProtectedMcp> {
  const ran: string[] = [];
  const refused: JoseCheck[] = [];
  const answers: string[] = [];
  const server = new MCPServer({ name: "protected", version: "1.0.0" }, { telemetry: options.telemetry ?? null, ...(options.events ? { events: options.events } : {}) });
  server.tool("whoami", { description: "Says who called, as the token said" }, (_args, ctx) => {
    ran.push("whoami");
    return { content: [{ type: "text", text: JSON.stringify(ctx.principal) }], structuredContent: { ...(ctx.principal as Principal) } };
  });
  server.tool(WRITE_TOOL, { description: "Needs mcp:write" }, () => {
    ran.push(WRITE_TOOL);
    return { content: [{ type: "text", text: "written" }] };
  });
  const site: { origin?: string } = {};
  const handler = streamableHttpHandler(server, { path: "/mcp", authenticate: bearerCheck(options, site, refused) });
  const http = await serveHttp(async (request) => {
    const { pathname } = new URL(request.url);
    if (request.method === "GET" && pathname === "/.well-known/oauth-protected-resource/mcp") {
      return Response.json({ resource: `${site.origin}/mcp`, authorization_servers: [options.issuer], scopes_supported: WRITE_SCOPES.split(" "), bearer_methods_supported: ["header"] });
    }
    const response = await handler.fetch(request);
    answers.push(`${response.status} ${response.headers.get("www-authenticate") ?? "-"}`);
    return response;
  }, { port: 0 });
  site.origin = new URL(http.url).origin;
  return {
    url: `${site.origin}/mcp`,
    metadataUrl: `${site.origin}/.well-known/oauth-protected-resource/mcp`,
    ran,
    refused,
    answers,
    close: async () => {
      await handler.close();
      await http.close();
    },
  };
}

/** `authenticate`: the bearer JWT verified for `site`'s /mcp, its scope checked against what the tool named in `Mcp-Name` needs. */
function bearerCheck(options: ProtectedMcpOptions, site: { readonly origin?: string }, refused: JoseCheck[]): Authenticate {
  const keys = remoteJwks(options.jwksUri, { fetch: (url, init) => fetch(url, init) });
  return async (request) => {
    const resource = `${site.origin}/mcp`;
    const challenge = (scope: string, error?: string) => `Bearer ${error === undefined ? "" : `error="${error}", `}scope="${scope}", resource_metadata="${site.origin}/.well-known/oauth-protected-resource/mcp"`;
    const token = /^Bearer (\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    if (token === undefined) return { refuse: 401, wwwAuthenticate: challenge(READ_SCOPE) };
    let claims: Record<string, unknown>;
    try {
      claims = await verifyJwt(token, { keys, issuer: options.issuer, audience: resource, typ: "at+jwt", clockToleranceSec: options.clockToleranceSec ?? 0 });
    } catch (error) {
      refused.push((error as { data?: { check: JoseCheck } }).data?.check as JoseCheck);
      return { refuse: 401, wwwAuthenticate: challenge(READ_SCOPE, "invalid_token"), message: "The access token was refused" };
    }
    const granted = new Set(typeof claims["scope"] === "string" ? claims["scope"].split(" ") : []);
    const needed = request.headers.get("mcp-name") === WRITE_TOOL ? WRITE_SCOPES : READ_SCOPE;
    if (!needed.split(" ").every((scope) => granted.has(scope))) return { refuse: 403, wwwAuthenticate: challenge(needed, "insufficient_scope"), message: "Insufficient scope" };
    return { authInfo: { sub: claims["sub"], clientId: claims["client_id"], scope: claims["scope"], aud: claims["aud"], iss: claims["iss"] } satisfies Principal };
  };
}

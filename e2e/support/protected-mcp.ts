// Our MCPServer as a protected resource (RFC 9728) in front of a real authorization server, built on
// the library's resource-server API: `streamableHttpHandler` with `authorization: protectedResource`
// (which serves the protected resource metadata document and answers the 401/403 challenges) and a
// `jwtVerifier` that checks the bearer JWT (RFC 9068, `typ` at+jwt) against the authorization
// server's JWKS, its issuer and our URL as audience. Every request needs `mcp:read`; the tool
// WRITE_TOOL needs `mcp:write` too (`requiredScopes` at its registration). The verifier's refusals
// and the endpoint's answers are recorded for the tests.
import {
  jwtVerifier,
  MCPServer,
  protectedResource,
  streamableHttpHandler,
  tokenOwner,
  type EventBus,
  type MCPEventMap,
  type StreamableHttpHandler,
  type TokenPrincipal,
  type TokenVerifier,
} from "../../src/index.js";
import { serveHttp } from "../../src/node/index.js";
import type { Telemetry } from "../../src/telemetry/index.js";

/** What `whoami` answers: the verified token's claims, never the token. */
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
  /** Why tokens were refused: the `jwtVerifier`'s reasons ("Token rejected (aud): …"), as the 401's `error_description` gives them. */
  readonly refused: string[];
  /** Every answer of the endpoint, as "status www-authenticate". */
  readonly answers: string[];
  close(): Promise<void>;
}

export interface ProtectedMcpOptions {
  readonly issuer: string;
  readonly jwksUri: string;
  readonly telemetry?: Telemetry | null;
  readonly events?: EventBus<MCPEventMap>;
  /** The verifier's clock tolerance (default 0 here: the expiry test waits for a real expiry). */
  readonly clockToleranceSec?: number;
}

/** The tool that needs `mcp:write` on top of `mcp:read`. */
export const WRITE_TOOL = "write-note";
const READ_SCOPE = "mcp:read";
const WRITE_SCOPE = "mcp:write";

/** `whoami`'s answer from the verifier's principal and its claims. */
function principalOf(principal: TokenPrincipal): Principal {
  return {
    sub: principal.subject,
    clientId: principal.clientId,
    scope: principal.claims["scope"],
    aud: principal.claims["aud"],
    iss: principal.issuer,
  };
}

/** Serves our protected MCPServer on 127.0.0.1 (port 0). */
export async function startProtectedMcp(options: ProtectedMcpOptions): Promise<ProtectedMcp> {
  const ran: string[] = [];
  const refused: string[] = [];
  const answers: string[] = [];
  const server = new MCPServer(
    { name: "protected", version: "1.0.0" },
    {
      telemetry: options.telemetry ?? null,
      principalOf: (inbound) => tokenOwner(inbound?.authInfo),
      ...(options.events ? { events: options.events } : {}),
    },
  );
  server.tool("whoami", { description: "Says who called, as the token said" }, (_args, ctx) => {
    ran.push("whoami");
    const principal = principalOf(ctx.principal as TokenPrincipal);
    return { content: [{ type: "text", text: JSON.stringify(principal) }], structuredContent: { ...principal } };
  });
  server.tool(WRITE_TOOL, { description: "Needs mcp:write", requiredScopes: [WRITE_SCOPE] }, () => {
    ran.push(WRITE_TOOL);
    return { content: [{ type: "text", text: "written" }] };
  });
  // The handler is made once the port (and so the resource's URL, the tokens' audience) is known.
  let handler: StreamableHttpHandler | undefined;
  const http = await serveHttp(
    async (request) => {
      const response = await (handler as StreamableHttpHandler).fetch(request);
      if (new URL(request.url).pathname === "/mcp") answers.push(`${response.status} ${response.headers.get("www-authenticate") ?? "-"}`);
      return response;
    },
    { port: 0 },
  );
  const url = new URL("/mcp", http.url).href;
  const authorization = protectedResource({
    resource: url,
    authorizationServers: [options.issuer],
    scopesSupported: [READ_SCOPE, WRITE_SCOPE],
    requiredScopes: [READ_SCOPE],
    verifier: recording(
      jwtVerifier({ issuer: options.issuer, jwks: options.jwksUri, typ: "at+jwt", clockToleranceSec: options.clockToleranceSec ?? 0 }),
      refused,
    ),
  });
  handler = streamableHttpHandler(server, { path: "/mcp", authorization });
  return {
    url,
    metadataUrl: authorization.metadataUrl,
    ran,
    refused,
    answers,
    close: async () => {
      await handler?.close();
      await http.close();
    },
  };
}

/** `verifier`, each of its refusal reasons pushed onto `refused`. */
function recording(verifier: TokenVerifier, refused: string[]): TokenVerifier {
  return async (token, context) => {
    const verified = await verifier(token, context);
    if ("refused" in verified) refused.push(verified.refused);
    return verified;
  };
}

// A resource server that takes DPoP-bound access tokens only (RFC 9449 §7), for the DPoP e2e tests:
// our MCPServer behind `streamableHttpHandler` with the low-level `authenticate` hook, which the
// library's resource-server side (Bearer only) does not cover, so the checks are written here with
// the `jose` library. Without a token: 401 `DPoP algs="ES256", resource_metadata="…"`. With one: the
// scheme must be DPoP; the `DPoP` proof must verify with its embedded JWK (`typ` dpop+jwt, ES256),
// name this request's method and the endpoint's URL (`htm`, `htu`), carry the token's hash (`ath`),
// a `jti` never seen before and an `iat` within 60 s; with `nonce`, the proof must carry the server's
// nonce (else 401 `DPoP error="use_dpop_nonce"` and a `DPoP-Nonce` header); the access token must be
// an RFC 9068 JWT of the authorization server (its JWKS, issuer, audience = the endpoint's URL) bound
// to the proof's key (`cnf.jkt` = the RFC 7638 thumbprint of the embedded JWK). The protected
// resource metadata document is served beside the endpoint. Everything it saw is recorded.
import { createHash, randomBytes } from "node:crypto";
import { calculateJwkThumbprint, createRemoteJWKSet, EmbeddedJWK, jwtVerify, type JWK } from "jose";
import { MCPServer, streamableHttpHandler, type Authenticate, type AuthenticationResult } from "../../src/index.js";
import { serveHttp } from "../../src/node/index.js";

/** What `whoami` answers: the verified token's subject and client, and the key it is bound to. */
export interface DpopPrincipal {
  readonly sub: unknown;
  readonly clientId: unknown;
  readonly jkt: string;
}

/** A proof whose signature and claims verified (before the nonce and the token were checked). */
export interface SeenProof {
  readonly method: string;
  readonly jti: string;
  /** The RFC 7638 thumbprint of the proof's embedded JWK. */
  readonly jkt: string;
  readonly nonce: string | undefined;
  /** The access token the proof came with. */
  readonly token: string;
}

export interface DpopResource {
  /** `http://127.0.0.1:<port>/mcp`: the endpoint, the resource, the `htu` of its proofs. */
  readonly url: string;
  readonly metadataUrl: string;
  /** The nonce its proofs must carry (with `nonce`). */
  readonly nonce: string | undefined;
  /** The tools that ran, by name. */
  readonly ran: string[];
  readonly proofs: SeenProof[];
  /** Why requests with a token were refused (`use_dpop_nonce`, `invalid_dpop_proof: …`, `invalid_token: …`). */
  readonly refused: string[];
  /** Every answer of the endpoint, as "status www-authenticate". */
  readonly answers: string[];
  close(): Promise<void>;
}

export interface DpopResourceOptions {
  readonly issuer: string;
  readonly jwksUri: string;
  /** Whether proofs must carry this server's nonce (RFC 9449 §9). */
  readonly nonce?: boolean;
}

/** How long a proof's `iat` may be from now. */
const PROOF_WINDOW_SEC = 60;

/** A refusal of `authenticate`, its reason recorded. */
class Refused extends Error {
  constructor(
    readonly error: "invalid_token" | "invalid_dpop_proof" | "use_dpop_nonce",
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
  }
}

/** Serves the DPoP-only MCP endpoint on 127.0.0.1 (port 0). */
export async function startDpopResource(options: DpopResourceOptions): Promise<DpopResource> {
  const nonce = options.nonce === true ? randomBytes(16).toString("base64url") : undefined;
  const seen = { ran: [] as string[], proofs: [] as SeenProof[], refused: [] as string[], answers: [] as string[] };
  const server = new MCPServer({ name: "dpop-resource", version: "1.0.0" }, { telemetry: null });
  server.tool("whoami", { description: "Says who called, and with which key, as the token said" }, (_args, ctx) => {
    seen.ran.push("whoami");
    return { content: [{ type: "text", text: JSON.stringify(ctx.principal) }], structuredContent: { ...(ctx.principal as DpopPrincipal) } };
  });
  const site: { origin?: string } = {};
  const handler = streamableHttpHandler(server, { path: "/mcp", authenticate: dpopCheck(options, site, nonce, seen) });
  const http = await serveHttp(
    async (request) => {
      const { pathname } = new URL(request.url);
      if (request.method === "GET" && pathname === "/.well-known/oauth-protected-resource/mcp") {
        return Response.json({
          resource: `${site.origin}/mcp`,
          authorization_servers: [options.issuer],
          scopes_supported: ["mcp:read", "mcp:write"],
        });
      }
      const response = await handler.fetch(request);
      const challenge = response.headers.get("www-authenticate");
      seen.answers.push(`${response.status} ${challenge ?? "-"}`);
      if (nonce === undefined || challenge?.includes('error="use_dpop_nonce"') !== true) return response;
      // The hook cannot set headers: the nonce goes on its refusal here.
      const headers = new Headers(response.headers);
      headers.set("dpop-nonce", nonce);
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    },
    { port: 0 },
  );
  site.origin = new URL(http.url).origin;
  return {
    url: `${site.origin}/mcp`,
    metadataUrl: `${site.origin}/.well-known/oauth-protected-resource/mcp`,
    nonce,
    ...seen,
    close: async () => {
      await handler.close();
      await http.close();
    },
  };
}

/** `authenticate`: a DPoP-bound token for `site`'s /mcp, with a fresh proof of its key. */
function dpopCheck(
  options: DpopResourceOptions,
  site: { readonly origin?: string },
  nonce: string | undefined,
  seen: Pick<DpopResource, "proofs" | "refused">,
): Authenticate {
  const keys = createRemoteJWKSet(new URL(options.jwksUri));
  const jtis = new Set<string>();
  return async (request): Promise<AuthenticationResult> => {
    const resource = `${site.origin}/mcp`;
    const metadata = `resource_metadata="${site.origin}/.well-known/oauth-protected-resource/mcp"`;
    const authorization = /^(\S+) (\S+)$/.exec(request.headers.get("authorization") ?? "");
    if (authorization === null) return { refuse: 401, wwwAuthenticate: `DPoP algs="ES256", ${metadata}` };
    const [, scheme = "", token = ""] = authorization;
    try {
      if (scheme.toLowerCase() !== "dpop")
        throw new Refused("invalid_token", `the ${scheme} scheme: this resource takes DPoP-bound tokens only`);
      const proof = await checkProof(request, resource, token, jtis);
      seen.proofs.push({ method: request.method, token, ...proof });
      if (nonce !== undefined && proof.nonce !== nonce) throw new Refused("use_dpop_nonce", "the proof must carry this server's nonce");
      const claims = await checkToken(token, keys, options.issuer, resource);
      const cnf = claims["cnf"] as { jkt?: unknown } | undefined;
      if (cnf?.jkt !== proof.jkt) throw new Refused("invalid_token", "the token is not bound to the proof's key");
      return { authInfo: { sub: claims["sub"], clientId: claims["client_id"], jkt: proof.jkt } satisfies DpopPrincipal };
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      seen.refused.push(error.message);
      return {
        refuse: 401,
        wwwAuthenticate: `DPoP error="${error.error}", error_description="${error.description}", algs="ES256", ${metadata}`,
        message: "The DPoP proof or token was refused",
      };
    }
  };
}

/** The request's proof verified (RFC 9449 §4.3): its claims and the thumbprint of its key. */
async function checkProof(
  request: Request,
  resource: string,
  token: string,
  jtis: Set<string>,
): Promise<Omit<SeenProof, "method" | "token">> {
  const proof = request.headers.get("dpop");
  if (proof === null || proof.includes(",")) throw new Refused("invalid_dpop_proof", "one DPoP proof is needed");
  let verified: Awaited<ReturnType<typeof jwtVerify>>;
  try {
    verified = await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt", algorithms: ["ES256"] });
  } catch (error) {
    throw new Refused("invalid_dpop_proof", `the proof does not verify (${(error as Error).message})`);
  }
  const { payload, protectedHeader } = verified;
  const { jti, htm, htu, iat, ath, nonce } = payload as Record<string, unknown>;
  if (htm !== request.method) throw new Refused("invalid_dpop_proof", "htm is not this request's method");
  if (htu !== resource) throw new Refused("invalid_dpop_proof", "htu is not this endpoint");
  if (ath !== createHash("sha256").update(token).digest("base64url"))
    throw new Refused("invalid_dpop_proof", "ath is not the token's hash");
  if (typeof iat !== "number" || Math.abs(Date.now() / 1000 - iat) > PROOF_WINDOW_SEC)
    throw new Refused("invalid_dpop_proof", "iat is not recent");
  if (typeof jti !== "string" || jtis.has(jti)) throw new Refused("invalid_dpop_proof", "jti is missing or was seen before");
  jtis.add(jti);
  return { jti, jkt: await calculateJwkThumbprint(protectedHeader.jwk as JWK), nonce: typeof nonce === "string" ? nonce : undefined };
}

/** The access token verified as an RFC 9068 JWT of `issuer` for `resource`: its claims. */
async function checkToken(
  token: string,
  keys: ReturnType<typeof createRemoteJWKSet>,
  issuer: string,
  resource: string,
): Promise<Record<string, unknown>> {
  try {
    const { payload } = await jwtVerify(token, keys, { issuer, audience: resource, typ: "at+jwt", algorithms: ["ES256"] });
    return payload;
  } catch (error) {
    throw new Refused("invalid_token", `the token does not verify (${(error as Error).message})`);
  }
}

import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, describeThrown } from "../../error-codes/mcp-error.js";
import { isJsonObject } from "../../json-schema/json-values.js";
import type { JsonObject } from "../../types/types.js";
import { TokenCache } from "./token-cache.js";
import type {
  IntrospectionFetch,
  IntrospectionVerifierOptions,
  TokenPrincipal,
  TokenRefusal,
  TokenVerifier,
  VerifyContext,
} from "./resource-server.types.js";

const DEFAULTS = { clockSkewSeconds: 60, cacheSize: 1000, cacheTtlMs: 60_000, timeoutMs: 10_000 } as const;

type Verdict = TokenPrincipal | TokenRefusal;

/** `application/x-www-form-urlencoded` of one value (RFC 6749 Appendix B: also what HTTP Basic client credentials are made of). */
function formEncoded(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, "+");
}

/**
 * A `TokenVerifier` that asks the authorization server (RFC 7662 token introspection), authenticated
 * with the resource server's client credentials (or headers of your own). A token is accepted when
 * the response says `active: true`, is no refresh token, has not expired (`exp`, `nbf`, with the
 * clock skew allowed), comes from `issuer` (when given) and names this resource among its audiences
 * (`aud`). Accepted tokens are remembered by their SHA-256 (never the token) for at most
 * `cacheTtlMs` and never past `exp`; refusals are not remembered. A failing authorization server
 * (unreachable, not 200, not JSON, too slow) throws: the request gets 503.
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  if (!URL.canParse(options.endpoint))
    throw new MCPError(MCP_CODES.INVALID_PARAMS, `introspectionVerifier: endpoint ${JSON.stringify(options.endpoint)} is not a URL`);
  const now = options.now ?? Date.now;
  const ttl = options.cacheTtlMs ?? DEFAULTS.cacheTtlMs;
  const cache = new TokenCache<Verdict>(options.cacheSize ?? DEFAULTS.cacheSize, now);
  return (token, context) =>
    cache.get(token, async () => {
      const verdict = judge(await introspect(options, token), context, options, now() / 1000);
      // Only an accepted token is remembered, and not past its expiry.
      const until =
        "refused" in verdict ? undefined : Math.min(now() + ttl, verdict.expiresAt === undefined ? Infinity : verdict.expiresAt * 1000);
      return { value: verdict, until };
    });
}

/** POSTs the token to the introspection endpoint, within `timeoutMs`. */
async function introspect(options: IntrospectionVerifierOptions, token: string): Promise<JsonObject> {
  const headers: Record<string, string> = {
    ...(await options.headers?.()),
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  let body = `token=${formEncoded(token)}&token_type_hint=access_token`;
  const client = options.client;
  if (client?.method === "client_secret_post") body += `&client_id=${formEncoded(client.id)}&client_secret=${formEncoded(client.secret)}`;
  else if (client) headers["authorization"] = `Basic ${btoa(`${formEncoded(client.id)}:${formEncoded(client.secret)}`)}`;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), options.timeoutMs ?? DEFAULTS.timeoutMs);
  // Stryker disable next-line ArrowFunction: a timer left running only aborts a request that is over; clearing it lets a process exit
  // sooner
  return answerOf(options, { method: "POST", headers, body, signal: timeout.signal }).finally(() => clearTimeout(timer));
}

/**
 * The endpoint's answer: a JSON object, else an error that says why (never the token or the credentials: they went in the body and a
 * header).
 */
async function answerOf(options: IntrospectionVerifierOptions, init: Parameters<IntrospectionFetch>[1]): Promise<JsonObject> {
  try {
    const post: IntrospectionFetch = options.fetch ?? ((url, request) => globalThis.fetch(url, request));
    const response = await post(options.endpoint, init);
    if (response.status !== 200) throw new Error(`it answered HTTP ${response.status}`);
    const answer: unknown = await response.json();
    if (!isJsonObject(answer)) throw new Error("its answer is not a JSON object");
    return answer;
  } catch (error) {
    throw new MCPError(
      MCP_CODES.TRANSPORT_ERROR,
      `Token introspection at ${options.endpoint} failed: ${init.signal.aborted ? "it took too long" : describeThrown(error)}`,
      { cause: error },
    );
  }
}

/** What an introspection response says of the token, for this resource. */
function judge(answer: JsonObject, context: VerifyContext, options: IntrospectionVerifierOptions, nowSeconds: number): Verdict {
  if (answer["active"] !== true) return { refused: "the token is not active" };
  if (answer["token_type"] === "refresh_token") return { refused: "a refresh token is not an access token" };
  const skew = options.clockSkewSeconds ?? DEFAULTS.clockSkewSeconds;
  const { exp, nbf, iss, aud, scope, sub, client_id: clientId } = answer;
  if ((exp !== undefined && typeof exp !== "number") || (nbf !== undefined && typeof nbf !== "number"))
    return { refused: "the token's validity period is malformed" };
  // Stryker disable next-line ConditionalExpression: without exp the sum is NaN, which is never at or below now
  if (exp !== undefined && exp + skew <= nowSeconds) return { refused: "the token expired" };
  // Stryker disable next-line ConditionalExpression: without nbf the difference is NaN, which is never above now
  if (nbf !== undefined && nbf - skew > nowSeconds) return { refused: "the token is not valid yet" };
  if (options.issuer !== undefined && iss !== undefined && iss !== options.issuer)
    return { refused: "the token was issued by another authorization server" };
  const audiences = typeof aud === "string" ? [aud] : Array.isArray(aud) ? aud : undefined;
  if (
    audiences === undefined ? !options.allowMissingAudience : !audiences.some((audience) => context.audiences.includes(audience as string))
  ) {
    return { refused: "the token was not issued for this resource" };
  }
  return {
    subject: typeof sub === "string" ? sub : undefined,
    clientId: typeof clientId === "string" ? clientId : undefined,
    issuer: typeof iss === "string" ? iss : undefined,
    scopes: typeof scope === "string" ? scope.split(" ").filter((part) => part !== "") : [],
    expiresAt: exp,
    claims: answer,
  };
}

/** What a request presents in its `Authorization` header (RFC 6750 §2.1): no bearer token, a malformed one, or exactly one token. */
export type PresentedToken =
  { readonly kind: "none" } | { readonly kind: "malformed" } | { readonly kind: "token"; readonly token: string };

/** `Bearer` (any case), one or more spaces, one b64token (RFC 6750 §2.1) and nothing else. */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;
/** The scheme alone: a bearer credential that is malformed, not another scheme. */
const BEARER_SCHEME = /^bearer(?: |$)/i;

/**
 * The bearer token of an `Authorization` header. Another scheme (Basic, DPoP…) or no header is
 * "none" — RFC 6750 §3.1: a request without a bearer token gets no error code; a `Bearer` credential
 * that is not exactly one token (none, two, a repeated header joined with a comma, characters a
 * token cannot hold) is "malformed".
 */
export function presentedToken(authorization: string | null): PresentedToken {
  if (authorization === null) return { kind: "none" };
  const value = authorization.trim();
  const match = BEARER.exec(value);
  if (match) return { kind: "token", token: match[1] as string };
  return BEARER_SCHEME.test(value) ? { kind: "malformed" } : { kind: "none" };
}

/** Whether a request URL carries an access token in its query string (`access_token`, RFC 6750 §2.3), which is refused and never used. */
export function tokenInQuery(url: string): boolean {
  // Most URLs have no query: those are not parsed.
  // Stryker disable next-line StringLiteral: parsing every URL finds the same; the test only saves the work
  return url.includes("?") && new URL(url).searchParams.get("access_token") !== null;
}

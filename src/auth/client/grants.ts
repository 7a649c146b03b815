// The grants that get a token without a user at a browser, beside the authorization code flow of
// authorizer.ts: each gives the token request's parameters for one authorization server and resource.
import { requestToken, type TokenRequest } from "./token-endpoint.js";
import { secureUrl } from "./url-safety.js";

/** The identity provider's side of enterprise-managed authorization. */
export interface EnterpriseManagedGrant {
  /** The identity provider's issuer and token endpoint (RFC 8693 token exchange). */
  readonly idpIssuer: string;
  readonly idpTokenEndpoint: string;
  /** This client at the identity provider (a public client unless a secret is given: then client_secret_basic). */
  readonly idpClientId: string;
  readonly idpClientSecret?: string;
  /** The user's ID token from the identity provider (asked each time a token is needed). */
  idToken(): string | Promise<string>;
}

/** What a workload's identity token is asked for. */
export interface WorkloadAssertionRequest {
  /** The authorization server's issuer: the audience the token must name (RFC 7523 §3). */
  readonly audience: string;
  readonly tokenEndpoint: string;
  /** The MCP server the access token will be for. */
  readonly resource: string;
  readonly signal: AbortSignal;
}

/**
 * Workload identity federation (SEP-1933): the platform's identity token for this workload (a
 * Kubernetes projected service account token, a SPIFFE JWT-SVID, a cloud or CI OIDC token) is the
 * RFC 7523 JWT bearer grant's assertion. No user, no registration beyond the client id the
 * authorization server trusts the platform's issuer for, no secret.
 */
export interface WorkloadIdentityGrant {
  /** The token, asked each time a token is needed (platform tokens are short-lived: read it fresh). */
  assertion(request: WorkloadAssertionRequest): string | Promise<string>;
}

/** The authorization server and resource a grant's token is for. */
export interface GrantTarget {
  readonly issuer: string;
  readonly tokenEndpoint: string;
  readonly resource: string;
}

type TokenRequestOptions = Pick<TokenRequest, "fetch" | "signal">;
type GrantParams = Record<string, string | undefined>;

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** The JWT bearer grant of an ID-JAG the identity provider gave for the user's ID token, for `target`. */
export async function idJagGrant(
  idp: EnterpriseManagedGrant,
  target: GrantTarget,
  scope: string | undefined,
  options: TokenRequestOptions,
): Promise<GrantParams> {
  secureUrl(idp.idpTokenEndpoint, "identity provider token endpoint");
  const exchanged = await requestToken({
    issuer: idp.idpIssuer,
    tokenEndpoint: idp.idpTokenEndpoint,
    params: {
      grant_type: TOKEN_EXCHANGE,
      requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      audience: target.issuer,
      resource: target.resource,
      scope,
      subject_token: await idp.idToken(),
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
    },
    client:
      idp.idpClientSecret === undefined
        ? { clientId: idp.idpClientId, authMethod: "none" }
        : { clientId: idp.idpClientId, clientSecret: idp.idpClientSecret, authMethod: "client_secret_basic" },
    ...options,
  });
  return { grant_type: JWT_BEARER, assertion: exchanged.access_token };
}

/** The JWT bearer grant of the workload's identity token, for `target`. */
export async function workloadGrant(
  workload: WorkloadIdentityGrant,
  target: GrantTarget,
  scope: string | undefined,
  signal: AbortSignal,
): Promise<GrantParams> {
  const assertion = await workload.assertion({
    audience: target.issuer,
    tokenEndpoint: target.tokenEndpoint,
    resource: target.resource,
    signal,
  });
  return { grant_type: JWT_BEARER, assertion, scope, resource: target.resource };
}

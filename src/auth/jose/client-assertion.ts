// private_key_jwt client authentication (RFC 7523 §2.2 and §3, OpenID Connect Core §9): the client
// proves who it is at the token endpoint with a short-lived JWT signed by its own key.
import { randomHex } from "../../protocol/bytes-text.js";
import type { JwsAlgorithm } from "./algorithms.js";
import { invalidInput } from "./errors.js";
import type { KeyInput } from "./jws.js";
import { signJwt } from "./jwt.js";

/** The `client_assertion_type` form parameter that goes with the assertion (RFC 7523 §2.2). */
export const CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

export const DEFAULT_ASSERTION_LIFETIME_SEC = 300;

/**
 * Who the assertion is for. The authorization server's issuer identifier (its metadata's `issuer`) is
 * the audience whenever it is known: draft-ietf-oauth-rfc7523bis makes it the one value an AS must
 * accept, and the MCP conformance suite verifies the assertion against the issuer. The token
 * endpoint URL (which RFC 7523 §3 also allows) is the audience only when no issuer is given.
 */
export type AssertionAudience =
  { readonly issuer: string; readonly tokenEndpoint?: string } | { readonly issuer?: undefined; readonly tokenEndpoint: string };

export type PrivateKeyJwtOptions = AssertionAudience & {
  /** The client_id: the assertion's iss and sub. */
  readonly clientId: string;
  /** The client's private key: a WebCrypto key or a `JoseKey` (its kid goes in the header). */
  readonly key: KeyInput;
  /** The alg to sign with; must be the key's (e.g. checked against `token_endpoint_auth_signing_alg_values_supported`). */
  readonly alg?: JwsAlgorithm;
  /** Seconds until exp (default 300). */
  readonly lifetimeSec?: number;
  /** The clock, in ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
};

/**
 * The signed client assertion for a token request: send it as `client_assertion`, with
 * `client_assertion_type` = `CLIENT_ASSERTION_TYPE`. Its claims are iss = sub = the client_id, aud
 * (see `AssertionAudience`), a random jti, iat and exp.
 */
export async function privateKeyJwtAssertion(options: PrivateKeyJwtOptions): Promise<string> {
  const { clientId, key, alg } = options;
  if (typeof clientId !== "string" || clientId === "") throw invalidInput("privateKeyJwtAssertion: clientId must be a non-empty string");
  const audience = options.issuer ?? options.tokenEndpoint;
  if (typeof audience !== "string" || audience === "")
    throw invalidInput("privateKeyJwtAssertion: give the authorization server's issuer (or its token endpoint) as the audience");
  const lifetimeSec = options.lifetimeSec ?? DEFAULT_ASSERTION_LIFETIME_SEC;
  if (!Number.isSafeInteger(lifetimeSec) || lifetimeSec <= 0)
    throw invalidInput("privateKeyJwtAssertion: lifetimeSec must be a positive whole number of seconds");
  const iat = Math.floor((options.now ?? Date.now)() / 1000);
  const claims = { iss: clientId, sub: clientId, aud: audience, jti: randomHex(16), iat, exp: iat + lifetimeSec };
  return signJwt(claims, key, alg === undefined ? {} : { alg });
}

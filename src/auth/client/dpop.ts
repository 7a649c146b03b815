// DPoP (RFC 9449): the client proves, on every token request and every request that carries a
// DPoP-bound access token, that it holds the private key the token is bound to. One ES256 key pair
// per Authorizer (made here, private key not extractable, or the host's own to keep across restarts);
// each proof a fresh JWT over the request's method and URL; the nonces servers hand out (RFC 9449
// §8, §9) kept by origin and put in the next proofs to that origin.
import { encodeBase64 } from "../../protocol/bytes-text.js";
import type { FetchResponse } from "../../transport/http-client/http-options.js";
import type { WebCryptoKey } from "../jose/algorithms.js";
import { signJws } from "../jose/jws.js";
import type { AuthorizationServerMetadata } from "./authorization-server.js";
import { readBearerChallenge } from "./www-authenticate.js";

/** The one signing algorithm proofs are made with (the one RFC 9449 implementations share). */
export const DPOP_ALGORITHM = "ES256";
export const DPOP_SCHEME = "DPoP";

/** What a proof is for: the request's method and URL, the access token it carries, if any. */
export interface DpopProofTarget {
  readonly method: string;
  readonly url: string;
  readonly accessToken?: string;
}

/** Whether the authorization server binds tokens to a key this client can prove (`dpop_signing_alg_values_supported` lists ES256). */
export function dpopSupported(metadata: AuthorizationServerMetadata): boolean {
  const algorithms = (metadata as { dpop_signing_alg_values_supported?: unknown }).dpop_signing_alg_values_supported;
  return Array.isArray(algorithms) && algorithms.includes(DPOP_ALGORITHM);
}

/** Whether a token type is DPoP (RFC 9449 §5: compared without regard to case). */
export function isDpopTokenType(tokenType: string): boolean {
  return tokenType.toLowerCase() === "dpop";
}

/**
 * Whether `response` is a resource server's demand for a proof with its nonce (RFC 9449 §9): 401, `DPoP error="use_dpop_nonce"` and a
 * `DPoP-Nonce`.
 */
export function asksForNonce(response: FetchResponse): boolean {
  if (response.status !== 401 || response.headers.get("dpop-nonce") === null) return false;
  return readBearerChallenge(response.headers.get("www-authenticate"), [DPOP_SCHEME])?.error === "use_dpop_nonce";
}

/** An ES256 (ECDSA P-256) key pair: the private key may be non-extractable, the public one is exported into each proof. */
export interface DpopKeyPair {
  readonly privateKey: WebCryptoKey;
  readonly publicKey: WebCryptoKey;
}

// RFC 9449 §8.1: a nonce is 1*NQCHAR (visible ASCII but `"` and `\`); a longer one than this is not kept.
const NONCE = /^[\x21\x23-\x5B\x5D-\x7E]{1,512}$/;

/** One client's DPoP key and the nonces servers gave it. */
export class DpopProver {
  readonly #keys: Promise<{ readonly privateKey: WebCryptoKey; readonly jwk: Readonly<Record<string, unknown>> }>;
  readonly #nonces = new Map<string, string>();

  /** `keyPair`: an ES256 (ECDSA P-256) pair the host keeps (tokens bound to it outlive this instance); a fresh one otherwise. */
  constructor(keyPair?: DpopKeyPair) {
    const pair: Promise<DpopKeyPair> =
      keyPair === undefined
        ? crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])
        : Promise.resolve(keyPair);
    this.#keys = pair.then(async ({ privateKey, publicKey }) => {
      const { kty, crv, x, y } = await crypto.subtle.exportKey("jwk", publicKey);
      return { privateKey, jwk: { kty, crv, x, y } };
    });
  }

  /** A fresh proof for one request (RFC 9449 §4.2): `htu` without query and fragment, `ath` for a token, the origin's last nonce. */
  async proof(target: DpopProofTarget): Promise<string> {
    const { privateKey, jwk } = await this.#keys;
    const url = new URL(target.url);
    const claims: Record<string, unknown> = {
      jti: encodeBase64(crypto.getRandomValues(new Uint8Array(16)), true),
      htm: target.method.toUpperCase(),
      htu: `${url.origin}${url.pathname}`,
      iat: Math.floor(Date.now() / 1000),
    };
    if (target.accessToken !== undefined) claims["ath"] = await sha256(target.accessToken);
    const nonce = this.#nonces.get(url.origin);
    if (nonce !== undefined) claims["nonce"] = nonce;
    return signJws({ typ: "dpop+jwt", alg: DPOP_ALGORITHM, jwk }, claims, privateKey);
  }

  /**
   * Keeps the nonce `response` gave (a `DPoP-Nonce` header) for the next proofs to `url`'s origin; whether it gave one (a malformed one is
   * not kept).
   */
  remember(url: string, response: FetchResponse): boolean {
    const nonce = response.headers.get("dpop-nonce");
    if (nonce === null || !NONCE.test(nonce)) return false;
    this.#nonces.set(new URL(url).origin, nonce);
    return true;
  }
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return encodeBase64(new Uint8Array(digest), true);
}

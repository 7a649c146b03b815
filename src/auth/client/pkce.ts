// PKCE (RFC 7636) with the S256 method only, which is what MCP requires, and the `state` value:
// random material from WebCrypto, so the same code runs in every runtime.
import { encodeBase64 } from "../../protocol/bytes-text.js";
import { authError } from "./auth-error.js";

export const PKCE_METHOD = "S256";

/** A verifier kept by the client until the token request, and the challenge sent in the authorization request. */
export interface Pkce {
  readonly verifier: string;
  readonly challenge: string;
  readonly method: typeof PKCE_METHOD;
}

// RFC 7636 §4.1: 43 to 128 characters of ALPHA / DIGIT / "-" / "." / "_" / "~".
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
// 32 random octets are 43 base64url characters, the length RFC 7636 §4.1 recommends.
const RANDOM_BYTES = 32;

/** A fresh verifier (32 random bytes, base64url: 43 characters) and its S256 challenge. */
export async function createPkce(): Promise<Pkce> {
  const verifier = randomBase64Url();
  return { verifier, challenge: await pkceChallenge(verifier), method: PKCE_METHOD };
}

/**
 * The S256 challenge of `verifier`: base64url, unpadded, of its SHA-256. Throws `MCP.INVALID_PARAMS`
 * for a verifier RFC 7636 does not allow (the message never shows it).
 */
export async function pkceChallenge(verifier: string): Promise<string> {
  if (!VERIFIER.test(verifier))
    throw authError("invalid-argument", "A PKCE code verifier must be 43 to 128 characters of A-Z, a-z, 0-9, '-', '.', '_' and '~'");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return encodeBase64(new Uint8Array(digest), true);
}

/** An unguessable `state` (32 random bytes, base64url), made per authorization request. */
export function createState(): string {
  return randomBase64Url();
}

function randomBase64Url(): string {
  return encodeBase64(crypto.getRandomValues(new Uint8Array(RANDOM_BYTES)), true);
}

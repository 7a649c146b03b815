// The four JWS algorithms (RFC 7518 §3.1, RFC 8037 §3.1) as WebCrypto algorithms, and the one rule
// that stops algorithm confusion: a WebCrypto key is bound to one algorithm and its parameters, so
// the JWS alg a key can serve is read off the key itself, never taken from the token.

/** The signature algorithms supported: ECDSA P-256, RSASSA-PKCS1-v1_5, RSASSA-PSS (all SHA-256) and Ed25519. */
export const JWS_ALGORITHMS = ["ES256", "RS256", "PS256", "EdDSA"] as const;
export type JwsAlgorithm = (typeof JWS_ALGORITHMS)[number];

/** A WebCrypto `CryptoKey`, named through `crypto.subtle` so that the web and the Node typings both fit. */
export type WebCryptoKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/** What a JWK must be for an algorithm, and how WebCrypto imports and uses such a key. */
export interface AlgorithmProfile {
  readonly kty: "EC" | "RSA" | "OKP";
  /** The curve a JWK of this algorithm names (`crv`); none for RSA. */
  readonly crv?: "P-256" | "Ed25519";
  readonly importParams: { readonly name: string; readonly namedCurve?: string; readonly hash?: string };
  readonly signParams: { readonly name: string; readonly hash?: string; readonly saltLength?: number };
  /** The signature's fixed length in bytes: ES256 is r||s of 32 bytes each (RFC 7518 §3.4), Ed25519 64 bytes; RSA's follows the modulus. */
  readonly signatureBytes?: number;
}

export const PROFILES: Readonly<Record<JwsAlgorithm, AlgorithmProfile>> = {
  ES256: {
    kty: "EC",
    crv: "P-256",
    importParams: { name: "ECDSA", namedCurve: "P-256" },
    signParams: { name: "ECDSA", hash: "SHA-256" },
    signatureBytes: 64,
  },
  RS256: { kty: "RSA", importParams: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, signParams: { name: "RSASSA-PKCS1-v1_5" } },
  // RFC 7518 §3.5: the salt is as long as the hash, 32 bytes for SHA-256.
  PS256: { kty: "RSA", importParams: { name: "RSA-PSS", hash: "SHA-256" }, signParams: { name: "RSA-PSS", saltLength: 32 } },
  EdDSA: { kty: "OKP", crv: "Ed25519", importParams: { name: "Ed25519" }, signParams: { name: "Ed25519" }, signatureBytes: 64 },
};

/** RFC 7518 §3.3 and §3.5: RSA keys of fewer bits MUST NOT be used. */
export const MIN_RSA_BITS = 2048;

export function isJwsAlgorithm(value: unknown): value is JwsAlgorithm {
  return typeof value === "string" && (JWS_ALGORITHMS as readonly string[]).includes(value);
}

/** The parameters a key's `algorithm` may carry; read as optional, whatever the runtime put there. */
interface KeyParameters {
  readonly name: string;
  readonly namedCurve?: unknown;
  readonly modulusLength?: unknown;
  readonly hash?: unknown;
}

function isSha256(hash: unknown): boolean {
  return typeof hash === "object" && hash !== null && (hash as { name?: unknown }).name === "SHA-256";
}

/** Whether `value` has the shape of a `CryptoKey` (what callers and resolvers hand over is not typed at run time). */
export function isWebCryptoKey(value: unknown): value is WebCryptoKey {
  const key = value as Partial<WebCryptoKey> | null;
  return (
    typeof key === "object" &&
    key !== null &&
    typeof key.algorithm === "object" &&
    key.algorithm !== null &&
    typeof key.type === "string" &&
    Array.isArray(key.usages)
  );
}

/** The one JWS alg a key serves, or undefined when it serves none of ours (another curve, hash or algorithm). */
export function algorithmOfKey(key: WebCryptoKey): JwsAlgorithm | undefined {
  const parameters: KeyParameters = key.algorithm;
  switch (parameters.name) {
    case "ECDSA":
      return parameters.namedCurve === "P-256" ? "ES256" : undefined;
    case "Ed25519":
      return "EdDSA";
    case "RSASSA-PKCS1-v1_5":
      return isSha256(parameters.hash) ? "RS256" : undefined;
    case "RSA-PSS":
      return isSha256(parameters.hash) ? "PS256" : undefined;
    default:
      return undefined;
  }
}

/**
 * Why `key` cannot `use` itself for `alg`, or undefined when it can. The alg must be the key's own (an
 * RS256 header against an EC key is refused here, whatever the token claims), the key of the right
 * kind (public to verify, private to sign) with that usage, and an RSA modulus at least 2048 bits.
 */
export function keyProblem(key: WebCryptoKey, alg: JwsAlgorithm, use: "sign" | "verify"): string | undefined {
  if (!isWebCryptoKey(key)) return "it is not a WebCrypto key";
  const own = algorithmOfKey(key);
  if (own === undefined) return `the key (${key.algorithm.name}) serves none of ${JWS_ALGORITHMS.join(", ")}`;
  if (own !== alg) return `the key is a ${own} key, not a ${alg} one`;
  const kind = use === "sign" ? "private" : "public";
  if (key.type !== kind) return `${use === "sign" ? "signing" : "verifying"} needs a ${kind} key, this one is ${key.type}`;
  if (!(key.usages as readonly string[]).includes(use)) return `the key was imported without the "${use}" usage`;
  const bits = (key.algorithm as KeyParameters).modulusLength;
  if (PROFILES[alg].kty === "RSA" && !(typeof bits === "number" && bits >= MIN_RSA_BITS))
    return `RSA keys under ${MIN_RSA_BITS} bits are refused`;
  return undefined;
}

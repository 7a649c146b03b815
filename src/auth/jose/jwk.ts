// JWKs (RFC 7517) into WebCrypto keys, with the checks WebCrypto leaves to us: the key's declared
// `alg`, `use` and `key_ops`, and that the key type fits the algorithm before anything is imported.
import { decodeBase64 } from "../../protocol/bytes-text.js";
import {
  PROFILES,
  algorithmOfKey,
  isJwsAlgorithm,
  isWebCryptoKey,
  keyProblem,
  type JwsAlgorithm,
  type WebCryptoKey,
} from "./algorithms.js";
import { invalidInput } from "./errors.js";

/** A key ready for JOSE: the WebCrypto key, the one alg it serves, and its `kid` when it has one. */
export interface JoseKey {
  readonly key: WebCryptoKey;
  readonly alg: JwsAlgorithm;
  readonly kid?: string;
}

/** A JWK as parsed JSON: every member is checked before use. */
export type Jwk = Readonly<Record<string, unknown>>;

// The members WebCrypto is given, per key type: the rest (alg, use, key_ops, ext, kid, x5c…) is ours to
// check, and handing them over would let runtimes disagree (some check `alg`, Node 20 adds its own).
const PUBLIC_MEMBERS = { EC: ["crv", "x", "y"], RSA: ["n", "e"], OKP: ["crv", "x"] } as const;
const PRIVATE_MEMBERS = { EC: ["d"], RSA: ["d", "p", "q", "dp", "dq", "qi"], OKP: ["d"] } as const;
const KEY_TYPES = ["EC", "RSA", "OKP"] as const;
type KeyType = (typeof KEY_TYPES)[number];

/** The alg a JWK without `alg` is taken for: a curve names one; an RSA key serves two, so the caller must say. */
function defaultAlgorithm(kty: KeyType, crv: unknown): JwsAlgorithm | undefined {
  if (kty === "EC" && crv === "P-256") return "ES256";
  if (kty === "OKP" && crv === "Ed25519") return "EdDSA";
  return undefined;
}

function keyTypeOf(jwk: Jwk): KeyType {
  const kty = jwk["kty"];
  if (kty === "oct")
    throw invalidInput("The JWK is a symmetric (oct) key: HMAC algorithms are not supported, only ES256, RS256, PS256 and EdDSA");
  if (!(KEY_TYPES as readonly unknown[]).includes(kty)) throw invalidInput("The JWK's kty is not one of EC, RSA, OKP");
  return kty as KeyType;
}

/** RFC 7517 §4.2–4.3: a key for encryption, or whose operations exclude `operation`, does not sign or verify. */
function checkIntendedUse(jwk: Jwk, operation: "sign" | "verify"): void {
  const use = jwk["use"];
  if (use !== undefined && use !== "sig")
    throw invalidInput(`The JWK's use is ${use === "enc" ? '"enc" (encryption)' : 'not "sig"'}: it is not a signature key`);
  const ops = jwk["key_ops"];
  if (ops === undefined) return;
  if (!Array.isArray(ops) || !ops.every((op) => typeof op === "string")) throw invalidInput("The JWK's key_ops is not an array of strings");
  if (!ops.includes(operation)) throw invalidInput(`The JWK's key_ops do not include "${operation}"`);
}

/** The alg the JWK is imported for: its own `alg` wins, and must agree with `requested` when both are there. */
function chosenAlgorithm(jwk: Jwk, kty: KeyType, requested: JwsAlgorithm | undefined): JwsAlgorithm {
  const declared = jwk["alg"];
  if (declared !== undefined && !isJwsAlgorithm(declared)) throw invalidInput("The JWK's alg is not one of ES256, RS256, PS256, EdDSA");
  if (declared !== undefined && requested !== undefined && declared !== requested)
    throw invalidInput(`The JWK is for ${declared}, not ${requested}`);
  const alg = declared ?? requested ?? defaultAlgorithm(kty, jwk["crv"]);
  if (alg === undefined)
    throw invalidInput(
      kty === "RSA" ? "The RSA JWK has no alg: say which to use (RS256 or PS256)" : "The JWK's crv is not P-256 (EC) or Ed25519 (OKP)",
    );
  const profile = PROFILES[alg];
  if (profile.kty !== kty) throw invalidInput(`The JWK is a ${kty} key; ${alg} needs ${profile.kty}`);
  if (profile.crv !== undefined && jwk["crv"] !== profile.crv) throw invalidInput(`${alg} needs the curve ${profile.crv}`);
  return alg;
}

/** The key material WebCrypto is given: each member present and strict base64url (the curve is a name). */
function keyData(jwk: Jwk, kty: KeyType, withPrivate: boolean): KeyMaterial {
  const data: KeyMaterial & Record<string, string> = { kty };
  const members: readonly string[] = withPrivate ? [...PUBLIC_MEMBERS[kty], ...PRIVATE_MEMBERS[kty]] : PUBLIC_MEMBERS[kty];
  for (const member of members) {
    const value = jwk[member];
    if (typeof value !== "string" || (member !== "crv" && (value === "" || decodeBase64(value, true) === undefined))) {
      throw invalidInput(`The ${withPrivate ? "private" : "public"} ${kty} JWK's "${member}" is missing or not base64url`);
    }
    data[member] = value;
  }
  return data;
}

/** The JWK members WebCrypto reads, all strings. */
interface KeyMaterial {
  kty: string;
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
  d?: string;
  p?: string;
  q?: string;
  dp?: string;
  dq?: string;
  qi?: string;
}

async function importJwk(jwk: Jwk, operation: "sign" | "verify", requested: JwsAlgorithm | undefined): Promise<JoseKey> {
  if (typeof jwk !== "object" || jwk === null || Array.isArray(jwk)) throw invalidInput("The JWK is not a JSON object");
  const kty = keyTypeOf(jwk);
  checkIntendedUse(jwk, operation);
  const alg = chosenAlgorithm(jwk, kty, requested);
  const kid = jwk["kid"];
  if (kid !== undefined && typeof kid !== "string") throw invalidInput("The JWK's kid is not a string");
  const data = keyData(jwk, kty, operation === "sign");
  let key: WebCryptoKey;
  try {
    key = await crypto.subtle.importKey("jwk", data, PROFILES[alg].importParams, false, [operation]);
  } catch (error) {
    // WebCrypto's own message says which check failed (a point off the curve…) and holds no key material.
    throw invalidInput(`The ${kty} JWK could not be imported as a ${alg} key`, error);
  }
  const problem = keyProblem(key, alg, operation);
  if (problem !== undefined) throw invalidInput(`The JWK cannot ${operation} with ${alg}: ${problem}`);
  return kid === undefined ? { key, alg } : { key, alg, kid };
}

/**
 * A public JWK as a verification key. `alg` is the algorithm to use when the JWK names none (an RSA
 * key serves RS256 and PS256); when both name one they must agree. Private members are ignored.
 */
export function importPublicJwk(jwk: Jwk, alg?: JwsAlgorithm): Promise<JoseKey> {
  return importJwk(jwk, "verify", alg);
}

/** A private JWK as a signing key (non-extractable); an RSA one must carry its CRT members (p, q, dp, dq, qi). */
export function importPrivateJwk(jwk: Jwk, alg?: JwsAlgorithm): Promise<JoseKey> {
  return importJwk(jwk, "sign", alg);
}

const PEM_BEGIN = "-----BEGIN PRIVATE KEY-----";
const PEM_END = "-----END PRIVATE KEY-----";

/** The DER bytes of an unencrypted PKCS#8 PEM, or undefined. */
function pkcs8Der(pem: string): Uint8Array<ArrayBuffer> | undefined {
  const text = typeof pem === "string" ? pem.trim() : "";
  if (!text.startsWith(PEM_BEGIN) || !text.endsWith(PEM_END)) return undefined;
  return decodeBase64(text.slice(PEM_BEGIN.length, -PEM_END.length).replaceAll(/\s/g, ""));
}

/**
 * A PKCS#8 private key in PEM (`-----BEGIN PRIVATE KEY-----`), the form the MCP conformance suite hands out, as a signing key for `alg`.
 */
export async function importPkcs8Pem(pem: string, alg: JwsAlgorithm): Promise<JoseKey> {
  if (!isJwsAlgorithm(alg)) throw invalidInput("The alg is not one of ES256, RS256, PS256, EdDSA");
  const der = pkcs8Der(pem);
  if (der === undefined || der.length === 0)
    throw invalidInput("The PEM is not an unencrypted PKCS#8 private key (-----BEGIN PRIVATE KEY-----)");
  let key: WebCryptoKey;
  try {
    key = await crypto.subtle.importKey("pkcs8", der, PROFILES[alg].importParams, false, ["sign"]);
  } catch (error) {
    throw invalidInput(`The PKCS#8 key could not be imported as a ${alg} key`, error);
  }
  const problem = keyProblem(key, alg, "sign");
  if (problem !== undefined) throw invalidInput(`The PKCS#8 key cannot sign with ${alg}: ${problem}`);
  return { key, alg };
}

/** Whether `value` is a `JoseKey`: an object with a WebCrypto `key` (its alg is checked where it is used). */
export function isJoseKey(value: unknown): value is JoseKey {
  return typeof value === "object" && value !== null && isWebCryptoKey((value as { key?: unknown }).key);
}

/** A key given as a WebCrypto key or a `JoseKey`, with the alg it serves, or undefined when it serves none. */
export function joseKeyOf(key: WebCryptoKey | JoseKey): JoseKey | undefined {
  if (isJoseKey(key)) return key;
  if (!isWebCryptoKey(key)) return undefined;
  const alg = algorithmOfKey(key);
  return alg === undefined ? undefined : { key, alg };
}

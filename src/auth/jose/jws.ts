// JWS compact serialization (RFC 7515 §3.1, §7.1) with a JSON object payload, signed and verified
// by crypto.subtle. Verification refuses before it computes: the token's shape and size, the header's
// alg and crit, and the key's fit with the alg are all checked ahead of the signature.
import { MCPError } from "../../error-codes/mcp-error.js";
import { decodeBase64, encodeBase64 } from "../../protocol/bytes-text.js";
import { JWS_ALGORITHMS, PROFILES, isJwsAlgorithm, keyProblem, type JwsAlgorithm, type WebCryptoKey } from "./algorithms.js";
import { invalidInput, refused } from "./errors.js";
import { isJoseKey, joseKeyOf, type JoseKey } from "./jwk.js";

/** A protected header as verified: `alg` is one of ours, `kid` and `typ` strings when present. */
export interface JwsHeader {
  readonly alg: JwsAlgorithm;
  readonly kid?: string;
  readonly typ?: string;
  readonly [member: string]: unknown;
}

/** A header to sign with: `alg` defaults to the key's and must be the key's when given; `kid` defaults to a `JoseKey`'s. */
export interface JwsHeaderInput {
  readonly alg?: JwsAlgorithm;
  readonly kid?: string;
  readonly typ?: string;
  readonly [member: string]: unknown;
}

export type ReadonlyJsonObject = Readonly<Record<string, unknown>>;

/** A key to sign or verify with: a WebCrypto key (its own algorithm decides the alg) or a `JoseKey`. */
export type KeyInput = WebCryptoKey | JoseKey;

/** Finds the keys that may have signed a token, from its verified header (`kid`, `alg`); `remoteJwks` and `localJwks` make one. */
export type KeyResolver = (header: JwsHeader) => Promise<KeyInput | readonly KeyInput[]> | KeyInput | readonly KeyInput[];

/** What verifies a token: one key, a few (each tried), or a resolver that picks them by the token's header. */
export type VerificationKeys = KeyInput | readonly KeyInput[] | KeyResolver;

export interface VerifyJwsOptions {
  /** Only these algs are accepted (default: all four). */
  readonly algorithms?: readonly JwsAlgorithm[];
  /** The longest token accepted, in characters (default 16384): nothing longer is decoded. */
  readonly maxLength?: number;
}

export interface VerifiedJws {
  readonly header: JwsHeader;
  readonly payload: ReadonlyJsonObject;
}

export const DEFAULT_MAX_TOKEN_LENGTH = 16_384;
/** The most keys one token is tried against (keys without `kid`, or sharing one): a bound on the work a token can cause. */
export const MAX_KEY_CANDIDATES = 8;

const utf8Encoder = /* @__PURE__ */ new TextEncoder();
// fatal: invalid UTF-8 is refused, not replaced; ignoreBOM: a BOM stays in and fails JSON.parse.
const strictUtf8 = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function isJsonObject(value: unknown): value is ReadonlyJsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The bytes as a JSON object, or undefined (not UTF-8, not JSON, or JSON that is not an object). */
function parseJsonObject(bytes: Uint8Array): ReadonlyJsonObject | undefined {
  try {
    const value: unknown = JSON.parse(strictUtf8.decode(bytes));
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function encodeJson(value: ReadonlyJsonObject, what: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw invalidInput(`The JWS ${what} cannot be written as JSON`, error);
  }
  return encodeBase64(utf8Encoder.encode(text), true);
}

/** Signs `payload` (a JSON object) as a compact JWS with `key`; the header gets the key's alg and, from a `JoseKey`, its kid. */
export async function signJws(header: JwsHeaderInput, payload: ReadonlyJsonObject, key: KeyInput): Promise<string> {
  const signer = joseKeyOf(key);
  if (signer === undefined) throw invalidInput(`The key serves none of ${JWS_ALGORITHMS.join(", ")}`);
  if (!isJsonObject(header) || !isJsonObject(payload)) throw invalidInput("The JWS header and payload must be JSON objects");
  const alg = header.alg ?? signer.alg;
  if (alg !== signer.alg) throw invalidInput(`The header's alg does not fit the key: the key is a ${signer.alg} key`);
  if (Object.hasOwn(header, "crit")) throw invalidInput("crit is not supported: no JWS extension is understood here");
  const problem = keyProblem(signer.key, alg, "sign");
  if (problem !== undefined) throw invalidInput(`The key cannot sign ${alg}: ${problem}`);
  const kid = header.kid ?? signer.kid;
  const protectedHeader = kid === undefined ? { ...header, alg } : { ...header, alg, kid };
  const signingInput = `${encodeJson(protectedHeader, "header")}.${encodeJson(payload, "payload")}`;
  const signature = await crypto.subtle.sign(PROFILES[alg].signParams, signer.key, utf8Encoder.encode(signingInput));
  return `${signingInput}.${encodeBase64(new Uint8Array(signature), true)}`;
}

/** The token's three parts, decoded; every failure names the part and never echoes it. */
interface CompactParts {
  readonly header: JwsHeader;
  readonly payload: Uint8Array;
  readonly signature: Uint8Array;
  readonly signingInput: Uint8Array;
}

function splitCompact(token: unknown, maxLength: number): CompactParts {
  if (typeof token !== "string") throw refused("token", "the token is not a string");
  if (token.length > maxLength) throw refused("token", `the token is longer than ${maxLength} characters`);
  const parts = token.split(".");
  if (parts.length !== 3) throw refused("token", "not a compact JWS (three base64url parts joined by dots)");
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const headerBytes = decodeBase64(headerPart, true);
  const payload = decodeBase64(payloadPart, true);
  const signature = decodeBase64(signaturePart, true);
  if (headerBytes === undefined || payload === undefined || signature === undefined)
    throw refused("token", "a part is not base64url (RFC 4648 §5, unpadded)");
  const header = parseJsonObject(headerBytes);
  if (header === undefined) throw refused("header", "the protected header is not a JSON object");
  const checked = checkHeader(header);
  if (signature.length === 0) throw refused("signature", "the signature is empty");
  return { header: checked, payload, signature, signingInput: utf8Encoder.encode(`${headerPart}.${payloadPart}`) };
}

/** RFC 7515 §4.1: alg is one of ours; crit is refused (§4.1.11: no extension is understood here); kid and typ are strings. */
function checkHeader(header: ReadonlyJsonObject): JwsHeader {
  const alg = header["alg"];
  if (alg === "none") throw refused("alg", "alg none (an unsecured JWS) is refused");
  if (!isJwsAlgorithm(alg)) throw refused("alg", `the alg is not one of ${JWS_ALGORITHMS.join(", ")}`);
  if (Object.hasOwn(header, "crit")) throw refused("crit", "the header has crit: no JWS extension is understood here");
  for (const member of ["kid", "typ"]) {
    if (header[member] !== undefined && typeof header[member] !== "string")
      throw refused("header", `the header's ${member} is not a string`);
  }
  return header as JwsHeader;
}

/** The keys to try, each fitting the token's alg; refuses when none does (an RS256 header against an EC key ends here). */
async function candidatesFor(keys: VerificationKeys, header: JwsHeader): Promise<JoseKey[]> {
  let found: KeyInput | readonly KeyInput[];
  try {
    found = typeof keys === "function" ? await keys(header) : keys;
  } catch (error) {
    if (error instanceof MCPError) throw error;
    throw refused("key", "the key lookup failed", error);
  }
  const list: readonly KeyInput[] = Array.isArray(found) ? found : [found as KeyInput];
  if (list.length === 0) throw refused("key", "no key is known for this token");
  if (list.length > MAX_KEY_CANDIDATES) throw refused("key", `more than ${MAX_KEY_CANDIDATES} keys fit the token's header`);
  const fitting: JoseKey[] = [];
  let firstProblem: string | undefined;
  for (const input of list) {
    // The WebCrypto key decides; a JoseKey's alg is only what its maker said of it.
    const key = isJoseKey(input) ? input.key : input;
    const problem = keyProblem(key, header.alg, "verify");
    if (problem === undefined) fitting.push({ key, alg: header.alg });
    else firstProblem ??= problem;
  }
  if (fitting.length === 0) throw refused("key", `the key does not fit alg ${header.alg}: ${firstProblem}`);
  return fitting;
}

async function signatureVerifies(candidate: JoseKey, parts: CompactParts): Promise<boolean> {
  try {
    return await crypto.subtle.verify(PROFILES[candidate.alg].signParams, candidate.key, parts.signature, parts.signingInput);
  } catch {
    // Some runtimes throw, rather than answer false, on a signature of the wrong size for the key.
    return false;
  }
}

/**
 * Verifies a compact JWS whose payload is a JSON object: the header is checked, the key found with
 * `keys` and matched to the alg, the signature verified, and only then the payload parsed. Every
 * refusal is an `MCPError` `MCP.UNAUTHORIZED` whose `data.check` names what failed.
 */
export async function verifyJws(token: string, keys: VerificationKeys, options: VerifyJwsOptions = {}): Promise<VerifiedJws> {
  const maxLength = options.maxLength ?? DEFAULT_MAX_TOKEN_LENGTH;
  if (!Number.isSafeInteger(maxLength) || maxLength <= 0) throw invalidInput("maxLength must be a positive whole number of characters");
  const parts = splitCompact(token, maxLength);
  const { header } = parts;
  if (options.algorithms !== undefined && !options.algorithms.includes(header.alg))
    throw refused("alg", `alg ${header.alg} is not accepted here`);
  const fixedLength = PROFILES[header.alg].signatureBytes;
  if (fixedLength !== undefined && parts.signature.length !== fixedLength) {
    throw refused(
      "signature",
      `a ${header.alg} signature is ${fixedLength} bytes${header.alg === "ES256" ? " (r||s, not DER)" : ""}, ` +
        `this one is ${parts.signature.length}`,
    );
  }
  let verified = false;
  for (const candidate of await candidatesFor(keys, header)) {
    if (await signatureVerifies(candidate, parts)) {
      verified = true;
      break;
    }
  }
  if (!verified) throw refused("signature", "the signature does not verify");
  const payload = parseJsonObject(parts.payload);
  if (payload === undefined) throw refused("payload", "the payload is not a JSON object");
  return { header, payload };
}

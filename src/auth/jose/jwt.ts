// JWTs (RFC 7519) on top of the JWS: the registered claims a resource server and an authorization
// server check (iss, aud, exp, nbf, iat), each failure naming its check and never a claim's value.
import { invalidInput, refused } from "./errors.js";
import {
  signJws,
  verifyJws,
  type JwsHeader,
  type JwsHeaderInput,
  type KeyInput,
  type VerificationKeys,
  type VerifyJwsOptions,
} from "./jws.js";

/** A JWT's claims: the registered ones typed, any other kept as parsed. Times are NumericDates, seconds since the epoch. */
export interface JwtClaims {
  readonly iss?: string;
  readonly sub?: string;
  readonly aud?: string | readonly string[];
  readonly exp?: number;
  readonly nbf?: number;
  readonly iat?: number;
  readonly jti?: string;
  readonly [claim: string]: unknown;
}

/** The claims of a token that passed: iss, aud and exp are always there. */
export interface VerifiedJwtClaims extends JwtClaims {
  readonly iss: string;
  readonly aud: string | readonly string[];
  readonly exp: number;
}

export interface VerifyJwtOptions extends VerifyJwsOptions {
  /** The key, or a resolver such as `remoteJwks(jwks_uri)`. */
  readonly keys: VerificationKeys;
  /** The one issuer accepted, compared as an exact string (no URL normalisation, RFC 8414 §3.3 / RFC 9207). */
  readonly issuer: string;
  /** The audience(s) this verifier is: the token's aud (a string or an array) must contain one of them. */
  readonly audience: string | readonly string[];
  /** Clock skew allowed on exp, nbf and iat, in seconds (default 60). */
  readonly clockToleranceSec?: number;
  /** The clock, in ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
  /** Claims that must be present besides iss, aud and exp (e.g. `["sub", "jti"]`). */
  readonly requiredClaims?: readonly string[];
  /** The header typ required (e.g. "at+jwt", RFC 9068), compared without case and with "application/" optional (RFC 7515 §4.1.9). */
  readonly typ?: string;
}

export const DEFAULT_CLOCK_TOLERANCE_SEC = 60;

const REGISTERED_STRINGS = ["iss", "sub", "jti"] as const;
const REGISTERED_TIMES = ["exp", "nbf", "iat"] as const;

function isNonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}

/** The token's aud as a list, or undefined when it is neither a string nor an array of strings. */
function audiencesOf(aud: unknown): readonly string[] | undefined {
  if (typeof aud === "string") return [aud];
  return Array.isArray(aud) && aud.every((item) => typeof item === "string") ? aud : undefined;
}

interface Checks {
  readonly issuer: string;
  readonly audiences: readonly string[];
  readonly toleranceSec: number;
  readonly nowSec: number;
  readonly required: readonly string[];
  readonly typ: string | undefined;
}

/** The options, checked before the token is looked at: a misconfiguration fails every call the same way. */
function checksOf(options: VerifyJwtOptions): Checks {
  if (!isNonEmptyString(options.issuer)) throw invalidInput("verifyJwt: issuer must be a non-empty string");
  const audiences = audiencesOf(options.audience);
  if (audiences === undefined || audiences.length === 0 || !audiences.every(isNonEmptyString))
    throw invalidInput("verifyJwt: audience must be a non-empty string or a non-empty array of them");
  const toleranceSec = options.clockToleranceSec ?? DEFAULT_CLOCK_TOLERANCE_SEC;
  if (!Number.isFinite(toleranceSec) || toleranceSec < 0) throw invalidInput("verifyJwt: clockToleranceSec must be a non-negative number");
  const required = options.requiredClaims ?? [];
  if (!Array.isArray(required) || !required.every(isNonEmptyString))
    throw invalidInput("verifyJwt: requiredClaims must be an array of claim names");
  if (options.typ !== undefined && !isNonEmptyString(options.typ)) throw invalidInput("verifyJwt: typ must be a non-empty string");
  const nowMs = (options.now ?? Date.now)();
  if (!Number.isFinite(nowMs)) throw invalidInput("verifyJwt: now() must give a number of ms");
  return { issuer: options.issuer, audiences, toleranceSec, nowSec: nowMs / 1000, required, typ: options.typ };
}

/** RFC 7515 §4.1.9: a media type, compared without case, "application/" left out when there is no other slash. */
function mediaType(typ: string): string {
  const lower = typ.toLowerCase();
  return lower.startsWith("application/") && !lower.slice("application/".length).includes("/") ? lower.slice("application/".length) : lower;
}

function checkTyp(header: JwsHeader, typ: string | undefined): void {
  if (typ === undefined) return;
  if (header.typ === undefined) throw refused("typ", `the header has no typ, ${typ} is required`);
  if (mediaType(header.typ) !== mediaType(typ)) throw refused("typ", `the header's typ is not ${typ}`);
}

/** A NumericDate claim: undefined when absent; a finite number when present, or the token is refused. */
function timeClaim(claims: JwtClaims, name: (typeof REGISTERED_TIMES)[number]): number | undefined {
  const value = claims[name];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value)) throw refused(name, `${name} is not a NumericDate (a number of seconds)`);
  return value;
}

function checkIssuerAndAudience(claims: JwtClaims, checks: Checks): void {
  if (claims.iss === undefined) throw refused("iss", "the iss claim is missing");
  // A non-string iss fails here too: only the exact string is equal.
  if (claims.iss !== checks.issuer) throw refused("iss", "the issuer is not the expected one");
  if (claims.aud === undefined) throw refused("aud", "the aud claim is missing");
  const audiences = audiencesOf(claims.aud);
  if (audiences === undefined) throw refused("aud", "aud is not a string or an array of strings");
  if (!audiences.some((audience) => checks.audiences.includes(audience))) throw refused("aud", "the token is not for this audience");
}

/** RFC 7519 §4.1.4–4.1.6, each with the tolerance: now before exp, not before nbf, iat not in the future. */
function checkTimes(claims: JwtClaims, checks: Checks): void {
  const exp = timeClaim(claims, "exp");
  if (exp === undefined) throw refused("exp", "the exp claim is missing");
  if (checks.nowSec >= exp + checks.toleranceSec) throw refused("exp", "the token has expired");
  const nbf = timeClaim(claims, "nbf");
  if (nbf !== undefined && nbf > checks.nowSec + checks.toleranceSec) throw refused("nbf", "the token is not valid yet (nbf)");
  const iat = timeClaim(claims, "iat");
  if (iat !== undefined && iat > checks.nowSec + checks.toleranceSec) throw refused("iat", "the token was issued in the future (iat)");
}

/**
 * Verifies a JWT: the signature (see verifyJws), then typ when asked, iss (exact), aud (contains one of
 * `audience`), exp (required), nbf and iat with the clock tolerance, and the required claims. Returns
 * the claims. A refusal is an `MCPError` `MCP.UNAUTHORIZED` with `data.check` naming the check.
 */
export async function verifyJwt(token: string, options: VerifyJwtOptions): Promise<VerifiedJwtClaims> {
  const checks = checksOf(options);
  const { header, payload } = await verifyJws(token, options.keys, options);
  checkTyp(header, checks.typ);
  const claims: JwtClaims = payload;
  for (const name of ["sub", "jti"] as const) {
    if (claims[name] !== undefined && typeof claims[name] !== "string") throw refused("claims", `${name} is not a string`);
  }
  checkIssuerAndAudience(claims, checks);
  checkTimes(claims, checks);
  for (const name of checks.required) {
    if (!Object.hasOwn(claims, name)) throw refused("claims", `the ${name} claim is missing`);
  }
  return claims as VerifiedJwtClaims;
}

/**
 * Signs `claims` as a JWT with `key`; the registered claims present must have their types (strings, NumericDates, aud a string or strings).
 */
export async function signJwt(claims: JwtClaims, key: KeyInput, header: JwsHeaderInput = {}): Promise<string> {
  if (typeof claims !== "object" || claims === null || Array.isArray(claims))
    throw invalidInput("signJwt: the claims must be a JSON object");
  for (const name of REGISTERED_STRINGS) {
    if (claims[name] !== undefined && typeof claims[name] !== "string") throw invalidInput(`signJwt: ${name} must be a string`);
  }
  for (const name of REGISTERED_TIMES) {
    const value = claims[name];
    if (value !== undefined && !(typeof value === "number" && Number.isFinite(value)))
      throw invalidInput(`signJwt: ${name} must be a number of seconds`);
  }
  if (claims.aud !== undefined && audiencesOf(claims.aud) === undefined)
    throw invalidInput("signJwt: aud must be a string or an array of strings");
  return signJws(header, claims, key);
}

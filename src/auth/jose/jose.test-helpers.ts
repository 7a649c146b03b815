// Shared by the JOSE tests: one key pair per algorithm (made once), and the assertions every refusal
// test makes: the error's code, its check, its message, and that it carries no token or key material.
import { expect } from "vitest";

import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { encodeBase64 } from "../../protocol/bytes-text.js";
import type { JwsAlgorithm, WebCryptoKey } from "./algorithms.js";
import type { JoseCheck } from "./errors.js";

export const ALGS = ["ES256", "RS256", "PS256", "EdDSA"] as const satisfies readonly JwsAlgorithm[];

export type JsonRecord = Record<string, unknown>;

type GenerateParams = { name: string; namedCurve?: string; modulusLength?: number; publicExponent?: Uint8Array; hash?: string };

const GENERATE: Record<JwsAlgorithm, GenerateParams> = {
  ES256: { name: "ECDSA", namedCurve: "P-256" },
  RS256: { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
  PS256: { name: "RSA-PSS", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
  EdDSA: { name: "Ed25519" },
};

export interface TestKeys {
  readonly alg: JwsAlgorithm;
  readonly privateKey: WebCryptoKey;
  readonly publicKey: WebCryptoKey;
  /** The public JWK as a JWKS would publish it: kty and key members, no alg/key_ops/ext (Node 20 adds its own alg). */
  readonly publicJwk: JsonRecord;
  readonly privateJwk: JsonRecord;
}

function bare(jwk: JsonRecord): JsonRecord {
  const { alg: _alg, key_ops: _ops, ext: _ext, ...rest } = jwk;
  return rest;
}

/** A fresh, extractable key pair for `alg` with its JWKs. */
export async function makeKeys(alg: JwsAlgorithm, generate: GenerateParams = GENERATE[alg]): Promise<TestKeys> {
  const pair = (await crypto.subtle.generateKey(generate as Parameters<typeof crypto.subtle.generateKey>[0], true, ["sign", "verify"])) as {
    publicKey: WebCryptoKey;
    privateKey: WebCryptoKey;
  };
  const publicJwk = bare((await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonRecord);
  const privateJwk = bare((await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonRecord);
  return { alg, privateKey: pair.privateKey, publicKey: pair.publicKey, publicJwk, privateJwk };
}

/** One pair per algorithm, for the tests that need no fresh one. */
export const KEYS: Readonly<Record<JwsAlgorithm, TestKeys>> = {
  ES256: await makeKeys("ES256"),
  RS256: await makeKeys("RS256"),
  PS256: await makeKeys("PS256"),
  EdDSA: await makeKeys("EdDSA"),
};

export const utf8 = (text: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(text);
export const b64u = (bytes: Uint8Array | string): string => encodeBase64(typeof bytes === "string" ? utf8(bytes) : bytes, true);
export const b64uJson = (value: unknown): string => b64u(JSON.stringify(value));

async function rejection(promise: Promise<unknown>): Promise<MCPError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome, "expected a rejection").toBeInstanceOf(MCPError);
  return outcome as MCPError;
}

/** The token was refused at `check`, with a message matching `message`. */
export async function expectRefused(promise: Promise<unknown>, check: JoseCheck, message: string | RegExp): Promise<MCPError> {
  const error = await rejection(promise);
  expect({ code: error.code, data: error.data }).toEqual({ code: MCP_CODES.UNAUTHORIZED, data: { check } });
  expect(error.message.startsWith(`Token rejected (${check}): `)).toBe(true);
  expect(error.message).toMatch(message);
  return error;
}

/** The message of a token refused at `check` (code and data asserted): for `expect(await refusal(…)).toContain(…)`. */
export async function refusal(promise: Promise<unknown>, check: JoseCheck): Promise<string> {
  return (await expectRefused(promise, check, `Token rejected (${check}): `)).message;
}

/** The message of an `MCP.INVALID_PARAMS` rejection (code asserted). */
export async function invalidity(promise: Promise<unknown>): Promise<string> {
  return (await expectInvalid(promise, /./)).message;
}

/** The message of a key-set failure (`MCP.TRANSPORT_ERROR`, check "jwks", asserted). */
export async function jwksFailureOf(promise: Promise<unknown>): Promise<string> {
  return (await expectJwksFailure(promise, /./)).message;
}

/** The caller's input was refused (`MCP.INVALID_PARAMS`). */
export async function expectInvalid(promise: Promise<unknown>, message: string | RegExp): Promise<MCPError> {
  const error = await rejection(promise);
  expect(error.code).toBe(MCP_CODES.INVALID_PARAMS);
  expect(error.message).toMatch(message);
  return error;
}

/** The key set could not be had (`MCP.TRANSPORT_ERROR`, check "jwks"). */
export async function expectJwksFailure(promise: Promise<unknown>, message: string | RegExp): Promise<MCPError> {
  const error = await rejection(promise);
  expect({ code: error.code, data: error.data }).toEqual({ code: MCP_CODES.TRANSPORT_ERROR, data: { check: "jwks" } });
  expect(error.message).toMatch(message);
  return error;
}

/**
 * Nothing secret in what the error shows (message and data): not the token nor any of its parts, and
 * no member of the given JWKs. Pieces under 8 characters are skipped (too short to be material, and
 * they would match ordinary words).
 */
export function expectNoMaterial(error: MCPError, token: string | undefined, ...jwks: readonly JsonRecord[]): void {
  const shown = `${error.message} ${JSON.stringify(error.data) ?? ""}`;
  const pieces = [
    ...(token === undefined ? [] : [token, ...token.split(".")]),
    ...jwks.flatMap((jwk) => Object.values(jwk).filter((value): value is string => typeof value === "string")),
  ];
  for (const piece of pieces) if (piece.length >= 8) expect(shown).not.toContain(piece);
}

const part = (value: unknown): string => (typeof value === "string" ? value : b64uJson(value));

/** A compact JWS written by hand: header and payload as JSON (or raw base64url text), the signature as base64url. */
export function craft(header: unknown, payload: unknown, signature: string = b64u(new Uint8Array(64).fill(7))): string {
  return `${part(header)}.${part(payload)}.${signature}`;
}

/** A JWS signed over arbitrary header and payload bytes with WebCrypto directly, bypassing signJws's checks. */
export async function signRaw(headerPart: string, payloadPart: string, keys: TestKeys): Promise<string> {
  const params: Record<JwsAlgorithm, { name: string; hash?: string; saltLength?: number }> = {
    ES256: { name: "ECDSA", hash: "SHA-256" },
    RS256: { name: "RSASSA-PKCS1-v1_5" },
    PS256: { name: "RSA-PSS", saltLength: 32 },
    EdDSA: { name: "Ed25519" },
  };
  const signature = await crypto.subtle.sign(params[keys.alg], keys.privateKey, utf8(`${headerPart}.${payloadPart}`));
  return `${headerPart}.${payloadPart}.${b64u(new Uint8Array(signature))}`;
}

export const NOW_MS = 1_800_000_000_000;
export const NOW_SEC = NOW_MS / 1000;

import { describe, expect, it } from "vitest";

import {
  ALGS,
  KEYS,
  NOW_MS,
  NOW_SEC,
  b64uJson,
  expectNoMaterial,
  expectRefused,
  invalidity,
  refusal,
  signRaw,
} from "./jose.test-helpers.js";
import { signJws } from "./jws.js";
import { DEFAULT_CLOCK_TOLERANCE_SEC, signJwt, verifyJwt, type JwtClaims, type VerifyJwtOptions } from "./jwt.js";

const ISSUER = "https://as.example.com";
const AUDIENCE = "https://mcp.example.com/mcp";
const CLAIMS = { iss: ISSUER, aud: AUDIENCE, sub: "alice", exp: NOW_SEC + 300, iat: NOW_SEC, nbf: NOW_SEC, scope: "tools:read" };
const OPTIONS: VerifyJwtOptions = { keys: KEYS.ES256.publicKey, issuer: ISSUER, audience: AUDIENCE, now: () => NOW_MS };

const jwt = (claims: JwtClaims, header = {}): Promise<string> => signJwt(claims, KEYS.ES256.privateKey, header);

describe("verifyJwt accepts a good token", () => {
  it.each(ALGS)("%s: returns the claims", async (alg) => {
    const token = await signJwt(CLAIMS, KEYS[alg].privateKey);
    expect(await verifyJwt(token, { ...OPTIONS, keys: KEYS[alg].publicKey })).toEqual(CLAIMS);
  });

  it("takes aud as an array containing the audience, and several accepted audiences", async () => {
    expect((await verifyJwt(await jwt({ ...CLAIMS, aud: ["other", AUDIENCE] }), OPTIONS)).aud).toEqual(["other", AUDIENCE]);
    expect((await verifyJwt(await jwt(CLAIMS), { ...OPTIONS, audience: ["https://elsewhere", AUDIENCE] })).sub).toBe("alice");
  });

  it("allows the clock tolerance (60 s by default) on exp, nbf and iat, and no more", async () => {
    expect(DEFAULT_CLOCK_TOLERANCE_SEC).toBe(60);
    const edge = { ...CLAIMS, exp: NOW_SEC - 59, nbf: NOW_SEC + 60, iat: NOW_SEC + 60 };
    expect((await verifyJwt(await jwt(edge), OPTIONS)).exp).toBe(NOW_SEC - 59);
    expect(await refusal(verifyJwt(await jwt({ ...CLAIMS, exp: NOW_SEC - 60 }), OPTIONS), "exp")).toBe(
      "Token rejected (exp): the token has expired",
    );
    expect(await refusal(verifyJwt(await jwt({ ...CLAIMS, nbf: NOW_SEC + 60.5 }), OPTIONS), "nbf")).toBe(
      "Token rejected (nbf): the token is not valid yet (nbf)",
    );
    expect(await refusal(verifyJwt(await jwt({ ...CLAIMS, iat: NOW_SEC + 61 }), OPTIONS), "iat")).toBe(
      "Token rejected (iat): the token was issued in the future (iat)",
    );
    const strict = { ...OPTIONS, clockToleranceSec: 0 };
    expect(await refusal(verifyJwt(await jwt({ ...CLAIMS, exp: NOW_SEC }), strict), "exp")).toContain("expired");
    expect((await verifyJwt(await jwt({ ...CLAIMS, exp: NOW_SEC + 0.001 }), strict)).exp).toBe(NOW_SEC + 0.001);
  });

  it("reads Date.now when no clock is given", async () => {
    const { now: _now, ...realClock } = OPTIONS;
    const nowSec = Math.floor(Date.now() / 1000);
    expect((await verifyJwt(await jwt({ ...CLAIMS, exp: nowSec + 600, nbf: nowSec, iat: nowSec }), realClock)).sub).toBe("alice");
    expect(await refusal(verifyJwt(await jwt({ ...CLAIMS, exp: nowSec - 600 }), realClock), "exp")).toContain("expired");
  });

  it("checks typ when asked: case-insensitive, application/ optional (RFC 7515 §4.1.9)", async () => {
    const token = await jwt(CLAIMS, { typ: "application/at+JWT" });
    expect((await verifyJwt(token, { ...OPTIONS, typ: "at+jwt" })).sub).toBe("alice");
    expect((await verifyJwt(await jwt(CLAIMS, { typ: "at+jwt" }), { ...OPTIONS, typ: "Application/AT+JWT" })).sub).toBe("alice");
    expect(await refusal(verifyJwt(await jwt(CLAIMS, { typ: "JWT" }), { ...OPTIONS, typ: "at+jwt" }), "typ")).toBe(
      "Token rejected (typ): the header's typ is not at+jwt",
    );
    expect(await refusal(verifyJwt(await jwt(CLAIMS), { ...OPTIONS, typ: "at+jwt" }), "typ")).toBe(
      "Token rejected (typ): the header has no typ, at+jwt is required",
    );
    expect(await refusal(verifyJwt(await jwt(CLAIMS, { typ: "application/x/at+jwt" }), { ...OPTIONS, typ: "x/at+jwt" }), "typ")).toContain(
      "is not x/at+jwt",
    );
  });

  it("requires the claims asked for", async () => {
    const { sub: _sub, ...noSub } = CLAIMS;
    expect(await refusal(verifyJwt(await jwt(noSub), { ...OPTIONS, requiredClaims: ["jti", "sub"] }), "claims")).toBe(
      "Token rejected (claims): the jti claim is missing",
    );
    expect(await refusal(verifyJwt(await jwt({ ...noSub, jti: "j" }), { ...OPTIONS, requiredClaims: ["jti", "sub"] }), "claims")).toBe(
      "Token rejected (claims): the sub claim is missing",
    );
    expect((await verifyJwt(await jwt({ ...CLAIMS, jti: "j" }), { ...OPTIONS, requiredClaims: ["jti", "sub"] })).jti).toBe("j");
  });
});

describe("verifyJwt refuses, naming the check and never the token or a claim", () => {
  const { iss: _iss, ...noIss } = CLAIMS;
  const { aud: _aud, ...noAud } = CLAIMS;
  const { exp: _exp, ...noExp } = CLAIMS;

  it.each([
    ["no iss", noIss, "iss", "the iss claim is missing"],
    ["another iss", { ...CLAIMS, iss: "https://evil.example.com" }, "iss", "the issuer is not the expected one"],
    ["the iss with a trailing slash (no normalisation)", { ...CLAIMS, iss: `${ISSUER}/` }, "iss", "the issuer is not the expected one"],
    ["iss a number", { ...CLAIMS, iss: 7 }, "iss", "the issuer is not the expected one"],
    ["no aud", noAud, "aud", "the aud claim is missing"],
    ["another aud", { ...CLAIMS, aud: "https://other.example.com/mcp" }, "aud", "the token is not for this audience"],
    ["an aud array without it", { ...CLAIMS, aud: ["a", "b"] }, "aud", "the token is not for this audience"],
    ["an empty aud array", { ...CLAIMS, aud: [] }, "aud", "the token is not for this audience"],
    ["aud a number", { ...CLAIMS, aud: 1 }, "aud", "aud is not a string or an array of strings"],
    ["aud with a number inside", { ...CLAIMS, aud: [AUDIENCE, 1] }, "aud", "aud is not a string or an array of strings"],
    ["no exp", noExp, "exp", "the exp claim is missing"],
    ["exp a string", { ...CLAIMS, exp: String(NOW_SEC + 300) }, "exp", "exp is not a NumericDate (a number of seconds)"],
    ["exp expired", { ...CLAIMS, exp: NOW_SEC - 3600 }, "exp", "the token has expired"],
    ["nbf in the future", { ...CLAIMS, nbf: NOW_SEC + 3600 }, "nbf", "the token is not valid yet (nbf)"],
    ["nbf null", { ...CLAIMS, nbf: null }, "nbf", "nbf is not a NumericDate (a number of seconds)"],
    ["iat in the future", { ...CLAIMS, iat: NOW_SEC + 3600 }, "iat", "the token was issued in the future (iat)"],
    ["iat a boolean", { ...CLAIMS, iat: true }, "iat", "iat is not a NumericDate (a number of seconds)"],
    ["sub a number", { ...CLAIMS, sub: 5 }, "claims", "sub is not a string"],
    ["jti an object", { ...CLAIMS, jti: {} }, "claims", "jti is not a string"],
  ] as const)("%s", async (_name, claims, check, message) => {
    // Written past signJwt's own checks, as a foreign issuer could.
    const token = await signJws({}, claims, KEYS.ES256.privateKey);
    const error = await expectRefused(verifyJwt(token, OPTIONS), check, message);
    expect(error.message).toBe(`Token rejected (${check}): ${message}`);
    expectNoMaterial(error, token, KEYS.ES256.privateJwk);
    for (const value of ["evil.example.com", "other.example.com"]) expect(error.message).not.toContain(value);
  });

  it("an exp of 1e400 (Infinity once parsed) is not a NumericDate", async () => {
    const token = await signRaw(
      b64uJson({ alg: "ES256" }),
      Buffer.from(`{"iss":"${ISSUER}","aud":"${AUDIENCE}","exp":1e400}`).toString("base64url"),
      KEYS.ES256,
    );
    expect(await refusal(verifyJwt(token, OPTIONS), "exp")).toBe("Token rejected (exp): exp is not a NumericDate (a number of seconds)");
  });

  it("checks the signature before any claim", async () => {
    const token = await signJwt({ ...CLAIMS, exp: 1 }, KEYS.EdDSA.privateKey);
    expect(await refusal(verifyJwt(token, OPTIONS), "key")).toContain("the key does not fit alg EdDSA");
  });

  it("passes algorithms and maxLength on to the JWS check", async () => {
    const token = await jwt(CLAIMS);
    expect(await refusal(verifyJwt(token, { ...OPTIONS, algorithms: ["EdDSA"] }), "alg")).toBe(
      "Token rejected (alg): alg ES256 is not accepted here",
    );
    expect(await refusal(verifyJwt(token, { ...OPTIONS, maxLength: 10 }), "token")).toBe(
      "Token rejected (token): the token is longer than 10 characters",
    );
  });
});

describe("verifyJwt refuses a bad configuration before reading the token", () => {
  it.each([
    ["issuer empty", { issuer: "" }, "verifyJwt: issuer must be a non-empty string"],
    ["issuer missing", { issuer: undefined }, "verifyJwt: issuer must be a non-empty string"],
    ["audience empty", { audience: "" }, "verifyJwt: audience must be a non-empty string or a non-empty array of them"],
    ["audience an empty array", { audience: [] }, "verifyJwt: audience must be"],
    ["audience with an empty string", { audience: [AUDIENCE, ""] }, "verifyJwt: audience must be"],
    ["audience a number", { audience: 3 }, "verifyJwt: audience must be"],
    ["tolerance negative", { clockToleranceSec: -1 }, "verifyJwt: clockToleranceSec must be a non-negative number"],
    ["tolerance NaN", { clockToleranceSec: Number.NaN }, "verifyJwt: clockToleranceSec must be a non-negative number"],
    ["requiredClaims not an array", { requiredClaims: "sub" }, "verifyJwt: requiredClaims must be an array of claim names"],
    ["requiredClaims with an empty name", { requiredClaims: [""] }, "verifyJwt: requiredClaims must be an array of claim names"],
    ["typ empty", { typ: "" }, "verifyJwt: typ must be a non-empty string"],
    ["a clock giving NaN", { now: () => Number.NaN }, "verifyJwt: now() must give a number of ms"],
  ])("%s", async (_name, override, message) => {
    expect(await invalidity(verifyJwt("not even a token", { ...OPTIONS, ...(override as object) }))).toContain(message);
  });
});

describe("signJwt", () => {
  it("signs the claims as given, with the header asked for", async () => {
    const token = await signJwt(CLAIMS, { key: KEYS.RS256.privateKey, alg: "RS256", kid: "rk" }, { typ: "at+jwt" });
    expect(JSON.parse(Buffer.from(token.split(".")[0] as string, "base64url").toString())).toEqual({
      typ: "at+jwt",
      alg: "RS256",
      kid: "rk",
    });
    expect(await verifyJwt(token, { ...OPTIONS, keys: KEYS.RS256.publicKey, typ: "at+jwt" })).toEqual(CLAIMS);
  });

  it.each([
    ["claims null", null, "signJwt: the claims must be a JSON object"],
    ["claims an array", [], "signJwt: the claims must be a JSON object"],
    ["iss a number", { iss: 1 }, "signJwt: iss must be a string"],
    ["sub null", { sub: null }, "signJwt: sub must be a string"],
    ["jti a number", { jti: 2 }, "signJwt: jti must be a string"],
    ["exp a string", { exp: "soon" }, "signJwt: exp must be a number of seconds"],
    ["nbf Infinity", { nbf: Number.POSITIVE_INFINITY }, "signJwt: nbf must be a number of seconds"],
    ["iat NaN", { iat: Number.NaN }, "signJwt: iat must be a number of seconds"],
    ["aud an object", { aud: {} }, "signJwt: aud must be a string or an array of strings"],
  ])("refuses %s", async (_name, claims, message) => {
    expect(await invalidity(signJwt(claims as never, KEYS.ES256.privateKey))).toBe(message);
  });
});

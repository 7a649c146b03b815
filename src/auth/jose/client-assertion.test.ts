import * as jose from "jose";
import { describe, expect, it } from "vitest";

import { CLIENT_ASSERTION_TYPE, DEFAULT_ASSERTION_LIFETIME_SEC, privateKeyJwtAssertion } from "./client-assertion.js";
import { KEYS, NOW_MS, NOW_SEC, invalidity } from "./jose.test-helpers.js";
import { importPkcs8Pem } from "./jwk.js";
import { verifyJwt } from "./jwt.js";

const CLIENT_ID = "conformance-test-client";
const ISSUER = "http://localhost:4100";
const TOKEN_ENDPOINT = `${ISSUER}/token`;

const decode = (token: string): { header: unknown; claims: Record<string, unknown> } => {
  const [header, claims] = token
    .split(".")
    .slice(0, 2)
    .map((part) => JSON.parse(Buffer.from(part, "base64url").toString()) as Record<string, unknown>);
  return { header, claims: claims as Record<string, unknown> };
};

describe("privateKeyJwtAssertion (RFC 7523 §3)", () => {
  it("writes iss = sub = client_id, aud = the AS issuer, a random jti, iat and exp (300 s by default)", async () => {
    const token = await privateKeyJwtAssertion({
      clientId: CLIENT_ID,
      issuer: ISSUER,
      tokenEndpoint: TOKEN_ENDPOINT,
      key: KEYS.ES256.privateKey,
      now: () => NOW_MS + 999,
    });
    const { header, claims } = decode(token);
    expect(header).toEqual({ alg: "ES256" });
    expect(claims).toEqual({
      iss: CLIENT_ID,
      sub: CLIENT_ID,
      aud: ISSUER,
      jti: expect.stringMatching(/^[0-9a-f]{32}$/),
      iat: NOW_SEC,
      exp: NOW_SEC + DEFAULT_ASSERTION_LIFETIME_SEC,
    });
    const again = decode(
      await privateKeyJwtAssertion({ clientId: CLIENT_ID, issuer: ISSUER, key: KEYS.ES256.privateKey, now: () => NOW_MS }),
    );
    expect(again.claims["jti"]).not.toBe(claims["jti"]);
    expect(
      await verifyJwt(token, {
        keys: KEYS.ES256.publicKey,
        issuer: CLIENT_ID,
        audience: ISSUER,
        now: () => NOW_MS,
        requiredClaims: ["sub", "jti", "iat"],
      }),
    ).toEqual(claims);
    expect(CLIENT_ASSERTION_TYPE).toBe("urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
  });

  it("uses the token endpoint as aud only when no issuer is given, and the lifetime asked for", async () => {
    const { claims } = decode(
      await privateKeyJwtAssertion({
        clientId: CLIENT_ID,
        tokenEndpoint: TOKEN_ENDPOINT,
        key: KEYS.ES256.privateKey,
        lifetimeSec: 60,
        now: () => NOW_MS,
      }),
    );
    expect({ aud: claims["aud"], lifetime: (claims["exp"] as number) - (claims["iat"] as number) }).toEqual({
      aud: TOKEN_ENDPOINT,
      lifetime: 60,
    });
  });

  it("puts a JoseKey's kid in the header and checks the alg asked for against the key", async () => {
    const { header } = decode(
      await privateKeyJwtAssertion({
        clientId: CLIENT_ID,
        issuer: ISSUER,
        key: { key: KEYS.RS256.privateKey, alg: "RS256", kid: "client-key-1" },
        alg: "RS256",
      }),
    );
    expect(header).toEqual({ alg: "RS256", kid: "client-key-1" });
    expect(
      await invalidity(privateKeyJwtAssertion({ clientId: CLIENT_ID, issuer: ISSUER, key: KEYS.RS256.privateKey, alg: "ES256" })),
    ).toBe("The header's alg does not fit the key: the key is a RS256 key");
  });

  it("passes the conformance check auth/client-credentials-jwt: jose.jwtVerify, audience [issuer, issuer/], 30 s tolerance", async () => {
    // The suite's own steps (0.1.16 and 0.2.0-alpha.12): an extractable ES256 pair from jose, the private key handed over as PKCS#8 PEM.
    const { publicKey, privateKey } = await jose.generateKeyPair("ES256", { extractable: true });
    const key = await importPkcs8Pem(await jose.exportPKCS8(privateKey), "ES256");
    const assertion = await privateKeyJwtAssertion({ clientId: CLIENT_ID, issuer: ISSUER, tokenEndpoint: TOKEN_ENDPOINT, key });
    const authBaseUrl = ISSUER.replace(/\/+$/, "");
    const { payload } = await jose.jwtVerify(assertion, publicKey, { audience: [authBaseUrl, `${authBaseUrl}/`], clockTolerance: 30 });
    expect({ iss: payload.iss, sub: payload.sub }).toEqual({ iss: CLIENT_ID, sub: CLIENT_ID });
    // Had the token endpoint been the audience, the suite would have refused the assertion.
    const endpointAudience = await privateKeyJwtAssertion({ clientId: CLIENT_ID, tokenEndpoint: TOKEN_ENDPOINT, key });
    await expect(
      jose.jwtVerify(endpointAudience, publicKey, { audience: [authBaseUrl, `${authBaseUrl}/`], clockTolerance: 30 }),
    ).rejects.toThrow('unexpected "aud" claim value');
  });

  it.each([
    ["an empty clientId", { clientId: "" }, "privateKeyJwtAssertion: clientId must be a non-empty string"],
    ["a clientId that is not a string", { clientId: 7 }, "privateKeyJwtAssertion: clientId must be a non-empty string"],
    [
      "no audience",
      { issuer: undefined, tokenEndpoint: undefined },
      "privateKeyJwtAssertion: give the authorization server's issuer (or its token endpoint) as the audience",
    ],
    ["an empty issuer", { issuer: "" }, "privateKeyJwtAssertion: give the authorization server's issuer"],
    ["a lifetime of 0", { lifetimeSec: 0 }, "privateKeyJwtAssertion: lifetimeSec must be a positive whole number of seconds"],
    ["a fractional lifetime", { lifetimeSec: 1.5 }, "privateKeyJwtAssertion: lifetimeSec must be a positive whole number of seconds"],
  ])("refuses %s", async (_name, override, message) => {
    const options = { clientId: CLIENT_ID, issuer: ISSUER, key: KEYS.ES256.privateKey, ...override } as Parameters<
      typeof privateKeyJwtAssertion
    >[0];
    expect(await invalidity(privateKeyJwtAssertion(options))).toContain(message);
  });
});

// Cross-checks against the `jose` library (devDependency, pinned): what we sign it verifies, what it
// signs we verify, for all four algorithms; RS256 and Ed25519 are deterministic, so there both must
// write the very same token.
import * as jose from "jose";
import { describe, expect, it } from "vitest";

import { importPrivateJwk, importPublicJwk, localJwks, signJws, signJwt, verifyJws, verifyJwt, type JwsAlgorithm } from "./index.js";
import { ALGS, KEYS, NOW_MS, NOW_SEC, refusal } from "./jose.test-helpers.js";

const ISSUER = "https://as.example.com";
const AUDIENCE = "https://mcp.example.com/mcp";
const CLAIMS = { iss: ISSUER, aud: AUDIENCE, sub: "alice", exp: NOW_SEC + 600, iat: NOW_SEC, jti: "j-1", scope: "a b" };
const VERIFY = { issuer: ISSUER, audience: AUDIENCE, now: () => NOW_MS };
const JOSE_VERIFY = { issuer: ISSUER, audience: AUDIENCE, currentDate: new Date(NOW_MS) };

const joseKey = (alg: JwsAlgorithm, which: "publicJwk" | "privateJwk"): ReturnType<typeof jose.importJWK> =>
  jose.importJWK({ ...KEYS[alg][which] }, alg);

describe.each(ALGS)("%s with jose 6", (alg) => {
  it("jose verifies the JWT we sign", async () => {
    const token = await signJwt(CLAIMS, await importPrivateJwk({ ...KEYS[alg].privateJwk, kid: "k" }, alg), { typ: "at+jwt" });
    const { payload, protectedHeader } = await jose.jwtVerify(token, await joseKey(alg, "publicJwk"), {
      ...JOSE_VERIFY,
      typ: "at+jwt",
      algorithms: [alg],
    });
    expect({ payload, protectedHeader }).toEqual({ payload: CLAIMS, protectedHeader: { typ: "at+jwt", alg, kid: "k" } });
  });

  it("we verify the JWT jose signs, through a JWK Set", async () => {
    const token = await new jose.SignJWT(CLAIMS).setProtectedHeader({ alg, kid: "k", typ: "JWT" }).sign(await joseKey(alg, "privateJwk"));
    const keys = localJwks({
      keys: [
        { ...KEYS.ES256.publicJwk, kid: "other" },
        { ...KEYS[alg].publicJwk, kid: "k", alg },
      ],
    });
    expect(await verifyJwt(token, { ...VERIFY, keys, typ: "JWT" })).toEqual(CLAIMS);
  });

  it("we verify a jose compact JWS with extra header members, and refuse it once a byte changes", async () => {
    const payload = new TextEncoder().encode(JSON.stringify({ hello: "world", n: [1, 2] }));
    const token = await new jose.CompactSign(payload)
      .setProtectedHeader({ alg, cty: "example", x5t: "ignored" })
      .sign(await joseKey(alg, "privateJwk"));
    expect(await verifyJws(token, await importPublicJwk(KEYS[alg].publicJwk, alg))).toEqual({
      header: { alg, cty: "example", x5t: "ignored" },
      payload: { hello: "world", n: [1, 2] },
    });
    const flipped = `${token.slice(0, -3)}${token.at(-3) === "A" ? "B" : "A"}${token.slice(-2)}`;
    await expect(verifyJws(flipped, KEYS[alg].publicKey)).rejects.toThrow("Token rejected");
  });
});

describe("deterministic algorithms write the same token as jose", () => {
  it.each(["RS256", "EdDSA"] as const)("%s", async (alg) => {
    const header = { alg, kid: "same", typ: "JWT" };
    const ours = await signJws(header, CLAIMS, KEYS[alg].privateKey);
    const theirs = await new jose.SignJWT(CLAIMS).setProtectedHeader(header).sign(await joseKey(alg, "privateJwk"));
    expect(ours).toBe(theirs);
  });
});

describe("what jose writes and we refuse", () => {
  it("a crit header (RFC 7797 b64) and HS256", async () => {
    const b64 = await new jose.FlattenedSign(new TextEncoder().encode("{}"))
      .setProtectedHeader({ alg: "ES256", b64: true, crit: ["b64"] })
      .sign(await joseKey("ES256", "privateJwk"));
    const compact = `${b64.protected}.${b64.payload}.${b64.signature}`;
    expect(await refusal(verifyJws(compact, KEYS.ES256.publicKey), "crit")).toBe(
      "Token rejected (crit): the header has crit: no JWS extension is understood here",
    );
    const hs = await new jose.SignJWT(CLAIMS).setProtectedHeader({ alg: "HS256" }).sign(new Uint8Array(32));
    expect(await refusal(verifyJwt(hs, { ...VERIFY, keys: KEYS.ES256.publicKey }), "alg")).toBe(
      "Token rejected (alg): the alg is not one of ES256, RS256, PS256, EdDSA",
    );
    const unsecured = new jose.UnsecuredJWT(CLAIMS).encode();
    expect(await refusal(verifyJwt(unsecured, { ...VERIFY, keys: KEYS.ES256.publicKey }), "alg")).toBe(
      "Token rejected (alg): alg none (an unsecured JWS) is refused",
    );
  });

  it("keys jose generates and exports, once in a JWK Set, verify jose's tokens with us", async () => {
    for (const alg of ALGS) {
      const { publicKey, privateKey } = await jose.generateKeyPair(alg, { extractable: true });
      const jwk = await jose.exportJWK(publicKey);
      const token = await new jose.SignJWT(CLAIMS).setProtectedHeader({ alg, kid: alg }).sign(privateKey);
      expect((await verifyJwt(token, { ...VERIFY, keys: localJwks({ keys: [{ ...jwk, kid: alg }] }) })).sub).toBe("alice");
    }
  });
});

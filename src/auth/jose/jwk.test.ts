import { describe, expect, it } from "vitest";

import { algorithmOfKey } from "./algorithms.js";
import { importPkcs8Pem, importPrivateJwk, importPublicJwk, joseKeyOf } from "./jwk.js";
import { ALGS, KEYS, b64u, expectInvalid, expectNoMaterial, invalidity, makeKeys } from "./jose.test-helpers.js";
import { signJws, verifyJws } from "./jws.js";

const PAYLOAD = { sub: "alice" };
const RSA_1024 = { name: "RSASSA-PKCS1-v1_5", modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" };

async function pemOf(keys: { privateKey: Parameters<typeof crypto.subtle.exportKey>[1] }): Promise<string> {
  const der = Buffer.from(await crypto.subtle.exportKey("pkcs8", keys.privateKey)).toString("base64");
  return `-----BEGIN PRIVATE KEY-----\n${der.replaceAll(/(.{64})/g, "$1\n")}\n-----END PRIVATE KEY-----\n`;
}

describe("importPublicJwk / importPrivateJwk", () => {
  it.each(ALGS)("%s: the pair signs and verifies, keys non-extractable, with the one usage each", async (alg) => {
    const signer = await importPrivateJwk({ ...KEYS[alg].privateJwk, alg, kid: "s1" });
    const verifier = await importPublicJwk({ ...KEYS[alg].publicJwk, alg, kid: "s1", use: "sig", key_ops: ["verify"] });
    expect({
      alg: signer.alg,
      kid: signer.kid,
      type: signer.key.type,
      extractable: signer.key.extractable,
      usages: signer.key.usages,
    }).toEqual({ alg, kid: "s1", type: "private", extractable: false, usages: ["sign"] });
    expect({ alg: verifier.alg, kid: verifier.kid, type: verifier.key.type, usages: verifier.key.usages }).toEqual({
      alg,
      kid: "s1",
      type: "public",
      usages: ["verify"],
    });
    expect((await verifyJws(await signJws({}, PAYLOAD, signer), verifier)).header).toEqual({ alg, kid: "s1" });
  });

  it("takes the alg from the curve when the JWK names none, and from the caller for RSA", async () => {
    expect((await importPublicJwk(KEYS.ES256.publicJwk)).alg).toBe("ES256");
    expect((await importPublicJwk(KEYS.EdDSA.publicJwk)).alg).toBe("EdDSA");
    const rsa = await importPublicJwk(KEYS.RS256.publicJwk, "PS256");
    expect({ alg: rsa.alg, algorithm: rsa.key.algorithm.name }).toEqual({ alg: "PS256", algorithm: "RSA-PSS" });
    expect(await invalidity(importPublicJwk(KEYS.RS256.publicJwk))).toBe("The RSA JWK has no alg: say which to use (RS256 or PS256)");
    expect((await importPublicJwk({ ...KEYS.RS256.publicJwk, alg: "RS256" }, "RS256")).kid).toBeUndefined();
  });

  it("imports only the public members of a private JWK given for verification", async () => {
    const verifier = await importPublicJwk(KEYS.ES256.privateJwk);
    expect(verifier.key.type).toBe("public");
  });
});

describe("importPublicJwk / importPrivateJwk refuse, with MCP.INVALID_PARAMS", () => {
  it("a requested alg that disagrees with the JWK's own", async () => {
    expect(await invalidity(importPublicJwk({ ...KEYS.RS256.publicJwk, alg: "RS256" }, "PS256"))).toBe("The JWK is for RS256, not PS256");
    expect(await invalidity(importPublicJwk({ ...KEYS.ES256.publicJwk, alg: "HS256" }))).toBe(
      "The JWK's alg is not one of ES256, RS256, PS256, EdDSA",
    );
  });

  it("refuses a key type that does not fit the alg (algorithm confusion at import)", async () => {
    expect(await invalidity(importPublicJwk({ ...KEYS.ES256.publicJwk, alg: "RS256" }))).toBe("The JWK is a EC key; RS256 needs RSA");
    expect(await invalidity(importPublicJwk(KEYS.EdDSA.publicJwk, "ES256"))).toBe("The JWK is a OKP key; ES256 needs EC");
    expect(await invalidity(importPublicJwk({ ...KEYS.ES256.publicJwk, crv: "P-384" }, "ES256"))).toBe("ES256 needs the curve P-256");
    expect(await invalidity(importPublicJwk({ ...KEYS.ES256.publicJwk, crv: "P-384" }))).toBe(
      "The JWK's crv is not P-256 (EC) or Ed25519 (OKP)",
    );
    expect(await invalidity(importPublicJwk({ kty: "OKP", crv: "X25519", x: KEYS.EdDSA.publicJwk["x"] }))).toBe(
      "The JWK's crv is not P-256 (EC) or Ed25519 (OKP)",
    );
  });

  it("refuses encryption keys, keys whose key_ops exclude the operation, and malformed key_ops", async () => {
    expect(await invalidity(importPublicJwk({ ...KEYS.ES256.publicJwk, use: "enc" }))).toBe(
      'The JWK\'s use is "enc" (encryption): it is not a signature key',
    );
    expect(await invalidity(importPublicJwk({ ...KEYS.ES256.publicJwk, use: "other" }))).toBe(
      'The JWK\'s use is not "sig": it is not a signature key',
    );
    expect(await invalidity(importPublicJwk({ ...KEYS.ES256.publicJwk, key_ops: ["sign"] }))).toBe(
      'The JWK\'s key_ops do not include "verify"',
    );
    expect(await invalidity(importPrivateJwk({ ...KEYS.ES256.privateJwk, key_ops: ["verify"] }))).toBe(
      'The JWK\'s key_ops do not include "sign"',
    );
    expect(await invalidity(importPublicJwk({ ...KEYS.ES256.publicJwk, key_ops: "verify" }))).toBe(
      "The JWK's key_ops is not an array of strings",
    );
    expect(await invalidity(importPublicJwk({ ...KEYS.ES256.publicJwk, key_ops: [1] }))).toBe(
      "The JWK's key_ops is not an array of strings",
    );
  });

  it("refuses symmetric keys, unknown key types, non-objects and a kid that is not a string", async () => {
    expect(await invalidity(importPublicJwk({ kty: "oct", k: b64u(new Uint8Array(32)) }))).toBe(
      "The JWK is a symmetric (oct) key: HMAC algorithms are not supported, only ES256, RS256, PS256 and EdDSA",
    );
    expect(await invalidity(importPublicJwk({ kty: "DSA" }))).toBe("The JWK's kty is not one of EC, RSA, OKP");
    expect(await invalidity(importPublicJwk({}))).toBe("The JWK's kty is not one of EC, RSA, OKP");
    for (const notObject of [null, "jwk", [KEYS.ES256.publicJwk]])
      expect(await invalidity(importPublicJwk(notObject as never))).toBe("The JWK is not a JSON object");
    expect(await invalidity(importPublicJwk({ ...KEYS.ES256.publicJwk, kid: 3 }))).toBe("The JWK's kid is not a string");
  });

  it("refuses missing, empty and non-base64url members, naming the member but never its value", async () => {
    const { y: _y, ...noY } = KEYS.ES256.publicJwk;
    expect(await invalidity(importPublicJwk(noY))).toBe('The public EC JWK\'s "y" is missing or not base64url');
    expect(await invalidity(importPublicJwk({ ...KEYS.RS256.publicJwk, e: "" }, "RS256"))).toBe(
      'The public RSA JWK\'s "e" is missing or not base64url',
    );
    const padded = `${KEYS.EdDSA.publicJwk["x"] as string}=`;
    const error = await expectInvalid(
      importPublicJwk({ ...KEYS.EdDSA.publicJwk, x: padded }),
      'The public OKP JWK\'s "x" is missing or not base64url',
    );
    expectNoMaterial(error, undefined, { padded });
    expect(await invalidity(importPrivateJwk(KEYS.ES256.publicJwk))).toBe('The private EC JWK\'s "d" is missing or not base64url');
    const { qi: _qi, ...noQi } = KEYS.RS256.privateJwk;
    expect(await invalidity(importPrivateJwk(noQi, "RS256"))).toBe('The private RSA JWK\'s "qi" is missing or not base64url');
  });

  it("reports a key WebCrypto refuses (a point off the curve) with its cause, and no key material", async () => {
    const offCurve = { ...KEYS.ES256.publicJwk, x: KEYS.ES256.publicJwk["y"] };
    const error = await expectInvalid(importPublicJwk(offCurve), "The EC JWK could not be imported as a ES256 key");
    expect(error.cause).toBeInstanceOf(Error);
    expectNoMaterial(error, undefined, offCurve);
    const privateError = await expectInvalid(
      importPrivateJwk({ ...KEYS.ES256.privateJwk, d: KEYS.ES256.publicJwk["y"] }),
      "could not be imported as a ES256 key",
    );
    expectNoMaterial(privateError, undefined, KEYS.ES256.privateJwk);
  });

  it("refuses RSA keys under 2048 bits", async () => {
    const small = await makeKeys("RS256", RSA_1024);
    expect(await invalidity(importPublicJwk(small.publicJwk, "RS256"))).toBe(
      "The JWK cannot verify with RS256: RSA keys under 2048 bits are refused",
    );
    expect(await invalidity(importPrivateJwk(small.privateJwk, "RS256"))).toBe(
      "The JWK cannot sign with RS256: RSA keys under 2048 bits are refused",
    );
  });
});

describe("importPkcs8Pem", () => {
  it.each(ALGS)("%s: a PKCS#8 PEM signs what the public key verifies", async (alg) => {
    const signer = await importPkcs8Pem(await pemOf(KEYS[alg]), alg);
    expect({ alg: signer.alg, type: signer.key.type, extractable: signer.key.extractable }).toEqual({
      alg,
      type: "private",
      extractable: false,
    });
    expect((await verifyJws(await signJws({}, PAYLOAD, signer), KEYS[alg].publicKey)).payload).toEqual(PAYLOAD);
  });

  it("refuses what is not an unencrypted PKCS#8 PEM, an unknown alg, a key of another type, and small RSA keys", async () => {
    const pem = await pemOf(KEYS.ES256);
    const notPem = "The PEM is not an unencrypted PKCS#8 private key (-----BEGIN PRIVATE KEY-----)";
    expect(await invalidity(importPkcs8Pem(pem.replace("PRIVATE KEY-----\n", "ENCRYPTED PRIVATE KEY-----\n"), "ES256"))).toBe(notPem);
    expect(await invalidity(importPkcs8Pem(pem.replace("-----END PRIVATE KEY-----", ""), "ES256"))).toBe(notPem);
    expect(await invalidity(importPkcs8Pem("-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----", "ES256"))).toBe(notPem);
    expect(await invalidity(importPkcs8Pem(pem.replace("\n", "\n*"), "ES256"))).toBe(notPem);
    expect(await invalidity(importPkcs8Pem(42 as never, "ES256"))).toBe(notPem);
    expect(await invalidity(importPkcs8Pem(pem, "HS256" as never))).toBe("The alg is not one of ES256, RS256, PS256, EdDSA");
    const error = await expectInvalid(importPkcs8Pem(pem, "RS256"), "The PKCS#8 key could not be imported as a RS256 key");
    expectNoMaterial(error, undefined, { pem: pem.split("\n")[1] });
    expect(await invalidity(importPkcs8Pem(await pemOf(await makeKeys("RS256", RSA_1024)), "RS256"))).toBe(
      "The PKCS#8 key cannot sign with RS256: RSA keys under 2048 bits are refused",
    );
  });
});

describe("joseKeyOf", () => {
  it("reads the alg off a WebCrypto key, keeps a JoseKey, and gives undefined for keys of other algorithms", async () => {
    expect(joseKeyOf(KEYS.PS256.publicKey)).toEqual({ key: KEYS.PS256.publicKey, alg: "PS256" });
    const jose = { key: KEYS.ES256.privateKey, alg: "ES256" as const, kid: "x" };
    expect(joseKeyOf(jose)).toBe(jose);
    const hmac = await crypto.subtle.importKey("raw", new Uint8Array(32), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    expect(joseKeyOf(hmac)).toBeUndefined();
    expect(algorithmOfKey(hmac)).toBeUndefined();
  });
});

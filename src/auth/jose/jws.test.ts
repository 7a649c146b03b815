import { describe, expect, it, vi } from "vitest";

import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { importPublicJwk } from "./jwk.js";
import {
  ALGS,
  KEYS,
  b64u,
  b64uJson,
  craft,
  expectInvalid,
  expectNoMaterial,
  expectRefused,
  makeKeys,
  signRaw,
  refusal,
  invalidity,
} from "./jose.test-helpers.js";
import { DEFAULT_MAX_TOKEN_LENGTH, MAX_KEY_CANDIDATES, signJws, verifyJws, type KeyResolver } from "./jws.js";

const PAYLOAD = { sub: "alice", n: 1, nested: { list: [1, "two", null] } };

describe("signJws / verifyJws round trip", () => {
  it.each(ALGS)("%s: the header gets the key's alg, the payload comes back as signed", async (alg) => {
    const token = await signJws({ typ: "JWT" }, PAYLOAD, KEYS[alg].privateKey);
    const header = JSON.parse(Buffer.from(token.split(".")[0] as string, "base64url").toString("utf8")) as unknown;
    expect(header).toEqual({ typ: "JWT", alg });
    expect(await verifyJws(token, KEYS[alg].publicKey)).toEqual({ header: { typ: "JWT", alg }, payload: PAYLOAD });
  });

  it("writes the kid of a JoseKey unless the header names one, and takes a JoseKey to verify", async () => {
    const signer = { key: KEYS.ES256.privateKey, alg: "ES256" as const, kid: "k-1" };
    const verifier = await importPublicJwk({ ...KEYS.ES256.publicJwk, kid: "k-1" });
    expect((await verifyJws(await signJws({}, PAYLOAD, signer), verifier)).header).toEqual({ alg: "ES256", kid: "k-1" });
    expect((await verifyJws(await signJws({ kid: "other" }, PAYLOAD, signer), verifier)).header).toEqual({ alg: "ES256", kid: "other" });
    expect((await verifyJws(await signJws({ alg: "ES256" }, PAYLOAD, KEYS.ES256.privateKey), [verifier])).header).toEqual({ alg: "ES256" });
  });

  it("writes ES256 signatures as 64 bytes r||s and Ed25519 ones as 64 bytes", async () => {
    for (const alg of ["ES256", "EdDSA"] as const) {
      const token = await signJws({}, PAYLOAD, KEYS[alg].privateKey);
      expect(Buffer.from(token.split(".")[2] as string, "base64url")).toHaveLength(64);
    }
  });
});

describe("signJws refuses what it cannot sign", () => {
  it("a key of no supported algorithm, a public key, and an alg that is not the key's", async () => {
    const hmac = await crypto.subtle.importKey("raw", new Uint8Array(32), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    expect(await invalidity(signJws({}, PAYLOAD, hmac))).toContain("The key serves none of ES256, RS256, PS256, EdDSA");
    expect(await invalidity(signJws({}, PAYLOAD, KEYS.ES256.publicKey))).toContain(
      "The key cannot sign ES256: signing needs a private key, this one is public",
    );
    expect(await invalidity(signJws({ alg: "RS256" }, PAYLOAD, KEYS.ES256.privateKey))).toContain(
      "The header's alg does not fit the key: the key is a ES256 key",
    );
    expect(await invalidity(signJws({ alg: "PS256" }, PAYLOAD, KEYS.RS256.privateKey))).toContain("the key is a RS256 key");
  });

  it("crit, headers and payloads that are not JSON objects, and values JSON cannot write", async () => {
    expect(await invalidity(signJws({ crit: ["b64"], b64: false }, PAYLOAD, KEYS.ES256.privateKey))).toContain("crit is not supported");
    expect(await invalidity(signJws({}, [1, 2] as never, KEYS.ES256.privateKey))).toContain("must be JSON objects");
    expect(await invalidity(signJws(null as never, PAYLOAD, KEYS.ES256.privateKey))).toContain("must be JSON objects");
    const error = await expectInvalid(signJws({}, { big: 1n }, KEYS.ES256.privateKey), "The JWS payload cannot be written as JSON");
    expect(error.cause).toBeInstanceOf(TypeError);
  });
});

describe("verifyJws refuses malformed tokens before any cryptography", () => {
  const verify = vi.fn<typeof crypto.subtle.verify>();

  it.each([
    ["not a string", 42, "token", "the token is not a string"],
    ["two parts", "a.b", "token", "not a compact JWS"],
    ["four parts", "a.b.c.d", "token", "not a compact JWS"],
    ["empty", "", "token", "not a compact JWS"],
    ["padding", `${b64uJson({ alg: "ES256" })}.e30=.${b64u("sig")}`, "token", "a part is not base64url"],
    ["standard alphabet", `${b64uJson({ alg: "ES256" })}.e30.ab+/`, "token", "a part is not base64url"],
    ["whitespace", `${b64uJson({ alg: "ES256" })} .e30.${b64u("sig")}`, "token", "a part is not base64url"],
    ["non-canonical trailing bits", `${b64uJson({ alg: "ES256" })}.e31.${b64u("sig")}`, "token", "a part is not base64url"],
    ["non-ASCII", `${b64uJson({ alg: "ES256" })}.é.${b64u("sig")}`, "token", "a part is not base64url"],
    ["header not JSON", craft(b64u("{alg:ES256}"), {}), "header", "the protected header is not a JSON object"],
    ["header an array", craft(["ES256"], {}), "header", "the protected header is not a JSON object"],
    ["header a string", craft(b64uJson("ES256"), {}), "header", "the protected header is not a JSON object"],
    ["header null", craft(b64uJson(null), {}), "header", "the protected header is not a JSON object"],
    ["header with a BOM", craft(b64u('\uFEFF{"alg":"ES256"}'), {}), "header", "the protected header is not a JSON object"],
    ["header not UTF-8", craft(b64u(new Uint8Array([0x7b, 0xff, 0x7d])), {}), "header", "the protected header is not a JSON object"],
    ["alg none", craft({ alg: "none" }, {}, ""), "alg", "alg none (an unsecured JWS) is refused"],
    ["alg HS256", craft({ alg: "HS256" }, {}), "alg", "the alg is not one of ES256, RS256, PS256, EdDSA"],
    ["alg missing", craft({ typ: "JWT" }, {}), "alg", "the alg is not one of"],
    ["alg lower-case", craft({ alg: "es256" }, {}), "alg", "the alg is not one of"],
    ["crit", craft({ alg: "ES256", crit: ["exp"], exp: 1 }, {}), "crit", "the header has crit: no JWS extension is understood here"],
    ["crit empty", craft({ alg: "ES256", crit: [] }, {}), "crit", "the header has crit"],
    ["kid a number", craft({ alg: "ES256", kid: 7 }, {}), "header", "the header's kid is not a string"],
    ["typ an object", craft({ alg: "ES256", typ: {} }, {}), "header", "the header's typ is not a string"],
    ["empty signature", craft({ alg: "RS256" }, {}, ""), "signature", "the signature is empty"],
    [
      "DER-length ES256 signature",
      craft({ alg: "ES256" }, {}, b64u(new Uint8Array(71))),
      "signature",
      "a ES256 signature is 64 bytes (r||s, not DER), this one is 71",
    ],
    [
      "short Ed25519 signature",
      craft({ alg: "EdDSA" }, {}, b64u(new Uint8Array(63))),
      "signature",
      "a EdDSA signature is 64 bytes, this one is 63",
    ],
  ] as const)("%s", async (_name, token, check, message) => {
    vi.spyOn(crypto.subtle, "verify").mockImplementation(verify);
    const error = await expectRefused(verifyJws(token as string, KEYS.ES256.publicKey), check, message);
    expect(verify).not.toHaveBeenCalled();
    if (typeof token === "string") expectNoMaterial(error, token);
  });

  it("bounds the token's length (16384 by default, or maxLength) before splitting it", async () => {
    const long = `${"a".repeat(DEFAULT_MAX_TOKEN_LENGTH)}.b.c`;
    expect(await refusal(verifyJws(long, KEYS.ES256.publicKey), "token")).toContain("the token is longer than 16384 characters");
    const token = await signJws({}, PAYLOAD, KEYS.ES256.privateKey);
    expect(await refusal(verifyJws(token, KEYS.ES256.publicKey, { maxLength: token.length - 1 }), "token")).toContain(
      `longer than ${token.length - 1} characters`,
    );
    expect((await verifyJws(token, KEYS.ES256.publicKey, { maxLength: token.length })).payload).toEqual(PAYLOAD);
    for (const maxLength of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(await invalidity(verifyJws(token, KEYS.ES256.publicKey, { maxLength }))).toContain(
        "maxLength must be a positive whole number of characters",
      );
    }
  });

  it("accepts only the algorithms allowed", async () => {
    const token = await signJws({}, PAYLOAD, KEYS.RS256.privateKey);
    expect(await refusal(verifyJws(token, KEYS.RS256.publicKey, { algorithms: ["ES256", "PS256"] }), "alg")).toContain(
      "alg RS256 is not accepted here",
    );
    expect((await verifyJws(token, KEYS.RS256.publicKey, { algorithms: ["RS256"] })).header.alg).toBe("RS256");
  });
});

describe("verifyJws holds each alg to its own keys (algorithm confusion)", () => {
  it.each([
    ["RS256", "ES256", "the key does not fit alg RS256: the key is a ES256 key, not a RS256 one"],
    ["ES256", "EdDSA", "the key does not fit alg ES256: the key is a EdDSA key, not a ES256 one"],
    ["PS256", "RS256", "the key does not fit alg PS256: the key is a RS256 key, not a PS256 one"],
    ["RS256", "PS256", "the key does not fit alg RS256: the key is a PS256 key, not a RS256 one"],
    ["EdDSA", "ES256", "the key does not fit alg EdDSA: the key is a ES256 key, not a EdDSA one"],
  ] as const)("a %s token against a %s key is refused before verifying", async (tokenAlg, keyAlg, message) => {
    const token = await signJws({}, PAYLOAD, KEYS[tokenAlg].privateKey);
    const verify = vi.spyOn(crypto.subtle, "verify");
    const error = await expectRefused(verifyJws(token, KEYS[keyAlg].publicKey), "key", message);
    expect(verify).not.toHaveBeenCalled();
    expectNoMaterial(error, token, KEYS[keyAlg].publicJwk);
  });

  it("a header naming another alg than the one signed with fails the signature (the RS256 key, a PS256 signature)", async () => {
    const signed = await signJws({}, PAYLOAD, KEYS.PS256.privateKey);
    const [, payloadPart, signaturePart] = signed.split(".") as [string, string, string];
    expect(
      await refusal(verifyJws(`${b64uJson({ alg: "RS256" })}.${payloadPart}.${signaturePart}`, KEYS.RS256.publicKey), "signature"),
    ).toContain("the signature does not verify");
  });

  it("refuses private keys, keys without the verify usage, RSA under 2048 bits and keys of other curves", async () => {
    const token = await signJws({}, PAYLOAD, KEYS.ES256.privateKey);
    expect(await refusal(verifyJws(token, KEYS.ES256.privateKey), "key")).toContain("verifying needs a public key, this one is private");
    const signOnly = await crypto.subtle.importKey("jwk", { ...KEYS.ES256.privateJwk }, { name: "ECDSA", namedCurve: "P-256" }, false, [
      "sign",
    ]);
    expect(await refusal(verifyJws(token, signOnly), "key")).toContain("verifying needs a public key");
    const noUsage = await crypto.subtle.importKey("jwk", { ...KEYS.ES256.publicJwk }, { name: "ECDSA", namedCurve: "P-256" }, false, []);
    expect(await refusal(verifyJws(token, noUsage), "key")).toContain('the key was imported without the "verify" usage');
    const small = await makeKeys("RS256", {
      name: "RSASSA-PKCS1-v1_5",
      modulusLength: 1024,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: "SHA-256",
    });
    const smallToken = await signRaw(b64uJson({ alg: "RS256" }), b64uJson(PAYLOAD), small);
    expect(await refusal(verifyJws(smallToken, small.publicKey), "key")).toContain("RSA keys under 2048 bits are refused");
    const p384 = await makeKeys("ES256", { name: "ECDSA", namedCurve: "P-384" });
    expect(await refusal(verifyJws(token, p384.publicKey), "key")).toContain("the key (ECDSA) serves none of ES256, RS256, PS256, EdDSA");
    const sha384 = await makeKeys("RS256", {
      name: "RSASSA-PKCS1-v1_5",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: "SHA-384",
    });
    expect(await refusal(verifyJws(await signJws({}, PAYLOAD, KEYS.RS256.privateKey), sha384.publicKey), "key")).toContain(
      "the key (RSASSA-PKCS1-v1_5) serves none",
    );
    const pss384 = await makeKeys("PS256", {
      name: "RSA-PSS",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: "SHA-384",
    });
    expect(await refusal(verifyJws(await signJws({}, PAYLOAD, KEYS.PS256.privateKey), pss384.publicKey), "key")).toContain(
      "the key (RSA-PSS) serves none",
    );
  });

  it("refuses what is not a key at all (untyped callers and resolvers)", async () => {
    const token = await signJws({}, PAYLOAD, KEYS.ES256.privateKey);
    for (const notKey of [undefined, null, "key", {}, { key: "x" }, { algorithm: null, type: "public", usages: [] }]) {
      expect(await refusal(verifyJws(token, notKey as never), "key")).toBe(
        "Token rejected (key): the key does not fit alg ES256: it is not a WebCrypto key",
      );
    }
    expect(
      await refusal(
        verifyJws(token, () => [null as never]),
        "key",
      ),
    ).toContain("it is not a WebCrypto key");
    for (const notKey of [undefined, "key", { key: {} }])
      expect(await invalidity(signJws({}, PAYLOAD, notKey as never))).toBe("The key serves none of ES256, RS256, PS256, EdDSA");
  });

  it("refuses a JoseKey whose alg is not its key's", async () => {
    const token = await signJws({}, PAYLOAD, KEYS.RS256.privateKey);
    expect(await refusal(verifyJws(token, { key: KEYS.ES256.publicKey, alg: "RS256" }), "key")).toContain(
      "the key is a ES256 key, not a RS256 one",
    );
  });
});

const KID_TOKEN = await signJws({ kid: "k2" }, PAYLOAD, KEYS.EdDSA.privateKey);

describe("verifyJws with a key resolver", () => {
  const token = KID_TOKEN;

  it("hands the verified header to the resolver and tries each key it gives, unfit ones skipped", async () => {
    const other = await makeKeys("EdDSA");
    const resolver = vi.fn<KeyResolver>(() => [KEYS.ES256.publicKey, other.publicKey, KEYS.EdDSA.publicKey]);
    expect((await verifyJws(token, resolver)).payload).toEqual(PAYLOAD);
    expect(resolver).toHaveBeenCalledWith({ alg: "EdDSA", kid: "k2" });
    expect((await verifyJws(token, () => Promise.resolve(KEYS.EdDSA.publicKey))).payload).toEqual(PAYLOAD);
  });

  it("refuses when the resolver gives no key, too many, or only unfit ones", async () => {
    expect(
      await refusal(
        verifyJws(token, () => []),
        "key",
      ),
    ).toContain("no key is known for this token");
    const many = Array.from({ length: MAX_KEY_CANDIDATES + 1 }, () => KEYS.EdDSA.publicKey);
    expect(
      await refusal(
        verifyJws(token, () => many),
        "key",
      ),
    ).toContain(`more than ${MAX_KEY_CANDIDATES} keys fit the token's header`);
    const hmac = await crypto.subtle.importKey("raw", new Uint8Array(32), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
    expect(
      await refusal(
        verifyJws(token, () => [hmac, KEYS.ES256.publicKey]),
        "key",
      ),
    ).toContain("the key does not fit alg EdDSA: the key (HMAC) serves none of ES256, RS256, PS256, EdDSA");
    expect(
      await refusal(
        verifyJws(token, async () => [(await makeKeys("EdDSA")).publicKey]),
        "signature",
      ),
    ).toContain("the signature does not verify");
  });

  it("passes the resolver's MCPError on as it is and wraps anything else it throws", async () => {
    const own = new MCPError(MCP_CODES.TRANSPORT_ERROR, "down");
    await expect(verifyJws(token, () => Promise.reject(own))).rejects.toBe(own);
    const failure = new Error("database gone");
    const error = await expectRefused(
      verifyJws(token, () => {
        throw failure;
      }),
      "key",
      "the key lookup failed",
    );
    expect(error.cause).toBe(failure);
  });
});

describe("verifyJws checks the signature, then the payload", () => {
  it.each(ALGS)("%s: another key's signature, and a changed payload, do not verify", async (alg) => {
    const token = await signJws({}, PAYLOAD, KEYS[alg].privateKey);
    expect(await refusal(verifyJws(token, (await makeKeys(alg)).publicKey), "signature")).toContain("the signature does not verify");
    const [headerPart, , signaturePart] = token.split(".") as [string, string, string];
    const forged = `${headerPart}.${b64uJson({ ...PAYLOAD, sub: "mallory" })}.${signaturePart}`;
    expectNoMaterial(
      await expectRefused(verifyJws(forged, KEYS[alg].publicKey), "signature", "the signature does not verify"),
      forged,
      KEYS[alg].privateJwk,
    );
  });

  it.each([
    ["not JSON", b64u("not json")],
    ["an array", b64uJson([1])],
    ["a number", b64uJson(3)],
    ["not UTF-8", b64u(new Uint8Array([0x22, 0xc3, 0x22]))],
  ])("a correctly signed payload that is %s is refused", async (_name, payloadPart) => {
    const token = await signRaw(b64uJson({ alg: "ES256" }), payloadPart, KEYS.ES256);
    expect(await refusal(verifyJws(token, KEYS.ES256.publicKey), "payload")).toContain("the payload is not a JSON object");
  });

  it("treats a runtime that throws on a signature it cannot use as a failed verification", async () => {
    const token = await signJws({}, PAYLOAD, KEYS.RS256.privateKey);
    vi.spyOn(crypto.subtle, "verify").mockRejectedValueOnce(new DOMException("bad signature length", "OperationError"));
    expect(await refusal(verifyJws(token, KEYS.RS256.publicKey), "signature")).toContain("the signature does not verify");
  });

  it("signs and verifies a payload with a __proto__ member as plain data", async () => {
    const payload = JSON.parse('{"__proto__":{"admin":true},"sub":"x"}') as Record<string, unknown>;
    const verified = await verifyJws(await signJws({}, payload, KEYS.ES256.privateKey), KEYS.ES256.publicKey);
    expect(Object.hasOwn(verified.payload, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>)["admin"]).toBeUndefined();
  });
});

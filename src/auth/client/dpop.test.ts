// DPoP proofs as a resource or authorization server checks them (RFC 9449 §4.3), verified by the
// `jose` library on the key the proof embeds; the nonces servers give, kept by origin; the token
// endpoint's request with a proof, sent again once with the nonce it asks for.
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, jwtVerify, type JWK } from "jose";
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { encodeBase64 } from "../../protocol/bytes-text.js";
import type { FetchLike } from "../../transport/http-client/http-options.js";
import { asksForNonce, DpopProver, dpopSupported, isDpopTokenType } from "./dpop.js";
import { requestToken } from "./token-endpoint.js";

/** The proof's claims once `jose` verified it on its embedded key (and its typ). */
async function verified(proof: string): Promise<Record<string, unknown>> {
  const { payload } = await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt", algorithms: ["ES256"] });
  return payload;
}

async function sha256(text: string): Promise<string> {
  return encodeBase64(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))), true);
}

const answer = (status: number, headers: Record<string, string> = {}, body: unknown = {}) => Response.json(body, { status, headers });

describe("DpopProver", () => {
  it("makes a fresh ES256 proof per request over its method and URL (no query, no fragment), with the token's hash", async () => {
    const prover = new DpopProver();
    const first = await prover.proof({ method: "post", url: "https://mcp.test/mcp?x=1#frag", accessToken: "at-1" });
    const second = await prover.proof({ method: "GET", url: "https://mcp.test/mcp" });
    const claims = await verified(first);
    expect(claims).toEqual({
      jti: expect.any(String),
      htm: "POST",
      htu: "https://mcp.test/mcp",
      iat: expect.any(Number),
      ath: await sha256("at-1"),
    });
    expect(Math.abs((claims["iat"] as number) - Date.now() / 1000)).toBeLessThan(60);
    expect((claims["jti"] as string).length).toBeGreaterThanOrEqual(22);
    const again = await verified(second);
    expect(again["jti"]).not.toBe(claims["jti"]);
    expect(again).not.toHaveProperty("ath");
    // The public key alone travels, and it is the same key for every proof of this prover.
    const header = decodeProtectedHeader(first);
    expect(header).toEqual({
      typ: "dpop+jwt",
      alg: "ES256",
      jwk: { kty: "EC", crv: "P-256", x: expect.any(String), y: expect.any(String) },
    });
    expect(decodeProtectedHeader(second).jwk).toEqual(header.jwk);
  });

  it("signs with the host's key pair when given one", async () => {
    const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
    const proof = await new DpopProver(pair).proof({ method: "GET", url: "https://mcp.test/mcp" });
    const own = await crypto.subtle.exportKey("jwk", pair.publicKey);
    expect(await calculateJwkThumbprint(decodeProtectedHeader(proof).jwk as JWK)).toBe(await calculateJwkThumbprint(own as JWK));
    const other = await new DpopProver().proof({ method: "GET", url: "https://mcp.test/mcp" });
    expect(decodeProtectedHeader(other).jwk).not.toEqual(decodeProtectedHeader(proof).jwk);
  });

  it("puts the last nonce an origin gave into the next proofs to that origin only; a malformed nonce is not kept", async () => {
    const prover = new DpopProver();
    expect(prover.remember("https://as.test/token", answer(200, { "dpop-nonce": "n-1" }))).toBe(true);
    expect(prover.remember("https://as.test/token", answer(200))).toBe(false);
    expect(await verified(await prover.proof({ method: "POST", url: "https://as.test/other" }))).toMatchObject({ nonce: "n-1" });
    expect(await verified(await prover.proof({ method: "POST", url: "https://mcp.test/mcp" }))).not.toHaveProperty("nonce");
    expect(prover.remember("https://as.test/token", answer(200, { "dpop-nonce": "n-2" }))).toBe(true);
    expect(await verified(await prover.proof({ method: "POST", url: "https://as.test/token" }))).toMatchObject({ nonce: "n-2" });
    for (const bad of ['with"quote', "with\\backslash", "x".repeat(513), "has space"]) {
      expect(prover.remember("https://as.test/token", answer(200, { "dpop-nonce": bad }))).toBe(false);
    }
    expect(await verified(await prover.proof({ method: "POST", url: "https://as.test/token" }))).toMatchObject({ nonce: "n-2" });
  });
});

const metadata = (algorithms: unknown) => ({
  issuer: "https://as.test",
  token_endpoint: "https://as.test/token",
  dpop_signing_alg_values_supported: algorithms,
});

describe("DPoP signals", () => {
  it("reads whether an authorization server takes ES256 proofs, a token type is DPoP, and a 401 asks for a nonce", () => {
    expect(dpopSupported(metadata(["RS256", "ES256"]))).toBe(true);
    expect(dpopSupported(metadata(["RS256"]))).toBe(false);
    expect(dpopSupported(metadata("ES256"))).toBe(false);
    expect(dpopSupported({ issuer: "https://as.test", token_endpoint: "https://as.test/token" })).toBe(false);
    expect([isDpopTokenType("DPoP"), isDpopTokenType("dpop"), isDpopTokenType("Bearer")]).toEqual([true, true, false]);
    const nonce = {
      "www-authenticate": 'DPoP error="use_dpop_nonce", error_description="Resource server requires nonce"',
      "dpop-nonce": "n-1",
    };
    expect(asksForNonce(answer(401, nonce))).toBe(true);
    expect(asksForNonce(answer(401, { ...nonce, "www-authenticate": 'Bearer error="use_dpop_nonce"' }))).toBe(false);
    expect(asksForNonce(answer(401, { "www-authenticate": nonce["www-authenticate"] }))).toBe(false);
    expect(asksForNonce(answer(400, nonce))).toBe(false);
    expect(asksForNonce(answer(401, { ...nonce, "www-authenticate": 'DPoP error="invalid_token"' }))).toBe(false);
  });
});

/** A token endpoint answering in turn, and the proofs it got. */
function endpoint(...answers: Response[]): { fetch: FetchLike; proofs: string[] } {
  const proofs: string[] = [];
  const fetch: FetchLike = (_url, init) => {
    proofs.push(init.headers["dpop"] ?? "-");
    return Promise.resolve(answers.shift() ?? answer(500));
  };
  return { fetch, proofs };
}
const request = (fetch: FetchLike, dpop: DpopProver) =>
  requestToken({
    issuer: "https://as.test",
    tokenEndpoint: "https://as.test/token",
    params: { grant_type: "client_credentials" },
    client: { clientId: "c", authMethod: "none" },
    fetch,
    dpop,
  });

describe("requestToken with DPoP", () => {
  const bound = { access_token: "at-1", token_type: "DPoP", expires_in: 60 };

  it("sends a proof for POST to the token endpoint, and once more with the nonce a use_dpop_nonce answer gives", async () => {
    const { fetch, proofs } = endpoint(answer(400, { "dpop-nonce": "as-nonce" }, { error: "use_dpop_nonce" }), answer(200, {}, bound));
    await expect(request(fetch, new DpopProver())).resolves.toEqual(bound);
    const [first, second] = await Promise.all(proofs.map(verified));
    expect(first).toMatchObject({ htm: "POST", htu: "https://as.test/token" });
    expect(first).not.toHaveProperty("nonce");
    expect(second).toMatchObject({ htm: "POST", htu: "https://as.test/token", nonce: "as-nonce" });
    expect(second?.["jti"]).not.toBe(first?.["jti"]);
  });

  it("asks once more at most, and not for another error or a use_dpop_nonce without a nonce", async () => {
    const askAgain = () => answer(400, { "dpop-nonce": "as-nonce" }, { error: "use_dpop_nonce" });
    const twice = endpoint(askAgain(), askAgain(), answer(200, {}, bound));
    await expect(request(twice.fetch, new DpopProver())).rejects.toMatchObject({
      code: MCP_CODES.UNAUTHORIZED,
      data: { status: 400, error: "use_dpop_nonce" },
    });
    expect(twice.proofs).toHaveLength(2);
    const other = endpoint(answer(400, { "dpop-nonce": "as-nonce" }, { error: "invalid_dpop_proof" }), answer(200, {}, bound));
    await expect(request(other.fetch, new DpopProver())).rejects.toMatchObject({ data: { error: "invalid_dpop_proof" } });
    expect(other.proofs).toHaveLength(1);
    const noNonce = endpoint(answer(400, {}, { error: "use_dpop_nonce" }), answer(200, {}, bound));
    await expect(request(noNonce.fetch, new DpopProver())).rejects.toMatchObject({ data: { error: "use_dpop_nonce" } });
    expect(noNonce.proofs).toHaveLength(1);
  });
});

// DPoP (RFC 9449) end to end: our MCPClient (era "auto") through the Authorizer against a real
// authorization server, oidc-provider 9 (support/oidc-provider.ts, DPoP on, its token endpoint
// demanding nonces on request), and a resource server that takes DPoP-bound tokens only
// (support/dpop-resource.ts: our MCPServer, the proofs and the key binding checked with `jose`).
// The Authorizer is given its key pair (`dpopKeyPair`), so the key its tokens must be bound to is
// known here. Token endpoint exchanges are recorded by the Authorizer's fetch (support/oauth-wire.ts),
// the proofs the resource took by the resource. Everything listens on 127.0.0.1.
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, jwtVerify, type JWK, type JWTPayload } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { DpopProver, type DpopKeyPair } from "../src/auth/client/dpop.js";
import { startDpopResource, type DpopResource } from "./support/dpop-resource.js";
import { ALICE, startProvider, type RunningProvider } from "./support/oidc-provider.js";
import { authorizedClient, decodeJwt, hostAuthorizer, Wire } from "./support/oauth-wire.js";
import { startProtectedMcp } from "./support/protected-mcp.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});
const defer = (cleanup: () => Promise<void>) => void cleanups.push(cleanup);

const TIMEOUT_MS = 20_000;
const NONCE_REFUSAL = "use_dpop_nonce: the proof must carry this server's nonce";

/** The provider and the DPoP resource, the resource's URL allowed as a resource of the provider; with `nonces`, both demand theirs. */
async function scene(nonces: boolean): Promise<{ readonly oidc: RunningProvider; readonly rs: DpopResource }> {
  const oidc = await startProvider({ dpop: { nonce: nonces } });
  defer(() => oidc.close());
  const rs = await startDpopResource({ issuer: oidc.issuer, jwksUri: oidc.jwksUri, nonce: nonces });
  defer(() => rs.close());
  oidc.allowResource(rs.url);
  return { oidc, rs };
}

/** An ES256 key pair for the Authorizer (private key not extractable), and its RFC 7638 thumbprint. */
async function dpopKey(): Promise<{ readonly pair: DpopKeyPair; readonly jkt: string }> {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
  const { kty, crv, x, y } = await crypto.subtle.exportKey("jwk", pair.publicKey);
  return { pair, jkt: await calculateJwkThumbprint({ kty, crv, x, y } as JWK) };
}

/** A proof verified with its embedded key (as oidc-provider does): its claims and its key's thumbprint. */
async function verifiedProof(proof: string | undefined): Promise<{ readonly payload: JWTPayload; readonly jkt: string }> {
  if (proof === undefined) throw new Error("no DPoP proof was sent");
  const { payload } = await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt", algorithms: ["ES256"] });
  return { payload, jkt: await calculateJwkThumbprint(decodeProtectedHeader(proof).jwk as JWK) };
}

/** Our client, authorized with `key`, connected to the DPoP resource; its first call to `whoami` answered. */
async function connected(rs: DpopResource, key: DpopKeyPair) {
  const wire = new Wire();
  const { authorizer, store } = hostAuthorizer(wire, { dpopKeyPair: key });
  const client = await authorizedClient(rs.url, authorizer, wire, defer);
  const result = await client.callTool("whoami");
  return { wire, store, client, result };
}

/** A tools/call of the stateless era with the given `Authorization` and `DPoP` headers. */
function rawCall(url: string, authorization: string, proof: string): Promise<Response> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  };
  return fetch(url, {
    method: "POST",
    headers: {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "whoami",
      authorization,
      dpop: proof,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", _meta: meta } }),
    signal: AbortSignal.timeout(5_000),
  });
}

describe("DPoP with oidc-provider and a DPoP-only resource server", () => {
  it(
    "gets a DPoP-bound token (a proof at the token endpoint, cnf.jkt = the client's key) and sends it with a fresh proof on every request",
    async () => {
      const { oidc, rs } = await scene(false);
      const key = await dpopKey();
      const { wire, store, result } = await connected(rs, key.pair);
      const registration = await store.getRegistration(oidc.issuer);
      expect(result.structuredContent).toEqual({ sub: ALICE, clientId: registration?.clientId, jkt: key.jkt });
      expect(rs.answers[0]).toBe(`401 DPoP algs="ES256", resource_metadata="${rs.metadataUrl}"`);

      // The token endpoint: one request, with a proof of the client's key for POST to it; a DPoP token back.
      const grants = wire.tokenRequests("authorization_code");
      expect(grants.map((grant) => grant.status)).toEqual([200]);
      expect(grants[0]?.answer["token_type"]).toBe("DPoP");
      const proof = await verifiedProof(grants[0]?.dpop);
      expect(proof.jkt).toBe(key.jkt);
      expect(proof.payload).toMatchObject({ htm: "POST", htu: oidc.tokenEndpoint });
      expect(proof.payload["ath"]).toBeUndefined();
      const tokens = await store.getTokens(oidc.issuer, rs.url);
      expect(tokens?.tokenType).toBe("DPoP");
      expect(decodeJwt(tokens?.accessToken ?? "").payload).toMatchObject({
        iss: oidc.issuer,
        aud: rs.url,
        sub: ALICE,
        cnf: { jkt: key.jkt },
      });

      // Every request with the token: `DPoP <token>`, its own proof (a jti of its own) of the same key, which the resource took.
      const sent = wire.bearers.filter((authorization) => authorization !== "");
      expect(sent.length).toBeGreaterThanOrEqual(2);
      expect(new Set(sent)).toEqual(new Set([`DPoP ${tokens?.accessToken}`]));
      expect(rs.proofs).toHaveLength(sent.length);
      expect(new Set(rs.proofs.map((seen) => seen.jti)).size).toBe(rs.proofs.length);
      expect(new Set(rs.proofs.map((seen) => seen.jkt))).toEqual(new Set([key.jkt]));
      expect(rs.refused).toEqual([]);
      expect(rs.ran).toEqual(["whoami"]);
      expect(wire.visits).toHaveLength(1);
    },
    TIMEOUT_MS,
  );

  it(
    "answers each nonce both servers demand once: a token endpoint retry, a use_dpop_nonce refusal by the resource, one authorization",
    async () => {
      const { oidc, rs } = await scene(true);
      const key = await dpopKey();
      const { wire, result } = await connected(rs, key.pair);
      expect(result.structuredContent).toMatchObject({ sub: ALICE, jkt: key.jkt });

      // The token endpoint refused the proof without its nonce (400 use_dpop_nonce + DPoP-Nonce); the retry carried it.
      const grants = wire.tokenRequests("authorization_code");
      expect(grants.map((grant) => [grant.status, grant.answer["error"] ?? grant.answer["token_type"]])).toEqual([
        [400, "use_dpop_nonce"],
        [200, "DPoP"],
      ]);
      expect(oidc.requests.filter((request) => request === "POST /oidc/token")).toHaveLength(2);
      const [first, second] = await Promise.all(grants.map((grant) => verifiedProof(grant.dpop)));
      expect(grants[0]?.dpopNonce).toEqual(expect.any(String));
      expect(first?.payload["nonce"]).toBeUndefined();
      expect(second?.payload["nonce"]).toBe(grants[0]?.dpopNonce);
      expect(second?.payload["jti"]).not.toBe(first?.payload["jti"]);
      expect(decodeJwt(String(grants[1]?.answer["access_token"])).payload["cnf"]).toEqual({ jkt: key.jkt });

      // The resource refused the first proof for want of its nonce, once, then took every proof with it.
      expect(rs.refused).toEqual([NONCE_REFUSAL]);
      const refusal = rs.answers.findIndex((answer) => answer.includes('error="use_dpop_nonce"'));
      expect(rs.answers.filter((answer) => answer.startsWith("401"))).toEqual([rs.answers[0], rs.answers[refusal]]);
      expect(rs.proofs[0]?.nonce).toBeUndefined();
      expect(rs.proofs.slice(1).map((seen) => seen.nonce)).toEqual(rs.proofs.slice(1).map(() => rs.nonce));
      expect(rs.proofs.length).toBeGreaterThanOrEqual(3);
      expect(rs.ran).toEqual(["whoami"]);

      // No second authorization, no second registration.
      expect(wire.visits).toHaveLength(1);
      expect(oidc.requests.filter((request) => request === "GET /oidc/auth")).toHaveLength(1);
      expect(oidc.requests.filter((request) => request === "POST /oidc/reg")).toHaveLength(1);
    },
    TIMEOUT_MS,
  );

  it(
    "refreshes with a proof of the same key: the new token is bound to it, the refresh token rotates, and the spent one is refused",
    async () => {
      const { oidc, rs } = await scene(false);
      const key = await dpopKey();
      const { wire, store, client } = await connected(rs, key.pair);
      const before = await store.getTokens(oidc.issuer, rs.url);
      if (before === undefined) throw new Error("no tokens were kept");
      // The client's clock says the token has expired: it refreshes before sending.
      await store.setTokens({ ...before, expiresAt: Date.now() - 1 });
      const proofsBefore = rs.proofs.length;
      const result = await client.callTool("whoami");
      expect(result.structuredContent).toMatchObject({ sub: ALICE, jkt: key.jkt });

      const refreshes = wire.tokenRequests("refresh_token");
      expect(refreshes.map((refresh) => [refresh.status, refresh.answer["token_type"]])).toEqual([[200, "DPoP"]]);
      expect(refreshes[0]?.params.get("refresh_token")).toBe(before.refreshToken);
      const proof = await verifiedProof(refreshes[0]?.dpop);
      expect(proof.jkt).toBe(key.jkt);
      expect(proof.payload).toMatchObject({ htm: "POST", htu: oidc.tokenEndpoint });

      const after = await store.getTokens(oidc.issuer, rs.url);
      expect(after?.tokenType).toBe("DPoP");
      expect(after?.accessToken).not.toBe(before.accessToken);
      expect(decodeJwt(after?.accessToken ?? "").payload["cnf"]).toEqual({ jkt: key.jkt });
      expect(decodeJwt(before.accessToken).payload["cnf"]).toEqual({ jkt: key.jkt });
      expect(after?.refreshToken).toBe(refreshes[0]?.answer["refresh_token"]);
      expect(after?.refreshToken).not.toBe(before.refreshToken);
      // Only the new token went to the resource after the refresh, each time with a proof of the key.
      const since = rs.proofs.slice(proofsBefore);
      expect(since.length).toBeGreaterThanOrEqual(1);
      expect(new Set(since.map((seen) => `${seen.jkt} ${seen.token}`))).toEqual(new Set([`${key.jkt} ${after?.accessToken}`]));
      expect(wire.visits).toHaveLength(1);

      // The spent refresh token, even with a fresh proof of the key it is bound to, is refused: it rotated.
      const registration = await store.getRegistration(oidc.issuer);
      const replay = await fetch(oidc.tokenEndpoint, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          dpop: await new DpopProver(key.pair).proof({ method: "POST", url: oidc.tokenEndpoint }),
        },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: before.refreshToken ?? "",
          client_id: registration?.clientId ?? "",
        }).toString(),
      });
      expect(replay.status).toBe(400);
      expect(await replay.json()).toMatchObject({ error: "invalid_grant" });
    },
    TIMEOUT_MS,
  );

  it(
    "the resource takes the token only with a fresh proof of its key: not as Bearer, not with another key's proof, not with a replayed one",
    async () => {
      const { oidc, rs } = await scene(false);
      const key = await dpopKey();
      const { store } = await connected(rs, key.pair);
      const token = (await store.getTokens(oidc.issuer, rs.url))?.accessToken ?? "";
      const ours = new DpopProver(key.pair);
      const other = new DpopProver((await dpopKey()).pair);
      const control = await ours.proof({ method: "POST", url: rs.url, accessToken: token });
      expect((await rawCall(rs.url, `DPoP ${token}`, control)).status).toBe(200);

      const attempts = [
        rawCall(rs.url, `Bearer ${token}`, await ours.proof({ method: "POST", url: rs.url, accessToken: token })),
        rawCall(rs.url, `DPoP ${token}`, await other.proof({ method: "POST", url: rs.url, accessToken: token })),
        rawCall(rs.url, `DPoP ${token}`, control),
        rawCall(rs.url, `DPoP ${token}`, await ours.proof({ method: "POST", url: `${rs.url}/elsewhere`, accessToken: token })),
      ];
      for (const response of await Promise.all(attempts)) {
        expect(response.status).toBe(401);
        expect(response.headers.get("www-authenticate")).toMatch(/^DPoP error="(invalid_token|invalid_dpop_proof)"/);
      }
      expect(new Set(rs.refused.map((reason) => reason.split(":")[0]))).toEqual(new Set(["invalid_token", "invalid_dpop_proof"]));
      expect(rs.refused.toSorted()).toEqual(
        [
          "invalid_dpop_proof: htu is not this endpoint",
          "invalid_dpop_proof: jti is missing or was seen before",
          "invalid_token: the Bearer scheme: this resource takes DPoP-bound tokens only",
          "invalid_token: the token is not bound to the proof's key",
        ].toSorted(),
      );
      expect(rs.ran).toEqual(["whoami", "whoami"]);
    },
    TIMEOUT_MS,
  );

  it(
    "keeps Bearer for a resource that does not ask for DPoP, though the same provider takes DPoP proofs",
    async () => {
      const oidc = await startProvider({ dpop: { nonce: false } });
      defer(() => oidc.close());
      const mcp = await startProtectedMcp({ issuer: oidc.issuer, jwksUri: oidc.jwksUri });
      defer(() => mcp.close());
      oidc.allowResource(mcp.url);
      const discovered = (await (await fetch(`${oidc.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
      expect(discovered["dpop_signing_alg_values_supported"]).toEqual(["ES256"]);

      const wire = new Wire();
      const { authorizer, store } = hostAuthorizer(wire, { dpopKeyPair: (await dpopKey()).pair });
      const client = await authorizedClient(mcp.url, authorizer, wire, defer);
      expect((await client.callTool("whoami")).structuredContent).toMatchObject({ sub: ALICE, aud: mcp.url });
      const grants = wire.tokenRequests("authorization_code");
      expect(grants.map((grant) => [grant.status, grant.answer["token_type"], grant.dpop])).toEqual([[200, "Bearer", undefined]]);
      const tokens = await store.getTokens(oidc.issuer, mcp.url);
      expect(decodeJwt(tokens?.accessToken ?? "").payload["cnf"]).toBeUndefined();
      expect(new Set(wire.bearers.filter((authorization) => authorization !== ""))).toEqual(new Set([`Bearer ${tokens?.accessToken}`]));
    },
    TIMEOUT_MS,
  );
});

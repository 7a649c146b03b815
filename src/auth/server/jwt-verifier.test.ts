// The JWT verifier of a resource server: a token of the issuer for this endpoint's audience is a
// principal; one that fails a check is refused with the check as the reason (never the token); a key
// set out of reach is thrown (the endpoint then answers 503).
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { KEYS, makeKeys } from "../jose/jose.test-helpers.js";
import { localJwks } from "../jose/jwks.js";
import { signJwt } from "../jose/jwt.js";
import { jwtVerifier } from "./jwt-verifier.js";

const ISSUER = "https://as.test/tenant";
const MCP = "https://mcp.test/mcp";
const context = { resource: MCP, audiences: [MCP] };
const now = () => Math.floor(Date.now() / 1000);
const key = { key: KEYS.ES256.privateKey, alg: "ES256" as const, kid: "k1" };
const jwks = { keys: [{ ...KEYS.ES256.publicJwk, kid: "k1", alg: "ES256", use: "sig" }] };

/** A JWKS endpoint double for the verifier's fetch. */
const serving = (body: unknown, status = 200) => (() => Promise.resolve(Response.json(body, { status }))) as never;

describe("jwtVerifier", () => {
  it("gives the principal of a valid token: subject, client, issuer, scopes, expiry and claims", async () => {
    const verify = jwtVerifier({ issuer: ISSUER, jwks: "https://as.test/jwks", jwksOptions: { fetch: serving(jwks) }, typ: "at+jwt" });
    const exp = now() + 60;
    const token = await signJwt({ iss: ISSUER, aud: MCP, sub: "alice", client_id: "host", scope: "mcp:read  mcp:write", exp }, key, {
      typ: "at+jwt",
    });
    await expect(verify(token, context)).resolves.toEqual({
      subject: "alice",
      clientId: "host",
      issuer: ISSUER,
      scopes: ["mcp:read", "mcp:write"],
      expiresAt: exp,
      claims: expect.objectContaining({ sub: "alice", client_id: "host" }),
    });
    const bare = await signJwt({ iss: ISSUER, aud: [MCP, "https://other.test"], azp: "svc", exp }, key, { typ: "at+jwt" });
    await expect(verify(bare, context)).resolves.toMatchObject({ subject: undefined, clientId: "svc", scopes: [] });
    const listed = await signJwt({ iss: ISSUER, aud: MCP, exp, scp: ["mcp:read", 7, "mcp:write"] }, key, { typ: "at+jwt" });
    await expect(verify(listed, context)).resolves.toMatchObject({ clientId: undefined, scopes: ["mcp:read", "mcp:write"] });
  });

  it("refuses another audience (unless listed) or issuer, an expired or forged token, without the token in the reason", async () => {
    const keys = { keys: jwks.keys } as never;
    const verify = jwtVerifier({ issuer: ISSUER, jwks: localJwks(keys), clockToleranceSec: 0 });
    const tokens = {
      audience: await signJwt({ iss: ISSUER, aud: "https://other.test", exp: now() + 60 }, key),
      issuer: await signJwt({ iss: "https://evil.test", aud: MCP, exp: now() + 60 }, key),
      expired: await signJwt({ iss: ISSUER, aud: MCP, exp: now() - 5 }, key),
      forged: await signJwt(
        { iss: ISSUER, aud: MCP, exp: now() + 60 },
        { key: (await makeKeys("ES256")).privateKey, alg: "ES256", kid: "k1" },
      ),
    };
    for (const [check, token] of Object.entries(tokens)) {
      const outcome = (await verify(token, context)) as { refused: string };
      expect([check, outcome.refused]).toEqual([check, expect.stringMatching(/^Token rejected/)]);
      expect(outcome.refused).not.toContain(token.split(".")[1]);
    }
    const widened = jwtVerifier({ issuer: ISSUER, jwks: localJwks(keys), audience: ["https://other.test"] });
    await expect(widened(tokens.audience, context)).resolves.toMatchObject({ issuer: ISSUER });
  });

  it("throws when the key set cannot be had, so that the endpoint answers 503 and the client keeps its token", async () => {
    const verify = jwtVerifier({ issuer: ISSUER, jwks: "https://as.test/jwks", jwksOptions: { fetch: serving({ error: "down" }, 502) } });
    const token = await signJwt({ iss: ISSUER, aud: MCP, exp: now() + 60 }, key);
    await expect(verify(token, context)).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR });
  });
});

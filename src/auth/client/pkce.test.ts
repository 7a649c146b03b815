import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { expectAuthFailure } from "./auth-client.test-helpers.js";
import { PKCE_METHOD, createPkce, createState, pkceChallenge } from "./pkce.js";

const UNRESERVED = /^[A-Za-z0-9\-._~]{43,128}$/;

describe("pkceChallenge", () => {
  it("is RFC 7636 Appendix B's example", async () => {
    expect(await pkceChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  });

  it("is base64url of the SHA-256, as the conformance AS computes it", async () => {
    const verifier = `${"~._-".repeat(20)}${"Az09".repeat(12)}`;
    expect(verifier).toHaveLength(128);
    expect(await pkceChallenge(verifier)).toBe(createHash("sha256").update(verifier).digest("base64url"));
  });

  it.each([
    ["too short", "a".repeat(42)],
    ["too long", "a".repeat(129)],
    ["outside the unreserved set", `${"a".repeat(42)}+`],
    ["with a space", `${"a".repeat(42)} `],
  ])("refuses a verifier %s, without showing it", async (_name, verifier) => {
    const error = await expectAuthFailure(pkceChallenge(verifier), MCP_CODES.INVALID_PARAMS, "invalid-argument");
    expect(error.message).not.toContain(verifier);
  });
});

describe("createPkce", () => {
  it("makes a 43-character unreserved verifier and its S256 challenge", async () => {
    const pkce = await createPkce();
    expect(pkce.method).toBe(PKCE_METHOD);
    expect(PKCE_METHOD).toBe("S256");
    expect(pkce.verifier).toMatch(UNRESERVED);
    expect(pkce.verifier).toHaveLength(43);
    expect(pkce.challenge).toBe(createHash("sha256").update(pkce.verifier).digest("base64url"));
  });

  it("makes a new verifier each time", async () => {
    const verifiers = new Set(await Promise.all(Array.from({ length: 20 }, async () => (await createPkce()).verifier)));
    expect(verifiers.size).toBe(20);
  });
});

describe("createState", () => {
  it("is 43 URL-safe characters, new each time", () => {
    const states = new Set(Array.from({ length: 50 }, createState));
    expect(states.size).toBe(50);
    for (const state of states) expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

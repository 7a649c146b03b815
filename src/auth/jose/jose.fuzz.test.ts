// Properties of verification on what an attacker controls, the token: whatever it is, the answer is
// our refusal (never another error, never acceptance) and the refusal does not echo it; changing any
// character or any bit of a valid token is refused; what we sign comes back as it was.
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";

import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { ALGS, KEYS, b64u, b64uJson } from "./jose.test-helpers.js";
import { signJws, verifyJws, type KeyResolver } from "./jws.js";
import { localJwks } from "./jwks.js";
import { verifyJwt } from "./jwt.js";

const runs = (normal: number): number => Number(process.env["FUZZ_RUNS"]) || normal;
const SEED = 20260519;
const BASE64URL = Array.from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_");
const PAYLOAD = { iss: "https://as.example.com", aud: "https://mcp.example.com", exp: 4_000_000_000, sub: "alice" };
const TOKENS = Object.fromEntries(
  await Promise.all(ALGS.map(async (alg) => [alg, await signJws({ kid: alg }, PAYLOAD, KEYS[alg].privateKey)] as const)),
);
const ALL_KEYS: KeyResolver = localJwks({ keys: ALGS.map((alg) => ({ ...KEYS[alg].publicJwk, kid: alg, alg })) });

/** The outcome of verifying: "accepted", or the refusal's code and whether its message or data shows `token`. */
async function outcome(token: string, keys: KeyResolver = ALL_KEYS): Promise<string> {
  try {
    await verifyJws(token, keys);
    return "accepted";
  } catch (error) {
    if (!(error instanceof MCPError)) return `a non-MCPError: ${String(error)}`;
    const shown = `${error.message} ${JSON.stringify(error.data)}`;
    if (token.length >= 16 && shown.includes(token)) return "refused, echoing the token";
    return error.code;
  }
}

const anyAlg = fc.constantFrom(...ALGS, "none", "HS256", "RS512", "ES256K", "", "Ed25519");
const header = fc.oneof(
  fc.record({ alg: anyAlg, kid: fc.oneof(fc.constantFrom(...ALGS), fc.string()), typ: fc.string() }, { requiredKeys: ["alg"] }),
  fc.record({ alg: anyAlg, crit: fc.array(fc.string()) }),
  fc.jsonValue(),
);
const part = fc.oneof(
  header.map(b64uJson),
  fc.uint8Array({ maxLength: 300 }).map(b64u),
  fc.string({ unit: fc.constantFrom(...BASE64URL, "=", "+", "/", " ", ".", "é") }),
);

describe("verifyJws on tokens an attacker writes", () => {
  it("any string at all is refused with MCP.UNAUTHORIZED, never echoed", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.string({ unit: fc.constantFrom(...BASE64URL, ".") })),
        async (token) => {
          expect(await outcome(token)).toBe(MCP_CODES.UNAUTHORIZED);
        },
      ),
      { numRuns: runs(300), seed: SEED },
    );
  });

  it("any three parts (JSON headers with our algs and others, random bytes, near-base64url text) are refused", async () => {
    await fc.assert(
      fc.asyncProperty(part, part, part, async (headerPart, payloadPart, signaturePart) => {
        expect(await outcome(`${headerPart}.${payloadPart}.${signaturePart}`)).toBe(MCP_CODES.UNAUTHORIZED);
      }),
      { numRuns: runs(300), seed: SEED + 1 },
    );
  });

  it("a valid header and payload with a random signature of any length are refused", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ALGS), fc.uint8Array({ minLength: 1, maxLength: 600 }), async (alg, signature) => {
        const [headerPart, payloadPart] = (TOKENS[alg] as string).split(".") as [string, string];
        expect(await outcome(`${headerPart}.${payloadPart}.${b64u(signature)}`)).toBe(MCP_CODES.UNAUTHORIZED);
      }),
      { numRuns: runs(200), seed: SEED + 2 },
    );
  });
});

describe("a valid token, changed anywhere, is refused", () => {
  it("the tokens verify as they are", async () => {
    for (const alg of ALGS) expect(await outcome(TOKENS[alg] as string)).toBe("accepted");
  });

  it("any one character replaced (base64url, '.', '=')", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ALGS), fc.nat(), fc.constantFrom(...BASE64URL, ".", "="), async (alg, at, replacement) => {
        const token = TOKENS[alg] as string;
        const index = at % token.length;
        fc.pre(token[index] !== replacement);
        expect(await outcome(`${token.slice(0, index)}${replacement}${token.slice(index + 1)}`)).toBe(MCP_CODES.UNAUTHORIZED);
      }),
      { numRuns: runs(400), seed: SEED + 3 },
    );
  });

  it("any one bit flipped in the decoded header, payload or signature (re-encoded canonically)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ALGS),
        fc.constantFrom(0, 1, 2),
        fc.nat(),
        fc.integer({ min: 0, max: 7 }),
        async (alg, which, at, bit) => {
          const parts = (TOKENS[alg] as string).split(".");
          const bytes = Buffer.from(parts[which] as string, "base64url");
          const index = at % bytes.length;
          bytes[index] = (bytes[index] as number) ^ (1 << bit);
          parts[which] = b64u(bytes);
          expect(await outcome(parts.join("."))).toBe(MCP_CODES.UNAUTHORIZED);
        },
      ),
      { numRuns: runs(400), seed: SEED + 4 },
    );
  });

  it("verifyJwt too: a changed token never yields claims", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ALGS), fc.nat(), fc.constantFrom(...BASE64URL), async (alg, at, replacement) => {
        const token = TOKENS[alg] as string;
        const index = at % token.length;
        fc.pre(token[index] !== replacement);
        const changed = `${token.slice(0, index)}${replacement}${token.slice(index + 1)}`;
        const error = await verifyJwt(changed, { keys: ALL_KEYS, issuer: PAYLOAD.iss, audience: PAYLOAD.aud }).then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(error).toBeInstanceOf(MCPError);
        expect((error as MCPError).code).toBe(MCP_CODES.UNAUTHORIZED);
      }),
      { numRuns: runs(200), seed: SEED + 5 },
    );
  });
});

describe("what we sign comes back as signed", () => {
  it("any JSON object payload and extra header members, for every alg", async () => {
    const member = fc.string().filter((name) => !["alg", "kid", "crit"].includes(name));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ALGS),
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.dictionary(member, fc.jsonValue(), { maxKeys: 3 }),
        async (alg, payload, extra) => {
          const token = await signJws(extra, payload, KEYS[alg].privateKey);
          const verified = await verifyJws(token, KEYS[alg].publicKey);
          expect(verified.payload).toEqual(JSON.parse(JSON.stringify(payload)));
          expect(verified.header).toEqual(JSON.parse(JSON.stringify({ ...extra, alg })));
        },
      ),
      { numRuns: runs(100), seed: SEED + 6 },
    );
  });
});

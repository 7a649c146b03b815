import { describe, expect, it, vi } from "vitest";

import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { FetchInit, FetchLike } from "../../transport/http-client/http-options.js";
import {
  KEYS,
  expectJwksFailure,
  expectNoMaterial,
  expectRefused,
  invalidity,
  jwksFailureOf,
  makeKeys,
  refusal,
} from "./jose.test-helpers.js";
import { JWKS_DEFAULTS, localJwks, remoteJwks, type RemoteJwksOptions } from "./jwks.js";
import { MAX_KEY_CANDIDATES, signJws, verifyJws } from "./jws.js";

const JWKS_URL = "https://as.example.com/.well-known/jwks.json";
const PAYLOAD = { sub: "alice" };

const es = { ...KEYS.ES256.publicJwk, kid: "es" };
const rs = { ...KEYS.RS256.publicJwk, kid: "rs" };
const ed = { ...KEYS.EdDSA.publicJwk, kid: "ed", use: "sig" };

const signed = (kid: string | undefined, alg: keyof typeof KEYS = "ES256"): Promise<string> =>
  signJws(kid === undefined ? {} : { kid }, PAYLOAD, KEYS[alg].privateKey);

describe("localJwks", () => {
  const resolver = localJwks({ keys: [es, rs, ed, "not a key" as never, null as never] });

  it("picks the key by kid, whatever its type; an RSA key without alg serves RS256 and PS256", async () => {
    expect((await verifyJws(await signed("es"), resolver)).header.kid).toBe("es");
    expect((await verifyJws(await signed("rs", "RS256"), resolver)).header.kid).toBe("rs");
    expect((await verifyJws(await signed("ed", "EdDSA"), resolver)).header.kid).toBe("ed");
    const pssKey = await crypto.subtle.importKey("jwk", { ...KEYS.RS256.privateJwk }, { name: "RSA-PSS", hash: "SHA-256" }, false, [
      "sign",
    ]);
    const pss = await signJws({ kid: "rs" }, PAYLOAD, pssKey);
    expect((await verifyJws(pss, resolver)).header.alg).toBe("PS256");
  });

  it("without a kid, tries every key that fits the alg", async () => {
    const second = await makeKeys("ES256");
    const set = localJwks({ keys: [{ ...(await makeKeys("ES256")).publicJwk }, rs, second.publicJwk] });
    expect((await verifyJws(await signJws({}, PAYLOAD, second.privateKey), set)).payload).toEqual(PAYLOAD);
  });

  it("refuses an unknown kid, a kid whose key is for another alg, and an empty set", async () => {
    expect(await refusal(verifyJws(await signed("nope"), resolver), "key")).toBe(
      "Token rejected (key): no key in the key set has the token's kid",
    );
    const confused = await signJws({ kid: "es" }, PAYLOAD, KEYS.RS256.privateKey);
    const error = await refusal(verifyJws(confused, resolver), "key");
    expect(error).toBe("Token rejected (key): the key set's key with the token's kid is not a signature key for RS256");
    expect(await refusal(verifyJws(await signed(undefined, "PS256"), localJwks({ keys: [es] })), "key")).toBe(
      "Token rejected (key): no key in the key set is a signature key for PS256",
    );
    expect(await refusal(verifyJws(await signed(undefined), localJwks({ keys: [] })), "key")).toBe(
      "Token rejected (key): the key set is empty",
    );
  });

  it("skips keys for encryption and keys declared for another alg", async () => {
    const set = localJwks({
      keys: [
        { ...es, use: "enc" },
        { ...rs, alg: "PS256" },
      ],
    });
    expect(await refusal(verifyJws(await signed("es"), set), "key")).toContain("is not a signature key for ES256");
    expect(await refusal(verifyJws(await signed("rs", "RS256"), set), "key")).toContain("is not a signature key for RS256");
  });

  it("refuses more than the candidate bound of fitting keys when the token has no kid", async () => {
    const many = localJwks({ keys: Array.from({ length: MAX_KEY_CANDIDATES + 1 }, () => ({ ...KEYS.ES256.publicJwk })) });
    expect(await refusal(verifyJws(await signed(undefined), many), "key")).toBe(
      `Token rejected (key): more than ${MAX_KEY_CANDIDATES} keys of the key set fit the token's header`,
    );
  });

  it("uses the keys that import and refuses when none does, keeping the cause", async () => {
    const broken = { ...KEYS.ES256.publicJwk, x: KEYS.ES256.publicJwk["y"] };
    expect((await verifyJws(await signed(undefined), localJwks({ keys: [broken, KEYS.ES256.publicJwk] }))).payload).toEqual(PAYLOAD);
    const rejection = await expectRefused(verifyJws(await signed(undefined), localJwks({ keys: [broken] })), "key", /./);
    expect(rejection.message).toBe("Token rejected (key): the key set's key for this token cannot be imported");
    expect((rejection.cause as MCPError).code).toBe(MCP_CODES.INVALID_PARAMS);
    expectNoMaterial(rejection, undefined, broken);
  });

  it("imports each key once per alg", async () => {
    const importKey = vi.spyOn(crypto.subtle, "importKey");
    const set = localJwks({ keys: [{ ...KEYS.ES256.publicJwk }] });
    const token = await signed(undefined);
    for (let round = 0; round < 3; round++) await verifyJws(token, set);
    expect(importKey).toHaveBeenCalledTimes(1);
  });

  it("refuses a set that is not an object with a keys array", async () => {
    for (const set of [null, {}, { keys: "x" }, []])
      expect(await invalidity(Promise.resolve().then(() => localJwks(set as never)))).toBe(
        "The JWK Set is not an object with a keys array",
      );
  });
});

function deferred<T>(): { readonly promise: Promise<T>; readonly resolve: (value: T) => void } {
  const handle: { settle?: (value: T) => void } = {};
  const promise = new Promise<T>((settle) => {
    handle.settle = settle;
  });
  return { promise, resolve: (value) => handle.settle?.(value) };
}

/** A JWKS endpoint double: serves `jwks` (changeable), or the next scripted answer, and counts requests. */
class JwksServer {
  jwks: unknown = { keys: [es] };
  readonly requests: FetchInit[] = [];
  readonly urls: string[] = [];
  readonly answers: (() => Response | Promise<Response>)[] = [];
  readonly fetch: FetchLike = async (url, init) => {
    this.urls.push(url);
    this.requests.push(init);
    const next = this.answers.shift();
    return next
      ? next()
      : new Response(JSON.stringify(this.jwks), { status: 200, headers: { "content-type": "application/jwk-set+json" } });
  };
}

function setUp(options: RemoteJwksOptions = {}): { server: JwksServer; clock: { now: number }; resolver: ReturnType<typeof remoteJwks> } {
  const server = new JwksServer();
  const clock = { now: 1_000_000 };
  return { server, clock, resolver: remoteJwks(JWKS_URL, { fetch: server.fetch, now: () => clock.now, ...options }) };
}

describe("remoteJwks: caching", () => {
  it("fetches on first use with GET and a JWKS accept header, then serves from the cache", async () => {
    const { server, resolver } = setUp();
    const token = await signed("es");
    expect((await verifyJws(token, resolver)).payload).toEqual(PAYLOAD);
    expect((await verifyJws(token, resolver)).payload).toEqual(PAYLOAD);
    expect(server.urls).toEqual([JWKS_URL]);
    expect({ method: server.requests[0]?.method, headers: server.requests[0]?.headers }).toEqual({
      method: "GET",
      headers: { accept: "application/jwk-set+json, application/json" },
    });
  });

  it("shares one fetch between concurrent first uses", async () => {
    const { server, resolver } = setUp();
    const token = await signed("es");
    await Promise.all([verifyJws(token, resolver), verifyJws(token, resolver), verifyJws(token, resolver)]);
    expect(server.requests).toHaveLength(1);
  });

  it("fetches again once the set is older than cacheMs (10 minutes by default)", async () => {
    expect(JWKS_DEFAULTS).toEqual({ cacheMs: 600_000, cooldownMs: 30_000, timeoutMs: 5_000, maxBytes: 512 * 1024 });
    const { server, clock, resolver } = setUp();
    const token = await signed("es");
    await verifyJws(token, resolver);
    clock.now += JWKS_DEFAULTS.cacheMs - 1;
    await verifyJws(token, resolver);
    expect(server.requests).toHaveLength(1);
    clock.now += 1;
    server.jwks = { keys: [] };
    expect(await refusal(verifyJws(token, resolver), "key")).toBe("Token rejected (key): no key in the key set has the token's kid");
    expect(server.requests).toHaveLength(2);
  });
});

describe("remoteJwks: an unknown kid", () => {
  it("fetches again for a kid rotated in, once the cooldown since the last fetch is over", async () => {
    const { server, clock, resolver } = setUp({ cooldownMs: 1000 });
    await verifyJws(await signed("es"), resolver);
    server.jwks = { keys: [es, ed] };
    clock.now += 1000;
    expect((await verifyJws(await signed("ed", "EdDSA"), resolver)).header.kid).toBe("ed");
    expect(server.requests).toHaveLength(2);
  });

  it("holds the cooldown: made-up kids cause no fetch until it is over, then one", async () => {
    const { server, clock, resolver } = setUp({ cooldownMs: 1000 });
    await verifyJws(await signed("es"), resolver);
    for (let i = 0; i < 20; i++) {
      expect(await refusal(verifyJws(await signed(`forged-${i}`), resolver), "key")).toBe(
        "Token rejected (key): no key in the key set has the token's kid",
      );
    }
    expect(server.requests).toHaveLength(1);
    clock.now += 999;
    await refusal(verifyJws(await signed("forged"), resolver), "key");
    expect(server.requests).toHaveLength(1);
    clock.now += 1;
    await Promise.all([refusal(verifyJws(await signed("a"), resolver), "key"), refusal(verifyJws(await signed("b"), resolver), "key")]);
    expect(server.requests).toHaveLength(2);
    await refusal(verifyJws(await signed("c"), resolver), "key");
    expect(server.requests).toHaveLength(2);
  });

  it("waits for a fetch already in flight (within the cooldown) rather than refusing", async () => {
    const { server, clock, resolver } = setUp({ cooldownMs: 1000 });
    await verifyJws(await signed("es"), resolver);
    const rotated = deferred<Response>();
    server.answers.push(() => rotated.promise);
    clock.now += 1000;
    const first = verifyJws(await signed("ed", "EdDSA"), resolver);
    await vi.waitFor(() => expect(server.requests).toHaveLength(2));
    // The cooldown began with that fetch: this token waits for it instead of being refused.
    const second = verifyJws(await signed("ed", "EdDSA"), resolver);
    rotated.resolve(new Response(JSON.stringify({ keys: [es, ed] })));
    expect((await first).header.kid).toBe("ed");
    expect((await second).header.kid).toBe("ed");
    expect(server.requests).toHaveLength(2);
  });
});

describe("remoteJwks: failures", () => {
  it.each([
    ["the fetch throws", () => Promise.reject(new TypeError("fetch failed")), `Could not fetch the JWKS from ${JWKS_URL}`],
    ["HTTP 500", () => new Response("oops", { status: 500 }), `The JWKS endpoint ${JWKS_URL} answered HTTP 500`],
    ["HTTP 404 without a body", () => new Response(null, { status: 404 }), `The JWKS endpoint ${JWKS_URL} answered HTTP 404`],
    ["not JSON", () => new Response("<html>"), `The JWKS from ${JWKS_URL} is not JSON`],
    ["JSON without keys", () => new Response('{"kids":[]}'), `The JWKS from ${JWKS_URL} is not a JSON object with a keys array`],
    ["a JSON array", () => new Response("[]"), `The JWKS from ${JWKS_URL} is not a JSON object with a keys array`],
    ["no body", () => new Response(null, { status: 200 }), `The JWKS from ${JWKS_URL} is not JSON`],
    [
      "over maxBytes",
      () => new Response(JSON.stringify({ keys: [es, rs, ed] })),
      `The JWKS from ${JWKS_URL} was not read whole: over 100 bytes, cut off, or over time`,
    ],
  ] as const)("%s: MCP.TRANSPORT_ERROR naming the URL, not the token", async (_name, answer, message) => {
    const { server, resolver } = setUp({ maxBytes: 100 });
    server.answers.push(answer);
    const token = await signed("es");
    const error = await expectJwksFailure(verifyJws(token, resolver), message);
    expect(error.message).toBe(message);
    expectNoMaterial(error, token);
  });

  it("after a failure, gives the same error until the cooldown is over, then fetches again", async () => {
    const { server, clock, resolver } = setUp({ cooldownMs: 5000 });
    const cause = new TypeError("fetch failed");
    server.answers.push(() => Promise.reject(cause));
    const token = await signed("es");
    const first = await expectJwksFailure(verifyJws(token, resolver), "Could not fetch the JWKS");
    expect(first.cause).toBe(cause);
    clock.now += 4999;
    await expect(verifyJws(token, resolver)).rejects.toBe(first);
    expect(server.requests).toHaveLength(1);
    clock.now += 1;
    expect((await verifyJws(token, resolver)).payload).toEqual(PAYLOAD);
    expect(server.requests).toHaveLength(2);
  });

  it("a failed refetch for an unknown kid reports the failure", async () => {
    const { server, clock, resolver } = setUp({ cooldownMs: 10 });
    await verifyJws(await signed("es"), resolver);
    server.answers.push(() => new Response(null, { status: 503 }));
    clock.now += 10;
    expect(await jwksFailureOf(verifyJws(await signed("new"), resolver))).toBe(`The JWKS endpoint ${JWKS_URL} answered HTTP 503`);
  });

  it("aborts a fetch that takes longer than timeoutMs", async () => {
    const seen: AbortSignal[] = [];
    const hanging: FetchLike = (_url, init) => {
      seen.push(init.signal);
      return new Promise((_resolve, reject) =>
        init.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
      );
    };
    const timed = remoteJwks(JWKS_URL, { fetch: hanging, timeoutMs: 1 });
    expect(await jwksFailureOf(verifyJws(await signed("es"), timed))).toBe(`Could not fetch the JWKS from ${JWKS_URL}`);
    expect(seen[0]?.aborted).toBe(true);
  });

  it("uses globalThis.fetch when none is given", async () => {
    const fetch = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(JSON.stringify({ keys: [es] })));
    expect((await verifyJws(await signed("es"), remoteJwks(JWKS_URL))).payload).toEqual(PAYLOAD);
    expect(fetch).toHaveBeenCalledWith(JWKS_URL, expect.objectContaining({ method: "GET" }));
  });
});

describe("remoteJwks: configuration", () => {
  it("takes https URLs, and http only on loopback", () => {
    for (const url of ["https://as.example.com/jwks", "http://localhost:8080/jwks", "http://127.0.0.1/jwks", "http://[::1]:3000/jwks"])
      expect(remoteJwks(url)).toBeTypeOf("function");
    for (const url of ["http://as.example.com/jwks", "ftp://as.example.com/jwks", "not a url", "", 42]) {
      expect(() => remoteJwks(url as string)).toThrow("The JWKS URL must be an https URL (http only for localhost)");
    }
  });

  it("refuses timings and sizes that are not numbers in range", () => {
    const cases: [RemoteJwksOptions, string][] = [
      [{ cacheMs: -1 }, "remoteJwks: cacheMs must be a non-negative number"],
      [{ cooldownMs: Number.NaN }, "remoteJwks: cooldownMs must be a non-negative number"],
      [{ timeoutMs: 0 }, "remoteJwks: timeoutMs must be a positive number"],
      [{ maxBytes: Number.POSITIVE_INFINITY }, "remoteJwks: maxBytes must be a positive number"],
    ];
    for (const [options, message] of cases) {
      let thrown: unknown;
      try {
        remoteJwks(JWKS_URL, options);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(MCPError);
      expect({ code: (thrown as MCPError).code, message: (thrown as MCPError).message }).toEqual({
        code: MCP_CODES.INVALID_PARAMS,
        message,
      });
    }
    expect(remoteJwks(JWKS_URL, { cacheMs: 0, cooldownMs: 0 })).toBeTypeOf("function");
  });
});

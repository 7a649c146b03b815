import { describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { introspectionVerifier } from "./introspection.js";
import type { IntrospectionFetch, IntrospectionVerifierOptions, VerifyContext } from "./resource-server.types.js";
import { TokenCache, tokenKey } from "./token-cache.js";

const ENDPOINT = "https://auth.example.com/introspect";
const CONTEXT: VerifyContext = {
  resource: "https://mcp.example.com/mcp",
  audiences: ["https://mcp.example.com/mcp", "https://mcp.example.com"],
};
const NOW_MS = 1_800_000_000_000;
const NOW = NOW_MS / 1000;

interface Introspected {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly form: Record<string, string>;
}

/** An introspection endpoint in a function: answers by token, records what it was sent. */
function endpoint(answers: Record<string, unknown>, status = 200): IntrospectionFetch & { seen: Introspected[] } {
  const seen: Introspected[] = [];
  const post: IntrospectionFetch = (url, init) => {
    const form = Object.fromEntries(
      init.body.split("&").map((pair) => pair.split("=").map((part) => decodeURIComponent(part.replace(/\+/g, " "))) as [string, string]),
    );
    seen.push({ url, method: init.method, headers: init.headers, form });
    const answer = answers[form["token"] as string] ?? { active: false };
    return Promise.resolve(new Response(typeof answer === "string" ? answer : JSON.stringify(answer), { status }));
  };
  return Object.assign(post, { seen });
}

function verifier(fetch: IntrospectionFetch, options: Partial<IntrospectionVerifierOptions> = {}) {
  return introspectionVerifier({ endpoint: ENDPOINT, fetch, now: () => NOW_MS, ...options });
}

const ACTIVE = {
  active: true,
  sub: "alice",
  client_id: "app",
  iss: "https://auth.example.com",
  scope: "mcp:read  files:write",
  aud: "https://mcp.example.com/mcp",
  exp: NOW + 3600,
  username: "Alice",
};

const hanging: IntrospectionFetch = (_url, init) =>
  new Promise((_resolve, reject) => init.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true }));
const failing = () => Promise.reject(new Error("down"));
const kept = () => Promise.resolve({ value: "kept", until: 200 });

describe("introspectionVerifier (RFC 7662)", () => {
  it("posts the token with client_secret_basic and accepts an active token for this resource", async () => {
    const post = endpoint({ "tok en/+": ACTIVE });
    const verify = verifier(post, { client: { id: "rs id", secret: "s3cr:t" } });
    expect(await verify("tok en/+", CONTEXT)).toEqual({
      subject: "alice",
      clientId: "app",
      issuer: "https://auth.example.com",
      scopes: ["mcp:read", "files:write"],
      expiresAt: NOW + 3600,
      claims: ACTIVE,
    });
    expect(post.seen).toEqual([
      {
        url: ENDPOINT,
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
          authorization: `Basic ${btoa("rs+id:s3cr%3At")}`,
        },
        form: { token: "tok en/+", token_type_hint: "access_token" },
      },
    ]);
  });

  it("sends client_secret_post credentials in the form, or headers of your own", async () => {
    const post = endpoint({ t: ACTIVE });
    await verifier(post, { client: { id: "rs", secret: "pw", method: "client_secret_post" }, cacheSize: 0 })("t", CONTEXT);
    await verifier(post, { headers: async () => ({ authorization: "Bearer rs-token", "x-extra": "1" }), cacheSize: 0 })("t", CONTEXT);
    await verifier(post, { cacheSize: 0 })("t", CONTEXT);
    expect(post.seen[0]?.form).toEqual({ token: "t", token_type_hint: "access_token", client_id: "rs", client_secret: "pw" });
    expect(post.seen[0]?.headers).not.toHaveProperty("authorization");
    expect(post.seen[1]?.headers).toEqual({
      authorization: "Bearer rs-token",
      "x-extra": "1",
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
    });
    expect(post.seen[2]?.headers).toEqual({ "content-type": "application/x-www-form-urlencoded", accept: "application/json" });
  });

  it.each([
    ["inactive", { active: false }, "the token is not active"],
    ["active only as a string", { ...ACTIVE, active: "true" }, "the token is not active"],
    ["a refresh token", { ...ACTIVE, token_type: "refresh_token" }, "a refresh token is not an access token"],
    ["expired past the skew", { ...ACTIVE, exp: NOW - 60 }, "the token expired"],
    ["not valid yet past the skew", { ...ACTIVE, nbf: NOW + 61 }, "the token is not valid yet"],
    ["with an exp that is no number", { ...ACTIVE, exp: "soon" }, "the token's validity period is malformed"],
    ["with an nbf that is no number", { ...ACTIVE, nbf: "now" }, "the token's validity period is malformed"],
    ["from another issuer", { ...ACTIVE, iss: "https://evil.example.com" }, "the token was issued by another authorization server"],
    ["for another audience", { ...ACTIVE, aud: "https://other.example.com/mcp" }, "the token was not issued for this resource"],
    ["for other audiences", { ...ACTIVE, aud: ["https://other.example.com/mcp", 7] }, "the token was not issued for this resource"],
    ["for no audience", { ...ACTIVE, aud: undefined }, "the token was not issued for this resource"],
    ["with an audience that is no string", { ...ACTIVE, aud: 7 }, "the token was not issued for this resource"],
  ])("refuses a token %s", async (_what, answer, refused) => {
    expect(await verifier(endpoint({ t: answer }), { issuer: "https://auth.example.com" })("t", CONTEXT)).toEqual({ refused });
  });

  it.each([
    ["within the skew of its expiry", { ...ACTIVE, exp: NOW - 59 }],
    ["within the skew of its start", { ...ACTIVE, nbf: NOW + 60 }],
    ["for the origin as well (an audience among several)", { ...ACTIVE, aud: ["https://other.example.com", "https://mcp.example.com"] }],
    ["naming no issuer when one is configured", { ...ACTIVE, iss: undefined }],
  ])("accepts a token %s", async (_what, answer) => {
    expect(await verifier(endpoint({ t: answer }), { issuer: "https://auth.example.com" })("t", CONTEXT)).toHaveProperty("scopes");
  });

  it("reads what the response leaves out as nothing, and takes a token without an audience when told to", async () => {
    const bare = { active: true };
    expect(await verifier(endpoint({ t: bare }), { allowMissingAudience: true })("t", CONTEXT)).toEqual({
      subject: undefined,
      clientId: undefined,
      issuer: undefined,
      scopes: [],
      expiresAt: undefined,
      claims: bare,
    });
    const odd = { active: true, aud: CONTEXT.resource, sub: 7, client_id: false, iss: 1, scope: 3 };
    expect(await verifier(endpoint({ t: odd }))("t", CONTEXT)).toMatchObject({
      subject: undefined,
      clientId: undefined,
      issuer: undefined,
      scopes: [],
    });
    expect(await verifier(endpoint({ t: { ...ACTIVE, exp: NOW } }), { clockSkewSeconds: 0 })("t", CONTEXT)).toEqual({
      refused: "the token expired",
    });
    expect(await verifier(endpoint({ t: { ...ACTIVE, exp: NOW + 1 } }), { clockSkewSeconds: 0 })("t", CONTEXT)).toHaveProperty("scopes");
  });

  it("throws when the authorization server cannot answer, with no token or secret in what it says", async () => {
    const cases: Array<[IntrospectionFetch, RegExp]> = [
      [endpoint({}, 500), /answered HTTP 500/],
      [endpoint({}, 401), /answered HTTP 401/],
      [endpoint({ "sEcReT-tOkEn": "not json" }), /failed: .*JSON/],
      [endpoint({ "sEcReT-tOkEn": "[1]" }), /its answer is not a JSON object/],
      [() => Promise.reject(new TypeError("fetch failed")), /failed: fetch failed/],
    ];
    for (const [post, message] of cases) {
      const failure = await verifier(post, { client: { id: "rs", secret: "pAsSwOrD" } })("sEcReT-tOkEn", CONTEXT).catch(
        (error: unknown) => error as Error,
      );
      expect(failure).toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR, message: expect.stringMatching(message), cause: expect.any(Error) });
      expect((failure as Error).message).toContain(ENDPOINT);
      expect((failure as Error).message).not.toMatch(/sEcReT|pAsSwOrD/);
    }
  });

  it("gives up on an endpoint that takes longer than timeoutMs", async () => {
    await expect(verifier(hanging, { timeoutMs: 1 })("t", CONTEXT)).rejects.toThrow(/failed: it took too long/);
  });

  it("uses the global fetch by default", async () => {
    const verify = introspectionVerifier({ endpoint: "http://127.0.0.1:9/introspect", timeoutMs: 2000 });
    await expect(verify("t", CONTEXT)).rejects.toThrow(
      /^Token introspection at http:\/\/127.0.0.1:9\/introspect failed: (fetch failed|it took too long)/,
    );
  });

  it("refuses an endpoint that is no URL", () => {
    expect(() => introspectionVerifier({ endpoint: "/introspect" })).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: 'introspectionVerifier: endpoint "/introspect" is not a URL' }),
    );
  });
});

describe("introspectionVerifier: what it remembers", () => {
  it("asks once for an accepted token, until cacheTtlMs or its exp, whichever comes first", async () => {
    let now = NOW_MS;
    const post = endpoint({ long: ACTIVE, short: { ...ACTIVE, exp: NOW + 10 } });
    const verify = introspectionVerifier({ endpoint: ENDPOINT, fetch: post, now: () => now, cacheTtlMs: 30_000, clockSkewSeconds: 0 });
    await verify("long", CONTEXT);
    await verify("short", CONTEXT);
    now += 9_000;
    await verify("long", CONTEXT);
    await verify("short", CONTEXT);
    expect(post.seen).toHaveLength(2);
    now += 2_000;
    await verify("short", CONTEXT);
    expect(post.seen).toHaveLength(3);
    now += 20_000;
    await verify("long", CONTEXT);
    expect(post.seen.map((seen) => seen.form["token"])).toEqual(["long", "short", "short", "long"]);
  });

  it("never remembers a refusal or a failure, and shares one introspection among requests that come at once", async () => {
    let answered = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const post: IntrospectionFetch = async (_url, init) => {
      answered++;
      await gate;
      return new Response(JSON.stringify(init.body.includes("token=good") ? ACTIVE : { active: false }));
    };
    const verify = verifier(post);
    const burst = [verify("good", CONTEXT), verify("good", CONTEXT), verify("good", CONTEXT)];
    release();
    const [first, ...rest] = await Promise.all(burst);
    expect(rest).toEqual([first, first]);
    expect(answered).toBe(1);
    await verify("bad", CONTEXT);
    await verify("bad", CONTEXT);
    expect(answered).toBe(3);
  });

  it("remembers at most cacheSize tokens, the least recently used going first", async () => {
    const post = endpoint({ a: ACTIVE, b: ACTIVE, c: ACTIVE });
    const verify = verifier(post, { cacheSize: 2 });
    for (const token of ["a", "b", "a", "c", "a", "b"]) await verify(token, CONTEXT);
    expect(post.seen.map((seen) => seen.form["token"])).toEqual(["a", "b", "c", "b"]);
  });
});

describe("TokenCache", () => {
  it("keys tokens by their SHA-256, base64url", async () => {
    expect(await tokenKey("abc")).toBe("ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
  });

  it("shares one verification among the lookups of a token that come while it runs", async () => {
    const cache = new TokenCache<string>(
      10,
      () => 0,
      (token) => Promise.resolve(`key of ${token}`),
    );
    let asked = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const verify = async () => {
      asked++;
      await gate;
      return { value: "principal", until: 1 };
    };
    const lookups = [cache.get("t", verify), cache.get("t", verify), cache.get("t", verify)];
    await vi.waitFor(() => expect(asked).toBe(1));
    release();
    expect(await Promise.all(lookups)).toEqual(["principal", "principal", "principal"]);
    expect(asked).toBe(1);
  });

  it("remembers until its deadline, after which the token is verified again", async () => {
    let now = 100;
    const cache = new TokenCache<string>(
      10,
      () => now,
      (token) => Promise.resolve(token),
    );
    let asked = 0;
    const verify = () => Promise.resolve({ value: `v${++asked}`, until: 101 });
    expect(await cache.get("t", verify)).toBe("v1");
    expect(await cache.get("t", verify)).toBe("v1");
    now = 101;
    expect(await cache.get("t", verify)).toBe("v2");
  });

  it("lets no result without a deadline to come take a remembered one's place", async () => {
    const cache = new TokenCache<string>(
      1,
      () => 100,
      (token) => Promise.resolve(token),
    );
    await cache.get("a", kept);
    for (const until of [undefined, 100, 99]) await cache.get(`b${String(until)}`, () => Promise.resolve({ value: "passing", until }));
    expect(await cache.get("a", () => Promise.resolve({ value: "asked again", until: 200 }))).toBe("kept");
    // Nothing at all with a size of 0.
    const none = new TokenCache<string>(
      0,
      () => 100,
      (token) => Promise.resolve(token),
    );
    await none.get("a", kept);
    expect(await none.get("a", () => Promise.resolve({ value: "asked again", until: 200 }))).toBe("asked again");
  });

  it("remembers nothing already past its deadline, and a failure is shared by those waiting and then forgotten", async () => {
    const cache = new TokenCache<string>(10, () => 100);
    let asked = 0;
    const verify = () => Promise.resolve({ value: `v${++asked}`, until: 100 });
    expect(await cache.get("t", verify)).toBe("v1");
    expect(await cache.get("t", verify)).toBe("v2");
    await expect(Promise.all([cache.get("f", failing), cache.get("f", failing)])).rejects.toThrow("down");
    expect(await cache.get("f", verify)).toBe("v3");
  });
});

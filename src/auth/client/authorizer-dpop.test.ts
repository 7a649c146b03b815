// The Authorizer with DPoP (RFC 9449) against a scripted resource server and authorization server
// that check proofs as RFC 9449 §4.3 and §7 ask (by the `jose` library): tokens asked for with a
// proof when the server's challenge is DPoP (or the `dpop` option says so), bound to the client's
// key, sent as `DPoP <token>` with a fresh proof carrying the token's hash; the nonces both servers
// demand; the refresh and the redirect's late redemption with proofs too; a server that requires
// DPoP behind an authorization server that cannot bind is refused clearly.
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, jwtVerify, type JWK } from "jose";
import { describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { encodeBase64 } from "../../protocol/bytes-text.js";
import type { FetchInit } from "../../transport/http-client/http-options.js";
import { FakeFetch } from "./auth-client.test-helpers.js";
import { Authorizer, type AuthorizerOptions } from "./authorizer.js";
import { call, MCP, PRM, REDIRECT } from "./authorizer.test-helpers.js";
import { headlessInteraction } from "./interaction.js";
import { InMemoryOAuthStore } from "./oauth-store.js";

const AS = "https://as.test";

interface SceneOptions {
  /** The scheme of the server's challenge (default DPoP). */
  readonly scheme?: "DPoP" | "Bearer";
  /** What the authorization server lists in `dpop_signing_alg_values_supported` (default ES256). */
  readonly algorithms?: readonly string[];
  readonly required?: boolean;
  /** Whether both servers demand their nonce (RFC 9449 §8, §9). */
  readonly nonces?: boolean;
}

/** The key thumbprint a proof's embedded key has, once `jose` verified the proof for `method` and `url` (and `token`'s hash). */
async function proofKey(
  init: FetchInit,
  url: string,
  token?: string,
): Promise<{ readonly jkt: string; readonly nonce: string | undefined }> {
  const proof = init.headers["dpop"] as string;
  const { payload } = await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt", algorithms: ["ES256"] });
  expect(payload).toMatchObject({ htm: init.method, htu: url });
  if (token !== undefined)
    expect(payload["ath"]).toBe(encodeBase64(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))), true));
  const nonce = payload["nonce"];
  return {
    jkt: await calculateJwkThumbprint(decodeProtectedHeader(proof).jwk as JWK),
    nonce: typeof nonce === "string" ? nonce : undefined,
  };
}

/** The authorization server's answer to every authorization request: back to the redirect URI with a code. */
function codeBack(url: string) {
  const back = new URL(REDIRECT);
  back.searchParams.set("code", "c0de");
  back.searchParams.set("state", new URL(url).searchParams.get("state") ?? "");
  return Promise.resolve({ status: 302, headers: new Headers({ location: back.href }) });
}

/** A DPoP-capable authorization server and a resource server that takes the tokens bound to a proven key (or Bearer ones). */
function scene(options: SceneOptions = {}) {
  const fake = new FakeFetch();
  const seen: string[] = [];
  const bound = new Map<string, string | undefined>();
  let next = 0;
  fake.json(PRM, {
    resource: MCP,
    authorization_servers: [AS],
    ...(options.required === true ? { dpop_bound_access_tokens_required: true } : {}),
  });
  fake.json(`${AS}/.well-known/oauth-authorization-server`, {
    issuer: AS,
    authorization_endpoint: `${AS}/authorize`,
    token_endpoint: `${AS}/token`,
    code_challenge_methods_supported: ["S256"],
    scopes_supported: ["read", "offline_access"],
    dpop_signing_alg_values_supported: options.algorithms ?? ["ES256"],
  });
  fake.on(`${AS}/token`, async (init) => {
    const form = new URL(`http://x/?${String(init.body)}`).searchParams;
    const key = init.headers["dpop"] === undefined ? undefined : await proofKey(init, `${AS}/token`);
    seen.push(
      `token ${form.get("grant_type") ?? ""} ${key === undefined ? "bearer" : `proof${key.nonce === undefined ? "" : ` ${key.nonce}`}`}`,
    );
    if (key !== undefined && options.nonces === true && key.nonce !== "as-nonce")
      return Response.json({ error: "use_dpop_nonce" }, { status: 400, headers: { "dpop-nonce": "as-nonce" } });
    const token = `t${++next}`;
    bound.set(token, key?.jkt);
    return Response.json({
      access_token: token,
      token_type: key === undefined ? "Bearer" : "DPoP",
      expires_in: 3600,
      refresh_token: `r${next}`,
    });
  });
  fake.on(MCP, async (init) => {
    const [scheme, token] = (init.headers["authorization"] ?? "- -").split(" ") as [string, string];
    const challenge = `${options.scheme ?? "DPoP"} resource_metadata="${PRM}"`;
    if (!bound.has(token))
      return (seen.push(`mcp ${scheme}`), new Response(null, { status: 401, headers: { "www-authenticate": challenge } }));
    const jkt = bound.get(token);
    const key = init.headers["dpop"] === undefined ? undefined : await proofKey(init, MCP, token);
    seen.push(`mcp ${scheme} ${token}${key?.nonce === undefined ? "" : ` ${key.nonce}`}`);
    if (jkt !== undefined && (scheme !== "DPoP" || key?.jkt !== jkt))
      return new Response(null, { status: 401, headers: { "www-authenticate": `${challenge}, error="invalid_token"` } });
    if (jkt !== undefined && options.nonces === true && key?.nonce !== "rs-nonce")
      return new Response(null, { status: 401, headers: { "www-authenticate": 'DPoP error="use_dpop_nonce"', "dpop-nonce": "rs-nonce" } });
    return Response.json({ ok: token });
  });
  return { fake, seen, bound, redirects: codeBack };
}

function authorizer(world: ReturnType<typeof scene>, options: Partial<AuthorizerOptions> = {}) {
  const store = new InMemoryOAuthStore();
  const auth = new Authorizer({
    client: { metadata: { client_name: "h", redirect_uris: [REDIRECT] }, preRegistered: { [AS]: { clientId: "c", authMethod: "none" } } },
    redirectUri: REDIRECT,
    interact: headlessInteraction(REDIRECT, world.redirects),
    fetch: world.fake.fetch,
    store,
    ...options,
  });
  return { auth, store, fetch: auth.wrap(world.fake.fetch) };
}

describe("Authorizer: DPoP", () => {
  it("asks for a token bound to its key when the server's challenge is DPoP, and proves it on every request", async () => {
    const world = scene();
    const { fetch, store } = authorizer(world);
    await expect(call(fetch)).resolves.toEqual({ status: 200, body: { ok: "t1" } });
    await expect(call(fetch)).resolves.toEqual({ status: 200, body: { ok: "t1" } });
    expect(world.seen).toEqual(["mcp -", "token authorization_code proof", "mcp DPoP t1", "mcp DPoP t1"]);
    expect(world.bound.get("t1")).toEqual(expect.any(String));
    expect(await store.getTokens(AS, MCP)).toMatchObject({ tokenType: "DPoP" });
    // Each request its own proof.
    const proofs = world.fake.requests
      .filter((request) => request.url === MCP && request.init.headers["dpop"] !== undefined)
      .map((request) => request.init.headers["dpop"]);
    expect(new Set(proofs).size).toBe(2);
  });

  it("sends the token endpoint and the server their nonce when they ask, without authorizing again", async () => {
    const world = scene({ nonces: true });
    const { fetch } = authorizer(world);
    await expect(call(fetch)).resolves.toEqual({ status: 200, body: { ok: "t1" } });
    expect(world.seen).toEqual([
      "mcp -",
      "token authorization_code proof",
      "token authorization_code proof as-nonce",
      "mcp DPoP t1",
      "mcp DPoP t1 rs-nonce",
    ]);
    // The nonce is kept: the next request carries it at once.
    await expect(call(fetch)).resolves.toMatchObject({ status: 200 });
    expect(world.seen.at(-1)).toBe("mcp DPoP t1 rs-nonce");
  });

  it("keeps to Bearer for a Bearer challenge unless told otherwise, and never binds when told not to", async () => {
    const bearer = scene({ scheme: "Bearer" });
    await expect(call(authorizer(bearer).fetch)).resolves.toMatchObject({ status: 200 });
    expect(bearer.seen).toEqual(["mcp -", "token authorization_code bearer", "mcp Bearer t1"]);
    const asked = scene({ scheme: "Bearer" });
    await expect(call(authorizer(asked, { dpop: true }).fetch)).resolves.toMatchObject({ status: 200 });
    expect(asked.seen).toEqual(["mcp -", "token authorization_code proof", "mcp DPoP t1"]);
    const refused = scene();
    await expect(call(authorizer(refused, { dpop: false }).fetch)).resolves.toMatchObject({ status: 200 });
    expect(refused.seen).toEqual(["mcp -", "token authorization_code bearer", "mcp Bearer t1"]);
    // An authorization server that takes no ES256 proof gets a Bearer request.
    const other = scene({ algorithms: ["RS256"] });
    await expect(call(authorizer(other).fetch)).resolves.toMatchObject({ status: 200 });
    expect(other.seen).toEqual(["mcp -", "token authorization_code bearer", "mcp Bearer t1"]);
  });

  it("refuses a server that requires DPoP when its authorization server cannot bind tokens", async () => {
    const world = scene({ required: true, algorithms: ["RS256"] });
    await expect(call(authorizer(world).fetch)).rejects.toMatchObject({
      code: MCP_CODES.UNAUTHORIZED,
      data: { reason: "dpop-unsupported" },
    });
    expect(world.seen).toEqual(["mcp -"]);
    const required = scene({ required: true, scheme: "Bearer" });
    await expect(call(authorizer(required).fetch)).resolves.toMatchObject({ status: 200 });
    expect(required.seen).toEqual(["mcp -", "token authorization_code proof", "mcp DPoP t1"]);
  });

  it("refreshes with a proof of the same key, and signs with the host's key pair when given one", async () => {
    const world = scene();
    const keyPair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
    const { fetch } = authorizer(world, { dpopKeyPair: keyPair });
    await expect(call(fetch)).resolves.toMatchObject({ status: 200 });
    world.bound.delete("t1");
    await expect(call(fetch)).resolves.toEqual({ status: 200, body: { ok: "t2" } });
    expect(world.seen.slice(3)).toEqual(["mcp DPoP", "token refresh_token proof", "mcp DPoP t2"]);
    expect(world.bound.get("t2")).toBe(await calculateJwkThumbprint((await crypto.subtle.exportKey("jwk", keyPair.publicKey)) as JWK));
  });

  it("redeems a code from the store with a proof when the page that started the flow is gone", async () => {
    const world = scene();
    const store = new InMemoryOAuthStore();
    const asked: string[] = [];
    const away = (url: string) => (asked.push(url), new Promise<string>(() => undefined));
    // Authorizing ahead sees no challenge: the option asks for DPoP, and the stored flow remembers it.
    void authorizer(world, { store, interact: away, dpop: true }).auth.authorize(MCP);
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    const callback = (await world.redirects(asked[0] as string)).headers.get("location") as string;
    const reloaded = authorizer(world, { store, interact: away });
    await reloaded.auth.finish(callback);
    await expect(call(reloaded.fetch)).resolves.toEqual({ status: 200, body: { ok: "t1" } });
    expect(world.seen).toEqual(["token authorization_code proof", "mcp DPoP t1"]);
  });
});

// The Authorizer against a scripted resource server and authorization server: the first 401 leads
// through discovery, registration and a code grant (PKCE, state, iss) to a token and a retried
// request; tokens are reused, refreshed before expiry and on invalid_token, replaced when the grant
// is gone; a 403 insufficient_scope asks again with the union of scopes, at most so many times; a
// resource that moved to another authorization server is registered there.
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import type { FetchInit, FetchLike } from "../../transport/http-client/http-options.js";
import { FakeFetch, rejectionOf } from "./auth-client.test-helpers.js";
import { Authorizer, type AuthorizerOptions, type Interaction } from "./authorizer.js";
import { headlessInteraction, type RedirectFetch } from "./interaction.js";
import { InMemoryOAuthStore } from "./oauth-store.js";

const MCP = "https://mcp.test/mcp";
const PRM = "https://mcp.test/.well-known/oauth-protected-resource/mcp";
const REDIRECT = "http://127.0.0.1:3000/callback";

afterEach(() => {
  vi.useRealTimers();
});

const challenge = (extra = "") => `Bearer resource_metadata="${PRM}", scope="read"${extra}`;

/** The URL a fetch was given, as a string. */
const urlOf = (url: string | URL | Request): string => (typeof url === "string" ? url : url instanceof URL ? url.href : url.url);

interface Issued {
  readonly scope: string;
  readonly issuer: string;
  expired: boolean;
}

/** One resource server and the authorization servers it may name, with what each saw. */
function world(options: { readonly needs?: (body: string) => string; readonly expiresIn?: number; readonly refresh?: boolean; readonly iss?: boolean } = {}) {
  const fake = new FakeFetch();
  const issued = new Map<string, Issued>();
  const seen: string[] = [];
  /** The scope each authorization code was granted for. */
  const codes = new Map<string, string>();
  let issuer = "https://as.test";
  let next = 0;
  fake.on(MCP, (init) => {
    const token = init.headers["authorization"]?.replace(/^Bearer /, "");
    const grant = token === undefined ? undefined : issued.get(token);
    seen.push(`mcp ${token ?? "-"}`);
    if (grant === undefined || grant.expired || grant.issuer !== issuer) return new Response(null, { status: 401, headers: { "www-authenticate": challenge(token === undefined ? "" : ', error="invalid_token"') } });
    const needed = options.needs?.(String(init.body)) ?? "read";
    if (!needed.split(" ").every((scope) => grant.scope.split(" ").includes(scope))) {
      return new Response(null, { status: 403, headers: { "www-authenticate": `Bearer error="insufficient_scope", scope="${needed}", resource_metadata="${PRM}"` } });
    }
    return Response.json({ ok: grant.scope });
  });
  const serveIssuer = (at: string) => {
    fake.json(`${at.replace("https://as", "https://as")}/.well-known/oauth-authorization-server`, {
      issuer: at,
      authorization_endpoint: `${at}/authorize`,
      token_endpoint: `${at}/token`,
      registration_endpoint: `${at}/register`,
      code_challenge_methods_supported: ["S256"],
      scopes_supported: ["read", "write", "offline_access"],
      ...(options.iss === false ? {} : { authorization_response_iss_parameter_supported: true }),
    });
    fake.on(`${at}/register`, (init) => {
      seen.push(`register ${at} ${String(JSON.parse(String(init.body)).application_type)}`);
      return Response.json({ client_id: `client-of-${at}` }, { status: 201 });
    });
    fake.on(`${at}/token`, (init) => {
      const form = new URL(`http://x/?${String(init.body)}`).searchParams;
      seen.push(`token ${at} ${form.get("grant_type") ?? ""} ${form.get("client_id") ?? ""} ${form.get("scope") ?? ""} ${form.get("resource") ?? ""}`.trim());
      if (form.get("grant_type") === "refresh_token" && !issued.has(`refresh:${form.get("refresh_token") ?? ""}`)) return Response.json({ error: "invalid_grant" }, { status: 400 });
      const token = `t${++next}`;
      const grantType = form.get("grant_type");
      const jag = grantType === "urn:ietf:params:oauth:grant-type:jwt-bearer" ? form.get("assertion") : null;
      const scope = grantType === "refresh_token" ? (issued.get(`refresh:${form.get("refresh_token") ?? ""}`)?.scope ?? "") : grantType === "authorization_code" ? (codes.get(form.get("code") ?? "") ?? "") : jag !== null ? (jag === "id-jag-for-read" ? "read" : "") : (form.get("scope") ?? "");
      issued.set(token, { scope, issuer: at, expired: false });
      const refreshToken = `r${next}`;
      if (options.refresh !== false) issued.set(`refresh:${refreshToken}`, { scope, issuer: at, expired: false });
      return Response.json({ access_token: token, token_type: "bearer", expires_in: options.expiresIn ?? 3600, ...(options.refresh === false ? {} : { refresh_token: refreshToken }), scope });
    });
  };
  const prm = () => fake.json(PRM, { resource: MCP, authorization_servers: [issuer], scopes_supported: ["read", "write"] });
  serveIssuer(issuer);
  prm();
  const redirects: RedirectFetch = (url) => {
    const asked = new URL(url);
    seen.push(`authorize ${asked.origin} ${asked.searchParams.get("scope") ?? ""} ${asked.searchParams.get("resource") ?? ""}`);
    const back = new URL(REDIRECT);
    const code = `c0de-${codes.size + 1}`;
    // This server grants what it knows of what was asked.
    codes.set(code, (asked.searchParams.get("scope") ?? "").split(" ").filter((scope) => ["read", "write", "offline_access"].includes(scope)).join(" "));
    back.searchParams.set("code", code);
    back.searchParams.set("state", asked.searchParams.get("state") ?? "");
    if (options.iss !== false) back.searchParams.set("iss", asked.origin);
    return Promise.resolve({ status: 302, headers: new Headers({ location: back.href }) });
  };
  return {
    fake,
    seen,
    issued,
    redirects,
    moveTo(other: string) {
      issuer = other;
      serveIssuer(other);
      prm();
    },
  };
}

/** The options given, and those given as undefined left out (as a host that does not set them). */
type Overrides = { readonly [K in keyof AuthorizerOptions]?: AuthorizerOptions[K] | undefined };

function authorizer(scene: ReturnType<typeof world>, options: Overrides = {}): { fetch: FetchLike; store: InMemoryOAuthStore } {
  const store = new InMemoryOAuthStore();
  const given = { client: { metadata: { client_name: "test host", redirect_uris: [REDIRECT] } }, redirectUri: REDIRECT, interact: headlessInteraction(REDIRECT, scene.redirects), fetch: scene.fake.fetch, store, ...options };
  const auth = new Authorizer(Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as unknown as AuthorizerOptions);
  return { fetch: auth.wrap(scene.fake.fetch), store };
}

const post = (body = "{}"): FetchInit => ({ method: "POST", headers: { "content-type": "application/json" }, body, signal: new AbortController().signal });

async function call(fetch: FetchLike, body?: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(MCP, post(body));
  return { status: response.status, body: response.status === 200 ? await (response as Response).json() : undefined };
}

describe("Authorizer: the first authorization", () => {
  it("answers a 401 with discovery, registration, a code grant and a retry, then reuses the token", async () => {
    const scene = world();
    const { fetch, store } = authorizer(scene);
    await expect(call(fetch)).resolves.toEqual({ status: 200, body: { ok: "read offline_access" } });
    await expect(call(fetch)).resolves.toEqual({ status: 200, body: { ok: "read offline_access" } });
    expect(scene.seen).toEqual([
      "mcp -",
      "register https://as.test native",
      `authorize https://as.test read offline_access ${MCP}`,
      `token https://as.test authorization_code client-of-https://as.test  ${MCP}`,
      "mcp t1",
      "mcp t1",
    ]);
    expect(await store.getTokens("https://as.test", MCP)).toMatchObject({ accessToken: "t1", refreshToken: "r1", scope: "read offline_access" });
  });

  it("shares one authorization between requests that race, and says what is missing for a code grant", async () => {
    const scene = world();
    const { fetch } = authorizer(scene);
    await expect(Promise.all([call(fetch), call(fetch), call(fetch)])).resolves.toEqual(Array.from({ length: 3 }, () => ({ status: 200, body: { ok: "read offline_access" } })));
    expect(scene.seen.filter((line) => line.startsWith("authorize"))).toHaveLength(1);
    const { fetch: unable } = authorizer(world(), { interact: undefined });
    expect(await rejectionOf(call(unable))).toMatchObject({ code: MCP_CODES.INVALID_PARAMS, message: "Cannot run the authorization code flow: no redirectUri and interact were given" });
  });

  it("gets a token with client credentials, no user and no refresh token asked for", async () => {
    const scene = world();
    const { fetch } = authorizer(scene, { clientCredentials: true, client: { metadata: { client_name: "svc", redirect_uris: [] }, preRegistered: { "*": { clientId: "svc", clientSecret: "s", authMethod: "client_secret_basic" } } } });
    await expect(call(fetch)).resolves.toEqual({ status: 200, body: { ok: "read" } });
    expect(scene.seen).toEqual(["mcp -", `token https://as.test client_credentials  read ${MCP}`, "mcp t1"]);
  });
});

describe("Authorizer: keeping a token", () => {
  it("refreshes a token close to its expiry before sending it, keeping the rotated refresh token", async () => {
    vi.useFakeTimers({ now: 0, toFake: ["Date"] });
    const scene = world({ expiresIn: 60 });
    const { fetch, store } = authorizer(scene);
    await call(fetch);
    vi.setSystemTime(31_000);
    await expect(call(fetch)).resolves.toMatchObject({ status: 200 });
    expect(scene.seen.slice(-2)).toEqual([`token https://as.test refresh_token client-of-https://as.test  ${MCP}`, "mcp t2"]);
    expect(await store.getTokens("https://as.test", MCP)).toMatchObject({ accessToken: "t2", refreshToken: "r2", scope: "read offline_access" });
  });

  it("refreshes a token the server calls invalid, and authorizes again when the refresh token is gone too", async () => {
    const scene = world();
    const { fetch } = authorizer(scene);
    await call(fetch);
    (scene.issued.get("t1") as Issued).expired = true;
    await expect(call(fetch)).resolves.toMatchObject({ status: 200 });
    expect(scene.seen.slice(-3)).toEqual(["mcp t1", `token https://as.test refresh_token client-of-https://as.test  ${MCP}`, "mcp t2"]);
    (scene.issued.get("t2") as Issued).expired = true;
    scene.issued.delete("refresh:r2");
    await expect(call(fetch)).resolves.toMatchObject({ status: 200 });
    expect(scene.seen.slice(-5)).toEqual([
      "mcp t2",
      `token https://as.test refresh_token client-of-https://as.test  ${MCP}`,
      `authorize https://as.test read offline_access ${MCP}`,
      `token https://as.test authorization_code client-of-https://as.test  ${MCP}`,
      "mcp t3",
    ]);
  });

  it("passes a refresh failure other than invalid_grant to the caller", async () => {
    const scene = world();
    const { fetch } = authorizer(scene);
    await call(fetch);
    (scene.issued.get("t1") as Issued).expired = true;
    scene.fake.on("https://as.test/token", () => Response.json({ error: "temporarily_unavailable" }, { status: 503 }));
    expect(await rejectionOf(call(fetch))).toMatchObject({ code: MCP_CODES.UNAUTHORIZED, data: { status: 503, error: "temporarily_unavailable" } });
  });
});

describe("Authorizer: step-up, limits and moves", () => {
  it("asks again with the union of scopes held and challenged on 403 insufficient_scope", async () => {
    const scene = world({ needs: (body) => (body.includes("write") ? "read write" : "read") });
    const { fetch } = authorizer(scene);
    await call(fetch);
    await expect(call(fetch, '{"write":true}')).resolves.toEqual({ status: 200, body: { ok: "read offline_access write" } });
    expect(scene.seen.filter((line) => line.startsWith("authorize"))).toEqual([`authorize https://as.test read offline_access ${MCP}`, `authorize https://as.test read offline_access write ${MCP}`]);
  });

  it("returns the refusal after maxAuthorizations authorizations for one request", async () => {
    const scene = world({ needs: () => "admin" });
    const { fetch } = authorizer(scene, { maxAuthorizations: 2 });
    await expect(call(fetch)).resolves.toEqual({ status: 403, body: undefined });
    expect(scene.seen.filter((line) => line.startsWith("authorize"))).toHaveLength(2);
  });

  it("registers at the new authorization server when the resource moves, never showing it the old client", async () => {
    const scene = world();
    const { fetch, store } = authorizer(scene);
    await call(fetch);
    scene.moveTo("https://as2.test");
    await expect(call(fetch)).resolves.toMatchObject({ status: 200 });
    expect(scene.seen.slice(2)).toEqual([
      `authorize https://as.test read offline_access ${MCP}`,
      `token https://as.test authorization_code client-of-https://as.test  ${MCP}`,
      "mcp t1",
      "mcp t1",
      // The refresh at the old server gives a token the resource refuses: then the resource is looked up anew.
      `token https://as.test refresh_token client-of-https://as.test  ${MCP}`,
      "mcp t2",
      "register https://as2.test native",
      `authorize https://as2.test read offline_access ${MCP}`,
      `token https://as2.test authorization_code client-of-https://as2.test  ${MCP}`,
      "mcp t3",
    ]);
    expect(scene.seen.filter((line) => line.includes("as2.test")).every((line) => !line.includes("client-of-https://as.test"))).toBe(true);
    expect((await store.getRegistration("https://as2.test"))?.clientId).toBe("client-of-https://as2.test");
  });
});

describe("Authorizer: the edges", () => {
  it("falls back to the 2025-03-26 rules without protected resource metadata: the server's origin is the authorization server", async () => {
    const fake = new FakeFetch();
    let authorized = false;
    fake.on(MCP, (init) => (authorized && init.headers["authorization"] === "DPoP legacy-token" ? Response.json({ ok: true }) : new Response(null, { status: 401, headers: { "www-authenticate": "Bearer" } })));
    fake.json("https://mcp.test/.well-known/oauth-authorization-server", {
      issuer: "https://mcp.test",
      authorization_endpoint: "https://mcp.test/authorize",
      token_endpoint: "https://mcp.test/token",
      code_challenge_methods_supported: ["S256"],
    });
    fake.on("https://mcp.test/token", (init) => {
      authorized = String(init.body).includes("resource=https%3A%2F%2Fmcp.test%2Fmcp");
      return Response.json({ access_token: "legacy-token", token_type: "DPoP" });
    });
    const scene = { ...world(), fake };
    const { fetch } = authorizer(scene, { client: { metadata: { client_name: "h", redirect_uris: [REDIRECT] }, preRegistered: { "https://mcp.test": { clientId: "pre", authMethod: "none" } } } });
    await expect(call(fetch)).resolves.toEqual({ status: 200, body: { ok: true } });
  });

  it("stops at a discovery failure other than missing metadata, and at a server without an authorization endpoint", async () => {
    const mismatched = world();
    mismatched.fake.json(PRM, { resource: "https://evil.test/mcp", authorization_servers: ["https://as.test"] });
    const { fetch } = authorizer(mismatched);
    expect(await rejectionOf(call(fetch))).toMatchObject({ code: MCP_CODES.UNAUTHORIZED, data: { reason: "resource-mismatch" } });
    expect(mismatched.seen).toEqual(["mcp -"]);
    const endless = world();
    endless.fake.json("https://as.test/.well-known/oauth-authorization-server", { issuer: "https://as.test", token_endpoint: "https://as.test/token", registration_endpoint: "https://as.test/register", code_challenge_methods_supported: ["S256"] });
    const { fetch: noEndpoint } = authorizer(endless);
    expect(await rejectionOf(call(noEndpoint))).toMatchObject({ message: "Cannot run the authorization code flow: the authorization server https://as.test has no authorization_endpoint" });
  });

  it("signs private_key_jwt assertions with the given signer, and uses the platform fetch when given none", async () => {
    const scene = world();
    const assertion = vi.fn((server: { readonly issuer: string; readonly tokenEndpoint: string }) => Promise.resolve(`signed-for-${server.issuer}`));
    const platform = vi.spyOn(globalThis, "fetch").mockImplementation((url, init) => scene.fake.fetch(urlOf(url), init as FetchInit) as Promise<Response>);
    try {
      const { fetch } = authorizer(scene, {
        fetch: undefined,
        clientCredentials: true,
        assertion,
        client: { metadata: { client_name: "svc", redirect_uris: [] }, preRegistered: { "*": { clientId: "svc", authMethod: "private_key_jwt" } } },
      });
      await expect(call(fetch)).resolves.toMatchObject({ status: 200 });
      expect(assertion).toHaveBeenCalledWith({ issuer: "https://as.test", tokenEndpoint: "https://as.test/token" });
      expect(platform).toHaveBeenCalled();
    } finally {
      platform.mockRestore();
    }
  });
});

describe("headlessInteraction", () => {
  const signal = new AbortController().signal;

  it("refuses a page that wants a user, and a redirect loop", async () => {
    const page = headlessInteraction(REDIRECT, () => Promise.resolve({ status: 200, headers: new Headers() }));
    expect(await rejectionOf(page("https://as.test/authorize", signal))).toMatchObject({
      code: MCP_CODES.UNAUTHORIZED,
      message: "The authorization server answered HTTP 200 without a redirect: a user has to finish this authorization (give an interact that shows the page)",
      data: { reason: "authorization-denied", status: 200 },
    });
    const noLocation = headlessInteraction(REDIRECT, () => Promise.resolve({ status: 302, headers: new Headers() }));
    expect(await rejectionOf(noLocation("https://as.test/authorize", signal))).toMatchObject({ data: { status: 302 } });
    const loop = headlessInteraction(REDIRECT, () => Promise.resolve({ status: 302, headers: new Headers({ location: "/again" }) }));
    expect(await rejectionOf(loop("https://as.test/authorize", signal))).toMatchObject({ message: "The authorization server redirected more than 10 times without reaching the redirect URI" });
  });

  it("follows relative redirects to the redirect URI with the platform fetch, which it never fetches", async () => {
    const urls: string[] = [];
    const platform = vi.spyOn(globalThis, "fetch").mockImplementation((url) => {
      urls.push(urlOf(url));
      return Promise.resolve(new Response(null, { status: 303, headers: { location: urlOf(url).endsWith("/authorize") ? "/login" : `${REDIRECT}?code=x&state=y` } }));
    });
    try {
      await expect(headlessInteraction(REDIRECT)("https://as.test/authorize", signal)).resolves.toBe(`${REDIRECT}?code=x&state=y`);
      expect(urls).toEqual(["https://as.test/authorize", "https://as.test/login"]);
    } finally {
      platform.mockRestore();
    }
  });
});

describe("Authorizer: tokens from another request or an earlier run", () => {
  it("uses the tokens a persistent store kept, and authorizes with their scope when they and their refresh token are gone", async () => {
    const scene = world();
    const { fetch, store } = authorizer(scene);
    await call(fetch);
    const later = new Authorizer({ client: { metadata: { client_name: "test host", redirect_uris: [REDIRECT] } }, redirectUri: REDIRECT, interact: headlessInteraction(REDIRECT, scene.redirects), fetch: scene.fake.fetch, store });
    const laterFetch = later.wrap(scene.fake.fetch);
    await expect(call(laterFetch)).resolves.toMatchObject({ status: 200 });
    expect(scene.seen.slice(-2)).toEqual(["mcp -", "mcp t1"]);
    (scene.issued.get("t1") as Issued).expired = true;
    scene.issued.delete("refresh:r1");
    await expect(call(laterFetch)).resolves.toMatchObject({ status: 200 });
    expect(scene.seen.filter((line) => line.startsWith("authorize")).at(-1)).toBe(`authorize https://as.test read offline_access ${MCP}`);
  });

  it("sends a token without a refresh token as it is, expired or not, and authorizes again when it is refused", async () => {
    vi.useFakeTimers({ now: 0, toFake: ["Date"] });
    const scene = world({ refresh: false, expiresIn: 10 });
    const { fetch } = authorizer(scene);
    await call(fetch);
    vi.setSystemTime(20_000);
    (scene.issued.get("t1") as Issued).expired = true;
    await expect(call(fetch)).resolves.toMatchObject({ status: 200 });
    expect(scene.seen.slice(-4)).toEqual(["mcp t1", `authorize https://as.test read offline_access ${MCP}`, `token https://as.test authorization_code client-of-https://as.test  ${MCP}`, "mcp t2"]);
  });

  it("sends what another request renewed meanwhile instead of renewing again", async () => {
    const scene = world();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let refusedT1 = 0;
    const slow: FetchLike = async (url, init) => {
      // The second request sent with t1 is answered only once the first one's renewal is over.
      if (url === MCP && init.headers["authorization"] === "Bearer t1" && (scene.issued.get("t1") as Issued).expired && ++refusedT1 === 2) await gate;
      return scene.fake.fetch(url, init);
    };
    const auth = new Authorizer({ client: { metadata: { client_name: "h", redirect_uris: [REDIRECT] } }, redirectUri: REDIRECT, interact: headlessInteraction(REDIRECT, scene.redirects), fetch: scene.fake.fetch, offlineAccess: false });
    const racing = auth.wrap(slow);
    await call(racing);
    (scene.issued.get("t1") as Issued).expired = true;
    scene.issued.delete("refresh:r1");
    const first = call(racing);
    const second = call(racing);
    await expect(first).resolves.toMatchObject({ status: 200 });
    release();
    await expect(second).resolves.toEqual({ status: 200, body: { ok: "read" } });
    expect(scene.seen.filter((line) => line.startsWith("authorize"))).toHaveLength(2);
    expect(scene.seen.slice(-2)).toEqual(["mcp t1", "mcp t2"]);
  });
});

/** An interact that sends the user away (as a page redirect does) and never comes back by itself. */
function sendAway(): { interact: Interaction; asked: string[] } {
  const asked: string[] = [];
  return { interact: (url) => (asked.push(url), new Promise<string>(() => undefined)), asked };
}

/** Where the scene's authorization server sends the user back for `authorizationUrl`. */
async function comeBack(scene: ReturnType<typeof world>, authorizationUrl: string): Promise<string> {
  const response = await scene.redirects(authorizationUrl, { method: "GET", redirect: "manual", signal: new AbortController().signal });
  return response.headers.get("location") as string;
}


describe("Authorizer: authorizing ahead, and finishing after a redirect", () => {
  it("authorizes before the first request, so none is refused", async () => {
    const scene = world();
    const auth = new Authorizer({ client: { metadata: { client_name: "h", redirect_uris: [REDIRECT] } }, redirectUri: REDIRECT, interact: headlessInteraction(REDIRECT, scene.redirects), fetch: scene.fake.fetch });
    await auth.authorize(MCP);
    await expect(call(auth.wrap(scene.fake.fetch))).resolves.toMatchObject({ status: 200 });
    expect(scene.seen.filter((line) => line.startsWith("mcp"))).toEqual(["mcp t1"]);
  });

  it("hands the callback to the flow waiting for it in this instance", async () => {
    const scene = world();
    const away = sendAway();
    const auth = new Authorizer({ client: { metadata: { client_name: "h", redirect_uris: [REDIRECT] } }, redirectUri: REDIRECT, interact: away.interact, fetch: scene.fake.fetch });
    const authorized = auth.authorize(MCP);
    await vi.waitFor(() => expect(away.asked).toHaveLength(1));
    await auth.finish(await comeBack(scene, away.asked[0] as string));
    await authorized;
    await expect(call(auth.wrap(scene.fake.fetch))).resolves.toMatchObject({ status: 200 });
  });

  it("redeems the code from the store when the page that started the flow is gone, once; refuses a callback it does not know or that fails its checks", async () => {
    const scene = world();
    const store = new InMemoryOAuthStore();
    const away = sendAway();
    const options = { client: { metadata: { client_name: "h", redirect_uris: [REDIRECT] } }, redirectUri: REDIRECT, fetch: scene.fake.fetch, store };
    void new Authorizer({ ...options, interact: away.interact }).authorize(MCP);
    await vi.waitFor(() => expect(away.asked).toHaveLength(1));
    const callback = await comeBack(scene, away.asked[0] as string);
    const reloaded = new Authorizer({ ...options, interact: sendAway().interact });
    const forged = new URL(callback);
    forged.searchParams.set("iss", "https://evil.test");
    await expect(reloaded.finish(forged.href)).rejects.toMatchObject({ data: { reason: "iss-mismatch" } });
    await expect(reloaded.finish(callback)).rejects.toMatchObject({ code: MCP_CODES.UNAUTHORIZED, data: { reason: "state-mismatch" } });
    // The forged callback used up the pending flow: start again, and come back right.
    const again = sendAway();
    void new Authorizer({ ...options, interact: again.interact }).authorize(MCP);
    await vi.waitFor(() => expect(again.asked).toHaveLength(1));
    await reloaded.finish(await comeBack(scene, again.asked[0] as string));
    await expect(call(reloaded.wrap(scene.fake.fetch))).resolves.toMatchObject({ status: 200 });
    // Authorizing ahead sends nothing to the server: its first request carries the token.
    expect(scene.seen.filter((line) => line.startsWith("mcp"))).toEqual(["mcp t1"]);
    await expect(reloaded.finish(`${REDIRECT}?code=stray`)).rejects.toMatchObject({ data: { reason: "state-mismatch" } });
  });
});

describe("Authorizer: enterprise-managed authorization", () => {
  it("exchanges the user's ID token at the identity provider for an ID-JAG, and presents it as a JWT bearer grant", async () => {
    const scene = world();
    const exchanges: Record<string, string>[] = [];
    scene.fake.on("https://idp.test/token", (init) => {
      const form = Object.fromEntries(new URL(`http://x/?${String(init.body)}`).searchParams);
      exchanges.push({ ...form, authorization: init.headers["authorization"] ?? "-" });
      return Response.json({ access_token: "id-jag-for-read", issued_token_type: "urn:ietf:params:oauth:token-type:id-jag", token_type: "N_A" });
    });
    const enterprise = { idpIssuer: "https://idp.test", idpTokenEndpoint: "https://idp.test/token", idpClientId: "idp-client", idToken: () => "id-token-of-the-user" };
    const client = { metadata: { client_name: "svc", redirect_uris: [] }, preRegistered: { "*": { clientId: "mcp-client", clientSecret: "s", authMethod: "client_secret_basic" as const } } };
    const { fetch } = authorizer(scene, { enterprise, client, interact: undefined, redirectUri: undefined });
    await expect(call(fetch)).resolves.toEqual({ status: 200, body: { ok: "read" } });
    expect(exchanges).toEqual([
      {
        grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
        requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
        audience: "https://as.test",
        resource: MCP,
        scope: "read",
        subject_token: "id-token-of-the-user",
        subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
        client_id: "idp-client",
        authorization: "-",
      },
    ]);
    // The JWT bearer grant carries the ID-JAG alone; the client authenticates with Basic.
    expect(scene.seen).toEqual(["mcp -", "token https://as.test urn:ietf:params:oauth:grant-type:jwt-bearer", "mcp t1"]);
    // With a secret at the identity provider, it authenticates there with it; an insecure token endpoint is refused.
    const secret = world();
    secret.fake.on("https://idp.test/token", (init) => (exchanges.push({ authorization: init.headers["authorization"] ?? "-" }), Response.json({ access_token: "id-jag-for-read", token_type: "N_A" })));
    const { fetch: withSecret } = authorizer(secret, { enterprise: { ...enterprise, idpClientSecret: "idp-secret" }, client });
    await expect(call(withSecret)).resolves.toMatchObject({ status: 200 });
    expect(exchanges.at(-1)).toEqual({ authorization: `Basic ${btoa("idp-client:idp-secret")}` });
    const { fetch: insecure } = authorizer(world(), { enterprise: { ...enterprise, idpTokenEndpoint: "http://idp.test/token" }, client });
    await expect(call(insecure)).rejects.toMatchObject({ data: { reason: "insecure-url" } });
  });
});

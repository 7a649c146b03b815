// The Authorizer against a scripted resource server and authorization server: the first 401 leads
// through discovery, registration and a code grant (PKCE, state, iss) to a token and a retried
// request; tokens are reused, refreshed before expiry and on invalid_token, replaced when the grant
// is gone; a 403 insufficient_scope asks again with the union of scopes, at most so many times; a
// resource that moved to another authorization server is registered there.
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import type { FetchInit, FetchLike } from "../../transport/http-client/http-options.js";
import { FakeFetch, rejectionOf } from "./auth-client.test-helpers.js";
import { Authorizer, type Interaction } from "./authorizer.js";
import { headlessInteraction } from "./interaction.js";
import { InMemoryOAuthStore } from "./oauth-store.js";
import { authorizer, call, MCP, PRM, REDIRECT, urlOf, world, type Issued } from "./authorizer.test-helpers.js";

afterEach(() => {
  vi.useRealTimers();
});

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
    expect(await store.getTokens("https://as.test", MCP)).toMatchObject({
      accessToken: "t1",
      refreshToken: "r1",
      scope: "read offline_access",
    });
  });

  it("shares one authorization between requests that race, and says what is missing for a code grant", async () => {
    const scene = world();
    const { fetch } = authorizer(scene);
    await expect(Promise.all([call(fetch), call(fetch), call(fetch)])).resolves.toEqual(
      Array.from({ length: 3 }, () => ({ status: 200, body: { ok: "read offline_access" } })),
    );
    expect(scene.seen.filter((line) => line.startsWith("authorize"))).toHaveLength(1);
    const { fetch: unable } = authorizer(world(), { interact: undefined });
    expect(await rejectionOf(call(unable))).toMatchObject({
      code: MCP_CODES.INVALID_PARAMS,
      message: "Cannot run the authorization code flow: no redirectUri and interact were given",
    });
  });

  it("gets a token with client credentials, no user and no refresh token asked for", async () => {
    const scene = world();
    const { fetch } = authorizer(scene, {
      clientCredentials: true,
      client: {
        metadata: { client_name: "svc", redirect_uris: [] },
        preRegistered: { "*": { clientId: "svc", clientSecret: "s", authMethod: "client_secret_basic" } },
      },
    });
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
    expect(await store.getTokens("https://as.test", MCP)).toMatchObject({
      accessToken: "t2",
      refreshToken: "r2",
      scope: "read offline_access",
    });
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
    expect(await rejectionOf(call(fetch))).toMatchObject({
      code: MCP_CODES.UNAUTHORIZED,
      data: { status: 503, error: "temporarily_unavailable" },
    });
  });
});

describe("Authorizer: step-up, limits and moves", () => {
  it("asks again with the union of scopes held and challenged on 403 insufficient_scope", async () => {
    const scene = world({ needs: (body) => (body.includes("write") ? "read write" : "read") });
    const { fetch } = authorizer(scene);
    await call(fetch);
    const discovered = scene.fake.urls.length;
    await expect(call(fetch, '{"write":true}')).resolves.toEqual({ status: 200, body: { ok: "read offline_access write" } });
    expect(scene.seen.filter((line) => line.startsWith("authorize"))).toEqual([
      `authorize https://as.test read offline_access ${MCP}`,
      `authorize https://as.test read offline_access write ${MCP}`,
    ]);
    // The server took the token it refused for scope: its authorization server is asked again without being looked up again.
    expect(scene.fake.urls.slice(discovered)).toEqual([MCP, "https://as.test/token", MCP]);
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
  it("falls back to the 2025-03-26 rules without resource metadata: the server's origin is the authorization server", async () => {
    const fake = new FakeFetch();
    let authorized = false;
    fake.on(MCP, (init) =>
      authorized && init.headers["authorization"] === "DPoP legacy-token"
        ? Response.json({ ok: true })
        : new Response(null, { status: 401, headers: { "www-authenticate": "Bearer" } }),
    );
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
    const { fetch } = authorizer(scene, {
      client: {
        metadata: { client_name: "h", redirect_uris: [REDIRECT] },
        preRegistered: { "https://mcp.test": { clientId: "pre", authMethod: "none" } },
      },
    });
    await expect(call(fetch)).resolves.toEqual({ status: 200, body: { ok: true } });
  });

  it("stops at a discovery failure other than missing metadata, and at a server without an authorization endpoint", async () => {
    const mismatched = world();
    mismatched.fake.json(PRM, { resource: "https://evil.test/mcp", authorization_servers: ["https://as.test"] });
    const { fetch } = authorizer(mismatched);
    expect(await rejectionOf(call(fetch))).toMatchObject({ code: MCP_CODES.UNAUTHORIZED, data: { reason: "resource-mismatch" } });
    expect(mismatched.seen).toEqual(["mcp -"]);
    const endless = world();
    endless.fake.json("https://as.test/.well-known/oauth-authorization-server", {
      issuer: "https://as.test",
      token_endpoint: "https://as.test/token",
      registration_endpoint: "https://as.test/register",
      code_challenge_methods_supported: ["S256"],
    });
    const { fetch: noEndpoint } = authorizer(endless);
    expect(await rejectionOf(call(noEndpoint))).toMatchObject({
      message: "Cannot run the authorization code flow: the authorization server https://as.test has no authorization_endpoint",
    });
  });

  it("signs private_key_jwt assertions with the given signer, and uses the platform fetch when given none", async () => {
    const scene = world();
    const assertion = vi.fn((server: { readonly issuer: string; readonly tokenEndpoint: string }) =>
      Promise.resolve(`signed-for-${server.issuer}`),
    );
    const platform = vi
      .spyOn(globalThis, "fetch")
      .mockImplementation((url, init) => scene.fake.fetch(urlOf(url), init as FetchInit) as Promise<Response>);
    try {
      const { fetch } = authorizer(scene, {
        fetch: undefined,
        clientCredentials: true,
        assertion,
        client: {
          metadata: { client_name: "svc", redirect_uris: [] },
          preRegistered: { "*": { clientId: "svc", authMethod: "private_key_jwt" } },
        },
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
      message:
        "The authorization server answered HTTP 200 without a redirect: " +
        "a user has to finish this authorization (give an interact that shows the page)",
      data: { reason: "authorization-denied", status: 200 },
    });
    const noLocation = headlessInteraction(REDIRECT, () => Promise.resolve({ status: 302, headers: new Headers() }));
    expect(await rejectionOf(noLocation("https://as.test/authorize", signal))).toMatchObject({ data: { status: 302 } });
    const loop = headlessInteraction(REDIRECT, () => Promise.resolve({ status: 302, headers: new Headers({ location: "/again" }) }));
    expect(await rejectionOf(loop("https://as.test/authorize", signal))).toMatchObject({
      message: "The authorization server redirected more than 10 times without reaching the redirect URI",
    });
  });

  it("follows relative redirects to the redirect URI with the platform fetch, which it never fetches", async () => {
    const urls: string[] = [];
    const platform = vi.spyOn(globalThis, "fetch").mockImplementation((url) => {
      urls.push(urlOf(url));
      return Promise.resolve(
        new Response(null, {
          status: 303,
          headers: { location: urlOf(url).endsWith("/authorize") ? "/login" : `${REDIRECT}?code=x&state=y` },
        }),
      );
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
    const later = new Authorizer({
      client: { metadata: { client_name: "test host", redirect_uris: [REDIRECT] } },
      redirectUri: REDIRECT,
      interact: headlessInteraction(REDIRECT, scene.redirects),
      fetch: scene.fake.fetch,
      store,
    });
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
    expect(scene.seen.slice(-4)).toEqual([
      "mcp t1",
      `authorize https://as.test read offline_access ${MCP}`,
      `token https://as.test authorization_code client-of-https://as.test  ${MCP}`,
      "mcp t2",
    ]);
  });

  it("sends what another request renewed meanwhile instead of renewing again", async () => {
    const scene = world();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let refusedT1 = 0;
    const slow: FetchLike = async (url, init) => {
      // The second request sent with t1 is answered only once the first one's renewal is over.
      if (url === MCP && init.headers["authorization"] === "Bearer t1" && (scene.issued.get("t1") as Issued).expired && ++refusedT1 === 2)
        await gate;
      return scene.fake.fetch(url, init);
    };
    const auth = new Authorizer({
      client: { metadata: { client_name: "h", redirect_uris: [REDIRECT] } },
      redirectUri: REDIRECT,
      interact: headlessInteraction(REDIRECT, scene.redirects),
      fetch: scene.fake.fetch,
      offlineAccess: false,
    });
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
    const auth = new Authorizer({
      client: { metadata: { client_name: "h", redirect_uris: [REDIRECT] } },
      redirectUri: REDIRECT,
      interact: headlessInteraction(REDIRECT, scene.redirects),
      fetch: scene.fake.fetch,
    });
    await auth.authorize(MCP);
    await expect(call(auth.wrap(scene.fake.fetch))).resolves.toMatchObject({ status: 200 });
    expect(scene.seen.filter((line) => line.startsWith("mcp"))).toEqual(["mcp t1"]);
  });

  it("hands the callback to the flow waiting for it in this instance", async () => {
    const scene = world();
    const away = sendAway();
    const auth = new Authorizer({
      client: { metadata: { client_name: "h", redirect_uris: [REDIRECT] } },
      redirectUri: REDIRECT,
      interact: away.interact,
      fetch: scene.fake.fetch,
    });
    const authorized = auth.authorize(MCP);
    await vi.waitFor(() => expect(away.asked).toHaveLength(1));
    await auth.finish(await comeBack(scene, away.asked[0] as string));
    await authorized;
    await expect(call(auth.wrap(scene.fake.fetch))).resolves.toMatchObject({ status: 200 });
  });

  it("redeems a stored code once when the flow's page is gone; refuses a callback it does not know or that fails its checks", async () => {
    const scene = world();
    const store = new InMemoryOAuthStore();
    const away = sendAway();
    const options = {
      client: { metadata: { client_name: "h", redirect_uris: [REDIRECT] } },
      redirectUri: REDIRECT,
      fetch: scene.fake.fetch,
      store,
    };
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

// The scripted world of the Authorizer's tests: one resource server (401 without a token it issued,
// 403 insufficient_scope for what `needs` says a body needs) and the authorization servers it may
// name (metadata, registration, token endpoint for the code, refresh, client credentials and JWT
// bearer grants), every exchange written to `seen`.
import type { FetchInit, FetchLike } from "../../transport/http-client/http-options.js";
import { FakeFetch } from "./auth-client.test-helpers.js";
import { Authorizer, type AuthorizerOptions } from "./authorizer.js";
import { headlessInteraction, type RedirectFetch } from "./interaction.js";
import { InMemoryOAuthStore } from "./oauth-store.js";

export const MCP = "https://mcp.test/mcp";
export const PRM = "https://mcp.test/.well-known/oauth-protected-resource/mcp";
export const REDIRECT = "http://127.0.0.1:3000/callback";

export const challenge = (extra = "") => `Bearer resource_metadata="${PRM}", scope="read"${extra}`;

/** The URL a fetch was given, as a string. */
export const urlOf = (url: string | URL | Request): string => (typeof url === "string" ? url : url instanceof URL ? url.href : url.url);

export interface Issued {
  readonly scope: string;
  readonly issuer: string;
  expired: boolean;
}

/** One resource server and the authorization servers it may name, with what each saw. */
export function world(
  options: {
    readonly needs?: (body: string) => string;
    readonly expiresIn?: number;
    readonly refresh?: boolean;
    readonly iss?: boolean;
  } = {},
) {
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
    if (grant === undefined || grant.expired || grant.issuer !== issuer)
      return new Response(null, {
        status: 401,
        headers: { "www-authenticate": challenge(token === undefined ? "" : ', error="invalid_token"') },
      });
    const needed = options.needs?.(String(init.body)) ?? "read";
    if (!needed.split(" ").every((scope) => grant.scope.split(" ").includes(scope))) {
      return new Response(null, {
        status: 403,
        headers: { "www-authenticate": `Bearer error="insufficient_scope", scope="${needed}", resource_metadata="${PRM}"` },
      });
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
      seen.push(["token", at, ...["grant_type", "client_id", "scope", "resource"].map((name) => form.get(name) ?? "")].join(" ").trim());
      if (form.get("grant_type") === "refresh_token" && !issued.has(`refresh:${form.get("refresh_token") ?? ""}`))
        return Response.json({ error: "invalid_grant" }, { status: 400 });
      const token = `t${++next}`;
      const grantType = form.get("grant_type");
      const assertion = grantType === "urn:ietf:params:oauth:grant-type:jwt-bearer" ? form.get("assertion") : null;
      const scope =
        grantType === "refresh_token"
          ? (issued.get(`refresh:${form.get("refresh_token") ?? ""}`)?.scope ?? "")
          : grantType === "authorization_code"
            ? (codes.get(form.get("code") ?? "") ?? "")
            : assertion !== null
              ? assertion.endsWith("-for-read")
                ? "read"
                : ""
              : (form.get("scope") ?? "");
      issued.set(token, { scope, issuer: at, expired: false });
      const refreshToken = `r${next}`;
      if (options.refresh !== false) issued.set(`refresh:${refreshToken}`, { scope, issuer: at, expired: false });
      return Response.json({
        access_token: token,
        token_type: "bearer",
        expires_in: options.expiresIn ?? 3600,
        ...(options.refresh === false ? {} : { refresh_token: refreshToken }),
        scope,
      });
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
    codes.set(
      code,
      (asked.searchParams.get("scope") ?? "")
        .split(" ")
        .filter((scope) => ["read", "write", "offline_access"].includes(scope))
        .join(" "),
    );
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
export type Overrides = { readonly [K in keyof AuthorizerOptions]?: AuthorizerOptions[K] | undefined };

export function authorizer(scene: ReturnType<typeof world>, options: Overrides = {}): { fetch: FetchLike; store: InMemoryOAuthStore } {
  const store = new InMemoryOAuthStore();
  const given = {
    client: { metadata: { client_name: "test host", redirect_uris: [REDIRECT] } },
    redirectUri: REDIRECT,
    interact: headlessInteraction(REDIRECT, scene.redirects),
    fetch: scene.fake.fetch,
    store,
    ...options,
  };
  const auth = new Authorizer(
    Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as unknown as AuthorizerOptions,
  );
  return { fetch: auth.wrap(scene.fake.fetch), store };
}

export const post = (body = "{}"): FetchInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body,
  signal: new AbortController().signal,
});

export async function call(fetch: FetchLike, body?: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(MCP, post(body));
  return { status: response.status, body: response.status === 200 ? await (response as Response).json() : undefined };
}

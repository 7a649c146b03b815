// The token endpoint's requests as an authorization server sees them: the grant's parameters, the
// client's authentication by its method, and what comes back, including the refusals, said without
// any secret, code or token.
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import type { ClientRegistration } from "./oauth-store.js";
import type { FetchLike } from "../../transport/http-client/http-options.js";
import { formBody, requestToken, toStoredTokens } from "./token-endpoint.js";

interface Seen {
  url: string;
  headers: Record<string, string>;
  form: Record<string, string>;
}

function endpoint(answer: () => Response | Promise<Response>): { fetch: FetchLike; seen: Seen[] } {
  const seen: Seen[] = [];
  const fetch: FetchLike = async (url, init) => {
    const form = Object.fromEntries(
      String(init.body)
        .split("&")
        .map((pair) => pair.split("=").map((part) => decodeURIComponent(part.replace(/\+/g, " "))) as [string, string]),
    );
    seen.push({ url, headers: init.headers, form });
    return answer();
  };
  return { fetch, seen };
}

const failingFetch: FetchLike = () => Promise.reject(new TypeError("fetch failed"));

const TOKENS = { access_token: "at-1", token_type: "Bearer", expires_in: 60, refresh_token: "rt-1", scope: "read" };
const CODE_GRANT = {
  grant_type: "authorization_code",
  code: "c0de",
  code_verifier: "v3rifier",
  redirect_uri: "http://127.0.0.1/cb",
  resource: "https://mcp.example/mcp",
};

describe("requestToken", () => {
  it("authenticates the client by its method: Basic (form-encoded parts), in the body, none, or a signed assertion", async () => {
    const { fetch, seen } = endpoint(() => Response.json(TOKENS));
    const clients: ClientRegistration[] = [
      { clientId: "my client", clientSecret: "s3cret:+", authMethod: "client_secret_basic" },
      { clientId: "c2", clientSecret: "s2", authMethod: "client_secret_post" },
      { clientId: "c3", authMethod: "none" },
      { clientId: "c4", authMethod: "private_key_jwt" },
    ];
    for (const client of clients) {
      await expect(
        requestToken({
          issuer: "https://as",
          tokenEndpoint: "https://as/token",
          params: CODE_GRANT,
          client,
          fetch,
          assertion: ({ issuer, tokenEndpoint }) => Promise.resolve(`jwt-for-${issuer}-at-${tokenEndpoint}`),
        }),
      ).resolves.toEqual(TOKENS);
    }
    expect(seen[0]?.headers).toMatchObject({
      authorization: `Basic ${btoa("my+client:s3cret%3A%2B")}`,
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
    });
    expect(seen[0]?.form).toEqual(CODE_GRANT);
    expect(seen[1]?.form).toEqual({ ...CODE_GRANT, client_id: "c2", client_secret: "s2" });
    expect(seen[1]?.headers["authorization"]).toBeUndefined();
    expect(seen[2]?.form).toEqual({ ...CODE_GRANT, client_id: "c3" });
    expect(seen[3]?.form).toEqual({
      ...CODE_GRANT,
      client_id: "c4",
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: "jwt-for-https://as-at-https://as/token",
    });
  });

  it("refuses private_key_jwt without a key, and says what the server refused without what was sent", async () => {
    const refusal = endpoint(() => Response.json({ error: "invalid_grant", error_description: "code expired" }, { status: 400 }));
    const client: ClientRegistration = { clientId: "c", clientSecret: "s3cret", authMethod: "client_secret_post" };
    const error = await requestToken({
      issuer: "https://as",
      tokenEndpoint: "https://as/token",
      params: CODE_GRANT,
      client,
      fetch: refusal.fetch,
    }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({
      code: MCP_CODES.UNAUTHORIZED,
      message: "The token endpoint https://as/token refused the authorization_code grant (HTTP 400, invalid_grant): code expired",
      data: { status: 400, error: "invalid_grant" },
    });
    expect(JSON.stringify([String(error), (error as { data: unknown }).data])).not.toMatch(/c0de|v3rifier|s3cret/);
    await expect(
      requestToken({
        issuer: "https://as",
        tokenEndpoint: "https://as/token",
        params: CODE_GRANT,
        client: { clientId: "k", authMethod: "private_key_jwt" },
        fetch: refusal.fetch,
      }),
    ).rejects.toMatchObject({
      code: MCP_CODES.UNAUTHORIZED,
      message: "The client k authenticates with private_key_jwt, but no key to sign its assertion was given",
    });
    for (const authMethod of ["client_secret_basic", "client_secret_post"] as const) {
      await expect(
        requestToken({
          issuer: "https://as",
          tokenEndpoint: "https://as/token",
          params: CODE_GRANT,
          client: { clientId: "n", authMethod },
          fetch: refusal.fetch,
        }),
      ).rejects.toMatchObject({
        code: MCP_CODES.UNAUTHORIZED,
        message: `The client n authenticates with ${authMethod}, but has no client secret`,
      });
    }
    const opaque = endpoint(() => new Response("<html>", { status: 500 }));
    await expect(
      requestToken({ issuer: "https://as", tokenEndpoint: "https://as/token", params: {}, client, fetch: opaque.fetch }),
    ).rejects.toMatchObject({ message: "The token endpoint https://as/token refused the ? grant (HTTP 500)", data: { status: 500 } });
  });

  it("refuses an answer without access_token and token_type, and a fetch that fails", async () => {
    const client: ClientRegistration = { clientId: "c", authMethod: "none" };
    for (const body of [{ token_type: "Bearer" }, { access_token: "x" }, null]) {
      const { fetch } = endpoint(() => Response.json(body));
      await expect(
        requestToken({
          issuer: "https://as",
          tokenEndpoint: "https://as/token",
          params: { grant_type: "refresh_token", refresh_token: "rt" },
          client,
          fetch,
        }),
      ).rejects.toMatchObject({
        code: MCP_CODES.UNAUTHORIZED,
        message: "The token endpoint https://as/token answered the refresh_token grant without an access_token and token_type",
      });
    }
    // An answer too large to be one is not read as one.
    const huge = endpoint(() => Response.json({ access_token: "x".repeat(300_000), token_type: "Bearer" }));
    await expect(
      requestToken({
        issuer: "https://as",
        tokenEndpoint: "https://as/token",
        params: { grant_type: "client_credentials" },
        client,
        fetch: huge.fetch,
      }),
    ).rejects.toMatchObject({ code: MCP_CODES.UNAUTHORIZED });
    const broken = failingFetch;
    await expect(
      requestToken({
        issuer: "https://as",
        tokenEndpoint: "https://as/token",
        params: { grant_type: "client_credentials" },
        client,
        fetch: broken,
      }),
    ).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: "The token request (client_credentials) to https://as/token failed: fetch failed",
    });
  });
});

describe("toStoredTokens and formBody", () => {
  it("keeps an absolute expiry, the scope granted or asked, and the refresh token rotated to or held", () => {
    const context = { issuer: "https://as", resource: "https://mcp", now: 1000 };
    expect(toStoredTokens(TOKENS, context)).toEqual({
      accessToken: "at-1",
      tokenType: "Bearer",
      expiresAt: 61_000,
      refreshToken: "rt-1",
      scope: "read",
      issuer: "https://as",
      resource: "https://mcp",
    });
    expect(
      toStoredTokens({ access_token: "at-2", token_type: "Bearer", expires_in: 0 }, { ...context, scope: "asked", refreshToken: "held" }),
    ).toEqual({
      accessToken: "at-2",
      tokenType: "Bearer",
      refreshToken: "held",
      scope: "asked",
      issuer: "https://as",
      resource: "https://mcp",
    });
    expect(toStoredTokens({ access_token: "at-3", token_type: "Bearer" }, context)).toEqual({
      accessToken: "at-3",
      tokenType: "Bearer",
      issuer: "https://as",
      resource: "https://mcp",
    });
  });

  it("form-encodes names and values, spaces as +, and leaves out undefined parameters", () => {
    expect(formBody({ scope: "read write", "a&b": "c=d", skip: undefined, empty: "" })).toBe("scope=read+write&a%26b=c%3Dd&empty=");
  });
});

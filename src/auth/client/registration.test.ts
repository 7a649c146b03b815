// Which client_id is presented to an authorization server: pre-registered credentials first, then a
// Client ID Metadata Document where the server takes them, then dynamic registration (kept by
// issuer, an expired secret registered again), else a clear error.
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { InMemoryOAuthStore } from "./oauth-store.js";
import { registrationFor, type ClientIdentity } from "./registration.js";
import type { FetchLike } from "../../transport/http-client/http-options.js";

afterEach(() => {
  vi.useRealTimers();
});

const failingFetch: FetchLike = () => Promise.reject(new TypeError("fetch failed"));

const METADATA = { client_name: "Host", redirect_uris: ["http://127.0.0.1:3000/callback"] };

function registrar(answer: (body: Record<string, unknown>) => Response): { fetch: FetchLike; bodies: Record<string, unknown>[] } {
  const bodies: Record<string, unknown>[] = [];
  const fetch: FetchLike = (_url, init) => {
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    bodies.push(body);
    return Promise.resolve(answer(body));
  };
  return { fetch, bodies };
}

describe("registrationFor", () => {
  it("takes pre-registered credentials for the issuer (or for any), before a metadata document or registration", async () => {
    const { fetch, bodies } = registrar(() => Response.json({ client_id: "dcr" }));
    const server = { issuer: "https://as", registration_endpoint: "https://as/register", client_id_metadata_document_supported: true };
    const identity: ClientIdentity = {
      metadata: METADATA,
      metadataDocumentUrl: "https://host.example/client.json",
      preRegistered: { "https://as": { clientId: "pre", clientSecret: "s", authMethod: "client_secret_basic" } },
    };
    await expect(registrationFor(server, identity, new InMemoryOAuthStore(), fetch)).resolves.toEqual({
      clientId: "pre",
      clientSecret: "s",
      authMethod: "client_secret_basic",
    });
    await expect(
      registrationFor(
        server,
        { metadata: METADATA, preRegistered: { "*": { clientId: "any", authMethod: "none" } } },
        new InMemoryOAuthStore(),
        fetch,
      ),
    ).resolves.toEqual({ clientId: "any", authMethod: "none" });
    await expect(
      registrationFor(
        server,
        { ...identity, preRegistered: { "https://other": { clientId: "no", authMethod: "none" } } },
        new InMemoryOAuthStore(),
        fetch,
      ),
    ).resolves.toEqual({
      clientId: "https://host.example/client.json",
      authMethod: "none",
    });
    expect(bodies).toEqual([]);
  });

  it("registers at the endpoint (no metadata documents, or none given), keeps it by issuer, again once the secret expires", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    let next = 0;
    const { fetch, bodies } = registrar(() =>
      Response.json({
        client_id: `dcr-${++next}`,
        client_secret: "sec",
        token_endpoint_auth_method: "client_secret_basic",
        client_secret_expires_at: 2000,
      }),
    );
    const store = new InMemoryOAuthStore();
    const server = {
      issuer: "https://as",
      registration_endpoint: "https://as/register",
      client_id_metadata_document_supported: true,
      token_endpoint_auth_methods_supported: ["client_secret_basic"],
    };
    const registered = await registrationFor(server, { metadata: METADATA }, store, fetch);
    expect(registered).toEqual({ clientId: "dcr-1", clientSecret: "sec", authMethod: "client_secret_basic", clientSecretExpiresAt: 2000 });
    await expect(registrationFor(server, { metadata: METADATA }, store, fetch)).resolves.toEqual(registered);
    expect(await store.getRegistration("https://as")).toEqual(registered);
    expect(bodies).toEqual([
      {
        application_type: "native",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        ...METADATA,
        token_endpoint_auth_method: "client_secret_basic",
      },
    ]);
    vi.setSystemTime(2_000_000);
    await expect(registrationFor(server, { metadata: METADATA }, store, fetch)).resolves.toMatchObject({ clientId: "dcr-2" });
  });

  it("asks for the auth method the host wants where the server takes it, else one of its own; reads what the server chose", async () => {
    const { fetch, bodies } = registrar(() => Response.json({ client_id: "x" }));
    const store = new InMemoryOAuthStore();
    const web = { ...METADATA, application_type: "web" as const, token_endpoint_auth_method: "client_secret_post" as const };
    await registrationFor({ issuer: "https://a", registration_endpoint: "https://a/r" }, { metadata: web }, store, fetch);
    await registrationFor(
      {
        issuer: "https://b",
        registration_endpoint: "https://b/r",
        token_endpoint_auth_methods_supported: ["private_key_jwt", "client_secret_post"],
      },
      { metadata: web },
      store,
      fetch,
    );
    await registrationFor(
      {
        issuer: "https://c",
        registration_endpoint: "https://c/r",
        token_endpoint_auth_methods_supported: ["private_key_jwt", "client_secret_post"],
      },
      { metadata: METADATA },
      store,
      fetch,
    );
    await registrationFor(
      { issuer: "https://d", registration_endpoint: "https://d/r", token_endpoint_auth_methods_supported: ["private_key_jwt"] },
      { metadata: METADATA },
      store,
      fetch,
    );
    expect(bodies.map((body) => [body["application_type"], body["token_endpoint_auth_method"]])).toEqual([
      ["web", "client_secret_post"],
      ["web", "client_secret_post"],
      ["native", "client_secret_post"],
      ["native", "none"],
    ]);
    expect(await store.getRegistration("https://a")).toEqual({ clientId: "x", authMethod: "client_secret_post" });
    const odd = registrar(() => Response.json({ client_id: "y", token_endpoint_auth_method: 7 }));
    await expect(
      registrationFor({ issuer: "https://e", registration_endpoint: "https://e/r" }, { metadata: METADATA }, store, odd.fetch),
    ).resolves.toEqual({ clientId: "y", authMethod: "none" });
  });

  it("says why it cannot register: no way offered, a refusal, an answer without client_id, a failed fetch", async () => {
    const store = new InMemoryOAuthStore();
    const unused = registrar(() => Response.json({}));
    await expect(registrationFor({ issuer: "https://as" }, { metadata: METADATA }, store, unused.fetch)).rejects.toMatchObject({
      code: MCP_CODES.UNAUTHORIZED,
      message:
        "The authorization server https://as offers no way to register this client " +
        "(no Client ID Metadata Document support used: no metadataDocumentUrl given, no registration_endpoint): " +
        "give pre-registered credentials for it",
    });
    await expect(
      registrationFor({ issuer: "https://as" }, { metadata: METADATA, metadataDocumentUrl: "https://h/c.json" }, store, unused.fetch),
    ).rejects.toMatchObject({
      message:
        "The authorization server https://as offers no way to register this client " +
        "(no Client ID Metadata Document support, no registration_endpoint): give pre-registered credentials for it",
    });
    const server = { issuer: "https://as", registration_endpoint: "https://as/register" };
    const refused = registrar(() => Response.json({ error: "invalid_client_metadata" }, { status: 400 }));
    await expect(registrationFor(server, { metadata: METADATA }, store, refused.fetch)).rejects.toMatchObject({
      code: MCP_CODES.UNAUTHORIZED,
      message: "Dynamic client registration at https://as/register was refused (HTTP 400, invalid_client_metadata)",
      data: { status: 400 },
    });
    const empty = registrar(() => new Response("nope", { status: 201 }));
    await expect(registrationFor(server, { metadata: METADATA }, store, empty.fetch)).rejects.toMatchObject({
      message: "Dynamic client registration at https://as/register was refused (HTTP 201)",
    });
    const broken = failingFetch;
    await expect(registrationFor(server, { metadata: METADATA }, store, broken)).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: "Dynamic client registration at https://as/register failed: fetch failed",
    });
    expect(await store.getRegistration("https://as")).toBeUndefined();
  });
});

describe("InMemoryOAuthStore", () => {
  it("keeps registrations by issuer and tokens by issuer and resource, and forgets them", async () => {
    const store = new InMemoryOAuthStore();
    await store.setRegistration("https://as", { clientId: "c", authMethod: "none" });
    await store.setTokens({ accessToken: "a", tokenType: "Bearer", issuer: "https://as", resource: "https://mcp/1" });
    await store.setTokens({ accessToken: "b", tokenType: "Bearer", issuer: "https://as", resource: "https://mcp/2" });
    expect((await store.getTokens("https://as", "https://mcp/1"))?.accessToken).toBe("a");
    expect(await store.getTokens("https://other", "https://mcp/1")).toBeUndefined();
    await store.deleteTokens("https://as", "https://mcp/1");
    await store.deleteRegistration("https://as");
    expect([
      await store.getTokens("https://as", "https://mcp/1"),
      (await store.getTokens("https://as", "https://mcp/2"))?.accessToken,
      await store.getRegistration("https://as"),
    ]).toEqual([undefined, "b", undefined]);
  });
});

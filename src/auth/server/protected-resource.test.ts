import { describe, expect, it, vi } from "vitest";
import { JSONRPC_ERROR_CODES, MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import { exchangeOf } from "../../transport/http-server/fetch-exchange.js";
import type { HttpExchange, HttpReply } from "../../transport/http-server/http-server.types.js";
import type { WireMessage } from "../../jsonrpc/dispatcher/classify.js";
import { insufficientScope, isInsufficientScope } from "./insufficient-scope.js";
import { protectedResource } from "./protected-resource.js";
import { tokenOwner } from "./token-owner.js";
import type { ResourceServerOptions, TokenPrincipal, TokenVerifier } from "./resource-server.types.js";

const RESOURCE = "https://mcp.example.com/mcp";
const METADATA = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";

function principal(scopes: readonly string[], more: Partial<TokenPrincipal> = {}): TokenPrincipal {
  return { subject: "alice", clientId: "app", issuer: "https://auth.example.com", scopes, expiresAt: undefined, claims: {}, ...more };
}

/** A verifier that knows a few tokens by heart. */
function verifierOf(
  tokens: Record<string, TokenPrincipal>,
): TokenVerifier & { calls: Array<{ token: string; audiences: readonly string[] }> } {
  const calls: Array<{ token: string; audiences: readonly string[] }> = [];
  const verify = (token: string, context: { resource: string; audiences: readonly string[] }) => {
    calls.push({ token, audiences: context.audiences });
    const found = tokens[token];
    return Promise.resolve(found ?? { refused: "the token is not known" });
  };
  return Object.assign(verify, { calls });
}

function resource(options: Partial<ResourceServerOptions> = {}) {
  const verifier = verifierOf({
    reader: principal(["mcp:read"]),
    writer: principal(["mcp:read", "files:write"]),
    admin: principal(["admin"]),
    none: principal([]),
  });
  return {
    verifier,
    resource: protectedResource({ resource: RESOURCE, authorizationServers: ["https://auth.example.com"], verifier, ...options }),
  };
}

function request(headers: Record<string, string> = {}, url = RESOURCE): Request {
  return new Request(url, { method: "POST", headers });
}

const failing: TokenVerifier = () => Promise.reject(new Error("the authorization server is down"));

describe("protectedResource: authenticate", () => {
  it("asks for a token without an error code when none is presented, naming the metadata and the scopes to ask for", async () => {
    const { resource: asked } = resource({ scopesSupported: ["mcp:read", "mcp:write"] });
    for (const headers of [{}, { authorization: "Basic dXNlcjpwYXNz" }]) {
      expect(await asked.authenticate(request(headers))).toEqual({
        refuse: 401,
        wwwAuthenticate: `Bearer scope="mcp:read mcp:write", resource_metadata="${METADATA}"`,
        message: "Unauthorized: a bearer token is required",
      });
    }
    // The scopes every request needs win over those for basic use; with neither, no scope is named.
    expect(await resource({ scopesSupported: ["mcp:read"], requiredScopes: ["mcp"] }).resource.authenticate(request())).toMatchObject({
      wwwAuthenticate: `Bearer scope="mcp", resource_metadata="${METADATA}"`,
    });
    expect(await resource().resource.authenticate(request())).toMatchObject({ wwwAuthenticate: `Bearer resource_metadata="${METADATA}"` });
  });

  it("answers a token it refuses with invalid_token and the verifier's reason, never the token", async () => {
    const { resource: guarded, verifier } = resource();
    const refused = await guarded.authenticate(request({ authorization: "Bearer sEcReT-tOkEn" }));
    expect(refused).toEqual({
      refuse: 401,
      wwwAuthenticate: `Bearer error="invalid_token", error_description="the token is not known", resource_metadata="${METADATA}"`,
      message: "Unauthorized: the token is not known",
    });
    expect(JSON.stringify(refused)).not.toContain("sEcReT");
    expect(verifier.calls).toEqual([{ token: "sEcReT-tOkEn", audiences: [RESOURCE] }]);
  });

  it("refuses a token in the query string with 400 before looking at anything else, and never verifies it", async () => {
    const { resource: guarded, verifier } = resource();
    const refused = await guarded.authenticate(request({ authorization: "Bearer reader" }, `${RESOURCE}?access_token=reader`));
    expect(refused).toMatchObject({ refuse: 400, message: expect.stringContaining("query string") });
    expect((refused as { wwwAuthenticate: string }).wwwAuthenticate).toMatch(
      /^Bearer error="invalid_request", error_description="access tokens are not accepted in the query string[^"]*", resource_metadata=/,
    );
    expect(verifier.calls).toEqual([]);
  });

  it("answers a malformed bearer credential with 400 invalid_request", async () => {
    const { resource: guarded, verifier } = resource();
    for (const authorization of ["Bearer", "Bearer a b", "Bearer reader, Bearer writer"]) {
      expect(await guarded.authenticate(request({ authorization }))).toMatchObject({
        refuse: 400,
        wwwAuthenticate: expect.stringContaining('error="invalid_request"'),
        message: expect.stringContaining("exactly one bearer token"),
      });
    }
    expect(verifier.calls).toEqual([]);
  });

  it("gives a verifier that cannot decide 503, tells onVerifierError, and says nothing of why to the client", async () => {
    const onVerifierError = vi.fn();
    const guarded = protectedResource({
      resource: RESOURCE,
      authorizationServers: ["https://auth.example.com"],
      verifier: failing,
      onVerifierError,
    });
    expect(await guarded.authenticate(request({ authorization: "Bearer reader" }))).toEqual({
      refuse: 503,
      message: "Service Unavailable: the access token cannot be verified now",
    });
    expect(onVerifierError).toHaveBeenCalledWith(new Error("the authorization server is down"));
    // Without the hook the failure is only the 503.
    const silent = protectedResource({ resource: RESOURCE, authorizationServers: ["https://auth.example.com"], verifier: failing });
    expect(await silent.authenticate(request({ authorization: "Bearer reader" }))).toMatchObject({ refuse: 503 });
  });

  it("accepts a valid token: a principal of this request, equal to the verifier's", async () => {
    const { resource: guarded } = resource();
    const first = (await guarded.authenticate(request({ authorization: "Bearer reader" }))) as { authInfo: TokenPrincipal };
    const second = (await guarded.authenticate(request({ authorization: "bearer reader" }))) as { authInfo: TokenPrincipal };
    expect(first.authInfo).toEqual(principal(["mcp:read"]));
    expect(second.authInfo).toEqual(first.authInfo);
    expect(second.authInfo).not.toBe(first.authInfo);
  });

  it("refuses a valid token without the endpoint's required scopes with 403 insufficient_scope naming them all", async () => {
    const { resource: guarded } = resource({ requiredScopes: ["mcp:read", "mcp:write"] });
    expect(await guarded.authenticate(request({ authorization: "Bearer reader" }))).toEqual({
      refuse: 403,
      wwwAuthenticate:
        'Bearer error="insufficient_scope", error_description="this request needs the scopes mcp:read mcp:write", ' +
        `scope="mcp:read mcp:write", resource_metadata="${METADATA}"`,
      message: "Forbidden: this request needs the scopes mcp:read mcp:write",
    });
  });

  it("counts the scopes a broader one implies, transitively", async () => {
    const { resource: guarded } = resource({
      requiredScopes: ["mcp:read"],
      impliedScopes: { admin: ["files:write"], "files:write": ["mcp:read"], "mcp:read": ["admin"] },
    });
    expect(await guarded.authenticate(request({ authorization: "Bearer admin" }))).toHaveProperty("authInfo");
    expect(await guarded.authenticate(request({ authorization: "Bearer none" }))).toMatchObject({ refuse: 403 });
  });

  it("tells the verifier every audience it accepts: the origin too when the root document is served", async () => {
    const { resource: guarded, verifier } = resource({ rootMetadata: true });
    await guarded.authenticate(request({ authorization: "Bearer reader" }));
    expect(verifier.calls[0]?.audiences).toEqual([RESOURCE, "https://mcp.example.com"]);
    expect(guarded.metadataUrl).toBe(METADATA);
  });

  it("refuses scopes that are no scope tokens in its options", () => {
    expect(() => resource({ requiredScopes: ["a b"] })).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: expect.stringContaining("requiredScopes") }),
    );
    expect(() => resource({ impliedScopes: { admin: ['"x"'] } })).toThrow(/impliedScopes/);
    expect(() => resource({ impliedScopes: { "a b": [] } })).toThrow(/impliedScopes/);
  });
});

/** A server whose registrations need scopes. */
function scopedServer(): MCPServer {
  const server = new MCPServer({ name: "scoped", version: "1.0.0" });
  server.tool("write", { requiredScopes: ["files:write"] }, () => ({ content: [] }));
  server.tool("open", {}, () => ({ content: [] }));
  server.prompt("secret", { requiredScopes: ["prompts:secret"] }, () => ({ messages: [] }));
  server.resource("vault", "file:///vault", { requiredScopes: ["vault"] }, (uri) => ({ contents: [{ uri, text: "" }] }));
  server.resourceTemplate("book", "library://books/{id}", { requiredScopes: ["books"] }, (uri) => ({ contents: [{ uri, text: "" }] }));
  return server;
}

function call(id: number | string | undefined, method: string, params: Record<string, unknown>): WireMessage {
  return { jsonrpc: "2.0", ...(id === undefined ? {} : { id }), method, params };
}

describe("protectedResource: admit (the scopes a POST's requests need)", () => {
  const server = scopedServer();
  const { resource: guarded } = resource({ requiredScopes: ["mcp:read"] });
  const admit = (scopes: readonly string[], messages: WireMessage[]) =>
    guarded.admit({ server }, { authInfo: principal(scopes) }, { ok: true, posted: { messages } });

  it("leaves a POST refused already to its refusal", () => {
    expect(guarded.admit({ server }, { authInfo: principal([]) }, { ok: false })).toBeUndefined();
  });

  it("admits requests whose entries need nothing more, and notifications and responses whatever they name", () => {
    expect(
      admit(["mcp:read"], [call(1, "tools/call", { name: "open" }), call(2, "tools/list", {}), call(3, "tools/call", { name: "missing" })]),
    ).toBeUndefined();
    expect(admit(["mcp:read"], [call(undefined, "tools/call", { name: "write" }), { jsonrpc: "2.0", id: 9, result: {} }])).toBeUndefined();
    expect(
      admit(
        ["mcp:read", "files:write", "prompts:secret", "vault", "books"],
        [
          call(1, "tools/call", { name: "write" }),
          call(2, "prompts/get", { name: "secret" }),
          call(3, "resources/read", { uri: "file:///vault" }),
          call(4, "resources/read", { uri: "library://books/7" }),
        ],
      ),
    ).toBeUndefined();
  });

  it.each([
    ["a tool", call(7, "tools/call", { name: "write" }), "files:write"],
    ["a prompt", call("p", "prompts/get", { name: "secret" }), "prompts:secret"],
    ["a resource", call(7, "resources/read", { uri: "file:///vault" }), "vault"],
    ["a template's resource", call(7, "resources/read", { uri: "library://books/7" }), "books"],
  ])("refuses %s without its scope: 403 naming the endpoint's scopes and its own, with the request's id", async (_what, message, scope) => {
    const refused = admit(["mcp:read"], [message]);
    expect(refused?.ok).toBe(false);
    const reply = refused?.reply as HttpReply;
    expect(reply.status).toBe(403);
    expect(reply.headers["www-authenticate"]).toBe(
      `Bearer error="insufficient_scope", error_description="this request needs the scopes mcp:read ${scope}", ` +
        `scope="mcp:read ${scope}", resource_metadata="${METADATA}"`,
    );
    expect(JSON.parse(reply.body as string)).toEqual({
      jsonrpc: "2.0",
      id: message.id,
      error: { code: JSONRPC_ERROR_CODES.UNAUTHORIZED, message: `Forbidden: this request needs the scopes mcp:read ${scope}` },
    });
  });

  it("names every scope a batch needs, without an id", () => {
    const reply = admit(
      ["mcp:read", "vault"],
      [
        call(1, "tools/call", { name: "write" }),
        call(2, "resources/read", { uri: "file:///vault" }),
        call(3, "prompts/get", { name: "secret" }),
      ],
    )?.reply as HttpReply;
    expect(reply.headers["www-authenticate"]).toContain('scope="mcp:read files:write vault prompts:secret"');
    expect(JSON.parse(reply.body as string)).toMatchObject({ id: null });
  });

  it("answers a registration whose requiredScopes are no scope tokens with an error that says so", () => {
    server.tool("typo", { requiredScopes: ["files:read files:write"] }, () => ({ content: [] }));
    expect(() => admit(["mcp:read"], [call(1, "tools/call", { name: "typo" })])).toThrow(
      /requiredScopes of what tools\/call names: "files:read files:write" is not an OAuth scope/,
    );
  });
});

const exchange = (url: string) => exchangeOf(new Request(url));
const json = (status: number, body: unknown): HttpReply => ({
  status,
  headers: { "content-type": "application/json", "mcp-session-id": "s" },
  body: JSON.stringify(body),
});

describe("protectedResource: serve", () => {
  const { resource: guarded } = resource({ requiredScopes: ["mcp:read"] });

  it("answers its metadata itself, and passes everything else on", async () => {
    const door = { handle: vi.fn((_exchange: unknown) => Promise.resolve(json(200, { ok: true }))) };
    expect((await guarded.serve(exchange(METADATA), door)).status).toBe(200);
    expect(door.handle).not.toHaveBeenCalled();
    expect(await guarded.serve(exchange(RESOURCE), door)).toEqual(json(200, { ok: true }));
  });

  it("hands the endpoint the exchange with its headers bereft of the token, the rest as it was", async () => {
    let seen: HttpExchange | undefined;
    const original = new Request(RESOURCE, { method: "POST", headers: { authorization: "Bearer sEcReT", "x-trace": "t-1" }, body: "{}" });
    const gone: string[] = [];
    await guarded.serve(exchangeOf(original), {
      handle: (inner) => {
        seen = inner;
        return Promise.resolve(json(200, {}));
      },
    });
    const inner = seen as HttpExchange;
    expect(inner.headers()).toEqual({ "content-type": "text/plain;charset=UTF-8", "x-trace": "t-1" });
    expect(inner.header("authorization")).toBe("Bearer sEcReT");
    expect(inner.request()).toBe(original);
    expect([inner.method, inner.url.href]).toEqual(["POST", RESOURCE]);
    expect(await inner.text(100)).toEqual({ ok: true, text: "{}" });
    inner.onClientGone(() => gone.push("gone"))();
    expect(gone).toEqual([]);
  });

  it("turns a JSON answer carrying a handler's insufficient-scope error into its 403, body and other headers kept", async () => {
    const error = insufficientScope({ principal: undefined }, ["files:write"]).toJSON();
    const answered = json(200, { jsonrpc: "2.0", id: 1, error });
    const reply = await guarded.serve(exchange(RESOURCE), { handle: () => Promise.resolve(answered) });
    expect(reply).toEqual({
      status: 403,
      headers: { ...answered.headers, "www-authenticate": error.data && (error.data as { wwwAuthenticate: string }).wwwAuthenticate },
      body: answered.body,
    });
  });

  it("leaves every other answer alone: results that merely mention it, other errors, batches, streams, texts", async () => {
    const error = insufficientScope({ principal: undefined }, ["files:write"]).toJSON();
    const others: HttpReply[] = [
      json(200, { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: '"insufficient_scope"' }] } }),
      json(403, { jsonrpc: "2.0", id: 1, error: { code: -32001, message: "no", data: { error: "insufficient_scope" } } }),
      json(200, [{ jsonrpc: "2.0", id: 1, error }]),
      { status: 200, headers: {}, body: { open: () => () => undefined } },
      { status: 202, headers: {}, body: "Accepted" },
      { status: 204, headers: {} },
    ];
    for (const other of others) expect(await guarded.serve(exchange(RESOURCE), { handle: () => Promise.resolve(other) })).toBe(other);
  });
});

describe("insufficientScope (a handler's demand for more scope)", () => {
  it("names the endpoint a principal came through: its metadata and scopes, in the data and the challenge", async () => {
    const { resource: guarded } = resource({ requiredScopes: ["mcp:read"] });
    const accepted = (await guarded.authenticate(request({ authorization: "Bearer reader" }))) as { authInfo: TokenPrincipal };
    const error = insufficientScope({ principal: accepted.authInfo }, ["files:write"], "Writing needs files:write");
    expect(error.code).toBe(JSONRPC_ERROR_CODES.UNAUTHORIZED);
    expect(error.message).toBe("Writing needs files:write");
    expect(error.data).toEqual({
      error: "insufficient_scope",
      scope: "mcp:read files:write",
      resource_metadata: METADATA,
      wwwAuthenticate:
        'Bearer error="insufficient_scope", error_description="Writing needs files:write", ' +
        `scope="mcp:read files:write", resource_metadata="${METADATA}"`,
    });
    expect(isInsufficientScope(error.toJSON())).toBe(true);
  });

  it("without a principal of an endpoint names the scopes alone", () => {
    for (const principalOf of [undefined, "alice", { subject: "not from an endpoint" }]) {
      const error = insufficientScope({ principal: principalOf }, ["a", "b"]);
      expect(error.message).toBe("Insufficient scope: this operation needs a b");
      expect(error.data).toStrictEqual({
        error: "insufficient_scope",
        scope: "a b",
        wwwAuthenticate: 'Bearer error="insufficient_scope", scope="a b"',
      });
    }
  });

  it("refuses no scopes, and scopes that are no scope tokens", () => {
    expect(() => insufficientScope({ principal: undefined }, [])).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: "insufficientScope: name the scopes the operation needs" }),
    );
    expect(() => insufficientScope({ principal: undefined }, ["a\r\nb"])).toThrow(/^insufficientScope: "a\\r\\nb" is not an OAuth scope/);
  });

  it.each([
    undefined,
    null,
    "x",
    { code: -32001 },
    { code: -32001, data: null },
    { code: -32000, data: { error: "insufficient_scope", wwwAuthenticate: "Bearer" } },
    { code: -32001, data: { error: "insufficient_scope" } },
  ])("isInsufficientScope(%j) is false", (value) => {
    expect(isInsufficientScope(value)).toBe(false);
  });
});

describe("tokenOwner", () => {
  it("is the issuer, subject and client of a principal: the same across its tokens", () => {
    expect(tokenOwner(principal(["a"], { expiresAt: 1 }))).toBe(tokenOwner(principal(["b"], { expiresAt: 2, claims: { jti: "x" } })));
    expect(tokenOwner(principal([]))).toBe('["https://auth.example.com","alice","app"]');
    expect(tokenOwner(principal([], { clientId: "other" }))).not.toBe(tokenOwner(principal([])));
    expect(tokenOwner({})).toBe("[null,null,null]");
    expect(tokenOwner(undefined)).toBeUndefined();
    expect(tokenOwner("alice")).toBeUndefined();
    expect(tokenOwner(null)).toBeUndefined();
  });
});

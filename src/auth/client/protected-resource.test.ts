import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { FakeFetch, authFailure, expectAuthFailure, prm } from "./auth-client.test-helpers.js";
import {
  canonicalResourceUri,
  discoverProtectedResource,
  protectedResourceCandidates,
  resourceMatchesServer,
} from "./protected-resource.js";

// As in the conformance suite: the resource server and the authorization server on two loopback ports.
const RS = "http://localhost:3001";
const AS = "http://localhost:3002";
const SERVER = `${RS}/mcp`;
const PATH_PRM = `${RS}/.well-known/oauth-protected-resource/mcp`;
const ROOT_PRM = `${RS}/.well-known/oauth-protected-resource`;

function urls(server: string, header?: string): string[][] {
  return protectedResourceCandidates(new URL(server), header).map(({ url, source }) => [url.href, source]);
}

describe("protectedResourceCandidates", () => {
  it("tries the path-inserted URL, then the root one", () => {
    expect(urls("https://example.com/public/mcp")).toEqual([
      ["https://example.com/.well-known/oauth-protected-resource/public/mcp", "path"],
      ["https://example.com/.well-known/oauth-protected-resource", "root"],
    ]);
  });

  it("keeps the path as it is, trailing slash and query included (RFC 9728 §3.1)", () => {
    expect(urls("https://example.com/mcp/?tenant=7")[0]?.[0]).toBe(
      "https://example.com/.well-known/oauth-protected-resource/mcp/?tenant=7",
    );
    expect(urls("https://example.com/?tenant=7")[0]?.[0]).toBe("https://example.com/.well-known/oauth-protected-resource?tenant=7");
  });

  it("has one URL for a server at the root", () => {
    expect(urls("https://example.com")).toEqual([["https://example.com/.well-known/oauth-protected-resource", "root"]]);
    expect(urls("https://example.com/")).toEqual([["https://example.com/.well-known/oauth-protected-resource", "root"]]);
  });

  it("has only the challenge's resource_metadata when there is one, resolved against the server URL", () => {
    expect(urls(SERVER, "https://meta.example.com/prm.json")).toEqual([["https://meta.example.com/prm.json", "www-authenticate"]]);
    expect(urls(SERVER, "/custom/metadata/location.json")).toEqual([[`${RS}/custom/metadata/location.json`, "www-authenticate"]]);
  });

  it("refuses a resource_metadata that is insecure or not a URL", async () => {
    expect(() => urls("https://example.com/mcp", "http://meta.example.com/prm")).toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "insecure-url"),
    );
    expect(() => urls("https://example.com/mcp", "http://[")).toThrow(authFailure(MCP_CODES.UNAUTHORIZED, "invalid-url"));
  });
});

describe("discoverProtectedResource: the conformance scenarios", () => {
  it("auth/metadata-default: fetches the resource_metadata of the challenge, never the root document", async () => {
    const server = new FakeFetch().json(PATH_PRM, prm(SERVER, AS)).json(ROOT_PRM, { error: "trap" }, 404);
    const found = await discoverProtectedResource(SERVER, { fetch: server.fetch, resourceMetadataUrl: PATH_PRM });
    expect(found).toEqual({ metadata: prm(SERVER, AS), url: PATH_PRM, source: "www-authenticate" });
    expect(server.urls).toEqual([PATH_PRM]);
  });

  it("auth/metadata-var1: without resource_metadata, finds the path-inserted document first", async () => {
    const server = new FakeFetch().json(PATH_PRM, prm(SERVER, AS));
    const found = await discoverProtectedResource(SERVER, { fetch: server.fetch });
    expect(found.source).toBe("path");
    expect(server.urls).toEqual([PATH_PRM]);
  });

  it("auth/metadata-var2: falls through a 404 to the root document, whose resource is the origin", async () => {
    const server = new FakeFetch().json(ROOT_PRM, prm(RS, `${AS}/tenant1`));
    const found = await discoverProtectedResource(SERVER, { fetch: server.fetch });
    expect(found).toEqual({ metadata: prm(RS, `${AS}/tenant1`), url: ROOT_PRM, source: "root" });
    expect(found.metadata.resource).toBe(RS);
    expect(server.urls).toEqual([PATH_PRM, ROOT_PRM]);
  });

  it("auth/metadata-var3: fetches a custom resource_metadata URL", async () => {
    const custom = `${RS}/custom/metadata/location.json`;
    const server = new FakeFetch().json(custom, prm(SERVER, `${AS}/tenant1`));
    const found = await discoverProtectedResource(SERVER, { fetch: server.fetch, resourceMetadataUrl: custom });
    expect(found.url).toBe(custom);
    expect(server.urls).toEqual([custom]);
  });

  it("auth/resource-mismatch: fetches the metadata, then stops before any authorization", async () => {
    const server = new FakeFetch().json(PATH_PRM, prm("https://evil.example.com/mcp", AS));
    const error = await expectAuthFailure(
      discoverProtectedResource(SERVER, { fetch: server.fetch, resourceMetadataUrl: PATH_PRM }),
      MCP_CODES.UNAUTHORIZED,
      "resource-mismatch",
    );
    expect(error.message).toBe(
      `The protected resource metadata at ${PATH_PRM} is for https://evil.example.com/mcp, ` +
        `not for the MCP server ${SERVER}: authorization stops here`,
    );
    expect(server.urls).toEqual([PATH_PRM]);
  });
});

describe("discoverProtectedResource", () => {
  it("falls through a CORS refusal and a page that is not JSON", async () => {
    const server = new FakeFetch().on(PATH_PRM, () => Promise.reject(new TypeError("Failed to fetch"))).json(ROOT_PRM, prm(RS, AS));
    expect((await discoverProtectedResource(SERVER, { fetch: server.fetch })).source).toBe("root");
    const spa = new FakeFetch().on(PATH_PRM, () => new Response("<!doctype html>")).json(ROOT_PRM, prm(RS, AS));
    expect((await discoverProtectedResource(SERVER, { fetch: spa.fetch })).source).toBe("root");
  });

  it("says what each URL gave when none has a document", async () => {
    const server = new FakeFetch().on(ROOT_PRM, () => new Response("no", { status: 403 }));
    const error = await expectAuthFailure(
      discoverProtectedResource(SERVER, { fetch: server.fetch }),
      MCP_CODES.UNAUTHORIZED,
      "resource-metadata-not-found",
    );
    expect(error.message).toBe(
      `No protected resource metadata (RFC 9728) was found for ${SERVER}: ${PATH_PRM}: HTTP 404; ${ROOT_PRM}: HTTP 403`,
    );
    expect(error.data).toEqual({ reason: "resource-metadata-not-found", url: SERVER });
  });

  it("does not look further than the challenge's resource_metadata", async () => {
    const server = new FakeFetch().json(PATH_PRM, prm(SERVER, AS));
    const custom = `${RS}/missing.json`;
    await expect(discoverProtectedResource(SERVER, { fetch: server.fetch, resourceMetadataUrl: custom })).rejects.toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "resource-metadata-not-found"),
    );
    expect(server.urls).toEqual([custom]);
  });

  it("stops at a 5xx without trying the root", async () => {
    const server = new FakeFetch().on(PATH_PRM, () => new Response(null, { status: 503 })).json(ROOT_PRM, prm(RS, AS));
    await expect(discoverProtectedResource(SERVER, { fetch: server.fetch })).rejects.toThrow(
      authFailure(MCP_CODES.TRANSPORT_ERROR, "metadata-unavailable"),
    );
    expect(server.urls).toEqual([PATH_PRM]);
  });

  it("refuses an MCP server URL that is not https or loopback", async () => {
    const server = new FakeFetch();
    await expect(discoverProtectedResource("http://mcp.example.com/mcp", { fetch: server.fetch })).rejects.toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "insecure-url"),
    );
    expect(server.urls).toEqual([]);
  });

  it("keeps members it does not know", async () => {
    const document = prm(SERVER, AS, {
      scopes_supported: ["mcp:basic"],
      bearer_methods_supported: ["header"],
      resource_name: "Test",
      dpop_bound_access_tokens_required: true,
    });
    const server = new FakeFetch().json(PATH_PRM, document);
    expect((await discoverProtectedResource(SERVER, { fetch: server.fetch })).metadata).toEqual(document);
  });

  it.each([
    ["no resource", { authorization_servers: [AS] }, "resource is missing or not an absolute URL without a fragment"],
    ["a resource that is not a URL", prm("mcp.example.com", AS), "resource is missing or not an absolute URL without a fragment"],
    ["a resource with a fragment", prm(`${SERVER}#x`, AS), "resource is missing or not an absolute URL without a fragment"],
    ["a resource that is not a string", prm(1 as unknown as string, AS), "resource is missing or not an absolute URL without a fragment"],
    ["no authorization_servers", { resource: SERVER }, "authorization_servers is missing or not a non-empty array of strings"],
    [
      "empty authorization_servers",
      { resource: SERVER, authorization_servers: [] },
      "authorization_servers is missing or not a non-empty array of strings",
    ],
    [
      "an authorization server that is not a string",
      { resource: SERVER, authorization_servers: [{ issuer: AS }] },
      "authorization_servers is missing or not a non-empty array of strings",
    ],
    ["a scopes_supported string", prm(SERVER, AS, { scopes_supported: "a b" }), "scopes_supported is not an array of strings"],
    [
      "a bad bearer_methods_supported",
      prm(SERVER, AS, { bearer_methods_supported: [1] }),
      "bearer_methods_supported is not an array of strings",
    ],
    ["a resource_name that is not a string", prm(SERVER, AS, { resource_name: ["x"] }), "resource_name is not a string"],
  ])("refuses a document with %s", async (_name, document, what) => {
    const server = new FakeFetch().json(PATH_PRM, document).json(ROOT_PRM, prm(RS, AS));
    const error = await expectAuthFailure(
      discoverProtectedResource(SERVER, { fetch: server.fetch }),
      MCP_CODES.UNAUTHORIZED,
      "resource-metadata-invalid",
    );
    expect(error.message).toBe(`The protected resource metadata at ${PATH_PRM} is invalid: ${what}`);
    expect(server.urls).toEqual([PATH_PRM]);
  });
});

describe("resourceMatchesServer", () => {
  it.each([
    ["https://mcp.example.com/mcp", "https://mcp.example.com/mcp"],
    ["https://mcp.example.com/mcp/", "https://mcp.example.com/mcp"],
    ["https://mcp.example.com/mcp", "https://mcp.example.com/mcp/"],
    ["https://mcp.example.com", "https://mcp.example.com/mcp"],
    ["https://mcp.example.com/", "https://mcp.example.com/server/mcp"],
    ["https://mcp.example.com/server", "https://mcp.example.com/server/mcp"],
    ["HTTPS://MCP.Example.COM/mcp", "https://mcp.example.com/mcp"],
    ["https://mcp.example.com:443/mcp", "https://mcp.example.com/mcp"],
    ["https://mcp.example.com/mcp?x=1", "https://mcp.example.com/mcp"],
  ])("takes resource %s for server %s", (resource, server) => {
    expect(resourceMatchesServer(resource, new URL(server))).toBe(true);
  });

  it.each([
    ["https://evil.example.com/mcp", "https://mcp.example.com/mcp"],
    ["http://mcp.example.com/mcp", "https://mcp.example.com/mcp"],
    ["https://mcp.example.com:8443/mcp", "https://mcp.example.com/mcp"],
    ["https://mcp.example.com/mcp2", "https://mcp.example.com/mcp"],
    ["https://mcp.example.com/mcp/x", "https://mcp.example.com/mcp"],
    ["https://mcp.example.com/other", "https://mcp.example.com/mcp"],
    ["https://mcp.example.com/mcp#frag", "https://mcp.example.com/mcp"],
    ["urn:example:mcp", "https://mcp.example.com/mcp"],
    ["not a url", "https://mcp.example.com/mcp"],
  ])("refuses resource %s for server %s", (resource, server) => {
    expect(resourceMatchesServer(resource, new URL(server))).toBe(false);
  });
});

describe("canonicalResourceUri", () => {
  it.each([
    ["https://mcp.example.com", "https://mcp.example.com"],
    ["https://mcp.example.com/", "https://mcp.example.com"],
    ["HTTPS://MCP.EXAMPLE.COM/mcp", "https://mcp.example.com/mcp"],
    ["https://mcp.example.com:8443/server/mcp#section", "https://mcp.example.com:8443/server/mcp"],
    ["https://mcp.example.com:443/mcp?tenant=1", "https://mcp.example.com/mcp?tenant=1"],
    ["http://localhost:3000/mcp", "http://localhost:3000/mcp"],
  ])("%s is %s", (server, canonical) => {
    expect(canonicalResourceUri(server)).toBe(canonical);
  });

  it("refuses what the flow must not use", async () => {
    expect(() => canonicalResourceUri("mcp.example.com")).toThrow(authFailure(MCP_CODES.UNAUTHORIZED, "invalid-url"));
    expect(() => canonicalResourceUri("http://mcp.example.com/mcp")).toThrow(authFailure(MCP_CODES.UNAUTHORIZED, "insecure-url"));
  });
});

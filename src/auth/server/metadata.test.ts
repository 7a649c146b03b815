import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { exchangeOf } from "../../transport/http-server/fetch-exchange.js";
import { metadataReply, publishedMetadata, WELL_KNOWN } from "./metadata.js";
import type { ResourceServerOptions } from "./resource-server.types.js";

const verifier: ResourceServerOptions["verifier"] = () => Promise.resolve({ refused: "never used here" });
const base: ResourceServerOptions = {
  resource: "https://mcp.example.com/public/mcp",
  authorizationServers: ["https://auth.example.com"],
  verifier,
};

function reply(options: ResourceServerOptions, url: string, init: RequestInit = {}) {
  return metadataReply(publishedMetadata(options), exchangeOf(new Request(url, init)));
}

describe("publishedMetadata (RFC 9728)", () => {
  it("publishes the document at the path-inserted well-known URL, its resource exactly as given", () => {
    const published = publishedMetadata({
      ...base,
      scopesSupported: ["mcp:read"],
      resourceName: "Example MCP",
      metadata: { resource_documentation: "https://mcp.example.com/docs", resource: "ignored" },
    });
    expect(published.url).toBe("https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp");
    expect([...published.documents.keys()]).toEqual(["/.well-known/oauth-protected-resource/public/mcp"]);
    expect(JSON.parse(published.documents.get(`${WELL_KNOWN}/public/mcp`) as string)).toEqual({
      resource_documentation: "https://mcp.example.com/docs",
      resource: "https://mcp.example.com/public/mcp",
      authorization_servers: ["https://auth.example.com"],
      scopes_supported: ["mcp:read"],
      bearer_methods_supported: ["header"],
      resource_name: "Example MCP",
    });
    expect(published.audiences).toEqual(["https://mcp.example.com/public/mcp"]);
  });

  it("leaves out what is not configured, or to metadata of your own", () => {
    const document = JSON.parse(publishedMetadata(base).documents.get(`${WELL_KNOWN}/public/mcp`) as string) as Record<string, unknown>;
    expect(Object.keys(document)).toEqual(["resource", "authorization_servers", "bearer_methods_supported"]);
    const own = JSON.parse(
      publishedMetadata({ ...base, metadata: { resource_name: "Mine", scopes_supported: ["x"] } }).documents.get(
        `${WELL_KNOWN}/public/mcp`,
      ) as string,
    ) as Record<string, unknown>;
    expect(own).toMatchObject({ resource_name: "Mine", scopes_supported: ["x"] });
  });

  it("serves the root as well when asked: its resource is the origin, which tokens may then name", () => {
    const published = publishedMetadata({ ...base, rootMetadata: true });
    expect([...published.documents.keys()]).toEqual([`${WELL_KNOWN}/public/mcp`, WELL_KNOWN]);
    expect(JSON.parse(published.documents.get(WELL_KNOWN) as string)).toMatchObject({ resource: "https://mcp.example.com" });
    expect(published.audiences).toEqual(["https://mcp.example.com/public/mcp", "https://mcp.example.com"]);
    expect(published.url).toBe("https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp");
  });

  it("has one document for a resource that is its origin, with or without the root asked for", () => {
    for (const resource of ["https://mcp.example.com", "https://mcp.example.com/"]) {
      const published = publishedMetadata({ ...base, resource, rootMetadata: true });
      expect([...published.documents.keys()]).toEqual([WELL_KNOWN]);
      expect(JSON.parse(published.documents.get(WELL_KNOWN) as string)).toMatchObject({ resource });
      expect(published.url).toBe(`https://mcp.example.com${WELL_KNOWN}`);
      expect(published.audiences).toEqual([resource]);
    }
  });

  it.each([
    ["a relative resource", { resource: "/mcp" }, /resource "\/mcp" must be an http\(s\) URL/],
    ["another scheme", { resource: "urn:example:mcp" }, /must be an http\(s\) URL/],
    ["a query", { resource: "https://mcp.example.com/mcp?x=1" }, /without query or fragment/],
    ["a fragment", { resource: "https://mcp.example.com/mcp#f" }, /without query or fragment/],
    ["an empty fragment", { resource: "https://mcp.example.com/mcp#" }, /without query or fragment/],
    ["no authorization server", { authorizationServers: [] }, /at least one authorization server/],
    [
      "an authorization server that is no URL",
      { authorizationServers: ["https://ok.example", "auth.example"] },
      /authorization server "auth.example" is not an issuer URL/,
    ],
    ["a bad scope", { scopesSupported: ["a b"] }, /scopesSupported: "a b" is not an OAuth scope/],
    ["offline_access", { scopesSupported: ["mcp", "offline_access"] }, /offline_access is no resource's scope/],
  ])("refuses %s", (_what, options, message) => {
    expect(() => publishedMetadata({ ...base, ...options })).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: expect.stringMatching(message) }),
    );
  });
});

describe("metadataReply", () => {
  const url = `https://mcp.example.com${WELL_KNOWN}/public/mcp`;

  it("answers GET with the document, readable from any origin", async () => {
    const answer = reply(base, url, { headers: { origin: "https://elsewhere.example" } });
    expect(answer?.status).toBe(200);
    expect(answer?.headers).toEqual({
      "access-control-allow-origin": "*",
      "content-type": "application/json",
      "cache-control": "max-age=3600",
    });
    expect(JSON.parse(answer?.body as string)).toMatchObject({ resource: base.resource });
  });

  it("answers a preflight with the methods and the headers asked for", () => {
    const preflight = reply(base, url, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-headers": "mcp-protocol-version" },
    });
    expect(preflight).toEqual({
      status: 204,
      headers: {
        "access-control-allow-origin": "*",
        allow: "GET, OPTIONS",
        "access-control-allow-methods": "GET, OPTIONS",
        "access-control-max-age": "86400",
        "access-control-allow-headers": "mcp-protocol-version",
      },
    });
    expect(reply(base, url, { method: "OPTIONS" })?.headers).not.toHaveProperty("access-control-allow-headers");
  });

  it("refuses other methods with 405 and Allow", () => {
    const refused = reply(base, url, { method: "POST", body: "{}" });
    expect(refused?.status).toBe(405);
    expect(JSON.parse(refused?.body as string)).toMatchObject({ error: { message: "Method Not Allowed" } });
    expect(refused?.headers).toMatchObject({ allow: "GET, OPTIONS", "access-control-allow-origin": "*" });
  });

  it("is undefined for every other path (the endpoint's, the root unless asked, a longer one)", () => {
    for (const other of [
      "https://mcp.example.com/public/mcp",
      `https://mcp.example.com${WELL_KNOWN}`,
      `${url}/x`,
      `https://mcp.example.com${WELL_KNOWN}/public`,
    ])
      expect(reply(base, other)).toBeUndefined();
  });
});

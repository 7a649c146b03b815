import { describe, expect, it } from "vitest";
import { selectScope, splitScope, unionScopes } from "./scopes.js";

const AS_WITH_OFFLINE = { scopes_supported: ["mcp:basic", "offline_access"] };
const AS_WITHOUT_OFFLINE = { scopes_supported: ["mcp:basic", "mcp:read"] };

describe("selectScope: the conformance scenarios", () => {
  it("auth/scope-from-www-authenticate: the challenge's scope, whatever scopes_supported says", () => {
    expect(selectScope({ challengeScope: "mcp:basic", resourceMetadata: { scopes_supported: ["mcp:profile"] } })).toBe("mcp:basic");
  });

  it("auth/scope-from-scopes-supported: every scope of the protected resource metadata", () => {
    expect(selectScope({ resourceMetadata: { scopes_supported: ["mcp:basic", "mcp:read", "mcp:write"] } })).toBe(
      "mcp:basic mcp:read mcp:write",
    );
  });

  it("auth/scope-omitted-when-undefined: no scope at all", () => {
    expect(selectScope({ resourceMetadata: {} })).toBeUndefined();
    expect(selectScope({})).toBeUndefined();
  });

  it("auth/offline-access-scope: adds offline_access when the authorization server lists it", () => {
    expect(selectScope({ resourceMetadata: { scopes_supported: ["mcp:basic"] }, authorizationServerMetadata: AS_WITH_OFFLINE })).toBe(
      "mcp:basic offline_access",
    );
  });

  it("auth/offline-access-not-supported: never asks for offline_access the authorization server does not list", () => {
    expect(
      selectScope({ resourceMetadata: { scopes_supported: ["mcp:basic", "mcp:read"] }, authorizationServerMetadata: AS_WITHOUT_OFFLINE }),
    ).toBe("mcp:basic mcp:read");
    expect(selectScope({ challengeScope: "mcp:basic offline_access", authorizationServerMetadata: AS_WITHOUT_OFFLINE })).toBe("mcp:basic");
    expect(selectScope({ resourceMetadata: { scopes_supported: ["offline_access", "mcp:basic"] } })).toBe("mcp:basic");
  });

  it("auth/scope-step-up: the first authorization takes the 401's scope, the second the union with the 403's", () => {
    const first = selectScope({ challengeScope: "mcp:basic", resourceMetadata: { scopes_supported: ["mcp:profile"] } });
    expect(first).toBe("mcp:basic");
    expect(unionScopes(first, "mcp:write")).toBe("mcp:basic mcp:write");
  });
});

describe("selectScope", () => {
  it("leaves offline_access out when the client does not want a refresh token", () => {
    expect(selectScope({ challengeScope: "mcp:basic", authorizationServerMetadata: AS_WITH_OFFLINE, offlineAccess: false })).toBe(
      "mcp:basic",
    );
  });

  it("keeps one offline_access, at the end", () => {
    expect(selectScope({ challengeScope: "offline_access a", authorizationServerMetadata: AS_WITH_OFFLINE })).toBe("a offline_access");
  });

  it("never asks for offline_access alone: with nothing else, the scope is omitted", () => {
    expect(selectScope({ authorizationServerMetadata: AS_WITH_OFFLINE })).toBeUndefined();
    expect(selectScope({ challengeScope: "offline_access", authorizationServerMetadata: AS_WITH_OFFLINE })).toBeUndefined();
  });

  it("falls back to scopes_supported when the challenge's scope is empty", () => {
    expect(selectScope({ challengeScope: "  ", resourceMetadata: { scopes_supported: ["a", "a", "b"] } })).toBe("a b");
  });

  it("reads a challenge scope with any whitespace between tokens", () => {
    expect(selectScope({ challengeScope: " files:read\tfiles:write  files:read " })).toBe("files:read files:write");
  });

  it("is right with an authorization server that lists no scopes", () => {
    expect(selectScope({ challengeScope: "a", authorizationServerMetadata: {} })).toBe("a");
  });
});

describe("unionScopes", () => {
  it("keeps each scope once, in first-seen order", () => {
    expect(unionScopes("a b", "b c", ["c", "d e"], undefined, "")).toBe("a b c d e");
  });

  it("is undefined when there is nothing", () => {
    expect(unionScopes()).toBeUndefined();
    expect(unionScopes(undefined, "", [])).toBeUndefined();
  });
});

describe("splitScope", () => {
  it("splits on whitespace, once per token", () => {
    expect(splitScope(" a  b\ta ")).toEqual(["a", "b"]);
    expect(splitScope(undefined)).toEqual([]);
    expect(splitScope("")).toEqual([]);
  });
});

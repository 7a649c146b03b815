import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { authError, authFailureOf, displayUrl, untrustedText } from "./auth-error.js";

describe("authError", () => {
  it.each([
    ["invalid-argument", MCP_CODES.INVALID_PARAMS],
    ["cancelled", MCP_CODES.REQUEST_CANCELLED],
    ["metadata-unavailable", MCP_CODES.TRANSPORT_ERROR],
    ["resource-mismatch", MCP_CODES.UNAUTHORIZED],
    ["iss-mismatch", MCP_CODES.UNAUTHORIZED],
  ] as const)("gives %s the code %s", (reason, code) => {
    const cause = new Error("below");
    const error = authError(reason, "message", { url: "https://a/x" }, cause);
    expect(error).toBeInstanceOf(MCPError);
    expect(error.code).toBe(code);
    expect(error.data).toEqual({ reason, url: "https://a/x" });
    expect(error.cause).toBe(cause);
    expect(authFailureOf(error)).toBe(reason);
  });

  it("has no cause unless given one", () => {
    expect("cause" in authError("state-mismatch", "m")).toBe(false);
  });
});

describe("authFailureOf", () => {
  it("is undefined for anything else", () => {
    expect(authFailureOf(new Error("x"))).toBeUndefined();
    expect(authFailureOf(new MCPError(MCP_CODES.TIMEOUT, "x"))).toBeUndefined();
    expect(authFailureOf(new MCPError(MCP_CODES.TIMEOUT, "x", { data: { status: 1 } }))).toBeUndefined();
    expect(authFailureOf("reason")).toBeUndefined();
  });
});

describe("displayUrl", () => {
  it("keeps scheme, host and path, never query, fragment or credentials", () => {
    expect(displayUrl(new URL("https://user:pw@a.example:8443/p/q?code=1#frag"))).toBe("https://a.example:8443/p/q");
  });

  it("names only the scheme of other URLs", () => {
    expect(displayUrl(new URL("javascript:alert(document.cookie)"))).toBe("a javascript: URL");
  });
});

describe("untrustedText", () => {
  it("replaces control characters and cuts long text", () => {
    expect(untrustedText("a\r\nb\u001b[31mc\u007f\u0085")).toBe("a??b?[31mc??");
    expect(untrustedText("é".repeat(300))).toBe(`${"é".repeat(200)}…`);
    expect(untrustedText("x".repeat(200))).toBe("x".repeat(200));
  });
});

import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { authFailure, expectAuthFailure } from "./auth-client.test-helpers.js";
import { isLoopbackHost, isSecureUrl, secureUrl } from "./url-safety.js";

describe("isLoopbackHost", () => {
  it.each(["localhost", "LOCALHOST", "127.0.0.1", "[::1]"])("takes %s", (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each(["example.com", "127.0.0.2", "::1", "localhost.example.com", "0.0.0.0", ""])("refuses %s", (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe("secureUrl", () => {
  it.each([
    "https://as.example.com/token",
    "HTTPS://AS.example.com:8443/t?x=1",
    "http://localhost:3000/cb",
    "http://127.0.0.1/cb",
    "http://[::1]:8080/cb",
  ])("takes %s", (url) => {
    expect(secureUrl(url, "redirect URI").href).toBe(new URL(url).href);
    expect(isSecureUrl(new URL(url))).toBe(true);
  });

  it("takes a URL object", () => {
    expect(secureUrl(new URL("https://a.example/x"), "issuer").pathname).toBe("/x");
  });

  it.each([
    ["plain http off loopback", "http://as.example.com/token"],
    ["http on a name that only starts like localhost", "http://localhost.evil.example/cb"],
    ["another scheme", "ftp://as.example.com/token"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a private-use scheme", "com.example.app:/callback"],
  ])("refuses %s", async (_name, url) => {
    const error = await expectAuthFailure(() => secureUrl(url, "token endpoint"), MCP_CODES.UNAUTHORIZED, "insecure-url");
    expect(error.message).toContain("token endpoint");
    expect(error.message).toContain("must use https");
  });

  it("refuses what does not parse without echoing it", async () => {
    const error = await expectAuthFailure(() => secureUrl("not a url secret-123", "issuer"), MCP_CODES.UNAUTHORIZED, "invalid-url");
    expect(error.message).toBe("The issuer is not an absolute URL");
  });

  it("refuses a fragment", async () => {
    expect(() => secureUrl("https://as.example.com/authorize#x", "authorization endpoint")).toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "invalid-url"),
    );
    expect(() => secureUrl("https://as.example.com/authorize#", "authorization endpoint")).toThrow(
      authFailure(MCP_CODES.UNAUTHORIZED, "invalid-url"),
    );
  });

  it("shows a refused URL without its query", async () => {
    const error = await expectAuthFailure(
      () => secureUrl("http://as.example.com/token?client_secret=hunter2", "token endpoint"),
      MCP_CODES.UNAUTHORIZED,
      "insecure-url",
    );
    expect(error.message).toContain("http://as.example.com/token");
    expect(error.message).not.toContain("hunter2");
    expect(error.data).toEqual({ reason: "insecure-url", url: "http://as.example.com/token" });
  });
});

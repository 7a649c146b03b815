// The one rule for every URL of the authorization flow (metadata, authorization, token,
// registration, redirect, issuer): https, or plain http on a loopback host for local development
// (the 2026-07-28 security considerations: "All authorization server endpoints MUST be served over
// HTTPS", "All redirect URIs MUST be either localhost or use HTTPS"). No fragment either: OAuth
// endpoints, redirect URIs and issuers must not have one (RFC 6749 §3.1, §3.1.2; RFC 8414 §2).
import { authError, displayUrl } from "./auth-error.js";

// `URL.hostname` gives these lower-cased and brackets an IPv6 address, so the set is exact.
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** True for the loopback hosts that may be reached over plain http: `localhost`, `127.0.0.1`, `[::1]`. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

/** True when `url` is https, or http on a loopback host. */
export function isSecureUrl(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
}

/**
 * `value` parsed, when it is an absolute URL without a fragment that is https or http on a loopback
 * host; otherwise throws `MCP.UNAUTHORIZED` (reason `invalid-url` or `insecure-url`). `role` names
 * the URL in the message ("token endpoint"). The value itself is never echoed when it does not
 * parse: it could be anything, a secret included.
 */
export function secureUrl(value: string | URL, role: string): URL {
  const text = typeof value === "string" ? value : value.href;
  if (!URL.canParse(text)) throw authError("invalid-url", `The ${role} is not an absolute URL`);
  const url = new URL(text);
  if (url.href.includes("#")) throw authError("invalid-url", `The ${role} ${displayUrl(url)} has a fragment`, { url: displayUrl(url) });
  if (!isSecureUrl(url)) {
    throw authError(
      "insecure-url",
      `The ${role} ${displayUrl(url)} must use https (plain http is allowed only on localhost, 127.0.0.1 or [::1])`,
      { url: displayUrl(url) },
    );
  }
  return url;
}

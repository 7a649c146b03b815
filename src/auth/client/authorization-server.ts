// Authorization server metadata (RFC 8414, OpenID Connect Discovery 1.0): the well-known URLs in the
// exact order of the 2026-07-28 "Authorization Server Metadata Discovery", the validation a document
// needs before any of its endpoints is used, and the 2025-03-26 fallback (metadata at the MCP
// server's origin, else default endpoints there).
import { authError, displayUrl, untrustedText } from "./auth-error.js";
import { type DiscoveryAttempt, type DiscoveryOptions, describeAttempts, fetchMetadataDocument } from "./metadata-fetch.js";
import { secureUrl } from "./url-safety.js";

/** An RFC 8414 / OpenID provider document as validated here; the members not listed are kept as sent. */
export interface AuthorizationServerMetadata {
  /** Identical, as a plain string, to the issuer the document was fetched for. */
  readonly issuer: string;
  readonly authorization_endpoint?: string;
  readonly token_endpoint: string;
  readonly registration_endpoint?: string;
  readonly scopes_supported?: readonly string[];
  readonly response_types_supported?: readonly string[];
  readonly grant_types_supported?: readonly string[];
  readonly code_challenge_methods_supported?: readonly string[];
  readonly token_endpoint_auth_methods_supported?: readonly string[];
  /** RFC 9207: the authorization server puts `iss` in its authorization responses. */
  readonly authorization_response_iss_parameter_supported?: boolean;
  readonly client_id_metadata_document_supported?: boolean;
  readonly [member: string]: unknown;
}

/** Which well-known document gave the metadata, or `defaults` for the 2025-03-26 default endpoints. */
export type AuthorizationServerSource = "oauth" | "openid" | "defaults";

export interface AuthorizationServerDiscovery {
  readonly metadata: AuthorizationServerMetadata;
  /** The URL the document came from; absent for `defaults`. */
  readonly url?: string;
  readonly source: AuthorizationServerSource;
}

export interface AuthorizationServerOptions extends DiscoveryOptions {
  /**
   * Refuse a server whose `code_challenge_methods_supported` lacks `S256` (default true: the
   * security considerations say a client MUST refuse to proceed). Only a grant with no
   * authorization request (client credentials) has a reason to set it false.
   */
  readonly requirePkce?: boolean;
}

const OAUTH = "/.well-known/oauth-authorization-server";
const OPENID = "/.well-known/openid-configuration";

/**
 * The URLs to try for `issuer`, in the spec's order. With a path (`https://a/t1`): RFC 8414 path
 * insertion `https://a/.well-known/oauth-authorization-server/t1`, OIDC path insertion
 * `https://a/.well-known/openid-configuration/t1`, OIDC path appending
 * `https://a/t1/.well-known/openid-configuration`. Without: the two root documents. A trailing
 * slash of the path is dropped first (RFC 8414 §3.1, OIDC Discovery §4).
 */
export function authorizationServerCandidates(
  issuer: URL,
): { readonly url: URL; readonly source: Exclude<AuthorizationServerSource, "defaults"> }[] {
  const path = issuer.pathname.endsWith("/") ? issuer.pathname.slice(0, -1) : issuer.pathname;
  const at = (suffix: string) => new URL(`${issuer.origin}${suffix}`);
  if (path === "") {
    return [
      { url: at(OAUTH), source: "oauth" },
      { url: at(OPENID), source: "openid" },
    ];
  }
  return [
    { url: at(`${OAUTH}${path}`), source: "oauth" },
    { url: at(`${OPENID}${path}`), source: "openid" },
    { url: at(`${path}${OPENID}`), source: "openid" },
  ];
}

/**
 * Finds and validates the metadata of the authorization server `issuer` (an entry of the protected
 * resource metadata's `authorization_servers`, as published). A 4xx, a CORS refusal or a body that
 * is not a JSON object moves on to the next URL. Rejects with `MCP.UNAUTHORIZED`: `invalid-url` /
 * `insecure-url` for the issuer (which must also have no query), `authorization-server-metadata-not-found`,
 * and the reasons of `validateAuthorizationServerMetadata`; `MCP.TRANSPORT_ERROR` on a 5xx;
 * `MCP.REQUEST_CANCELLED` on the signal.
 */
export async function discoverAuthorizationServer(
  issuer: string,
  options: AuthorizationServerOptions,
): Promise<AuthorizationServerDiscovery> {
  const issuerUrl = secureUrl(issuer, "authorization server issuer");
  if (issuer.includes("?"))
    throw authError("invalid-url", `The authorization server issuer ${displayUrl(issuerUrl)} has a query`, { url: displayUrl(issuerUrl) });
  const attempts: DiscoveryAttempt[] = [];
  for (const { url, source } of authorizationServerCandidates(issuerUrl)) {
    const fetched = await fetchMetadataDocument(url, options);
    if ("missing" in fetched) {
      attempts.push({ url: displayUrl(url), outcome: fetched.missing });
      continue;
    }
    return { metadata: validateAuthorizationServerMetadata(fetched.document, issuer, url, options), url: url.href, source };
  }
  throw authError(
    "authorization-server-metadata-not-found",
    `No authorization server metadata was found for ${displayUrl(issuerUrl)}: ${describeAttempts(attempts)}`,
    {
      url: displayUrl(issuerUrl),
    },
  );
}

const ENDPOINTS = ["authorization_endpoint", "token_endpoint", "registration_endpoint"] as const;
const STRING_ARRAYS = [
  "scopes_supported",
  "response_types_supported",
  "grant_types_supported",
  "code_challenge_methods_supported",
  "token_endpoint_auth_methods_supported",
] as const;
const BOOLEANS = ["authorization_response_iss_parameter_supported", "client_id_metadata_document_supported"] as const;

/**
 * `document` as the metadata of `issuer`, fetched from `from`. Checked in this order: `issuer`
 * equal to the expected issuer as a plain string, no normalisation (`issuer-mismatch`: RFC 8414
 * §3.3, and no endpoint of such a document is ever used); a `token_endpoint`; the typed members of
 * the right types (`authorization-server-metadata-invalid`); every endpoint https or loopback http
 * (`insecure-url`); `S256` among `code_challenge_methods_supported` unless `requirePkce` is false
 * (`pkce-unsupported`).
 */
export function validateAuthorizationServerMetadata(
  document: Record<string, unknown>,
  issuer: string,
  from: URL,
  options: { readonly requirePkce?: boolean } = {},
): AuthorizationServerMetadata {
  const where = displayUrl(from);
  if (document["issuer"] !== issuer) {
    const said = typeof document["issuer"] === "string" ? untrustedText(document["issuer"]) : "no issuer";
    throw authError(
      "issuer-mismatch",
      `The authorization server metadata at ${where} names ${said}, ` +
        `not the issuer ${untrustedText(issuer)} it was fetched for: it is not used`,
      {
        url: where,
      },
    );
  }
  const invalid = (what: string) =>
    authError("authorization-server-metadata-invalid", `The authorization server metadata at ${where} is invalid: ${what}`, { url: where });
  if (typeof document["token_endpoint"] !== "string") throw invalid("token_endpoint is missing or not a string");
  for (const member of ENDPOINTS) {
    const value = document[member];
    if (value === undefined) continue;
    if (typeof value !== "string") throw invalid(`${member} is not a string`);
    secureUrl(value, `${member} of ${untrustedText(issuer)}`);
  }
  for (const member of STRING_ARRAYS) {
    const value = document[member];
    if (value !== undefined && !(Array.isArray(value) && value.every((item) => typeof item === "string")))
      throw invalid(`${member} is not an array of strings`);
  }
  for (const member of BOOLEANS) {
    if (document[member] !== undefined && typeof document[member] !== "boolean") throw invalid(`${member} is not a boolean`);
  }
  const metadata = document as AuthorizationServerMetadata;
  if (options.requirePkce !== false && !(metadata.code_challenge_methods_supported ?? []).includes("S256")) {
    throw authError(
      "pkce-unsupported",
      `The authorization server ${untrustedText(issuer)} does not list S256 in code_challenge_methods_supported: ` +
        "PKCE cannot be verified, so authorization stops here",
      {
        url: where,
      },
    );
  }
  return metadata;
}

/**
 * The 2025-03-26 discovery: the authorization base URL is the MCP server's origin (its path
 * dropped); its `/.well-known/oauth-authorization-server` is validated as above, with the issuer it
 * names (which need not be the origin; an https or loopback URL); when that gives nothing (4xx, CORS, not JSON), the default endpoints
 * `/authorize`,
 * `/token` and `/register` at the origin (`source: "defaults"`, issuer the origin, no PKCE check
 * possible). A 5xx still rejects.
 */
export async function discoverLegacyAuthorizationServer(
  serverUrl: string,
  options: AuthorizationServerOptions,
): Promise<AuthorizationServerDiscovery> {
  const origin = secureUrl(serverUrl, "MCP server URL").origin;
  const url = new URL(`${origin}${OAUTH}`);
  const fetched = await fetchMetadataDocument(url, options);
  if ("document" in fetched) {
    // 2025-03-26 looks for the document at the server's origin, whatever issuer it names: that issuer is taken as it says (an https or
    // loopback URL).
    const named = fetched.document["issuer"];
    if (typeof named === "string") secureUrl(named, "issuer");
    return {
      metadata: validateAuthorizationServerMetadata(fetched.document, typeof named === "string" ? named : origin, url, options),
      url: url.href,
      source: "oauth",
    };
  }
  return {
    metadata: {
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
    },
    source: "defaults",
  };
}

/** True only for a literal `true`: absent, false or anything else means the server does not advertise RFC 9207 `iss`. */
export function advertisesIssParameter(
  metadata: Pick<AuthorizationServerMetadata, "authorization_response_iss_parameter_supported">,
): boolean {
  return metadata.authorization_response_iss_parameter_supported === true;
}

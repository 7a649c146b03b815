// Protected resource metadata (RFC 9728) of an MCP server: where to look, in the spec's order, and
// what a document must hold before the client trusts the authorization servers it names.
import { authError, displayUrl, untrustedText } from "./auth-error.js";
import { type DiscoveryAttempt, type DiscoveryOptions, describeAttempts, fetchMetadataDocument } from "./metadata-fetch.js";
import { secureUrl } from "./url-safety.js";

/** An RFC 9728 document as validated here; the members not listed are kept as sent. */
export interface ProtectedResourceMetadata {
  /** The resource identifier, exactly as published: the `resource` parameter of the authorization and token requests. */
  readonly resource: string;
  /** At least one authorization server issuer. */
  readonly authorization_servers: readonly string[];
  readonly scopes_supported?: readonly string[];
  readonly bearer_methods_supported?: readonly string[];
  readonly resource_name?: string;
  readonly [member: string]: unknown;
}

/** Where the document was found: the challenge's `resource_metadata`, the path-inserted or the root well-known URL. */
export type ProtectedResourceSource = "www-authenticate" | "path" | "root";

export interface ProtectedResourceDiscovery {
  readonly metadata: ProtectedResourceMetadata;
  /** The URL it was fetched from. */
  readonly url: string;
  readonly source: ProtectedResourceSource;
}

export interface ProtectedResourceOptions extends DiscoveryOptions {
  /** The `resource_metadata` of the 401's challenge: when given, the only URL tried (relative to the server URL if relative). */
  readonly resourceMetadataUrl?: string | undefined;
}

const WELL_KNOWN = "/.well-known/oauth-protected-resource";

/**
 * The URLs to try, in order: the challenge's `resource_metadata` alone when there is one (the
 * spec's "when present"); else `/.well-known/oauth-protected-resource` inserted before the server
 * URL's path (and query, RFC 9728 §3.1), then the one at the root. A server at the root has one.
 */
export function protectedResourceCandidates(
  serverUrl: URL,
  resourceMetadataUrl?: string,
): { readonly url: URL; readonly source: ProtectedResourceSource }[] {
  if (resourceMetadataUrl !== undefined) {
    const resolved = URL.canParse(resourceMetadataUrl, serverUrl.href) ? new URL(resourceMetadataUrl, serverUrl) : resourceMetadataUrl;
    return [{ url: secureUrl(resolved, "resource_metadata URL"), source: "www-authenticate" }];
  }
  const root = new URL(`${serverUrl.origin}${WELL_KNOWN}`);
  const pathless = serverUrl.pathname === "/" && serverUrl.search === "";
  if (pathless) return [{ url: root, source: "root" }];
  const inserted = new URL(`${serverUrl.origin}${WELL_KNOWN}${serverUrl.pathname === "/" ? "" : serverUrl.pathname}${serverUrl.search}`);
  return [
    { url: inserted, source: "path" },
    { url: root, source: "root" },
  ];
}

/**
 * Finds and validates the protected resource metadata of the MCP server at `serverUrl`.
 * Rejects with `MCP.UNAUTHORIZED` when no candidate has a document (`resource-metadata-not-found`,
 * listing what each gave), when the document is malformed (`resource-metadata-invalid`) or names
 * another resource (`resource-mismatch`), and for a URL that is not https or loopback http;
 * with `MCP.TRANSPORT_ERROR` when a candidate answers 5xx; `MCP.REQUEST_CANCELLED` on the signal.
 */
export async function discoverProtectedResource(serverUrl: string, options: ProtectedResourceOptions): Promise<ProtectedResourceDiscovery> {
  const server = secureUrl(serverUrl, "MCP server URL");
  const attempts: DiscoveryAttempt[] = [];
  for (const { url, source } of protectedResourceCandidates(server, options.resourceMetadataUrl)) {
    const fetched = await fetchMetadataDocument(url, options);
    if ("missing" in fetched) {
      attempts.push({ url: displayUrl(url), outcome: fetched.missing });
      continue;
    }
    const metadata = validateProtectedResourceMetadata(fetched.document, server, url);
    return { metadata, url: url.href, source };
  }
  throw authError(
    "resource-metadata-not-found",
    `No protected resource metadata (RFC 9728) was found for ${displayUrl(server)}: ${describeAttempts(attempts)}`,
    {
      url: displayUrl(server),
    },
  );
}

/**
 * `document` as protected resource metadata of the server at `serverUrl` (fetched from `from`):
 * `resource` an absolute URL without fragment, `authorization_servers` a non-empty array of strings,
 * the optional arrays arrays of strings, and `resource` matching the server (`resourceMatchesServer`).
 */
export function validateProtectedResourceMetadata(document: Record<string, unknown>, serverUrl: URL, from: URL): ProtectedResourceMetadata {
  const invalid = (what: string) =>
    authError("resource-metadata-invalid", `The protected resource metadata at ${displayUrl(from)} is invalid: ${what}`, {
      url: displayUrl(from),
    });
  const { resource, authorization_servers: servers } = document;
  if (typeof resource !== "string" || !URL.canParse(resource) || resource.includes("#"))
    throw invalid("resource is missing or not an absolute URL without a fragment");
  if (!isStringArray(servers) || servers.length === 0)
    throw invalid("authorization_servers is missing or not a non-empty array of strings");
  for (const member of ["scopes_supported", "bearer_methods_supported"]) {
    if (document[member] !== undefined && !isStringArray(document[member])) throw invalid(`${member} is not an array of strings`);
  }
  if (document["resource_name"] !== undefined && typeof document["resource_name"] !== "string")
    throw invalid("resource_name is not a string");
  if (!resourceMatchesServer(resource, serverUrl)) {
    throw authError(
      "resource-mismatch",
      `The protected resource metadata at ${displayUrl(from)} is for ${untrustedText(resource)}, ` +
        `not for the MCP server ${displayUrl(serverUrl)}: authorization stops here`,
      { url: displayUrl(from) },
    );
  }
  return document as ProtectedResourceMetadata;
}

/**
 * True when the published `resource` identifies the server at `serverUrl`: the same origin
 * (scheme, host and port, compared parsed, so an upper-case host is accepted) and a path that is
 * the server's path or a whole-segment prefix of it, ignoring a trailing slash. That admits the
 * root document of `https://a/mcp` (resource `https://a`) and refuses another origin, `/mcp2`
 * for `/mcp`, and `/mcp/x` for `/mcp`.
 */
export function resourceMatchesServer(resource: string, serverUrl: URL): boolean {
  if (!URL.canParse(resource) || resource.includes("#")) return false;
  const published = new URL(resource);
  // A URN's origin is "null", never the origin of the https or loopback server.
  if (published.origin !== serverUrl.origin) return false;
  return withSlash(serverUrl.pathname).startsWith(withSlash(published.pathname));
}

function withSlash(path: string): string {
  return path.endsWith("/") ? path : `${path}/`;
}

/**
 * The MCP server's canonical URI for the `resource` parameter when there is no protected resource
 * metadata (2025-03-26 servers): lower-case scheme and host, no fragment, no trailing slash on an
 * empty path. With metadata, send its `resource` as published instead.
 */
export function canonicalResourceUri(serverUrl: string): string {
  const url = secureUrl(serverUrl.split("#")[0] as string, "MCP server URL");
  return `${url.origin}${url.pathname === "/" ? "" : url.pathname}${url.search}`;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

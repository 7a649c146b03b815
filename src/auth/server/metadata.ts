import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { HttpExchange, HttpReply } from "../../transport/http-server/http-server.types.js";
import { emptyReply, errorReply } from "../../transport/http-server/responses.js";
import { checkedScopes } from "./challenge.js";
import type { ResourceServerOptions } from "./resource-server.types.js";

/** RFC 9728 §3: the well-known suffix of protected resource metadata. */
export const WELL_KNOWN = "/.well-known/oauth-protected-resource";

const ALLOW = "GET, OPTIONS";

/** The documents one endpoint publishes, by request path, and what the challenges point to. */
export interface PublishedMetadata {
  /** JSON text by URL path: the path-inserted one, and the root one when asked for. */
  readonly documents: ReadonlyMap<string, string>;
  /** The path-inserted document's URL: every challenge's `resource_metadata`. */
  readonly url: string;
  /** The audiences tokens may name: the resource, and the origin with the root document. */
  readonly audiences: readonly string[];
}

/** The resource's URL, refused unless it is an http(s) URL without query or fragment (a canonical resource identifier). */
function resourceUrl(resource: string): URL {
  const url = URL.canParse(resource) ? new URL(resource) : undefined;
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.search !== "" || resource.includes("#")) {
    throw new MCPError(
      MCP_CODES.INVALID_PARAMS,
      `protectedResource: resource ${JSON.stringify(resource)} must be an http(s) URL without query or fragment`,
    );
  }
  return url;
}

/**
 * Builds the RFC 9728 documents of an endpoint from its options, checking them: `resource` a canonical
 * URI, at least one authorization server, scopes that are scope tokens (and not `offline_access`, which
 * is no resource's scope). The path-inserted URL is `/.well-known/oauth-protected-resource` followed by
 * the resource's path (a lone `/` dropped).
 */
export function publishedMetadata(options: ResourceServerOptions): PublishedMetadata {
  const url = resourceUrl(options.resource);
  if (options.authorizationServers.length === 0)
    throw new MCPError(MCP_CODES.INVALID_PARAMS, "protectedResource: authorizationServers must name at least one authorization server");
  const notUrl = options.authorizationServers.find((issuer) => !URL.canParse(issuer));
  if (notUrl !== undefined)
    throw new MCPError(MCP_CODES.INVALID_PARAMS, `protectedResource: authorization server ${JSON.stringify(notUrl)} is not an issuer URL`);
  const supported = options.scopesSupported && checkedScopes(options.scopesSupported, "protectedResource: scopesSupported");
  if (supported?.includes("offline_access"))
    throw new MCPError(
      MCP_CODES.INVALID_PARAMS,
      "protectedResource: offline_access is no resource's scope: leave it out of scopesSupported",
    );
  const path = url.pathname === "/" ? "" : url.pathname;
  const document = (resource: string): string =>
    JSON.stringify({
      ...options.metadata,
      resource,
      authorization_servers: options.authorizationServers,
      // What is not configured is left to `metadata`.
      ...(supported ? { scopes_supported: supported } : {}),
      bearer_methods_supported: ["header"],
      ...(options.resourceName === undefined ? {} : { resource_name: options.resourceName }),
    });
  const documents = new Map([[WELL_KNOWN + path, document(options.resource)]]);
  const audiences = [options.resource];
  // The root's document names the origin: RFC 9728 §3.3 wants the identifier its URL was formed from.
  if (options.rootMetadata && path !== "") {
    documents.set(WELL_KNOWN, document(url.origin));
    audiences.push(url.origin);
  }
  return { documents, url: url.origin + WELL_KNOWN + path, audiences };
}

/**
 * The answer to a request for one of the documents: GET gets it, OPTIONS the CORS preflight, any
 * other method 405. Metadata is public: every origin may read it (a browser client discovers its
 * authorization server from any page); undefined for any other path.
 */
export function metadataReply(published: PublishedMetadata, exchange: HttpExchange): HttpReply | undefined {
  const document = published.documents.get(exchange.url.pathname);
  if (document === undefined) return undefined;
  const cors: Record<string, string> = { "access-control-allow-origin": "*" };
  if (exchange.method === "GET")
    return { status: 200, headers: { ...cors, "content-type": "application/json", "cache-control": "max-age=3600" }, body: document };
  if (exchange.method === "OPTIONS") {
    const requested = exchange.header("access-control-request-headers");
    return emptyReply(204, {
      ...cors,
      allow: ALLOW,
      "access-control-allow-methods": ALLOW,
      "access-control-max-age": "86400",
      ...(requested === null ? {} : { "access-control-allow-headers": requested }),
    });
  }
  return errorReply(405, "Method Not Allowed", { headers: { ...cors, allow: ALLOW } });
}

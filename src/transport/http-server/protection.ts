import type { HttpEndpointOptions, HttpExchange, HttpReply } from "./http-server.types.js";
import { emptyReply, errorReply } from "./responses.js";

const LOOPBACK_NAMES: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

const PREFLIGHT_HEADERS = "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id";

/** "name:port" → "name" (brackets kept for IPv6 literals). */
function hostnameOf(host: string): string {
  const end = host.startsWith("[") ? host.indexOf("]") + 1 : host.indexOf(":");
  return end > 0 ? host.slice(0, end) : host;
}

function isLoopbackOrigin(origin: string): boolean {
  if (!URL.canParse(origin)) return false;
  const url = new URL(origin);
  return (url.protocol === "http:" || url.protocol === "https:") && LOOPBACK_NAMES.includes(url.hostname);
}

/**
 * The checks every request passes before anything else: the Host header (DNS rebinding) and the
 * Origin header (browsers), both 403 when not allowed; and the CORS headers for allowed origins.
 */
export class RequestGuard {
  readonly #hosts: readonly string[] | "*";
  readonly #origins: readonly string[] | "*" | undefined;

  constructor(options: HttpEndpointOptions) {
    this.#hosts = options.allowedHosts === "*" ? "*" : (options.allowedHosts ?? LOOPBACK_NAMES).map((host) => host.toLowerCase());
    this.#origins = options.allowedOrigins === "*" ? "*" : options.allowedOrigins?.map((origin) => origin.toLowerCase());
  }

  /** A 403 when the Host or the Origin is not allowed; undefined when the request may proceed. */
  refusal(exchange: HttpExchange): HttpReply | undefined {
    const host = (exchange.header("host") ?? exchange.url.host).toLowerCase();
    if (!this.#hostAllowed(host)) return errorReply(403, `Forbidden: Host "${host}" is not allowed (allowedHosts)`);
    const origin = exchange.header("origin");
    if (origin !== null && !this.#originAllowed(origin))
      return errorReply(403, `Forbidden: Origin "${origin}" is not allowed (allowedOrigins)`);
    return undefined;
  }

  /** CORS headers for a request from an allowed browser origin (none without an Origin header). */
  corsHeaders(exchange: HttpExchange): Record<string, string> | undefined {
    const origin = exchange.header("origin");
    if (origin === null) return undefined;
    return {
      "access-control-allow-origin": origin,
      "access-control-expose-headers": "mcp-session-id, mcp-protocol-version, www-authenticate",
      vary: "origin",
    };
  }

  /** The answer to OPTIONS: a CORS preflight when it comes from a browser. */
  preflight(exchange: HttpExchange, allow: string): HttpReply {
    const headers: Record<string, string> = { allow };
    if (exchange.header("origin") !== null) {
      headers["access-control-allow-methods"] = allow;
      headers["access-control-allow-headers"] = exchange.header("access-control-request-headers") ?? PREFLIGHT_HEADERS;
      headers["access-control-max-age"] = "86400";
    }
    return emptyReply(204, headers);
  }

  #hostAllowed(host: string): boolean {
    return this.#hosts === "*" || this.#hosts.includes(host) || this.#hosts.includes(hostnameOf(host));
  }

  #originAllowed(origin: string): boolean {
    if (this.#origins === "*") return true;
    return this.#origins ? this.#origins.includes(origin.toLowerCase()) : isLoopbackOrigin(origin);
  }
}

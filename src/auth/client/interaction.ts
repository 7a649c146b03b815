// The headless way to finish an authorization code flow: an `Interaction` that follows the
// authorization server's redirects itself, for servers that grant at once (test servers, CI, a
// pre-consented client). A browser app sends the page away instead and resumes with
// `Authorizer.finish(callbackUrl)`; a desktop or CLI host on Node uses a loopback listener.
import { authError } from "./auth-error.js";
import type { Interaction } from "./authorizer.js";

/** The headers of a redirect: `Set-Cookie` fields one by one where the fetch can give them (the platform's `Headers` can). */
export interface RedirectHeaders {
  get(name: string): string | null;
  getSetCookie?(): string[];
}

/** A fetch that can be told not to follow redirects (the platform's `fetch` can); `headers` carries the interaction's cookies. */
export type RedirectFetch = (
  url: string,
  init: {
    readonly method: string;
    readonly redirect: "manual";
    readonly headers?: Readonly<Record<string, string>>;
    readonly signal: AbortSignal;
  },
) => Promise<{ readonly status: number; readonly headers: RedirectHeaders }>;

const MAX_REDIRECTS = 10;

/**
 * Follows the authorization server's redirects (GET, `redirect: "manual"`) until one goes to
 * `redirectUri`, and resolves with that URL, which is never fetched. Cookies set along the way are
 * sent back as a browser would, within this one interaction: servers keep the login and consent
 * state of an authorization request in them (oidc-provider, Keycloak…). A page that answers without
 * a redirect needs a user: that is an error.
 */
export function headlessInteraction(redirectUri: string, fetch: RedirectFetch = (url, init) => globalThis.fetch(url, init)): Interaction {
  return async (authorizationUrl, signal) => {
    const cookies = new InteractionCookies();
    let url = authorizationUrl;
    for (let hop = 0; hop < MAX_REDIRECTS; hop++) {
      const target = new URL(url);
      const cookie = cookies.header(target);
      const response = await fetch(url, { method: "GET", redirect: "manual", headers: cookie === undefined ? {} : { cookie }, signal });
      cookies.keep(target, response.headers.getSetCookie?.() ?? []);
      const location = response.headers.get("location");
      if (response.status < 300 || response.status > 399 || location === null) {
        throw authError(
          "authorization-denied",
          `The authorization server answered HTTP ${response.status} without a redirect: ` +
            "a user has to finish this authorization (give an interact that shows the page)",
          { status: response.status },
        );
      }
      url = new URL(location, url).href;
      if (url.startsWith(redirectUri)) return url;
    }
    throw authError(
      "authorization-denied",
      `The authorization server redirected more than ${MAX_REDIRECTS} times without reaching the redirect URI`,
    );
  };
}

interface Cookie {
  readonly origin: string;
  readonly path: string;
  readonly name: string;
  readonly value: string;
}

/**
 * The cookies of one interaction (RFC 6265 §5.2–§5.4, as far as a redirect chain needs): sent only to
 * the origin that set them (`Domain` is ignored: host-only), on paths under their `Path` (default:
 * the setting URL's directory); `Max-Age` ≤ 0 or a past `Expires` removes one. Nothing outlives the
 * interaction.
 */
class InteractionCookies {
  readonly #cookies = new Map<string, Cookie>();

  keep(url: URL, fields: readonly string[]): void {
    for (const field of fields) {
      const parsed = parseSetCookie(field, url);
      if (parsed === undefined) continue;
      const key = JSON.stringify([parsed.cookie.origin, parsed.cookie.path, parsed.cookie.name]);
      if (parsed.expired) this.#cookies.delete(key);
      else this.#cookies.set(key, parsed.cookie);
    }
  }

  /** The `Cookie` header for `url`, or undefined when no cookie goes there. */
  header(url: URL): string | undefined {
    const sent = [...this.#cookies.values()].filter((cookie) => cookie.origin === url.origin && pathMatches(url.pathname, cookie.path));
    return sent.length === 0 ? undefined : sent.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
  }
}

function parseSetCookie(field: string, url: URL): { readonly cookie: Cookie; readonly expired: boolean } | undefined {
  const [pair = "", ...attributes] = field.split(";");
  const equals = pair.indexOf("=");
  const name = pair.slice(0, Math.max(equals, 0)).trim();
  if (name === "") return undefined;
  let path = defaultPath(url);
  let maxAge: number | undefined;
  let expires: number | undefined;
  for (const attribute of attributes) {
    const at = attribute.indexOf("=");
    const key = (at === -1 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const value = at === -1 ? "" : attribute.slice(at + 1).trim();
    if (key === "path" && value.startsWith("/")) path = value;
    else if (key === "max-age" && /^-?\d+$/.test(value)) maxAge = Number(value);
    else if (key === "expires" && !Number.isNaN(Date.parse(value))) expires = Date.parse(value);
  }
  // Max-Age wins over Expires (RFC 6265 §5.3 step 3).
  const expired = maxAge === undefined ? expires !== undefined && expires <= Date.now() : maxAge <= 0;
  return { cookie: { origin: url.origin, path, name, value: pair.slice(equals + 1).trim() }, expired };
}

/** RFC 6265 §5.1.4: the request path's directory. */
function defaultPath(url: URL): string {
  const slash = url.pathname.lastIndexOf("/");
  return slash <= 0 ? "/" : url.pathname.slice(0, slash);
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  return (
    requestPath === cookiePath ||
    (requestPath.startsWith(cookiePath) && (cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/"))
  );
}

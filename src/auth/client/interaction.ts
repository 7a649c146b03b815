// The headless way to finish an authorization code flow: an `Interaction` that follows the
// authorization server's redirects itself, for servers that grant at once (test servers, CI, a
// pre-consented client). A browser app sends the page away instead and resumes with
// `Authorizer.finish(callbackUrl)`; a desktop or CLI host on Node uses a loopback listener.
import { authError } from "./auth-error.js";
import type { Interaction } from "./authorizer.js";

/** A fetch that can be told not to follow redirects (the platform's `fetch` can). */
export type RedirectFetch = (url: string, init: { readonly method: string; readonly redirect: "manual"; readonly signal: AbortSignal }) => Promise<{ readonly status: number; readonly headers: { get(name: string): string | null } }>;

const MAX_REDIRECTS = 10;

/**
 * Follows the authorization server's redirects (GET, `redirect: "manual"`) until one goes to
 * `redirectUri`, and resolves with that URL, which is never fetched. A page that answers without a
 * redirect needs a user: that is an error.
 */
export function headlessInteraction(redirectUri: string, fetch: RedirectFetch = (url, init) => globalThis.fetch(url, init)): Interaction {
  return async (authorizationUrl, signal) => {
    let url = authorizationUrl;
    for (let hop = 0; hop < MAX_REDIRECTS; hop++) {
      const response = await fetch(url, { method: "GET", redirect: "manual", signal });
      const location = response.headers.get("location");
      if (response.status < 300 || response.status > 399 || location === null) {
        throw authError("authorization-denied", `The authorization server answered HTTP ${response.status} without a redirect: a user has to finish this authorization (give an interact that shows the page)`, { status: response.status });
      }
      url = new URL(location, url).href;
      if (url.startsWith(redirectUri)) return url;
    }
    throw authError("authorization-denied", `The authorization server redirected more than ${MAX_REDIRECTS} times without reaching the redirect URI`);
  };
}

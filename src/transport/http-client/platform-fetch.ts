// The HTTP client transports' default fetch where no faster one is known (browsers, Bun, Deno,
// workers, bundlers): the platform's own. The package resolves `#default-fetch` here everywhere but
// on Node (package.json `imports`), where src/node/default-fetch.ts answers instead.
import type { FetchLike } from "./http-options.js";

/** `globalThis.fetch`, looked up at each request, so one replaced later (a test's mock, a polyfill) is the one used. */
export const platformFetch: FetchLike = (url, init) => globalThis.fetch(url, init);

/** The fetch for a request sent now without a `fetchImpl`: here, always the platform's. */
export function defaultFetch(): FetchLike {
  return platformFetch;
}

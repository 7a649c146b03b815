// The HTTP client transports' default fetch on Node (package.json `imports` maps `#default-fetch`
// here under the "node" condition, after Bun's and Deno's, which also match "node"): `nodeFetch()`,
// about a quarter of the platform fetch's CPU per request, while `globalThis.fetch` is still the one
// the process had when the package loaded. A fetch put in its place since (a test's mock, MSW, a
// polyfill) is honoured, at each request, as the platform default would.
import type { defaultFetch as platformDefault } from "../transport/http-client/platform-fetch.js";
import { platformFetch } from "../transport/http-client/platform-fetch.js";
import type { FetchLike } from "../transport/http-client/http-options.js";
import { nodeFetch } from "./node-fetch.js";

const ORIGINAL_FETCH = globalThis.fetch;

/** One for the process: its agents keep connections alive across transports (idle ones do not hold the process open). */
let fast: FetchLike | undefined;

/** The fetch for a request sent now without a `fetchImpl`. */
export const defaultFetch: typeof platformDefault = () => (globalThis.fetch === ORIGINAL_FETCH ? (fast ??= nodeFetch()) : platformFetch);

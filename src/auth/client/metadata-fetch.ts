// One GET of a metadata document, shared by protected resource and authorization server discovery:
// it says whether the candidate URL gave a JSON object, or why it did not so that discovery can try
// the next one. What counts as "not here": a 4xx (or other non-2xx below 500), an answer that is not
// a JSON object, one too large, and a fetch that rejects with a TypeError, which is how a browser
// reports a CORS refusal (undici reports network failures the same way; the not-found error then
// lists them). A 5xx, or a rejection of another kind, ends the discovery: the server is failing,
// and guessing on could pick a document it did not mean.
import { describeThrown } from "../../error-codes/mcp-error.js";
import { ignoreFailure, readText } from "../../transport/http-client/body.js";
import type { FetchLike, FetchResponse } from "../../transport/http-client/http-options.js";
import { authError, displayUrl, untrustedText } from "./auth-error.js";

/** What every discovery function takes. */
export interface DiscoveryOptions {
  /** The fetch to use: `globalThis.fetch`, `nodeFetch()`, a test double… (the transports' `FetchLike`). */
  readonly fetch: FetchLike;
  /** Stops the discovery; it then rejects with `MCP.REQUEST_CANCELLED`. */
  readonly signal?: AbortSignal;
  /**
   * Sent as `MCP-Protocol-Version` (2025-03-26 asks for it during discovery). In a browser a custom
   * header makes the GET need a CORS preflight, which a metadata endpoint may refuse.
   */
  readonly protocolVersion?: string;
  /** The largest document read, in bytes (default `MAX_METADATA_BYTES`); a larger one counts as not found. */
  readonly maxDocumentBytes?: number;
}

/** Metadata documents are a few kilobytes; this is far above any real one. */
export const MAX_METADATA_BYTES = 256 * 1024;

/** What one candidate URL gave: a JSON object, or the reason it gave none. */
export type Fetched = { readonly document: Record<string, unknown> } | { readonly missing: string };

/** One candidate tried without result, for the not-found message. */
export interface DiscoveryAttempt {
  readonly url: string;
  readonly outcome: string;
}

/** GETs `url` and reads a JSON object from it; throws only when discovery must stop (see the top of this file). */
export async function fetchMetadataDocument(url: URL, options: DiscoveryOptions): Promise<Fetched> {
  const signal = options.signal ?? new AbortController().signal;
  if (signal.aborted) throw cancelled(url, signal.reason);
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.protocolVersion !== undefined) headers["mcp-protocol-version"] = options.protocolVersion;
  let response: FetchResponse;
  try {
    response = await options.fetch(url.href, { method: "GET", headers, signal });
  } catch (error) {
    if (signal.aborted) throw cancelled(url, error);
    if (error instanceof TypeError) return { missing: `unreachable (${untrustedText(describeThrown(error))})` };
    throw authError(
      "metadata-unavailable",
      `GET ${displayUrl(url)} failed: ${untrustedText(describeThrown(error))}`,
      { url: displayUrl(url) },
      error,
    );
  }
  if (response.status >= 500) {
    discardBody(response);
    throw authError(
      "metadata-unavailable",
      `HTTP ${response.status} from GET ${displayUrl(url)}: the server failed, so discovery stops here`,
      { url: displayUrl(url), status: response.status },
    );
  }
  if (!response.ok) {
    discardBody(response);
    return { missing: `HTTP ${response.status}` };
  }
  return documentOf(response, options.maxDocumentBytes ?? MAX_METADATA_BYTES);
}

async function documentOf(response: FetchResponse, maxBytes: number): Promise<Fetched> {
  const { text, complete } = await readText(response, maxBytes);
  if (!complete) return { missing: `not read whole (larger than ${maxBytes} bytes, or the body broke off)` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { missing: "not JSON" };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return { missing: "not a JSON object" };
  return { document: parsed as Record<string, unknown> };
}

function discardBody(response: FetchResponse): void {
  if (response.body !== null) ignoreFailure(response.body.cancel());
}

function cancelled(url: URL, cause: unknown): Error {
  return authError("cancelled", `Discovery was cancelled at GET ${displayUrl(url)}`, { url: displayUrl(url) }, cause);
}

/** The attempts as one clause: "https://a/x: HTTP 404; https://a/y: not JSON". */
export function describeAttempts(attempts: readonly DiscoveryAttempt[]): string {
  return attempts.map((attempt) => `${attempt.url}: ${attempt.outcome}`).join("; ");
}

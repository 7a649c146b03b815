import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, describeThrown } from "../../error-codes/mcp-error.js";
// package.json `imports`: src/node/default-fetch.ts on Node, ./platform-fetch.ts everywhere else.
import { defaultFetch } from "#default-fetch";
import type { ChunkReader } from "./body.js";
import { networkError } from "./http-error.js";

/** What the transports send: a method, plain headers, a text body, and the signal that stops it. */
export interface FetchInit {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly signal: AbortSignal;
}

/** What the transports read of an answer: a web `Response` has it all, and so does a lighter one (`nodeFetch`). */
export interface FetchResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body: FetchBody | null;
}

/** A body read chunk by chunk (a web `ReadableStream<Uint8Array>` is one). */
export interface FetchBody {
  getReader(): ChunkReader;
  cancel(reason?: unknown): Promise<void>;
}

/** The part of `fetch` the transports use; `globalThis.fetch`, undici's, `nodeFetch()` of the Node entry, a test double… */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponse>;

/** Extra headers for every request (e.g. `Authorization`), or a function giving them (called per request, so tokens can refresh). */
export type HeadersSource = HeaderValues | (() => HeaderValues | Promise<HeaderValues>);

/** Header names and values in any form the `Headers` constructor takes. */
export type HeaderValues = Headers | Record<string, string> | [string, string][];

/** What both HTTP client transports accept. */
export interface HttpClientOptions {
  /**
   * The fetch to use. Default: on Node, `nodeFetch()` while `globalThis.fetch` is the process's own
   * (a replaced one is used instead); elsewhere `globalThis.fetch`; either looked up at each request.
   */
  readonly fetchImpl?: FetchLike;
  /** Headers added to every request; the transport's own (Accept, Content-Type, Mcp-Session-Id…) win over them. */
  readonly headers?: HeadersSource;
  /** The longest message accepted from the server, in bytes (default 16 MiB); a longer one is reported to `onMalformed` and skipped. */
  readonly maxMessageBytes?: number;
  /** Hears problems that fail no call: the GET stream giving up, a DELETE refused on close. */
  readonly onError?: (error: MCPError) => void;
}

/** Resolves the fetch to use now (called per request), so a `globalThis.fetch` replaced after construction is still honoured. */
export function fetchOf(options: HttpClientOptions): FetchLike {
  return options.fetchImpl ?? defaultFetch();
}

/**
 * The caller's headers with the transport's own set on top, as a plain object of lower-case names
 * (fetch reads one faster than a `Headers`); a promise only when the caller's come from a function.
 */
export function headersFor(
  source: HeadersSource | undefined,
  own: Readonly<Record<string, string | undefined>>,
): Record<string, string> | Promise<Record<string, string>> {
  if (typeof source !== "function") return merged(source, own);
  return callerHeaders(source).then((values) => merged(values, own));
}

async function callerHeaders(source: () => HeaderValues | Promise<HeaderValues>): Promise<HeaderValues> {
  try {
    return await source();
  } catch (error) {
    throw headersFailed(error);
  }
}

function merged(values: HeaderValues | undefined, own: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const headers: Record<string, string> = {};
  if (values !== undefined) {
    let given: Headers;
    try {
      given = new Headers(values);
    } catch (error) {
      throw headersFailed(error);
    }
    given.forEach((value, name) => (headers[name] = value));
  }
  for (const name in own) {
    const value = own[name];
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

function headersFailed(error: unknown): MCPError {
  return new MCPError(MCP_CODES.TRANSPORT_ERROR, `The headers option failed: ${describeThrown(error)}`, { cause: error });
}

/** Runs one fetch: a refusal or network failure becomes `MCP.TRANSPORT_ERROR`, an abort by close `MCP.TRANSPORT_CLOSED`. */
export async function fetchOrFail(fetchImpl: FetchLike, url: string, init: FetchInit): Promise<FetchResponse> {
  try {
    return await fetchImpl(url, init);
  } catch (error) {
    if (init.signal.aborted)
      throw new MCPError(
        MCP_CODES.TRANSPORT_CLOSED,
        `${init.method} ${url} was aborted (the transport closed, or the request was given up)`,
        { cause: error },
      );
    // A fetch wrapper's own error (an Authorizer that could not get a token) says more than "network error".
    if (error instanceof MCPError) throw error;
    throw networkError(init.method, url, error);
  }
}

// Requests to an authorization server's token endpoint (RFC 6749 §3.2, §4.1.3, §6; RFC 7523 §2.2;
// RFC 8693): a form POST with the client's authentication, a JSON answer. What goes wrong is said
// without the code, verifier, secret, assertion or token that was sent.
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, describeThrown } from "../../error-codes/mcp-error.js";
import { readText } from "../../transport/http-client/body.js";
import type { FetchLike, FetchResponse } from "../../transport/http-client/http-options.js";
import type { DpopProver } from "./dpop.js";
import type { ClientRegistration, StoredTokens } from "./oauth-store.js";

/** A token or registration answer is a few kilobytes; this is far above any real one. */
const MAX_ANSWER_BYTES = 256 * 1024;

/** A JSON answer of an authorization server, or undefined when it is not JSON (or too large). */
export async function jsonAnswer(response: FetchResponse): Promise<unknown> {
  const { text, complete } = await readText(response, MAX_ANSWER_BYTES);
  if (!complete) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What a token endpoint answers with (RFC 6749 §5.1). */
export interface TokenResponse {
  readonly access_token: string;
  readonly token_type: string;
  readonly expires_in?: number;
  readonly refresh_token?: string;
  readonly scope?: string;
  readonly issued_token_type?: string;
}

/**
 * Makes the client's assertion for `private_key_jwt` (a JWT signed with its key: `privateKeyJwtAssertion`
 * of src/auth/jose), for the authorization server it goes to: its audience is the server's issuer.
 */
export type ClientAssertion = (server: { readonly issuer: string; readonly tokenEndpoint: string }) => Promise<string>;

export interface TokenRequest {
  /** The authorization server's issuer (the audience of a `private_key_jwt` assertion). */
  readonly issuer: string;
  readonly tokenEndpoint: string;
  /** The grant's own parameters (`grant_type` and what it needs); the client's authentication is added. */
  readonly params: Readonly<Record<string, string | undefined>>;
  readonly client: ClientRegistration;
  readonly assertion?: ClientAssertion;
  readonly fetch: FetchLike;
  readonly signal?: AbortSignal;
  /** Asks for a DPoP-bound token (RFC 9449 §5): each request carries a proof of this client's key. */
  readonly dpop?: DpopProver;
}

/** The signal of a request nobody can cancel. */
export const NEVER: AbortSignal = /* @__PURE__ */ neverSignal();

// A pure call: a bundler drops it with NEVER, where it keeps the `.signal` read of `new AbortController().signal`.
function neverSignal(): AbortSignal {
  return new AbortController().signal;
}

const JWT_BEARER_ASSERTION = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/** POSTs a token request; resolves with the token response, or rejects with `MCP.UNAUTHORIZED` naming the OAuth error. */
export async function requestToken(request: TokenRequest): Promise<TokenResponse> {
  const { params, headers } = await authenticated(request);
  const grant = params["grant_type"] ?? "?";
  const { dpop, tokenEndpoint } = request;
  const body = formBody(params);
  let response: FetchResponse;
  let answer: unknown;
  // Twice at most: a DPoP proof without the nonce the server now asks for is sent again with it (RFC 9449 §8).
  for (let attempt = 0; ; attempt++) {
    const proof = dpop === undefined ? {} : { dpop: await dpop.proof({ method: "POST", url: tokenEndpoint }) };
    try {
      response = await request.fetch(tokenEndpoint, {
        method: "POST",
        headers: { ...headers, ...proof },
        body,
        signal: request.signal ?? NEVER,
      });
    } catch (error) {
      throw new MCPError(MCP_CODES.TRANSPORT_ERROR, `The token request (${grant}) to ${tokenEndpoint} failed: ${describeThrown(error)}`);
    }
    answer = await jsonAnswer(response);
    const gotNonce = dpop?.remember(tokenEndpoint, response) === true;
    if (response.ok || attempt > 0 || !gotNonce || (answer as { error?: unknown } | undefined)?.error !== "use_dpop_nonce") break;
  }
  if (!response.ok) throw tokenError(response.status, answer, grant, tokenEndpoint);
  const tokens = answer as Partial<TokenResponse> | undefined;
  if (typeof tokens?.access_token !== "string" || typeof tokens.token_type !== "string") {
    throw new MCPError(
      MCP_CODES.UNAUTHORIZED,
      `The token endpoint ${tokenEndpoint} answered the ${grant} grant without an access_token and token_type`,
    );
  }
  return tokens as TokenResponse;
}

/**
 * The tokens to keep from a token response: an absolute expiry, the scope granted (or asked for), and the refresh token it rotated to (or
 * the one held).
 */
export function toStoredTokens(
  response: TokenResponse,
  context: {
    readonly issuer: string;
    readonly resource: string;
    readonly scope?: string | undefined;
    readonly refreshToken?: string | undefined;
    readonly now: number;
  },
): StoredTokens {
  const expiresIn = response.expires_in;
  const refreshToken = response.refresh_token ?? context.refreshToken;
  const scope = response.scope ?? context.scope;
  return {
    accessToken: response.access_token,
    tokenType: response.token_type,
    ...(typeof expiresIn === "number" && expiresIn > 0 ? { expiresAt: context.now + expiresIn * 1000 } : {}),
    ...(refreshToken === undefined ? {} : { refreshToken }),
    ...(scope === undefined ? {} : { scope }),
    issuer: context.issuer,
    resource: context.resource,
  };
}

/** The request's params and headers with the client's authentication (RFC 6749 §2.3.1; RFC 7523 §2.2). */
async function authenticated(
  request: TokenRequest,
): Promise<{ params: Record<string, string | undefined>; headers: Record<string, string> }> {
  const { client } = request;
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  const params: Record<string, string | undefined> = { ...request.params };
  switch (client.authMethod) {
    case "client_secret_basic":
      // RFC 6749 §2.3.1: both parts form-encoded before they are joined and Base64-encoded.
      headers["authorization"] = `Basic ${btoa(`${formEncode(client.clientId)}:${formEncode(secretOf(client))}`)}`;
      break;
    case "client_secret_post":
      params["client_id"] = client.clientId;
      params["client_secret"] = secretOf(client);
      break;
    case "private_key_jwt":
      if (!request.assertion)
        throw new MCPError(
          MCP_CODES.UNAUTHORIZED,
          `The client ${client.clientId} authenticates with private_key_jwt, but no key to sign its assertion was given`,
        );
      params["client_id"] = client.clientId;
      params["client_assertion_type"] = JWT_BEARER_ASSERTION;
      params["client_assertion"] = await request.assertion({ issuer: request.issuer, tokenEndpoint: request.tokenEndpoint });
      break;
    case "none":
      params["client_id"] = client.clientId;
  }
  return { params, headers };
}

function secretOf(client: ClientRegistration): string {
  if (client.clientSecret === undefined)
    throw new MCPError(
      MCP_CODES.UNAUTHORIZED,
      `The client ${client.clientId} authenticates with ${client.authMethod}, but has no client secret`,
    );
  return client.clientSecret;
}

function tokenError(status: number, body: unknown, grant: string, endpoint: string): MCPError {
  const { error, error_description: description } = (typeof body === "object" && body !== null ? body : {}) as {
    error?: unknown;
    error_description?: unknown;
  };
  const code = typeof error === "string" ? error.slice(0, 100) : undefined;
  const detail = typeof description === "string" ? `: ${description.slice(0, 300)}` : "";
  return new MCPError(
    MCP_CODES.UNAUTHORIZED,
    `The token endpoint ${endpoint} refused the ${grant} grant (HTTP ${status}${code === undefined ? "" : `, ${code}`})${detail}`,
    {
      data: { status, ...(code === undefined ? {} : { error: code }) },
    },
  );
}

/** `application/x-www-form-urlencoded`, the parameters left undefined omitted. */
export function formBody(params: Readonly<Record<string, string | undefined>>): string {
  return Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${formEncode(name)}=${formEncode(value)}`)
    .join("&");
}

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, "+");
}

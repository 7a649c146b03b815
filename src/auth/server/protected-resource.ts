import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import type { WireMessage } from "../../jsonrpc/dispatcher/classify.js";
import type { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { AuthenticationResult, HttpAuthorization, HttpExchange, HttpReply } from "../../transport/http-server/http-server.types.js";
import { errorReply } from "../../transport/http-server/responses.js";
import type { InboundContext } from "../../transport/transport/transport.types.js";
import type { JsonRpcId } from "../../types/types.js";
import { presentedToken, tokenInQuery } from "./bearer.js";
import { bearerChallenge, checkedScopes, union } from "./challenge.js";
import { isInsufficientScope, rememberEndpoint, type ChallengeContext } from "./insufficient-scope.js";
import { metadataReply, publishedMetadata, type PublishedMetadata } from "./metadata.js";
import type { ResourceServerOptions, TokenPrincipal, VerifyContext } from "./resource-server.types.js";

/**
 * An OAuth 2.1 resource server for an HTTP endpoint: give it to `streamableHttpHandler` or
 * `sseHttpHandler` as `authorization`. It serves the endpoint's protected resource metadata (RFC
 * 9728), takes each request's bearer token from the `Authorization` header only, verifies it, and
 * answers 400/401/403/503 with their `WWW-Authenticate` challenges; the scopes a request's tool,
 * prompt or resource needs (`requiredScopes` at registration) are checked before it is served.
 */
export function protectedResource(options: ResourceServerOptions): ProtectedResource {
  return new ProtectedResource(options);
}

type Refusal = Extract<AuthenticationResult, { refuse: number }>;

export class ProtectedResource implements HttpAuthorization {
  readonly #verifier: ResourceServerOptions["verifier"];
  readonly #onVerifierError: ResourceServerOptions["onVerifierError"];
  readonly #published: PublishedMetadata;
  readonly #verifying: VerifyContext;
  readonly #endpoint: ChallengeContext;
  /** What the 401 challenge asks for: the scopes every request needs, else those for basic use. */
  readonly #asked: readonly string[];
  readonly #implied: ReadonlyMap<string, readonly string[]>;

  constructor(options: ResourceServerOptions) {
    this.#published = publishedMetadata(options);
    const required = checkedScopes(options.requiredScopes ?? [], "protectedResource: requiredScopes");
    this.#implied = new Map(Object.entries(options.impliedScopes ?? {}));
    for (const [scope, implied] of this.#implied) checkedScopes([scope, ...implied], "protectedResource: impliedScopes");
    this.#verifier = options.verifier;
    this.#onVerifierError = options.onVerifierError;
    this.#verifying = { resource: options.resource, audiences: this.#published.audiences };
    this.#endpoint = { resourceMetadata: this.#published.url, requiredScopes: required };
    this.#asked = required.length > 0 ? required : (options.scopesSupported ?? []);
  }

  /** The URL of the endpoint's protected resource metadata: what every challenge names as `resource_metadata`. */
  get metadataUrl(): string {
    return this.#published.url;
  }

  /**
   * The metadata documents first (public, any origin); every other request through `door`, without
   * its token in the headers handlers see, its reply turned into a 403 when it carries a handler's
   * insufficient-scope error.
   */
  async serve(exchange: HttpExchange, door: { handle(exchange: HttpExchange): Promise<HttpReply> }): Promise<HttpReply> {
    return metadataReply(this.#published, exchange) ?? stepUp(await door.handle(withoutToken(exchange)));
  }

  /** The endpoint's `authenticate` hook (bound: it is handed around as a function). */
  readonly authenticate = (request: Request): Promise<AuthenticationResult> =>
    this.#identify(request.headers.get("authorization"), request.url);

  /**
   * Before a POST's messages are served: the scopes its requests need (each one's tool, prompt,
   * resource or template `requiredScopes`) must all be held by the caller; else 403 naming every
   * scope they need, with the endpoint's own.
   */
  admit(
    endpoint: { readonly server: MCPServer },
    inbound: InboundContext,
    read: { readonly ok: true; readonly posted: { readonly messages: readonly WireMessage[] } } | { readonly ok: false },
  ): { readonly ok: false; readonly reply: HttpReply } | undefined {
    // A POST refused already (or its body unread) is answered by that refusal.
    if (!read.ok) return undefined;
    const messages = read.posted.messages;
    const needed: string[] = [];
    for (const { id, method, params } of messages) {
      // A notification asks nothing to be served; a response names no method, so no registration.
      if (id === undefined) continue;
      const scopes = endpoint.server.registrationOf(method as string, params)?.config.requiredScopes;
      if (scopes) needed.push(...checkedScopes(scopes, `requiredScopes of what ${method} names`));
    }
    if (!this.#lacks(inbound.authInfo as TokenPrincipal, needed)) return undefined;
    const only = messages.length === 1 ? (messages[0]?.id as JsonRpcId) : null;
    return { ok: false, reply: refusalReply(this.#insufficient(needed), only) };
  }

  async #identify(authorization: string | null, url: string): Promise<AuthenticationResult> {
    if (tokenInQuery(url)) return this.#badRequest("access tokens are not accepted in the query string: send the Authorization header");
    const presented = presentedToken(authorization);
    if (presented.kind === "none")
      return { refuse: 401, wwwAuthenticate: this.#challenge(), message: "Unauthorized: a bearer token is required" };
    if (presented.kind === "malformed") return this.#badRequest("the Authorization header must carry exactly one bearer token");
    let verified: Awaited<ReturnType<ResourceServerOptions["verifier"]>>;
    try {
      verified = await this.#verifier(presented.token, this.#verifying);
    } catch (error) {
      // The token may be fine: the client keeps it and comes back, it is not told to sign in again.
      this.#onVerifierError?.(error);
      return { refuse: 503, message: "Service Unavailable: the access token cannot be verified now" };
    }
    if ("refused" in verified)
      return {
        refuse: 401,
        wwwAuthenticate: this.#challenge("invalid_token", verified.refused),
        message: `Unauthorized: ${verified.refused}`,
      };
    // One principal per request, so a handler's demand for more scope names this endpoint (a verifier may share its objects).
    const principal: TokenPrincipal = { ...verified };
    rememberEndpoint(principal, this.#endpoint);
    return this.#lacks(principal, []) ? this.#insufficient([]) : { authInfo: principal };
  }

  /** Whether `principal` lacks one of the endpoint's scopes or of `needed`, counting what its scopes imply. */
  #lacks(principal: TokenPrincipal, needed: readonly string[]): boolean {
    const granted = new Set<string>();
    const grant = (scope: string): void => {
      if (granted.has(scope)) return;
      granted.add(scope);
      this.#implied.get(scope)?.forEach(grant);
    };
    for (const scope of principal.scopes) grant(scope);
    return union(this.#endpoint.requiredScopes, needed).some((scope) => !granted.has(scope));
  }

  /** 403 `insufficient_scope` naming the endpoint's scopes and `needed`. */
  #insufficient(needed: readonly string[]): Refusal {
    const scopes = union(this.#endpoint.requiredScopes, needed);
    const description = `this request needs the scopes ${scopes.join(" ")}`;
    return {
      refuse: 403,
      wwwAuthenticate: bearerChallenge({
        error: "insufficient_scope",
        scopes,
        resourceMetadata: this.#published.url,
        errorDescription: description,
      }),
      message: `Forbidden: ${description}`,
    };
  }

  /** The 401 challenge: where the metadata is, the scopes to ask for, and (when a token was presented) why it failed. */
  #challenge(error?: "invalid_token", description?: string): string {
    return bearerChallenge({ error, errorDescription: description, scopes: this.#asked, resourceMetadata: this.#published.url });
  }

  #badRequest(description: string): Refusal {
    return {
      refuse: 400,
      wwwAuthenticate: bearerChallenge({ error: "invalid_request", errorDescription: description, resourceMetadata: this.#published.url }),
      message: `Bad Request: ${description}`,
    };
  }
}

/**
 * The exchange as the endpoint sees it: `InboundContext.headers` without `Authorization`. The token was
 * this resource server's to verify; a handler that never holds it can neither log it nor pass it on
 * (token passthrough is forbidden). `authenticate` still reads it, from the request.
 */
function withoutToken(exchange: HttpExchange): HttpExchange {
  return {
    method: exchange.method,
    url: exchange.url,
    header: (name) => exchange.header(name),
    headers: () => {
      const headers = exchange.headers();
      delete headers["authorization"];
      return headers;
    },
    text: (maxBytes) => exchange.text(maxBytes),
    onClientGone: (listener) => exchange.onClientGone(listener),
    request: () => exchange.request(),
  };
}

/** A refusal of the scope check as the reply of its POST (the JSON-RPC id of a lone request). */
function refusalReply(refusal: Refusal, id: JsonRpcId | null): HttpReply {
  return errorReply(refusal.refuse, refusal.message as string, {
    code: JSONRPC_ERROR_CODES.UNAUTHORIZED,
    id,
    headers: { "www-authenticate": refusal.wwwAuthenticate as string },
  });
}

/**
 * A JSON answer (one message) carrying a handler's insufficient-scope error is still answerable over
 * HTTP: it becomes 403 with the error's challenge. Stream answers went out already; a batch keeps its
 * other answers.
 */
function stepUp(reply: HttpReply): HttpReply {
  const body = reply.body;
  // Only a text that could hold one is parsed.
  if (typeof body !== "string" || !body.includes('"insufficient_scope"')) return reply;
  const answer = JSON.parse(body) as { error?: unknown };
  if (!isInsufficientScope(answer.error)) return reply;
  return { status: 403, headers: { ...reply.headers, "www-authenticate": answer.error.data.wwwAuthenticate }, body };
}

/**
 * Who an access token says is calling, as a `TokenVerifier` established it: what reaches handlers as
 * `ctx.principal` (and `InboundContext.authInfo`) when an HTTP endpoint has `authorization`. It never
 * holds the token itself.
 */
export interface TokenPrincipal {
  /** `sub`: the resource owner (or the client, for a client-credentials token); undefined when the token names none. */
  readonly subject: string | undefined;
  /** `client_id` (or a JWT's `azp`): the client the token was issued to. */
  readonly clientId: string | undefined;
  /** `iss`: the authorization server that issued it, when the token says. */
  readonly issuer: string | undefined;
  /** The scopes granted (`scope`, split on spaces). */
  readonly scopes: readonly string[];
  /** `exp`: seconds since the epoch; undefined when the token states no expiry. */
  readonly expiresAt: number | undefined;
  /** Everything the token (a JWT's payload) or the introspection response said, for claims of your own. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** A token a verifier did not accept: 401 `invalid_token`, with `reason` as its `error_description` (never the token). */
export interface TokenRefusal {
  readonly refused: string;
}

/** What a verifier is told about the endpoint a token was presented to. */
export interface VerifyContext {
  /** The endpoint's resource identifier (its canonical URI): what the token must have been issued for. */
  readonly resource: string;
  /** Every audience accepted: `resource`, and the origin as well when the root metadata is served. */
  readonly audiences: readonly string[];
}

/**
 * Checks a bearer token: its principal when the token is valid for this resource, a refusal when it
 * is not (invalid, expired, for another audience). A verifier that cannot decide now (its
 * authorization server is unreachable) throws: the request gets 503, and the client keeps its token.
 * `introspectionVerifier()` (RFC 7662) is one; a JWT verifier (signature by a JWKS, `iss`, `aud`,
 * `exp`/`nbf`) has the same shape.
 */
export type TokenVerifier = (token: string, context: VerifyContext) => Promise<TokenPrincipal | TokenRefusal>;

export interface ResourceServerOptions {
  /**
   * This endpoint's resource identifier (RFC 8707, RFC 9728): its canonical URI, e.g.
   * "https://mcp.example.com/mcp" (no fragment, no query). Published exactly as given, and what
   * tokens must have been issued for.
   */
  readonly resource: string;
  /** Issuer identifiers of the authorization servers whose tokens it accepts (at least one). */
  readonly authorizationServers: readonly string[];
  /** Checks each bearer token (`introspectionVerifier(...)`, a JWT verifier, or one of your own). */
  readonly verifier: TokenVerifier;
  /**
   * `scopes_supported`: the scopes for basic use (never `offline_access`); the 401 challenge asks for them when `requiredScopes` is not
   * set.
   */
  readonly scopesSupported?: readonly string[];
  /** Scopes every request needs: a token without them gets 403 `insufficient_scope`; the 401 challenge asks for them. */
  readonly requiredScopes?: readonly string[];
  /**
   * Scopes a broader one grants ("files:write" → ["files:read"]), followed transitively: a token
   * with the broader scope satisfies a requirement of a narrower one.
   */
  readonly impliedScopes?: Readonly<Record<string, readonly string[]>>;
  /** `resource_name`: a name for people. */
  readonly resourceName?: string;
  /**
   * Also serve a document at `/.well-known/oauth-protected-resource` (the root). Its `resource` is
   * the origin (RFC 9728 §3.3: the identifier the URL was formed from), so tokens issued for the
   * origin are accepted as well. Default false.
   */
  readonly rootMetadata?: boolean;
  /** Further members of the metadata document (`resource_documentation`, `jwks_uri`, …); the ones above win over them. */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Told when the verifier throws (the request got 503): its error, which may say why the authorization server could not be asked. */
  readonly onVerifierError?: (error: unknown) => void;
}

/** How the resource server authenticates to the introspection endpoint with client credentials (RFC 6749 §2.3.1). */
export interface IntrospectionClient {
  readonly id: string;
  readonly secret: string;
  /** `client_secret_basic` (default: HTTP Basic) or `client_secret_post` (in the form body). */
  readonly method?: "client_secret_basic" | "client_secret_post";
}

/** The `fetch` the introspection verifier uses: the global one by default. */
export type IntrospectionFetch = (
  url: string,
  init: { method: "POST"; headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<Response>;

export interface IntrospectionVerifierOptions {
  /** The authorization server's introspection endpoint (RFC 7662). */
  readonly endpoint: string;
  /** Client credentials for the endpoint. */
  readonly client?: IntrospectionClient;
  /** Headers of your own for the endpoint (e.g. a bearer token of the resource server's), asked for on every call. */
  readonly headers?: () => Record<string, string> | Promise<Record<string, string>>;
  /** The issuer tokens must come from: an `iss` in the response must equal it. */
  readonly issuer?: string;
  /**
   * Accept an active token whose response names no audience (`aud`). Default false: a token must be
   * shown to be issued for this resource; set it only for an authorization server that binds tokens
   * to their resource without reporting it.
   */
  readonly allowMissingAudience?: boolean;
  /** Clock difference tolerated for `exp` and `nbf`, in seconds (default 60). */
  readonly clockSkewSeconds?: number;
  /** Active tokens remembered (default 1000; 0: none), each for at most `cacheTtlMs` (default 60 000) and never past its `exp`. */
  readonly cacheSize?: number;
  readonly cacheTtlMs?: number;
  /** How long one introspection may take (default 10 000 ms); past it the verifier throws (503). */
  readonly timeoutMs?: number;
  readonly fetch?: IntrospectionFetch;
  /** The clock, in milliseconds since the epoch (default `Date.now`). */
  readonly now?: () => number;
}

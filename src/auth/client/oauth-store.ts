/** A client's registration with one authorization server. */
export interface ClientRegistration {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** How the client authenticates at the token endpoint. */
  readonly authMethod: TokenEndpointAuthMethod;
  /** Seconds since the epoch at which a registered secret expires (0: never), as RFC 7591 says it. */
  readonly clientSecretExpiresAt?: number;
}

export type TokenEndpointAuthMethod = "client_secret_basic" | "client_secret_post" | "none" | "private_key_jwt";

/** Tokens for one resource, from one authorization server. */
export interface StoredTokens {
  readonly accessToken: string;
  readonly tokenType: string;
  /** Milliseconds since the epoch after which the access token is expired; absent when the server did not say. */
  readonly expiresAt?: number;
  readonly refreshToken?: string;
  /** The scopes granted (space-separated), or asked for when the server did not say. */
  readonly scope?: string;
  readonly issuer: string;
  readonly resource: string;
}

/**
 * An authorization code flow waiting for the user to come back (by its `state`): what redeeming the
 * code needs, when the page that started it is gone (a browser redirect). The PKCE verifier is a
 * secret until the code is redeemed: keep it where the tokens are kept.
 */
export interface PendingAuthorization {
  /** The MCP server the tokens are for. */
  readonly serverUrl: string;
  readonly resource: string;
  readonly scope?: string;
  readonly redirectUri: string;
  readonly verifier: string;
  /** The authorization server's metadata and this client's registration there, as the flow used them. */
  readonly metadata: {
    readonly issuer: string;
    readonly token_endpoint: string;
    readonly authorization_response_iss_parameter_supported?: boolean;
  };
  readonly registration: ClientRegistration;
  /** Whether the token is asked for with a DPoP proof. */
  readonly dpop?: boolean;
}

/**
 * Where registrations (by issuer), tokens (by issuer and resource) and authorizations waiting for
 * the user (by state) are kept. Async, so a host can
 * keep them in its keychain or database; one issuer's credentials are never presented to another.
 */
export interface OAuthStore {
  getRegistration(issuer: string): Promise<ClientRegistration | undefined>;
  setRegistration(issuer: string, registration: ClientRegistration): Promise<void>;
  deleteRegistration(issuer: string): Promise<void>;
  getTokens(issuer: string, resource: string): Promise<StoredTokens | undefined>;
  setTokens(tokens: StoredTokens): Promise<void>;
  deleteTokens(issuer: string, resource: string): Promise<void>;
  setPendingAuthorization(state: string, pending: PendingAuthorization): Promise<void>;
  /** The authorization waiting under `state`, forgotten as it is taken (a code is redeemed once). */
  takePendingAuthorization(state: string): Promise<PendingAuthorization | undefined>;
}

/** The default store: this process's memory. */
export class InMemoryOAuthStore implements OAuthStore {
  readonly #registrations = new Map<string, ClientRegistration>();
  readonly #tokens = new Map<string, StoredTokens>();
  readonly #pending = new Map<string, PendingAuthorization>();

  getRegistration(issuer: string): Promise<ClientRegistration | undefined> {
    return Promise.resolve(this.#registrations.get(issuer));
  }

  setRegistration(issuer: string, registration: ClientRegistration): Promise<void> {
    this.#registrations.set(issuer, registration);
    return Promise.resolve();
  }

  deleteRegistration(issuer: string): Promise<void> {
    this.#registrations.delete(issuer);
    return Promise.resolve();
  }

  getTokens(issuer: string, resource: string): Promise<StoredTokens | undefined> {
    return Promise.resolve(this.#tokens.get(tokensKey(issuer, resource)));
  }

  setTokens(tokens: StoredTokens): Promise<void> {
    this.#tokens.set(tokensKey(tokens.issuer, tokens.resource), tokens);
    return Promise.resolve();
  }

  deleteTokens(issuer: string, resource: string): Promise<void> {
    this.#tokens.delete(tokensKey(issuer, resource));
    return Promise.resolve();
  }

  setPendingAuthorization(state: string, pending: PendingAuthorization): Promise<void> {
    this.#pending.set(state, pending);
    return Promise.resolve();
  }

  takePendingAuthorization(state: string): Promise<PendingAuthorization | undefined> {
    const pending = this.#pending.get(state);
    this.#pending.delete(state);
    return Promise.resolve(pending);
  }
}

function tokensKey(issuer: string, resource: string): string {
  return JSON.stringify([issuer, resource]);
}

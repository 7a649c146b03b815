// The client side of MCP authorization as one fetch wrapper: requests to an MCP server carry its
// bearer token; a 401 finds the server's authorization server (protected resource metadata, then
// the server's metadata), registers this client there if need be, and gets a token (authorization
// code with PKCE through the host's `interact`, or client credentials); a 403 `insufficient_scope`
// asks again with the union of the scopes held and challenged; a token near its expiry, or refused
// as `invalid_token`, is refreshed first. One authorization or refresh runs at a time per server;
// requests that wait for it share its outcome.
import { discardBody } from "../../transport/http-client/body.js";
import type { FetchInit, FetchLike, FetchResponse } from "../../transport/http-client/http-options.js";
import { authError, authFailureOf } from "./auth-error.js";
import {
  advertisesIssParameter,
  discoverAuthorizationServer,
  discoverLegacyAuthorizationServer,
  type AuthorizationServerMetadata,
} from "./authorization-server.js";
import { buildAuthorizationUrl, verifyAuthorizationCallback } from "./authorization-request.js";
import {
  InMemoryOAuthStore,
  type ClientRegistration,
  type OAuthStore,
  type PendingAuthorization,
  type StoredTokens,
} from "./oauth-store.js";
import { createPkce, createState } from "./pkce.js";
import { canonicalResourceUri, discoverProtectedResource } from "./protected-resource.js";
import { asksForNonce, DpopProver, dpopSupported, isDpopTokenType, type DpopKeyPair } from "./dpop.js";
import { idJagGrant, workloadGrant, type EnterpriseManagedGrant, type GrantTarget, type WorkloadIdentityGrant } from "./grants.js";
import { registrationFor, type ClientIdentity } from "./registration.js";
import { selectScope, unionScopes } from "./scopes.js";
import { NEVER, requestToken, toStoredTokens, type ClientAssertion, type TokenRequest } from "./token-endpoint.js";
import { readBearerChallenge, type BearerChallenge } from "./www-authenticate.js";

/** Sends the user to `authorizationUrl` and resolves with the URL the authorization server redirected back to. */
export type Interaction = (authorizationUrl: string, signal: AbortSignal) => Promise<string>;

export interface AuthorizerOptions {
  /** Who this client is: pre-registered credentials, a metadata document URL, the metadata to register with. */
  readonly client: ClientIdentity;
  /** Where the authorization server sends the user back (https, or http on loopback); the authorization code grant needs it. */
  readonly redirectUri?: string;
  /** How the user finishes the authorization code flow (`headlessInteraction` for tests and CI). */
  readonly interact?: Interaction;
  /** Use the client credentials grant (no user): the client's pre-registered secret or its `assertion`. */
  readonly clientCredentials?: boolean;
  /**
   * Enterprise-managed authorization (the ext-auth extension): the user's ID token from the
   * enterprise's identity provider is exchanged there for an ID-JAG, which this client presents to
   * the authorization server as a JWT bearer grant. No user interaction.
   */
  readonly enterprise?: EnterpriseManagedGrant;
  /**
   * Workload identity federation: the platform's identity token for this workload is presented to
   * the authorization server as a JWT bearer grant. No user, no secret. A refusal reaches the caller
   * as it is: the grant is not tried again, and no other grant is tried instead.
   */
  readonly workloadIdentity?: WorkloadIdentityGrant;
  /** Signs the client's `private_key_jwt` assertions (`privateKeyJwtAssertion` of src/auth/jose). */
  readonly assertion?: ClientAssertion;
  /** Where registrations and tokens are kept (default: memory). */
  readonly store?: OAuthStore;
  /** The fetch for metadata, registration and token requests (default: the platform's). */
  readonly fetch?: FetchLike;
  /** Authorizations (or step-ups) one request may trigger before its 401/403 is returned as it is (default 3). */
  readonly maxAuthorizations?: number;
  /** A token this close to its expiry is refreshed before it is sent (default 30 s). */
  readonly refreshBeforeExpiryMs?: number;
  /** Ask for `offline_access` (a refresh token) when the authorization server offers it (default true). */
  readonly offlineAccess?: boolean;
  /**
   * DPoP (RFC 9449) sender-constrained tokens. By default, when the server asks for them (its
   * challenge's scheme is DPoP, or its metadata has `dpop_bound_access_tokens_required`) and its
   * authorization server takes ES256 proofs; `true`: whenever the authorization server takes them;
   * `false`: never.
   */
  readonly dpop?: boolean;
  /** The DPoP key to keep across restarts, with tokens in a persistent store (default: a non-extractable one made per Authorizer). */
  readonly dpopKeyPair?: DpopKeyPair;
}

/** What is known of one MCP server once it asked for authorization. */
interface ServerAuthority {
  readonly serverUrl: string;
  readonly resource: string;
  readonly metadata: AuthorizationServerMetadata;
  readonly registration: ClientRegistration;
  /** Whether its tokens are asked for and sent with DPoP proofs. */
  readonly dpop: boolean;
  /** The scope last asked for. */
  scope: string | undefined;
}

/** What the server said to a request, and what the request had sent. */
interface Refusal {
  readonly status: number;
  readonly challenge: BearerChallenge | undefined;
  readonly sent: StoredTokens | undefined;
  /** Whether a refresh may answer it (not after one already failed to). */
  readonly mayRefresh: boolean;
}

const DEFAULT_MAX_AUTHORIZATIONS = 3;
const DEFAULT_REFRESH_BEFORE_EXPIRY_MS = 30_000;

/** One client's OAuth state across the MCP servers it talks to. */
export class Authorizer {
  readonly #options: AuthorizerOptions;
  readonly #store: OAuthStore;
  readonly #servers = new Map<string, ServerAuthority>();
  readonly #pending = new Map<string, Promise<StoredTokens>>();
  /** Code flows of this instance waiting for their user, by state: `finish` hands them the callback. */
  readonly #waiting = new Map<string, (callbackUrl: string) => void>();
  #prover: DpopProver | undefined;

  constructor(options: AuthorizerOptions) {
    this.#options = options;
    this.#store = options.store ?? new InMemoryOAuthStore();
  }

  /** `inner`, with every request authorized (give it to a transport as its `fetchImpl`). */
  wrap(inner: FetchLike): FetchLike {
    return (url, init) => this.#send(inner, url, init);
  }

  async #send(inner: FetchLike, url: string, init: FetchInit): Promise<FetchResponse> {
    const max = this.#options.maxAuthorizations ?? DEFAULT_MAX_AUTHORIZATIONS;
    let tokens = await this.#tokensFor(url, init.signal);
    for (let attempt = 0; ; attempt++) {
      const response = await this.#sendWith(inner, url, init, tokens);
      const challenge =
        response.status === 401 || response.status === 403 ? readBearerChallenge(response.headers.get("www-authenticate")) : undefined;
      const renewable = response.status === 401 || challenge?.error === "insufficient_scope";
      if (!renewable || attempt >= max) return response;
      discardBody(response);
      // A refresh is tried once: a refreshed token refused again means the server wants another authorization (it moved, or the grant is
      // gone).
      const sent = tokens;
      tokens = await this.#once(url, () =>
        this.#renew(url, { status: response.status, challenge, sent, mayRefresh: attempt === 0 }, init.signal),
      );
    }
  }

  /** `init` sent with `tokens`; a DPoP proof refused for want of the server's nonce is sent again with it, once. */
  async #sendWith(inner: FetchLike, url: string, init: FetchInit, tokens: StoredTokens | undefined): Promise<FetchResponse> {
    if (tokens === undefined) return inner(url, init);
    if (!isDpopTokenType(tokens.tokenType)) return inner(url, withBearer(init, tokens));
    const prover = this.#dpopProver();
    for (let attempt = 0; ; attempt++) {
      const proof = await prover.proof({ method: init.method, url, accessToken: tokens.accessToken });
      const response = await inner(url, {
        ...init,
        headers: { ...init.headers, authorization: `DPoP ${tokens.accessToken}`, dpop: proof },
      });
      if (!prover.remember(url, response) || attempt > 0 || !asksForNonce(response)) return response;
      discardBody(response);
    }
  }

  #dpopProver(): DpopProver {
    return (this.#prover ??= new DpopProver(this.#options.dpopKeyPair));
  }

  /** The tokens to send to `url`: none before it asked for any; refreshed first when close to expiry. */
  async #tokensFor(url: string, signal: AbortSignal): Promise<StoredTokens | undefined> {
    const authority = this.#servers.get(url);
    if (authority === undefined) return undefined;
    const tokens = await this.#store.getTokens(authority.metadata.issuer, authority.resource);
    if (tokens?.expiresAt === undefined || tokens.refreshToken === undefined) return tokens;
    if (tokens.expiresAt - (this.#options.refreshBeforeExpiryMs ?? DEFAULT_REFRESH_BEFORE_EXPIRY_MS) > Date.now()) return tokens;
    return this.#once(url, () => this.#refreshOrAuthorize(authority, tokens, signal));
  }

  /** One renewal at a time per server: who asks while one runs gets its outcome. */
  #once(url: string, renew: () => Promise<StoredTokens>): Promise<StoredTokens> {
    const running = this.#pending.get(url);
    if (running) return running;
    const started = renew().finally(() => this.#pending.delete(url));
    this.#pending.set(url, started);
    return started;
  }

  async #renew(url: string, refusal: Refusal, signal: AbortSignal): Promise<StoredTokens> {
    const { status, challenge, sent } = refusal;
    const known = this.#servers.get(url);
    if (known !== undefined) {
      const current = await this.#store.getTokens(known.metadata.issuer, known.resource);
      // Another request renewed them after ours was sent: use those.
      if (current !== undefined && current.accessToken !== sent?.accessToken) return current;
      const expired = challenge?.error === undefined || challenge.error === "invalid_token";
      if (status === 401 && refusal.mayRefresh && expired && current?.refreshToken !== undefined)
        return this.#refreshOrAuthorize(known, current, signal);
    }
    // A 403 took the token it was sent: the server's authorization server is still the one known, so a step-up goes straight to it.
    const authority = status === 403 && known !== undefined ? known : await this.#discover(url, challenge, signal);
    // Tokens kept from an earlier run (a persistent store) are tried before the user is asked again.
    const kept = status === 401 ? await this.#store.getTokens(authority.metadata.issuer, authority.resource) : undefined;
    if (kept !== undefined && kept.accessToken !== sent?.accessToken) return kept;
    // A step-up keeps what was asked before and adds what the server says it needs.
    const scope = status === 403 ? unionScopes(known?.scope, sent?.scope, challenge?.scope) : this.#firstScope(authority, challenge);
    return this.#authorize(authority, scope, signal);
  }

  async #refreshOrAuthorize(authority: ServerAuthority, tokens: StoredTokens, signal: AbortSignal): Promise<StoredTokens> {
    try {
      const refreshed = await requestToken({
        issuer: authority.metadata.issuer,
        tokenEndpoint: authority.metadata.token_endpoint,
        params: { grant_type: "refresh_token", refresh_token: tokens.refreshToken, resource: authority.resource },
        client: authority.registration,
        ...this.#tokenRequestOptions(signal, authority.dpop),
      });
      return await this.#keep(refreshed, authority, tokens.scope, tokens.refreshToken);
    } catch (error) {
      // A refresh token the server no longer takes means starting over; anything else is the caller's error.
      if ((error as { data?: { error?: unknown } }).data?.error !== "invalid_grant") throw error;
      await this.#store.deleteTokens(authority.metadata.issuer, authority.resource);
      return this.#authorize(authority, authority.scope ?? tokens.scope, signal);
    }
  }

  /**
   * Where `url`'s tokens come from: its protected resource metadata and authorization server (the 2025-03-26 defaults without metadata).
   */
  async #discover(
    url: string,
    challenge: BearerChallenge | undefined,
    signal: AbortSignal,
  ): Promise<ServerAuthority & { readonly resourceScopes?: readonly string[] }> {
    const fetch = this.#fetch();
    let resource: string;
    let metadata: AuthorizationServerMetadata;
    let resourceScopes: readonly string[] | undefined;
    let dpopRequired = false;
    try {
      const found = await discoverProtectedResource(url, { fetch, signal, resourceMetadataUrl: challenge?.resourceMetadata });
      resource = found.metadata.resource;
      resourceScopes = found.metadata.scopes_supported;
      dpopRequired = found.metadata["dpop_bound_access_tokens_required"] === true;
      const issuer = found.metadata.authorization_servers[0] as string;
      metadata = (await discoverAuthorizationServer(issuer, { fetch, signal, requirePkce: !this.#userless() })).metadata;
    } catch (error) {
      if (authFailureOf(error) !== "resource-metadata-not-found") throw error;
      resource = canonicalResourceUri(url);
      metadata = (await discoverLegacyAuthorizationServer(url, { fetch, signal })).metadata;
    }
    const registration = await registrationFor(metadata, this.#options.client, this.#store, fetch, signal);
    const dpop = this.#usesDpop(metadata, dpopRequired, challenge?.scheme.toLowerCase() === "dpop");
    const authority: ServerAuthority = { serverUrl: url, resource, metadata, registration, dpop, scope: undefined };
    this.#servers.set(url, authority);
    return resourceScopes === undefined ? authority : Object.assign(authority, { resourceScopes });
  }

  /**
   * Whether tokens for a server are DPoP-bound: the `dpop` option, else whether the server asked; never unless its authorization server
   * takes ES256 proofs.
   */
  #usesDpop(metadata: AuthorizationServerMetadata, required: boolean, asked: boolean): boolean {
    if (!(this.#options.dpop ?? (required || asked))) return false;
    if (dpopSupported(metadata)) return true;
    if (required)
      throw authError(
        "dpop-unsupported",
        `The server requires DPoP-bound tokens, and its authorization server ${metadata.issuer} takes no ES256 DPoP proof`,
      );
    return false;
  }

  #firstScope(
    authority: ServerAuthority & { readonly resourceScopes?: readonly string[] },
    challenge: BearerChallenge | undefined,
  ): string | undefined {
    return selectScope({
      challengeScope: challenge?.scope,
      resourceMetadata: authority.resourceScopes === undefined ? undefined : { scopes_supported: authority.resourceScopes },
      authorizationServerMetadata: authority.metadata,
      offlineAccess: this.#options.offlineAccess !== false && !this.#userless(),
    });
  }

  /** A new token for `authority`'s resource, by the grant this client uses. */
  async #authorize(authority: ServerAuthority, scope: string | undefined, signal: AbortSignal): Promise<StoredTokens> {
    authority.scope = scope;
    const params = await this.#grant(authority, scope, signal);
    const response = await requestToken({
      issuer: authority.metadata.issuer,
      tokenEndpoint: authority.metadata.token_endpoint,
      params,
      client: authority.registration,
      ...this.#tokenRequestOptions(signal, authority.dpop),
    });
    return this.#keep(response, authority, scope, undefined);
  }

  /** The token request's parameters of the grant this client uses. */
  #grant(
    authority: ServerAuthority,
    scope: string | undefined,
    signal: AbortSignal,
  ): Promise<Record<string, string | undefined>> | Record<string, string | undefined> {
    const { enterprise, workloadIdentity, clientCredentials } = this.#options;
    const target: GrantTarget = {
      issuer: authority.metadata.issuer,
      tokenEndpoint: authority.metadata.token_endpoint,
      resource: authority.resource,
    };
    if (enterprise !== undefined) return idJagGrant(enterprise, target, scope, { fetch: this.#fetch(), signal });
    if (workloadIdentity !== undefined) return workloadGrant(workloadIdentity, target, scope, signal);
    if (clientCredentials === true) return { grant_type: "client_credentials", scope, resource: authority.resource };
    return this.#codeGrant(authority, scope, signal);
  }

  /**
   * Whether tokens come without a user at a browser (client credentials, enterprise-managed, workload identity): no PKCE, no refresh token
   * asked for.
   */
  #userless(): boolean {
    return (
      this.#options.clientCredentials === true || this.#options.enterprise !== undefined || this.#options.workloadIdentity !== undefined
    );
  }

  /** The authorization code grant's parameters, once the user came back with a code (to `interact`'s promise, or through `finish`). */
  async #codeGrant(
    authority: ServerAuthority,
    scope: string | undefined,
    signal: AbortSignal,
  ): Promise<Record<string, string | undefined>> {
    const { redirectUri, interact } = this.#options;
    const { metadata, registration, resource } = authority;
    if (redirectUri === undefined || interact === undefined || metadata.authorization_endpoint === undefined) {
      const missing =
        metadata.authorization_endpoint === undefined
          ? `the authorization server ${metadata.issuer} has no authorization_endpoint`
          : "no redirectUri and interact were given";
      throw authError("invalid-argument", `Cannot run the authorization code flow: ${missing}`);
    }
    const pkce = await createPkce();
    const state = createState();
    const authorizationUrl = buildAuthorizationUrl({
      authorizationEndpoint: metadata.authorization_endpoint,
      clientId: registration.clientId,
      redirectUri,
      codeChallenge: pkce.challenge,
      state,
      resource,
      scope,
    });
    const pending: PendingAuthorization = {
      serverUrl: authority.serverUrl,
      resource,
      ...(scope === undefined ? {} : { scope }),
      redirectUri,
      verifier: pkce.verifier,
      metadata,
      registration,
      dpop: authority.dpop,
    };
    await this.#store.setPendingAuthorization(state, pending);
    let callback: string;
    try {
      callback = await Promise.race([
        interact(authorizationUrl, signal),
        new Promise<string>((resolve) => this.#waiting.set(state, resolve)),
      ]);
    } finally {
      this.#waiting.delete(state);
      await this.#store.takePendingAuthorization(state);
    }
    return redemption(callback, state, pending);
  }

  /**
   * Authorizes this client for `serverUrl` now, before anything is sent to it (a host with a user
   * in front of a browser does this before `connect`, so no request waits for the user).
   */
  authorize(serverUrl: string, signal: AbortSignal = NEVER): Promise<void> {
    return this.#once(serverUrl, () =>
      this.#renew(serverUrl, { status: 401, challenge: undefined, sent: undefined, mayRefresh: false }, signal),
    ).then(() => undefined);
  }

  /**
   * The user came back to `callbackUrl` (the redirect URI with the code): the flow waiting for it
   * goes on; when none is (the page that started it is gone), the code is redeemed here from the
   * store's pending authorization, and the tokens kept for its server.
   */
  async finish(callbackUrl: string, signal: AbortSignal = NEVER): Promise<void> {
    const state = new URL(callbackUrl, "http://callback.invalid").searchParams.get("state") ?? "";
    const waiting = this.#waiting.get(state);
    if (waiting !== undefined) return waiting(callbackUrl);
    const pending = await this.#store.takePendingAuthorization(state);
    if (pending === undefined)
      throw authError(
        "state-mismatch",
        "No authorization is waiting for this callback (its state is unknown, or its code was already redeemed)",
      );
    const authority: ServerAuthority = {
      serverUrl: pending.serverUrl,
      resource: pending.resource,
      metadata: pending.metadata,
      registration: pending.registration,
      dpop: pending.dpop === true,
      scope: pending.scope,
    };
    this.#servers.set(pending.serverUrl, authority);
    const params = redemption(callbackUrl, state, pending);
    const response = await requestToken({
      issuer: pending.metadata.issuer,
      tokenEndpoint: pending.metadata.token_endpoint,
      params,
      client: pending.registration,
      ...this.#tokenRequestOptions(signal, authority.dpop),
    });
    await this.#keep(response, authority, pending.scope, undefined);
  }

  async #keep(
    response: Parameters<typeof toStoredTokens>[0],
    authority: ServerAuthority,
    scope: string | undefined,
    refreshToken: string | undefined,
  ): Promise<StoredTokens> {
    const tokens = toStoredTokens(response, {
      issuer: authority.metadata.issuer,
      resource: authority.resource,
      scope,
      refreshToken,
      now: Date.now(),
    });
    await this.#store.setTokens(tokens);
    return tokens;
  }

  #tokenRequestOptions(signal: AbortSignal, dpop: boolean): Pick<TokenRequest, "fetch" | "signal" | "assertion" | "dpop"> {
    const { assertion } = this.#options;
    return {
      fetch: this.#fetch(),
      signal,
      ...(assertion === undefined ? {} : { assertion }),
      ...(dpop ? { dpop: this.#dpopProver() } : {}),
    };
  }

  #fetch(): FetchLike {
    return this.#options.fetch ?? ((url, init) => fetch(url, init));
  }
}

function withBearer(init: FetchInit, tokens: StoredTokens): FetchInit {
  // "Bearer" whatever the case the server gave it in (RFC 6750 §5.1 asks for that spelling); DPoP tokens go through #sendWith's proof.
  return { ...init, headers: { ...init.headers, authorization: `Bearer ${tokens.accessToken}` } };
}

/** The code grant's parameters for a callback that passes the checks (state, then iss) of `pending`'s flow. */
function redemption(callbackUrl: string, state: string, pending: PendingAuthorization): Record<string, string | undefined> {
  const { metadata } = pending;
  const { code } = verifyAuthorizationCallback(callbackUrl, {
    state,
    issuer: metadata.issuer,
    issParameterSupported: advertisesIssParameter(metadata),
  });
  return {
    grant_type: "authorization_code",
    code,
    redirect_uri: pending.redirectUri,
    code_verifier: pending.verifier,
    resource: pending.resource,
  };
}

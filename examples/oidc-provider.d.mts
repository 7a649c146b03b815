// The types of oidc-provider.mjs: the loopback authorization server the auth demo and the e2e tests share.
import type { Provider } from "oidc-provider";

/** The account the headless login signs in. */
export declare const ALICE = "alice";
/** The scopes of the MCP resources: resource scopes, not OIDC ones (those would be asked at every consent). */
export declare const MCP_SCOPES = "mcp:read mcp:write";
/** A confidential client registered in the provider's configuration, for the client credentials grant. */
export declare const SERVICE_CLIENT: { readonly clientId: "svc-reporter"; readonly clientSecret: string };

export interface RunningProvider {
  readonly provider: Provider;
  /** `http://127.0.0.1:<port>/oidc`. */
  readonly issuer: string;
  readonly jwksUri: string;
  readonly tokenEndpoint: string;
  /** Every request the server got, as "METHOD path" (no query: codes and states stay out of it). */
  readonly requests: string[];
  /** The metadata document URLs the provider fetched. */
  readonly documentFetches: string[];
  /** Client ID Metadata Documents the provider can fetch, by URL. */
  readonly documents: Map<string, Record<string, unknown>>;
  /** Lets the provider issue tokens for `resource` (its audience), with `scope` (default MCP_SCOPES). */
  allowResource(resource: string, scope?: string): void;
  /** Sets the lifetime of the access tokens issued from now on (seconds; default 300). */
  setAccessTokenTtl(seconds: number): void;
  close(): Promise<void>;
}

export interface ProviderOptions {
  /**
   * DPoP (RFC 9449) at the token endpoint, on in any case (oidc-provider 9's default); here ES256 is
   * the only proof algorithm, and with `nonce: true` every proof must carry the provider's nonce
   * (one without it is refused with 400 `use_dpop_nonce` and a `DPoP-Nonce` header).
   */
  readonly dpop?: { readonly nonce: boolean };
}

/**
 * Starts a provider on 127.0.0.1 (port 0) with the issuer `http://127.0.0.1:<port>/oidc`.
 * `options.dpop.nonce`: DPoP proofs at the token endpoint must carry the provider's nonce (RFC 9449 §8).
 */
export declare function startProvider(options?: ProviderOptions): Promise<RunningProvider>;

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

/** Starts a provider on 127.0.0.1 (port 0) with the issuer `http://127.0.0.1:<port>/oidc`. */
export declare function startProvider(): Promise<RunningProvider>;

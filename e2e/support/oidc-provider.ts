// The real authorization server of the e2e tests: oidc-provider 9 on 127.0.0.1, issuer
// `http://127.0.0.1:<port>/oidc`, headless login, PKCE, DCR, Client ID Metadata Documents, client
// credentials, resource indicators with ES256 JWT access tokens, rotating refresh tokens, DPoP (its
// nonces on request: `startProvider({ dpop: { nonce: true } })`). Its setup is
// examples/oidc-provider.mjs, which `npm run demo:auth` runs too: one configuration for both.
export {
  ALICE,
  MCP_SCOPES,
  SERVICE_CLIENT,
  startProvider,
  type ProviderOptions,
  type RunningProvider,
} from "../../examples/oidc-provider.mjs";

export { authError, authFailureOf, displayUrl, type AuthErrorData, type AuthFailureReason } from "./auth-error.js";
export {
  buildAuthorizationUrl,
  verifyAuthorizationCallback,
  type AuthorizationCallback,
  type AuthorizationRequest,
  type CallbackExpectation,
} from "./authorization-request.js";
export {
  advertisesIssParameter,
  authorizationServerCandidates,
  discoverAuthorizationServer,
  discoverLegacyAuthorizationServer,
  validateAuthorizationServerMetadata,
  type AuthorizationServerDiscovery,
  type AuthorizationServerMetadata,
  type AuthorizationServerOptions,
  type AuthorizationServerSource,
} from "./authorization-server.js";
export { MAX_METADATA_BYTES, type DiscoveryAttempt, type DiscoveryOptions } from "./metadata-fetch.js";
export { PKCE_METHOD, createPkce, createState, pkceChallenge, type Pkce } from "./pkce.js";
export {
  canonicalResourceUri,
  discoverProtectedResource,
  protectedResourceCandidates,
  resourceMatchesServer,
  validateProtectedResourceMetadata,
  type ProtectedResourceDiscovery,
  type ProtectedResourceMetadata,
  type ProtectedResourceOptions,
  type ProtectedResourceSource,
} from "./protected-resource.js";
export { selectScope, splitScope, unionScopes, type ScopeSelection } from "./scopes.js";
export { isLoopbackHost, isSecureUrl, secureUrl } from "./url-safety.js";
export {
  MAX_HEADER_CHARS,
  formatChallenge,
  formatWwwAuthenticate,
  parseWwwAuthenticate,
  readBearerChallenge,
  type AuthChallenge,
  type BearerChallenge,
} from "./www-authenticate.js";
export { Authorizer, type AuthorizerOptions, type Interaction } from "./authorizer.js";
export { type EnterpriseManagedGrant, type WorkloadAssertionRequest, type WorkloadIdentityGrant } from "./grants.js";
export { DPOP_ALGORITHM, DpopProver, type DpopKeyPair, type DpopProofTarget } from "./dpop.js";
export { headlessInteraction, type RedirectFetch } from "./interaction.js";
export {
  InMemoryOAuthStore,
  type ClientRegistration,
  type OAuthStore,
  type PendingAuthorization,
  type StoredTokens,
  type TokenEndpointAuthMethod,
} from "./oauth-store.js";
export { registrationFor, type ClientIdentity, type ClientMetadata, type RegistrationServer } from "./registration.js";
export { formBody, requestToken, toStoredTokens, type ClientAssertion, type TokenRequest, type TokenResponse } from "./token-endpoint.js";

export { protectedResource, ProtectedResource } from "./protected-resource.js";
export { tokenOwner } from "./token-owner.js";
export { introspectionVerifier } from "./introspection.js";
export { jwtVerifier, type JwtVerifierOptions } from "./jwt-verifier.js";
export { insufficientScope, type InsufficientScopeData } from "./insufficient-scope.js";
export type * from "./resource-server.types.js";

// JOSE on WebCrypto for MCP authorization: JWS, JWK/JWKS, JWT and private_key_jwt (see jose.md).
export { JWS_ALGORITHMS, type JwsAlgorithm, type WebCryptoKey } from "./algorithms.js";
export type { JoseCheck } from "./errors.js";
export { importPkcs8Pem, importPrivateJwk, importPublicJwk, type JoseKey, type Jwk } from "./jwk.js";
export {
  DEFAULT_MAX_TOKEN_LENGTH,
  MAX_KEY_CANDIDATES,
  signJws,
  verifyJws,
  type JwsHeader,
  type JwsHeaderInput,
  type KeyInput,
  type KeyResolver,
  type VerificationKeys,
  type VerifiedJws,
  type VerifyJwsOptions,
} from "./jws.js";
export { JWKS_DEFAULTS, localJwks, remoteJwks, type JwkSet, type RemoteJwksOptions } from "./jwks.js";
export { DEFAULT_CLOCK_TOLERANCE_SEC, signJwt, verifyJwt, type JwtClaims, type VerifiedJwtClaims, type VerifyJwtOptions } from "./jwt.js";
export {
  CLIENT_ASSERTION_TYPE,
  DEFAULT_ASSERTION_LIFETIME_SEC,
  privateKeyJwtAssertion,
  type AssertionAudience,
  type PrivateKeyJwtOptions,
} from "./client-assertion.js";

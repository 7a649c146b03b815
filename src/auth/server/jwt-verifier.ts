// A TokenVerifier for JWT access tokens (RFC 9068): the signature by the authorization server's key
// (a JWKS fetched and cached, fetched again for a key id it has not seen), the issuer as an exact
// string, an audience this endpoint accepts, the times with some skew. A token that fails a check is
// refused (401 invalid_token, the failed check as the reason); a key set that cannot be fetched is
// thrown, so the endpoint answers 503 and the client keeps its token.
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { remoteJwks, type RemoteJwksOptions } from "../jose/jwks.js";
import type { VerificationKeys } from "../jose/jws.js";
import { verifyJwt } from "../jose/jwt.js";
import type { TokenVerifier } from "./resource-server.types.js";

export interface JwtVerifierOptions {
  /** The authorization server's issuer, exactly as its tokens state it. */
  readonly issuer: string;
  /** Its JWKS URL (`jwks_uri` of its metadata), or keys given directly. */
  readonly jwks: string | VerificationKeys;
  /** How the JWKS is fetched and cached (its `fetch`, cache and cooldown times). */
  readonly jwksOptions?: RemoteJwksOptions;
  /**
   * Audiences accepted besides the endpoint's own (default: only the endpoint's resource, and its origin where the root metadata is
   * served).
   */
  readonly audience?: readonly string[];
  /** Clock skew allowed on exp, nbf and iat, in seconds (default 60). */
  readonly clockToleranceSec?: number;
  /** The header `typ` required (RFC 9068's "at+jwt"; default: not checked). */
  readonly typ?: string;
}

export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const keys = typeof options.jwks === "string" ? remoteJwks(options.jwks, options.jwksOptions) : options.jwks;
  return async (token, context) => {
    try {
      const claims = await verifyJwt(token, {
        keys,
        issuer: options.issuer,
        audience: [...context.audiences, ...(options.audience ?? [])],
        ...(options.clockToleranceSec === undefined ? {} : { clockToleranceSec: options.clockToleranceSec }),
        ...(options.typ === undefined ? {} : { typ: options.typ }),
      });
      const clientId = claims["client_id"] ?? claims["azp"];
      const scope = claims["scope"] ?? claims["scp"];
      return {
        subject: claims.sub,
        clientId: typeof clientId === "string" ? clientId : undefined,
        issuer: claims.iss,
        // RFC 9068 says scope (a string); some servers send scp (a list).
        scopes:
          typeof scope === "string"
            ? scope.split(" ").filter(Boolean)
            : Array.isArray(scope)
              ? scope.filter((item): item is string => typeof item === "string")
              : [],
        expiresAt: claims.exp,
        claims,
      };
    } catch (error) {
      // A token the checks refuse is the client's to renew; the key set out of reach is not.
      if (error instanceof MCPError && error.code === MCP_CODES.UNAUTHORIZED) return { refused: error.message };
      throw error;
    }
  };
}

// The three ways JOSE fails, each an MCPError of an existing code. Messages name what failed and
// never carry the token, a claim's value or key material: they end up in logs and HTTP answers.
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";

/** What a refused token failed; `data.check` of the error, so callers can branch without parsing messages. */
export type JoseCheck =
  "token" | "header" | "alg" | "crit" | "typ" | "key" | "signature" | "payload" | "claims" | "iss" | "aud" | "exp" | "nbf" | "iat";

/** The token is not accepted (`MCP.UNAUTHORIZED`): a resource server answers 401 `invalid_token`. */
export function refused(check: JoseCheck, message: string, cause?: unknown): MCPError {
  return new MCPError(MCP_CODES.UNAUTHORIZED, `Token rejected (${check}): ${message}`, { data: { check }, cause });
}

/** The caller's own input is unusable (`MCP.INVALID_PARAMS`): a key, an algorithm, an option. */
export function invalidInput(message: string, cause?: unknown): MCPError {
  return new MCPError(MCP_CODES.INVALID_PARAMS, message, { cause });
}

/** The key set could not be had (`MCP.TRANSPORT_ERROR`): the token may be fine, the authorization server is not reachable. */
export function jwksFailure(message: string, cause?: unknown): MCPError {
  return new MCPError(MCP_CODES.TRANSPORT_ERROR, message, { data: { check: "jwks" }, cause });
}

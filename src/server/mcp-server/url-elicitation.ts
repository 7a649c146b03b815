import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError } from "../../error-codes/mcp-error.js";
import type { ElicitRequestURLParams } from "../../schemas/schemas.js";
import { withFields } from "../../types/objects.js";

/**
 * The error a tool throws when the user must first complete URL-mode elicitations (2025-11-25):
 * -32042 with the elicitations in `data`. It reaches the client as a protocol error, not as an
 * `isError` result, so the client can open the URLs and retry.
 */
export function urlElicitationRequired(
  elicitations: readonly ElicitRequestURLParams[],
  message = "This request needs the user to complete an interaction first",
): JsonRpcError {
  return new JsonRpcError(JSONRPC_ERROR_CODES.URL_ELICITATION_REQUIRED, message, {
    elicitations: elicitations.map((elicitation) => withFields(elicitation, { mode: "url" })),
  });
}

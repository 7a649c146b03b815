import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";

/** RFC 6750 §3: a scope token is visible ASCII without `"` and `\` (so it needs no escaping, and a space separates tokens). */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** RFC 6750 §3: `error_description` holds %x20-21 / %x23-5B / %x5D-7E only. */
const NOT_DESCRIBABLE = /[^\x20\x21\x23-\x5B\x5D-\x7E]/g;

/** The longest `error_description` sent: a sentence, not a report. */
const MAX_DESCRIPTION = 200;

/** The parameters of a `Bearer` challenge, in the order they are written; undefined ones are left out. */
export interface ChallengeParams {
  readonly error?: "invalid_request" | "invalid_token" | "insufficient_scope" | undefined;
  readonly errorDescription?: string | undefined;
  readonly scopes?: readonly string[] | undefined;
  readonly resourceMetadata?: string | undefined;
}

/** Scopes as configured or demanded: each must be a scope token (throws an INVALID_PARAMS `MCPError` naming `what` otherwise). */
export function checkedScopes(scopes: readonly string[], what: string): readonly string[] {
  const bad = scopes.find((scope) => !SCOPE_TOKEN.test(scope));
  if (bad !== undefined)
    throw new MCPError(
      MCP_CODES.INVALID_PARAMS,
      `${what}: ${JSON.stringify(bad)} is not an OAuth scope (visible ASCII, no space, quote or backslash)`,
    );
  return scopes;
}

/** The scopes of all the lists, each once, in the order first named. */
export function union(...lists: readonly (readonly string[])[]): readonly string[] {
  return [...new Set(lists.flat())];
}

/**
 * A `WWW-Authenticate` value of the Bearer scheme (RFC 6750 §3, RFC 9728 §5.1): each parameter once,
 * every value a quoted-string with `"` and `\` escaped; a description reduced to the characters RFC
 * 6750 allows in one.
 */
export function bearerChallenge(params: ChallengeParams): string {
  const written: string[] = [];
  const add = (name: string, value: string | undefined): void => {
    if (value !== undefined) written.push(`${name}="${value.replace(/["\\]/g, "\\$&")}"`);
  };
  add("error", params.error);
  add("error_description", params.errorDescription?.replace(NOT_DESCRIBABLE, "?").slice(0, MAX_DESCRIPTION));
  add("scope", params.scopes && params.scopes.length > 0 ? params.scopes.join(" ") : undefined);
  add("resource_metadata", params.resourceMetadata);
  return written.length === 0 ? "Bearer" : `Bearer ${written.join(", ")}`;
}

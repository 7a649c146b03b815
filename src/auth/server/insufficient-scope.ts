import { JSONRPC_ERROR_CODES, MCP_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError, MCPError } from "../../error-codes/mcp-error.js";
import { bearerChallenge, checkedScopes, union } from "./challenge.js";

/** What a 403 `insufficient_scope` of the endpoint a principal came through names besides the operation's own scopes. */
export interface ChallengeContext {
  /** The endpoint's protected resource metadata URL (`resource_metadata`). */
  readonly resourceMetadata: string;
  /** The scopes every request of the endpoint needs (its `requiredScopes`). */
  readonly requiredScopes: readonly string[];
}

/** The JSON-RPC error data of an insufficient-scope error: the challenge's parameters, and the challenge itself. */
export interface InsufficientScopeData {
  readonly error: "insufficient_scope";
  /** Every scope the operation needs, space-separated. */
  readonly scope: string;
  readonly resource_metadata?: string;
  /** What the 403's `WWW-Authenticate` says (the session era's SSE answers carry it here: their HTTP status was sent already). */
  readonly wwwAuthenticate: string;
}

// Principals the `authorization` option established, with the endpoint each came through: a handler's
// demand for more scope names that endpoint's metadata and scopes too.
const endpoints = /* @__PURE__ */ new WeakMap<object, ChallengeContext>();

/** Remembers the endpoint a principal came through (one principal object per request). */
export function rememberEndpoint(principal: object, context: ChallengeContext): void {
  endpoints.set(principal, context);
}

/** The challenge of a 403 `insufficient_scope` naming every scope in `scopes` (and the endpoint's own, when known). */
export function insufficientScopeData(
  context: ChallengeContext | undefined,
  scopes: readonly string[],
  description: string | undefined,
): InsufficientScopeData {
  const all = union(context?.requiredScopes ?? [], scopes);
  const resourceMetadata = context?.resourceMetadata;
  const wwwAuthenticate = bearerChallenge({ error: "insufficient_scope", scopes: all, resourceMetadata, errorDescription: description });
  const data = { error: "insufficient_scope", scope: all.join(" "), wwwAuthenticate } as const;
  return resourceMetadata === undefined ? data : { ...data, resource_metadata: resourceMetadata };
}

/**
 * Mid-call step-up: what a handler throws when the operation needs more scope than the caller's
 * token carries. `scopes` are every scope the operation needs (the endpoint's `requiredScopes` are
 * added); `context` is the handler's `ctx`, whose principal says which endpoint to name. A request
 * still answerable over HTTP gets 403 with `WWW-Authenticate: Bearer error="insufficient_scope",
 * scope=…, resource_metadata=…`; one whose response already started (a session-era SSE stream) gets
 * this JSON-RPC error (-32001) with the challenge in its data.
 */
export function insufficientScope(context: { readonly principal: unknown }, scopes: readonly string[], description?: string): JsonRpcError {
  if (checkedScopes(scopes, "insufficientScope").length === 0)
    throw new MCPError(MCP_CODES.INVALID_PARAMS, "insufficientScope: name the scopes the operation needs");
  // A WeakMap has no entry for a value that is no object (the principal of a hook of your own may be a string).
  const data = insufficientScopeData(endpoints.get(context.principal as object), scopes, description);
  return new JsonRpcError(JSONRPC_ERROR_CODES.UNAUTHORIZED, description ?? `Insufficient scope: this operation needs ${data.scope}`, data);
}

/** Whether a JSON-RPC error object is an insufficient-scope error (what `insufficientScope` makes). */
export function isInsufficientScope(error: unknown): error is { readonly code: number; readonly data: InsufficientScopeData } {
  if (typeof error !== "object" || error === null) return false;
  const { code, data } = error as { code?: unknown; data?: { error?: unknown; wwwAuthenticate?: unknown } };
  return code === JSONRPC_ERROR_CODES.UNAUTHORIZED && data?.error === "insufficient_scope" && typeof data.wwwAuthenticate === "string";
}

// Which scopes to ask for: the spec's "Scope Selection Strategy" for the first authorization, the
// refresh-token guidance for `offline_access`, and the step-up union of "Step-Up Authorization Flow".
import type { AuthorizationServerMetadata } from "./authorization-server.js";
import type { ProtectedResourceMetadata } from "./protected-resource.js";

const OFFLINE_ACCESS = "offline_access";

/** The scope tokens of a space-separated `scope` (RFC 6749 §3.3), each once, in first-seen order. */
export function splitScope(scope: string | undefined): string[] {
  if (scope === undefined) return [];
  return [...new Set(scope.split(/\s+/).filter((token) => token !== ""))];
}

/**
 * Every scope of the given scope strings or lists, each once in first-seen order, as one `scope`
 * value; undefined when there is none. Step-up re-authorizes with the union of what was requested
 * before and what the 403 challenges (2026-07-28; the conformance `auth/scope-step-up` scenario).
 */
export function unionScopes(...scopes: readonly (string | readonly string[] | undefined)[]): string | undefined {
  const union = new Set<string>();
  for (const scope of scopes) {
    for (const token of typeof scope === "string" || scope === undefined ? splitScope(scope) : scope.flatMap(splitScope)) union.add(token);
  }
  return union.size === 0 ? undefined : [...union].join(" ");
}

export interface ScopeSelection {
  /** The `scope` of the 401's Bearer challenge. */
  readonly challengeScope?: string | undefined;
  readonly resourceMetadata?: Pick<ProtectedResourceMetadata, "scopes_supported"> | undefined;
  readonly authorizationServerMetadata?: Pick<AuthorizationServerMetadata, "scopes_supported"> | undefined;
  /** Ask for a refresh token with `offline_access` when the authorization server lists it (default true). */
  readonly offlineAccess?: boolean;
}

/**
 * The `scope` of the first authorization request, or undefined to omit the parameter: the
 * challenge's scope, else every scope of the protected resource metadata's `scopes_supported`,
 * else none. `offline_access` is the client's own choice, whatever the server put in: it is added
 * when `offlineAccess` is not false and the authorization server metadata lists it in
 * `scopes_supported`, and removed otherwise (a server asking for it is told no: it is not a
 * resource requirement). It is never the only scope: with nothing else to ask for, `scope` is omitted.
 */
export function selectScope(selection: ScopeSelection): string | undefined {
  const fromChallenge = splitScope(selection.challengeScope);
  const chosen = fromChallenge.length > 0 ? fromChallenge : [...new Set(selection.resourceMetadata?.scopes_supported ?? [])];
  const scopes = chosen.filter((scope) => scope !== OFFLINE_ACCESS);
  if (scopes.length === 0) return undefined;
  const offered = selection.authorizationServerMetadata?.scopes_supported?.includes(OFFLINE_ACCESS) === true;
  if (selection.offlineAccess !== false && offered) scopes.push(OFFLINE_ACCESS);
  return scopes.join(" ");
}

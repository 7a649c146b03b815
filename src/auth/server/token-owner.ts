import type { TokenPrincipal } from "./resource-server.types.js";

/**
 * Who a token says is calling, as a session's owner: issuer, subject and client (`sessionOwner: tokenOwner` binds each session to them).
 * A module of its own: tasks own their records by it, and a server that serves no HTTP loads none of the resource server for that.
 */
export function tokenOwner(authInfo: unknown): string | undefined {
  if (typeof authInfo !== "object" || authInfo === null) return undefined;
  const { issuer, subject, clientId } = authInfo as Partial<TokenPrincipal>;
  return JSON.stringify([issuer ?? null, subject ?? null, clientId ?? null]);
}

import { tokenKey } from "../../auth/server/token-cache.js";

/**
 * The owner key of a request's tasks: `"p:"` + base64url(SHA-256(principal)) when there is a
 * principal, else `"s:"` + the session id when there is a session, else `"anon"`. The principal is
 * hashed so that nothing token-like reaches the task store (a shared one may be Redis).
 */
export async function taskOwner(principal: string | undefined, sessionId: string | undefined): Promise<string> {
  if (principal !== undefined) return `p:${await tokenKey(principal)}`;
  return sessionId === undefined ? "anon" : `s:${sessionId}`;
}

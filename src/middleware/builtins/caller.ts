// Who is calling, as the server's built-in layers key what they keep per caller (rate-limit buckets,
// private cached results): the principal the transport's authentication established.
import { toJsonText } from "../../json-schema/json-values.js";
import type { HandlerContext } from "../../server/mcp-server/mcp-server.types.js";

/**
 * The caller's key: a token principal's subject (else its client), any other principal as JSON;
 * undefined for an anonymous request (no authentication on the transport).
 */
export function callerKey(context: Pick<HandlerContext, "principal">): string | undefined {
  const principal = context.principal;
  if (principal === undefined || principal === null) return undefined;
  const { subject, clientId } = principal as { readonly subject?: unknown; readonly clientId?: unknown };
  if (typeof subject === "string") return `sub ${subject}`;
  if (typeof clientId === "string") return `client ${clientId}`;
  return `principal ${toJsonText(principal)}`;
}

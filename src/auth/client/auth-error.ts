// The errors of the authorization building blocks: one `MCPError` shape whose `data.reason` says
// what failed, and the rules that keep secrets out of every message. An authorization code, a PKCE
// verifier, a `state`, a token or a client secret never reaches a message or `data`; URLs are shown
// without their query (where a secret could ride) and text from a server is cut short and stripped
// of control characters before it is shown.
import { MCP_CODES, type MCPCode } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";

/** Why an authorization step failed: the `data.reason` of every error these functions throw. */
export type AuthFailureReason =
  /** The caller passed something unusable (a malformed PKCE verifier, a header value with a line break). */
  | "invalid-argument"
  /** The caller's signal fired. */
  | "cancelled"
  /** A metadata URL answered 5xx, or its fetch failed with something other than a `TypeError`. */
  | "metadata-unavailable"
  /** A URL does not parse, or has a fragment. */
  | "invalid-url"
  /** A URL is neither https nor http on a loopback host. */
  | "insecure-url"
  | "resource-metadata-not-found"
  | "resource-metadata-invalid"
  /** The protected resource metadata names another resource than the MCP server. */
  | "resource-mismatch"
  | "authorization-server-metadata-not-found"
  | "authorization-server-metadata-invalid"
  /** The authorization server metadata's `issuer` is not the issuer it was fetched for. */
  | "issuer-mismatch"
  /** The authorization server does not list `S256` in `code_challenge_methods_supported`. */
  | "pkce-unsupported"
  /** The server requires DPoP-bound tokens, and its authorization server takes no proof this client makes (ES256). */
  | "dpop-unsupported"
  /** The authorization callback has no code, or a parameter more than once. */
  | "callback-invalid"
  | "state-mismatch"
  /** The authorization server advertises RFC 9207 `iss` but the callback has none. */
  | "iss-missing"
  | "iss-mismatch"
  /** The callback carries `error=…` (after `state` and `iss` were found right). */
  | "authorization-denied";

/** What every error of these functions carries in `MCPError.data`. */
export interface AuthErrorData {
  readonly reason: AuthFailureReason;
  /** The URL concerned, without query or fragment. */
  readonly url?: string;
  /** The HTTP status of a metadata answer that failed. */
  readonly status?: number;
  /** The OAuth `error` code of a denied authorization. */
  readonly error?: string;
}

// Cancellation, transport and caller faults keep the library's usual codes; everything that
// stands between the client and a token is MCP.UNAUTHORIZED.
// Literals (typed as MCP_CODES' values), not reads of MCP_CODES: a read at the top level stays in every app that imports the package.
const CODE_OF: Readonly<Partial<Record<AuthFailureReason, MCPCode>>> = {
  "invalid-argument": "MCP.INVALID_PARAMS",
  cancelled: "MCP.REQUEST_CANCELLED",
  "metadata-unavailable": "MCP.TRANSPORT_ERROR",
};

/** The error for `reason`: `MCP.UNAUTHORIZED` unless the reason is a cancel, a transport failure or a bad argument. */
export function authError(
  reason: AuthFailureReason,
  message: string,
  details: Omit<AuthErrorData, "reason"> = {},
  cause?: unknown,
): MCPError {
  const code = CODE_OF[reason] ?? MCP_CODES.UNAUTHORIZED;
  return new MCPError(code, message, { data: { reason, ...details }, ...(cause === undefined ? {} : { cause }) });
}

/** The reason of an error these functions threw, if `error` is one. */
export function authFailureOf(error: unknown): AuthFailureReason | undefined {
  if (!(error instanceof MCPError) || typeof error.data !== "object" || error.data === null) return undefined;
  const reason = (error.data as Partial<AuthErrorData>).reason;
  return typeof reason === "string" ? reason : undefined;
}

/** A URL as messages show it: scheme, host and path only (a query can carry a secret). */
export function displayUrl(url: URL): string {
  return url.protocol === "https:" || url.protocol === "http:" ? `${url.origin}${url.pathname}` : `a ${url.protocol} URL`;
}

const UNTRUSTED_TEXT_CHARS = 200;

/** Text from a server, safe to put in a message: printable characters only, at most 200 of them. */
export function untrustedText(text: string): string {
  // Anything below space or DEL would let a server forge log lines or terminal escapes.
  const printable = text.replace(/[^\x20-\x7e\u00a0-\uffff]/g, "?");
  return printable.length > UNTRUSTED_TEXT_CHARS ? `${printable.slice(0, UNTRUSTED_TEXT_CHARS)}…` : printable;
}

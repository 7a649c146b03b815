// The authorization request (OAuth 2.1 §4.1.1 with PKCE S256 and RFC 8707 `resource`) and the
// checks of the redirect back to the client: `state`, then RFC 9207 `iss` as the 2026-07-28
// "Authorization Response Validation" table says, and only then `error` or the code.
import { authError, untrustedText } from "./auth-error.js";
import { PKCE_METHOD } from "./pkce.js";
import { secureUrl } from "./url-safety.js";

export interface AuthorizationRequest {
  /** The authorization server's `authorization_endpoint` (its own query parameters are kept). */
  readonly authorizationEndpoint: string;
  readonly clientId: string;
  /** https, or http on a loopback host. */
  readonly redirectUri: string;
  /** The S256 challenge of the flow's verifier (`createPkce`). */
  readonly codeChallenge: string;
  /** The flow's `state` (`createState`). */
  readonly state: string;
  /** The protected resource metadata's `resource` exactly as published (or `canonicalResourceUri` without one). */
  readonly resource: string;
  /** Omitted when undefined (`selectScope`). */
  readonly scope?: string | undefined;
}

/**
 * The URL to send the user agent to. The `resource` string is put in as given, never re-serialised
 * through `URL` (which would add a trailing slash to a pathless one). Throws `MCP.UNAUTHORIZED`
 * (`invalid-url`, `insecure-url`) when the endpoint or redirect URI is not https or loopback http.
 */
export function buildAuthorizationUrl(request: AuthorizationRequest): string {
  const url = secureUrl(request.authorizationEndpoint, "authorization endpoint");
  secureUrl(request.redirectUri, "redirect URI");
  const params = url.searchParams;
  params.set("response_type", "code");
  params.set("client_id", request.clientId);
  params.set("redirect_uri", request.redirectUri);
  params.set("code_challenge", request.codeChallenge);
  params.set("code_challenge_method", PKCE_METHOD);
  params.set("state", request.state);
  if (request.scope !== undefined && request.scope !== "") params.set("scope", request.scope);
  params.set("resource", request.resource);
  return url.href;
}

/** What the client recorded with the flow's verifier before redirecting. */
export interface CallbackExpectation {
  /** The `state` sent in the authorization request. */
  readonly state: string;
  /** The `issuer` of the validated authorization server metadata. */
  readonly issuer: string;
  /** The metadata's `authorization_response_iss_parameter_supported` (`advertisesIssParameter`). */
  readonly issParameterSupported: boolean;
}

/** What a callback that passed every check gives. */
export interface AuthorizationCallback {
  readonly code: string;
  /** The `iss` the response carried, when it carried one (it equals the recorded issuer). */
  readonly iss?: string;
}

const CALLBACK_BASE = "http://callback.invalid/";
const SINGLE = ["code", "state", "iss", "error", "error_description", "error_uri"] as const;

/**
 * Checks the redirect back from the authorization server (the full callback URL, or its path and
 * query) and gives the code. In order, each failing as `MCP.UNAUTHORIZED`:
 * a parameter sent twice (`callback-invalid`: RFC 6749 §3.1); `state` absent or not the one sent
 * (`state-mismatch`); RFC 9207 `iss`: absent although advertised (`iss-missing`), or present and
 * not the recorded issuer as a plain string, with no normalisation at all (`iss-mismatch`), whether
 * advertised or not; then `error=…` (`authorization-denied`, with the `error` code and description);
 * then a missing code (`callback-invalid`). Until `state` and `iss` have passed, nothing the
 * response says is shown. No message ever holds the code or the state.
 */
export function verifyAuthorizationCallback(callback: string | URL, expected: CallbackExpectation): AuthorizationCallback {
  // Relative input is read against a base that is never contacted: only the query matters.
  const text = typeof callback === "string" ? callback : callback.href;
  if (!URL.canParse(text, CALLBACK_BASE)) throw authError("callback-invalid", "The authorization response is not a URL");
  const params = new URL(text, CALLBACK_BASE).searchParams;
  const twice = SINGLE.find((name) => params.getAll(name).length > 1);
  if (twice !== undefined) throw authError("callback-invalid", `The authorization response has ${twice} more than once: it is not used`);
  if (params.get("state") !== expected.state)
    throw authError("state-mismatch", "The authorization response's state is missing or not the one this flow sent: it is not used");
  checkIss(params.get("iss"), expected);
  const error = params.get("error");
  if (error !== null) throw denied(error, params.get("error_description"), expected.issuer);
  const code = params.get("code");
  if (code === null || code === "") throw authError("callback-invalid", "The authorization response has no code");
  const iss = params.get("iss");
  return iss === null ? { code } : { code, iss };
}

// The 2026-07-28 table: a present iss is always compared; an absent one is refused only when advertised.
function checkIss(iss: string | null, expected: CallbackExpectation): void {
  if (iss === null) {
    if (expected.issParameterSupported) {
      throw authError(
        "iss-missing",
        `The authorization server ${untrustedText(expected.issuer)} advertises the iss parameter (RFC 9207) ` +
          "but its response has none: it is not used",
      );
    }
    return;
  }
  if (iss !== expected.issuer) {
    throw authError(
      "iss-mismatch",
      `The authorization response comes from issuer ${untrustedText(iss)}, not ${untrustedText(expected.issuer)} ` +
        "(RFC 9207, compared as plain strings): it is not used",
    );
  }
}

function denied(error: string, description: string | null, issuer: string): Error {
  const said = description === null ? "" : `: ${untrustedText(description)}`;
  return authError("authorization-denied", `The authorization server ${untrustedText(issuer)} refused: ${untrustedText(error)}${said}`, {
    error: untrustedText(error),
  });
}

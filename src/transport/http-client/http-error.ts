import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, describeThrown } from "../../error-codes/mcp-error.js";
import { readText } from "./body.js";
import type { FetchResponse } from "./http-options.js";

/** How much of an error body is kept in the error (it is read no further). */
export const ERROR_BODY_EXCERPT_BYTES = 2048;

/** What an HTTP error carries in `MCPError.data`. */
export interface HttpErrorData {
  readonly status: number;
  readonly statusText: string;
  readonly method: string;
  readonly url: string;
  /** The start of the response body (at most `ERROR_BODY_EXCERPT_BYTES`). */
  readonly body: string;
  /** The `WWW-Authenticate` challenge of a 401 (or 403), for the OAuth flow. */
  readonly wwwAuthenticate?: string;
  /** Set on a 404 to a request that carried this session id: the server ended the session. */
  readonly sessionExpired?: boolean;
  readonly sessionId?: string;
}

/** The status of an HTTP error raised by these transports, if `error` is one. */
export function httpStatusOf(error: unknown): number | undefined {
  if (!(error instanceof MCPError) || typeof error.data !== "object" || error.data === null) return undefined;
  const status = (error.data as Partial<HttpErrorData>).status;
  return typeof status === "number" ? status : undefined;
}

/** True when `error` says the server no longer knows the session (HTTP 404 to a request with a session id). */
export function isSessionExpired(error: unknown): boolean {
  return error instanceof MCPError && (error.data as Partial<HttpErrorData> | undefined)?.sessionExpired === true;
}

/**
 * Turns a failed response into an `MCPError`: 401/403 are `MCP.UNAUTHORIZED` (with the
 * `WWW-Authenticate` challenge), everything else `MCP.TRANSPORT_ERROR`; the message names the
 * status, the request and what the body says.
 */
export async function httpError(response: FetchResponse, method: string, url: string): Promise<MCPError> {
  const { text: body } = await readText(response, ERROR_BODY_EXCERPT_BYTES);
  return httpErrorOf(response, method, url, body);
}

/** `httpError` of a response whose body was read already (an excerpt of it is kept). */
export function httpErrorOf(response: FetchResponse, method: string, url: string, text: string): MCPError {
  const body = text.slice(0, ERROR_BODY_EXCERPT_BYTES);
  const challenge = response.headers.get("www-authenticate");
  const data: HttpErrorData = {
    status: response.status,
    statusText: response.statusText,
    method,
    url,
    body,
    ...(challenge === null ? {} : { wwwAuthenticate: challenge }),
  };
  const denied = response.status === 401 || response.status === 403;
  const said = jsonRpcErrorMessage(body) ?? body.trim();
  const status = response.statusText ? `${response.status} ${response.statusText}` : String(response.status);
  const message = `HTTP ${status} from ${method} ${url}${said ? `: ${said}` : ""}`;
  return new MCPError(denied ? MCP_CODES.UNAUTHORIZED : MCP_CODES.TRANSPORT_ERROR, message, { data });
}

/**
 * The error for a 404 (`refusal`, from `httpError`) to a request that carried a session id, and,
 * when starting a new session was tried, why that failed.
 */
export function sessionExpiredError(refusal: MCPError, sessionId: string, renewalFailure?: unknown): MCPError {
  const { method, url } = refusal.data as HttpErrorData;
  const outcome =
    renewalFailure === undefined ? "connect again to start a new one" : `starting a new one failed: ${describeThrown(renewalFailure)}`;
  return new MCPError(
    MCP_CODES.TRANSPORT_ERROR,
    `The server no longer knows session ${sessionId} (HTTP 404 to ${method} ${url}): the session has ended; ${outcome}`,
    {
      cause: renewalFailure ?? refusal,
      data: { ...(refusal.data as HttpErrorData), sessionExpired: true, sessionId },
    },
  );
}

/** A request that never got a response (network down, refused, aborted by a timeout). */
export function networkError(method: string, url: string, thrown: unknown): MCPError {
  return new MCPError(MCP_CODES.TRANSPORT_ERROR, `${method} ${url} failed: ${describeThrown(thrown)}`, {
    cause: thrown,
    data: { method, url },
  });
}

function jsonRpcErrorMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    return typeof parsed.error?.message === "string" ? parsed.error.message : undefined;
  } catch {
    return undefined;
  }
}

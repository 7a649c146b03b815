import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, describeThrown } from "../../error-codes/mcp-error.js";
import { discardBody } from "./body.js";
import { httpError } from "./http-error.js";
import { fetchOf, fetchOrFail, headersFor, type HttpClientOptions, type FetchResponse } from "./http-options.js";
import { signalFor, type RequestSignal } from "./request-cancel.js";
import { withFields } from "../../types/objects.js";

export const ACCEPT_BOTH = "application/json, text/event-stream";
export const EVENT_STREAM = "text/event-stream";

/** One request to the MCP endpoint. */
export interface RequestPlan {
  readonly accept: string;
  readonly signal: RequestSignal;
  readonly body?: string;
  readonly lastEventId?: string | undefined;
  /** A stateless-era POST's own headers (version, method, name, params), sent in place of the session's. */
  readonly stateless?: Readonly<Record<string, string>> | undefined;
}

/**
 * The MCP endpoint of one Streamable HTTP connection: its URL, the session id the server gave and
 * the protocol version, sent as headers on every request along with the caller's own.
 */
export class HttpSession {
  readonly url: string;
  readonly #options: HttpClientOptions;
  sessionId: string | undefined;
  protocolVersion: string | undefined;

  constructor(url: string, options: HttpClientOptions, protocolVersion: string | undefined) {
    this.url = url;
    this.#options = options;
    this.protocolVersion = protocolVersion;
  }

  /** Sends one request; adopts the session id of the first answer of the session era that carries one. */
  async request(method: string, plan: RequestPlan): Promise<FetchResponse> {
    // A stateless-era POST belongs to no session, and names its version itself.
    const own =
      plan.stateless === undefined
        ? {
            accept: plan.accept,
            "content-type": plan.body === undefined ? undefined : "application/json",
            "mcp-session-id": this.sessionId,
            "mcp-protocol-version": this.protocolVersion,
            "last-event-id": plan.lastEventId,
          }
        : withFields({ accept: plan.accept, "content-type": "application/json" }, plan.stateless);
    const given = headersFor(this.#options.headers, own);
    // Awaited only when the caller's headers come from a function: a tick per request saved.
    const headers = given instanceof Promise ? await given : given;
    const fetchImpl = fetchOf(this.#options);
    const signal = signalFor(fetchImpl, plan.signal);
    const init = plan.body === undefined ? { method, headers, signal } : { method, headers, body: plan.body, signal };
    const response = await fetchOrFail(fetchImpl, this.url, init);
    // A stateless-era answer opens no session, whatever it carries: adopting its id would send it on a
    // fallback's initialize in place of the one that answer assigns, and a DELETE on close.
    const assigned = plan.stateless === undefined ? response.headers.get("mcp-session-id") : null;
    if (assigned !== null && this.sessionId === undefined) this.sessionId = assigned;
    return response;
  }

  /** Ends the session with DELETE (405 and 404 are fine); failures go to `onError`, never throw. */
  async terminate(timeoutMs: number): Promise<void> {
    const sessionId = this.sessionId;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    try {
      const response = await this.request("DELETE", { accept: ACCEPT_BOTH, signal: timeout.signal });
      if (response.ok || response.status === 405 || response.status === 404) discardBody(response);
      else {
        // Stryker disable next-line OptionalChaining: without onError the TypeError lands in the catch below, whose own onError?.() drops
        // it just the same
        this.#options.onError?.(await httpError(response, "DELETE", this.url));
      }
    } catch (error) {
      const why = timeout.signal.aborted ? `no answer within ${timeoutMs} ms` : describeThrown(error);
      this.#options.onError?.(
        new MCPError(MCP_CODES.TRANSPORT_ERROR, `Ending session ${sessionId} with DELETE ${this.url} failed: ${why}`, { cause: error }),
      );
    } finally {
      clearTimeout(timer);
    }
  }
}

export function unexpectedType(response: FetchResponse, method: string, url: string, type: string): MCPError {
  const expected = method === "GET" ? EVENT_STREAM : `application/json or ${EVENT_STREAM}`;
  return new MCPError(
    MCP_CODES.TRANSPORT_ERROR,
    `${method} ${url} was answered with content type "${type}" where ${expected} was expected`,
    { data: { status: response.status, method, url, contentType: type } },
  );
}

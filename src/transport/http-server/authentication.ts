import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { describeThrown } from "../../error-codes/mcp-error.js";
import type { InboundContext } from "../transport/transport.types.js";
import type { Authenticate, AuthenticationResult, HttpExchange, HttpReply } from "./http-server.types.js";
import { errorReply } from "./responses.js";

/** Who is calling, as far as this HTTP request tells: what handlers and `authorize` see. */
export type Caller = { readonly ok: true; readonly inbound: InboundContext } | { readonly ok: false; readonly reply: HttpReply };

/** Runs `authenticate` (when configured) and builds the request's inbound context, or its 401/403/500. */
export async function identifyCaller(authenticate: Authenticate | undefined, exchange: HttpExchange): Promise<Caller> {
  let result: AuthenticationResult = { authInfo: undefined };
  // Without a hook nothing is awaited.
  if (authenticate) {
    try {
      result = await authenticate(exchange.request());
    } catch (error) {
      return {
        ok: false,
        reply: errorReply(500, `Authentication failed: ${describeThrown(error)}`, { code: JSONRPC_ERROR_CODES.INTERNAL_ERROR }),
      };
    }
  }
  if ("authInfo" in result) return { ok: true, inbound: new RequestInbound(exchange, result.authInfo) };
  // A 400 or 503 (of `authorization`) brings its message.
  const challenge = result.wwwAuthenticate ?? (result.refuse === 401 ? "Bearer" : undefined);
  const message = result.message ?? (result.refuse === 401 ? "Unauthorized" : "Forbidden");
  return {
    ok: false,
    reply: errorReply(result.refuse, message, {
      code: JSONRPC_ERROR_CODES.UNAUTHORIZED,
      headers: challenge === undefined ? undefined : { "www-authenticate": challenge },
    }),
  };
}

/**
 * A request's inbound context. Its headers are gathered when first read (most requests' never are);
 * the exchange is let go then, so a context kept by a handler keeps only the headers.
 */
class RequestInbound implements InboundContext {
  #exchange: HttpExchange | undefined;
  #headers: Readonly<Record<string, string>> | undefined;

  constructor(
    exchange: HttpExchange,
    readonly authInfo: unknown,
  ) {
    this.#exchange = exchange;
  }

  get headers(): Readonly<Record<string, string>> {
    if (this.#exchange) {
      this.#headers = this.#exchange.headers();
      this.#exchange = undefined;
    }
    return this.#headers as Readonly<Record<string, string>>;
  }

  /** What `JSON.stringify` (a log line) shows: both fields, as a plain context would. */
  toJSON(): { authInfo: unknown; headers: Readonly<Record<string, string>> } {
    return { authInfo: this.authInfo, headers: this.headers };
  }
}

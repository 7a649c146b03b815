import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { describeThrown } from "../../error-codes/mcp-error.js";
import type { InboundContext } from "../transport/transport.types.js";
import { identifyCaller } from "./authentication.js";
import type { HttpEndpointOptions, HttpExchange, HttpReply } from "./http-server.types.js";
import { RequestGuard } from "./protection.js";
import { errorReply, methodNotAllowed, withHeaders } from "./responses.js";

/** Serves one allowed method, for a caller that passed every check. */
export type MethodHandler = (exchange: HttpExchange, inbound: InboundContext) => Promise<HttpReply>;

export interface FrontDoorSettings {
  /** Paths served (any when undefined). */
  readonly paths: readonly string[] | undefined;
  /** The methods served besides OPTIONS, in the `Allow` header's form ("GET, POST"). */
  readonly methods: Readonly<Record<string, MethodHandler>>;
  /** True once the handler is closed: every request gets 503. */
  readonly closed: () => boolean;
}

/**
 * What every request goes through, in this order: the path (404), Host and Origin (403), a closed
 * handler (503), CORS preflight (OPTIONS), the method (405 with `Allow`), authentication (401/403;
 * `authorization`'s own hook when it is configured) — then its method's handler; a failure there is a
 * 500, never an unanswered request. (`authorization`'s metadata is answered before the door.)
 */
export class FrontDoor {
  readonly #guard: RequestGuard;
  readonly #methods: ReadonlyMap<string, MethodHandler>;
  readonly #allow: string;

  readonly #options: HttpEndpointOptions;
  readonly #settings: FrontDoorSettings;

  constructor(options: HttpEndpointOptions, settings: FrontDoorSettings) {
    this.#options = options;
    this.#settings = settings;
    this.#guard = new RequestGuard(options);
    this.#methods = new Map(Object.entries(settings.methods));
    this.#allow = [...this.#methods.keys(), "OPTIONS"].join(", ");
  }

  async handle(exchange: HttpExchange): Promise<HttpReply> {
    const paths = this.#settings.paths;
    if (paths !== undefined && !paths.includes(exchange.url.pathname)) return errorReply(404, "Not Found");
    const refusal = this.#guard.refusal(exchange);
    if (refusal) return refusal;
    return withHeaders(await this.#answer(exchange), this.#guard.corsHeaders(exchange));
  }

  async #answer(exchange: HttpExchange): Promise<HttpReply> {
    if (this.#settings.closed()) return errorReply(503, "Service Unavailable: this MCP endpoint is closed");
    if (exchange.method === "OPTIONS") return this.#guard.preflight(exchange, this.#allow);
    const serve = this.#methods.get(exchange.method);
    if (!serve) return methodNotAllowed(this.#allow);
    const caller = await identifyCaller(this.#options.authorization?.authenticate ?? this.#options.authenticate, exchange);
    if (!caller.ok) return caller.reply;
    try {
      return await serve(exchange, caller.inbound);
    } catch (error) {
      return errorReply(500, `Internal error: ${describeThrown(error)}`, { code: JSONRPC_ERROR_CODES.INTERNAL_ERROR });
    }
  }
}

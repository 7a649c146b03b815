import type { MCPError } from "../../error-codes/mcp-error.js";
import type { RequestRecord } from "../../telemetry/telemetry.js";
import type { InboundContext } from "../../transport/transport/transport.types.js";
import type { JsonObject, JsonRpcId, ProgressToken } from "../../types/types.js";
import type { RequestContext, RequestOptions, SessionInfo } from "./dispatcher.types.js";
import { withFields } from "../../types/objects.js";

/** The part of the dispatcher a handler's context reaches back into. */
export interface ContextHost {
  readonly session: SessionInfo;
  notify(method: string, params: JsonObject | undefined, relatedRequestId: JsonRpcId): Promise<void>;
  request(method: string, params: JsonObject | undefined, options: RequestOptions): Promise<unknown>;
}

function progressTokenOf(meta: JsonObject | undefined): ProgressToken | undefined {
  const token = meta?.["progressToken"];
  return typeof token === "string" || typeof token === "number" ? token : undefined;
}

/** A request from the peer that a handler is working on. */
export class InflightRequest implements RequestContext {
  // Made when a handler first asks for `signal` (most never do): until then an abort only keeps its reason.
  #controller: AbortController | undefined;
  #abortReason: MCPError | undefined;
  /** Set once the request is answered, cancelled or orphaned by close: nothing more is sent for it. */
  done = false;
  readonly meta: JsonObject | undefined;
  readonly progressToken: ProgressToken | undefined;

  readonly #host: ContextHost;

  constructor(
    host: ContextHost,
    readonly id: JsonRpcId,
    readonly method: string,
    params: JsonObject | undefined,
    readonly inbound: InboundContext | undefined,
    readonly record: RequestRecord | undefined,
    /** `performance.now()` when it arrived, for the duration in `request:completed` (0 when nobody listens). */
    readonly startedAt: number,
  ) {
    this.#host = host;
    this.meta = params?.["_meta"] as JsonObject | undefined;
    this.progressToken = progressTokenOf(this.meta);
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#abortReason) this.#controller.abort(this.#abortReason);
    }
    return this.#controller.signal;
  }

  get session(): SessionInfo {
    return this.#host.session;
  }

  /** The first reason wins, as with an AbortController. */
  abort(reason: MCPError): void {
    if (this.#controller) this.#controller.abort(reason);
    else this.#abortReason ??= reason;
  }

  async progress(progress: number, total?: number, message?: string): Promise<void> {
    if (this.progressToken === undefined || this.done) return;
    const params: JsonObject = { progressToken: this.progressToken, progress };
    if (total !== undefined) params["total"] = total;
    if (message !== undefined) params["message"] = message;
    await this.#host.notify("notifications/progress", params, this.id);
  }

  notify(method: string, params?: JsonObject): Promise<void> {
    return this.#host.notify(method, params, this.id);
  }

  request(method: string, params?: JsonObject, options: RequestOptions = {}): Promise<unknown> {
    const signal = options.signal ? AbortSignal.any([options.signal, this.signal]) : this.signal;
    return this.#host.request(method, params, withFields(options, { signal, relatedRequestId: this.id }));
  }
}

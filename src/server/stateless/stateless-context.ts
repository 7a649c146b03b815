import { LOGGING_LEVELS, META_KEYS, METHODS, NOTIFICATIONS, type StatelessProtocolVersion } from "../../constants/index.js";
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
  LoggingLevel,
} from "../../schemas/schemas.js";
import type { RequestContext } from "../../jsonrpc/dispatcher/dispatcher.types.js";
import type { InboundContext } from "../../transport/transport/transport.types.js";
import type { JsonObject, JsonRpcId, ProgressToken } from "../../types/types.js";
import type {
  HandlerContext,
  InputOptions,
  RequestClient,
  StandardElicitParams,
  StandardElicitResult,
  StandardSchemaV1,
} from "../mcp-server/mcp-server.types.js";
import { elicitWith } from "../mcp-server/schema-support.js";
import type { InputRounds } from "./input-rounds.js";

/** Where a stateless-era request's notifications go: its own response stream (HTTP) or its connection (stdio), never elsewhere. */
export interface RequestChannel {
  readonly signal: AbortSignal;
  /** The connection records the request itself (a dispatcher's span, metrics and events): the request path does not again. */
  readonly recorded?: boolean;
  readonly inbound: InboundContext | undefined;
  notify(method: string, params: JsonObject): Promise<void>;
}

/**
 * The channel of a stateless-era request that came on a connection (stdio): the dispatcher's request
 * records it, carries its notifications and aborts it on `notifications/cancelled`. A class, not an
 * object literal: a literal with an accessor is built on V8's slow path and, on Node 20, keeps each
 * request's objects alive through young-generation collections.
 */
export class ConnectionChannel implements RequestChannel {
  readonly recorded = true;
  readonly inbound: InboundContext | undefined;

  readonly #request: RequestContext;

  constructor(request: RequestContext) {
    this.#request = request;
    this.inbound = request.inbound;
  }

  // Read only when the handler asks: the dispatcher makes a request's signal on first use.
  get signal(): AbortSignal {
    return this.#request.signal;
  }

  notify(method: string, params: JsonObject): Promise<void> {
    return this.#request.notify(method, params);
  }
}

/** Stateless era: the context of one request, built from its `_meta` alone. */
export class StatelessHandlerContext implements HandlerContext {
  readonly era = "stateless";
  readonly session = undefined;
  readonly client: RequestClient;
  readonly logLevel: LoggingLevel | undefined;
  readonly #progressToken: ProgressToken | undefined;
  /** Why the run was abandoned (its round went to the client); undefined while it counts. */
  #endedBy: Error | undefined;
  #ending: AbortController | undefined;
  #signal: AbortSignal | undefined;

  /** `meta`: the request's `_meta`, checked by the revision's schema. */
  readonly #rounds: InputRounds | undefined;

  constructor(
    readonly requestId: JsonRpcId,
    readonly meta: JsonObject,
    readonly protocolVersion: StatelessProtocolVersion,
    readonly channel: RequestChannel,
    rounds: InputRounds | undefined,
  ) {
    this.#rounds = rounds;
    this.client = {
      info: meta[META_KEYS.clientInfo] as Implementation | undefined,
      capabilities: meta[META_KEYS.clientCapabilities] as ClientCapabilities,
    };
    this.logLevel = meta[META_KEYS.logLevel] as LoggingLevel | undefined;
    const token = meta["progressToken"];
    this.#progressToken = typeof token === "string" || typeof token === "number" ? token : undefined;
  }

  /**
   * Fires when the client leaves or (a run that may ask for input) when the request is answered
   * `input_required` without it. Made when first read: most handlers never read it.
   */
  get signal(): AbortSignal {
    if (this.#signal) return this.#signal;
    if (!this.#rounds) return (this.#signal = this.channel.signal);
    this.#ending = new AbortController();
    if (this.#endedBy) this.#ending.abort(this.#endedBy);
    return (this.#signal = AbortSignal.any([this.channel.signal, this.#ending.signal]));
  }

  /** The run is abandoned: its signal fires, and it sends nothing more. */
  end(reason: Error): void {
    this.#endedBy = reason;
    this.#ending?.abort(reason);
  }

  /** Whether nothing may be sent for the request any more. */
  get #over(): boolean {
    return this.#endedBy !== undefined || this.channel.signal.aborted;
  }

  get inbound(): InboundContext | undefined {
    return this.channel.inbound;
  }

  get principal(): unknown {
    return this.channel.inbound?.authInfo;
  }

  async progress(progress: number, total?: number, message?: string): Promise<void> {
    if (this.#progressToken === undefined || this.#over) return;
    const params: JsonObject = { progressToken: this.#progressToken, progress };
    if (total !== undefined) params["total"] = total;
    if (message !== undefined) params["message"] = message;
    await this.channel.notify(NOTIFICATIONS.progress, params);
  }

  /** Only when the request named a level, and only at or above it. */
  async log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    const threshold = this.logLevel;
    if (threshold === undefined || this.#over || LOGGING_LEVELS.indexOf(level) < LOGGING_LEVELS.indexOf(threshold)) return;
    await this.channel.notify(NOTIFICATIONS.message, logger === undefined ? { level, data: data } : { level, logger, data: data });
  }

  createMessage(params: CreateMessageRequestParams, options?: InputOptions): Promise<CreateMessageResult> {
    return this.#ask(METHODS.samplingCreateMessage, params, options) as Promise<CreateMessageResult>;
  }

  elicitInput<S extends StandardSchemaV1>(params: StandardElicitParams<S>, options?: InputOptions): Promise<StandardElicitResult<S>>;
  elicitInput(params: ElicitRequestParams, options?: InputOptions): Promise<ElicitResult>;
  elicitInput(params: ElicitRequestParams | StandardElicitParams<StandardSchemaV1>, options?: InputOptions): Promise<ElicitResult> {
    return elicitWith((asked) => this.#ask(METHODS.elicitationCreate, asked, options) as Promise<ElicitResult>, params);
  }

  listRoots(options?: InputOptions): Promise<ListRootsResult> {
    return this.#ask(METHODS.rootsList, undefined, options) as Promise<ListRootsResult>;
  }

  #ask(method: string, params: JsonObject | undefined, options: InputOptions | undefined): Promise<unknown> {
    if (!this.#rounds)
      return Promise.reject(new Error(`${method}: only tools/call, prompts/get and resources/read may ask the client for input`));
    return this.#rounds.ask(method, params, options?.key);
  }
}

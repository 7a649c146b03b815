import type { RequestContext } from "../../jsonrpc/dispatcher/dispatcher.types.js";
import { revisionHas } from "../../protocol/downgrade.js";
import type { ProtocolVersion } from "../../constants/index.js";
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
} from "../../schemas/schemas.js";
import type { JsonObject, JsonRpcId } from "../../types/types.js";
import type {
  HandlerContext,
  InputOptions,
  RequestClient,
  StandardElicitParams,
  StandardElicitResult,
  StandardSchemaV1,
} from "./mcp-server.types.js";
import { elicitWith } from "./schema-support.js";
import type { ServerSession } from "./session.js";

/**
 * Session era: the context of one request a session serves — the dispatcher's request context plus the session's ways back to its client.
 */
export class SessionHandlerContext implements HandlerContext {
  readonly era = "session";

  readonly #request: RequestContext;

  constructor(
    readonly session: ServerSession,
    request: RequestContext,
  ) {
    this.#request = request;
  }

  get requestId(): JsonRpcId {
    return this.#request.id;
  }

  get signal(): AbortSignal {
    return this.#request.signal;
  }

  get meta(): JsonObject | undefined {
    return this.#request.meta;
  }

  get inbound(): RequestContext["inbound"] {
    return this.#request.inbound;
  }

  get principal(): unknown {
    return this.#request.inbound?.authInfo;
  }

  get protocolVersion(): ProtocolVersion {
    return this.session.protocolVersion;
  }

  /** The client as it presented itself at initialize (nothing of it yet to a layer in front of `initialize` or an early `ping`). */
  get client(): RequestClient {
    const client = this.session.client;
    return { info: client?.info, capabilities: client?.capabilities ?? {} };
  }

  get logLevel(): LoggingLevel | undefined {
    return this.session.logLevel;
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    // Revision downgrade of progress: the dispatcher builds the notification, the revision says whether it has a message.
    return this.#request.progress(progress, total, revisionHas(this.session.protocolVersion, "progressMessage") ? message : undefined);
  }

  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    return this.session.log(level, data, logger, this.#request);
  }

  /** Asks the client's model, as part of this request (cancelled with it). */
  createMessage(params: CreateMessageRequestParams, options?: InputOptions): Promise<CreateMessageResult> {
    return this.session.createMessage(params, options, this.#request);
  }

  /** Asks the user through the client, as part of this request (a Standard Schema form: see `elicitWith`). */
  elicitInput<S extends StandardSchemaV1>(params: StandardElicitParams<S>, options?: InputOptions): Promise<StandardElicitResult<S>>;
  elicitInput(params: ElicitRequestParams, options?: InputOptions): Promise<ElicitResult>;
  elicitInput(params: ElicitRequestParams | StandardElicitParams<StandardSchemaV1>, options?: InputOptions): Promise<ElicitResult> {
    return elicitWith((asked) => this.session.elicitInput(asked, options, this.#request), params);
  }

  /** The client's roots, as part of this request. */
  listRoots(options?: InputOptions): Promise<ListRootsResult> {
    return this.session.listRoots(options, this.#request);
  }
}

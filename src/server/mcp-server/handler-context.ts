import type { RequestContext } from "../../jsonrpc/dispatcher/dispatcher.types.js";
import { revisionHas } from "../../protocol/downgrade.js";
import type { CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult, ListRootsResult, LoggingLevel } from "../../schemas/schemas.js";
import type { JsonObject, JsonRpcId } from "../../types/types.js";
import type { HandlerContext } from "./mcp-server.types.js";
import type { ClientCallOptions, ServerSession } from "./session.js";

/** The context of one request a session serves: the dispatcher's request context plus the session's ways back to its client. */
export class SessionHandlerContext implements HandlerContext {
  constructor(
    readonly session: ServerSession,
    private readonly request: RequestContext,
  ) {}

  get requestId(): JsonRpcId {
    return this.request.id;
  }

  get signal(): AbortSignal {
    return this.request.signal;
  }

  get meta(): JsonObject | undefined {
    return this.request.meta;
  }

  get inbound(): RequestContext["inbound"] {
    return this.request.inbound;
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    // Revision downgrade of progress: the dispatcher builds the notification, the revision says whether it has a message.
    return this.request.progress(progress, total, revisionHas(this.session.protocolVersion, "progressMessage") ? message : undefined);
  }

  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    return this.session.log(level, data, logger, this.request);
  }

  /** Asks the client's model, as part of this request (cancelled with it). */
  createMessage(params: CreateMessageRequestParams, options?: ClientCallOptions): Promise<CreateMessageResult> {
    return this.session.createMessage(params, options, this.request);
  }

  /** Asks the user through the client, as part of this request. */
  elicitInput(params: ElicitRequestParams, options?: ClientCallOptions): Promise<ElicitResult> {
    return this.session.elicitInput(params, options, this.request);
  }

  /** The client's roots, as part of this request. */
  listRoots(options?: ClientCallOptions): Promise<ListRootsResult> {
    return this.session.listRoots(options, this.request);
  }
}

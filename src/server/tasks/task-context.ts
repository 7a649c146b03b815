import { METHODS, type AnyProtocolVersion } from "../../constants/index.js";
import type { Era, RevisionProfile } from "../../protocol/profiles.js";
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
} from "../../schemas/schemas.js";
import type { InboundContext } from "../../transport/transport/transport.types.js";
import type { JsonObject, JsonRpcId } from "../../types/types.js";
import { missingCapabilityFor } from "../core/input-capabilities.js";
import type { TaskScope } from "../core/task-support.js";
import type {
  HandlerContext,
  InputOptions,
  RequestClient,
  SessionHandle,
  StandardElicitParams,
  StandardElicitResult,
  StandardSchemaV1,
} from "../mcp-server/mcp-server.types.js";
import { elicitWith } from "../mcp-server/schema-support.js";
import type { TaskRun } from "./task-engine.js";
import type { InputRefusal } from "./task-surface.js";

/**
 * What a revision does with a task's progress and log messages beyond its status (2025-11-25 sends them to the session; 2026-07-28 has no
 * place for them).
 */
export interface TaskSideChannel {
  progress?(progress: number, total: number | undefined, message: string | undefined): Promise<void>;
  log?(level: LoggingLevel, data: unknown, logger: string | undefined): Promise<void>;
}

/**
 * The context of a tool's handler running as a task: the creating request's scope (revision, client,
 * principal, session), with the task's own signal and its input asked through the task (the task
 * waits in `input_required`), never through the request, which was answered long ago.
 */
export class TaskHandlerContext implements HandlerContext {
  readonly era: Era;
  readonly protocolVersion: AnyProtocolVersion;
  readonly client: RequestClient;
  readonly logLevel: LoggingLevel | undefined;
  readonly principal: unknown;
  readonly session: SessionHandle | undefined;
  readonly requestId: JsonRpcId;
  readonly meta: JsonObject | undefined;
  readonly inbound: InboundContext | undefined;
  readonly task: TaskScope;

  /** `creating`: the request that made the task (its fields are copied: the request itself is not kept). */
  constructor(
    creating: HandlerContext,
    private readonly run: TaskRun,
    prepared: unknown,
    private readonly profile: RevisionProfile,
    private readonly refuse: InputRefusal,
    private readonly side: TaskSideChannel = {},
  ) {
    this.era = creating.era;
    this.protocolVersion = creating.protocolVersion;
    this.client = creating.client;
    this.logLevel = creating.logLevel;
    this.principal = creating.principal;
    this.session = creating.session;
    this.requestId = creating.requestId;
    this.meta = creating.meta;
    this.inbound = creating.inbound;
    this.task = { id: run.taskId, prepared };
  }

  /** Fires when the task is cancelled, expires, or the server closes. */
  get signal(): AbortSignal {
    return this.run.signal;
  }

  /** Becomes the task's status message (and, where the revision has a place for it, a progress notification). */
  async progress(progress: number, total?: number, message?: string): Promise<void> {
    this.run.status(message ?? (total === undefined ? `${progress}` : `${progress}/${total}`));
    await this.side.progress?.(progress, total, message);
  }

  async log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    await this.side.log?.(level, data, logger);
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

  /** Input through the task: refused as the revision says when the creating request's client cannot answer it. */
  async #ask(method: string, params: JsonObject | undefined, options: InputOptions | undefined): Promise<unknown> {
    const lacking = missingCapabilityFor(method, params, this.client.capabilities, this.profile);
    if (lacking) throw this.refuse(lacking);
    return this.run.ask(method, params, options?.key);
  }
}

import type { $ZodType, output } from "zod/v4/core";
import type { ProtocolVersion } from "../../constants/index.js";
import type { MCPError } from "../../error-codes/mcp-error.js";
import type { EventBus, MCPEventMap } from "../../events/events.js";
import type { TimeoutOptions } from "../../jsonrpc/dispatcher/dispatcher.types.js";
import type {
  Annotations,
  CallToolResult,
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ListRootsResult,
  GetPromptResult,
  Icon,
  Implementation,
  LoggingLevel,
  ReadResourceResult,
  Resource,
  ServerCapabilities,
  ToolAnnotations,
  ToolExecution,
} from "../../schemas/schemas.js";
import type { Telemetry } from "../../telemetry/telemetry.js";
import type { InboundContext } from "../../transport/transport/transport.types.js";
import type { JsonObject, JsonRpcId } from "../../types/types.js";
import type { UriVariableValue } from "../../uri-template/uri-template.js";
import type { ClientCallOptions, ServerSession } from "./session.js";

/** A JSON Schema object as it goes on the wire. */
export type JsonSchemaObject = { readonly [keyword: string]: unknown };

/** A tool's or prompt's argument schema: a Zod schema (typed handler) or plain JSON Schema. */
export type ArgumentsSchema = $ZodType | JsonSchemaObject;

/** The handler's argument type for a schema: inferred from Zod, a plain object for JSON Schema. */
export type ArgumentsOf<S> = S extends $ZodType ? output<S> : Record<string, unknown>;

export interface MCPServerOptions extends TimeoutOptions {
  /** Shown to the model by hosts that support it. */
  readonly instructions?: string;
  /** Capabilities to declare beyond those derived from what is registered (e.g. `{ tools: {} }` for tools added later, `experimental`). */
  readonly capabilities?: ServerCapabilities;
  /** Items per page of every list method (default 100). */
  readonly pageSize?: number;
  /** Consulted before every request but initialize and ping; false refuses it with `MCP.UNAUTHORIZED`. */
  readonly authorize?: (request: AuthorizeRequest) => boolean | Promise<boolean>;
  /** Told when a session's client says its roots changed. */
  readonly onRootsListChanged?: (session: ServerSession) => void;
  readonly telemetry?: Telemetry | null | undefined;
  readonly events?: EventBus<MCPEventMap> | undefined;
  /** Told of what cannot be answered (see the dispatcher); default: nothing. */
  readonly onProtocolError?: (error: MCPError, session: ServerSession) => void;
}

export interface AuthorizeRequest {
  readonly method: string;
  readonly params: unknown;
  readonly session: ServerSession;
  /** What the transport knows: HTTP headers, verified auth info. */
  readonly inbound: InboundContext | undefined;
}

/** What every handler of a server gets: the request, its session and the way back to the client. */
export interface HandlerContext {
  readonly requestId: JsonRpcId;
  readonly signal: AbortSignal;
  readonly meta: JsonObject | undefined;
  readonly session: ServerSession;
  readonly inbound: InboundContext | undefined;
  /** Reports progress when the client asked for it (a no-op otherwise). */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** A log message for this request's session, filtered by its level. */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Asks the client's model (`sampling/createMessage`) as part of this request. */
  createMessage(params: CreateMessageRequestParams, options?: ClientCallOptions): Promise<CreateMessageResult>;
  /** Asks the user through the client (`elicitation/create`) as part of this request. */
  elicitInput(params: ElicitRequestParams, options?: ClientCallOptions): Promise<ElicitResult>;
  /** The client's roots (`roots/list`) as part of this request. */
  listRoots(options?: ClientCallOptions): Promise<ListRootsResult>;
}

interface Described {
  readonly title?: string;
  readonly description?: string;
  readonly icons?: Icon[];
  readonly _meta?: JsonObject;
}

export interface ToolConfig<I extends ArgumentsSchema | undefined, O extends ArgumentsSchema | undefined> extends Described {
  readonly inputSchema?: I;
  readonly outputSchema?: O;
  readonly annotations?: ToolAnnotations;
  readonly execution?: ToolExecution;
}

export type ToolHandler<I> = (args: I extends ArgumentsSchema ? ArgumentsOf<I> : Record<string, never>, context: HandlerContext) => CallToolResult | Promise<CallToolResult>;

export interface ResourceConfig extends Described {
  readonly mimeType?: string;
  readonly annotations?: Annotations;
  readonly size?: number;
}

export type ResourceReader = (uri: string, context: HandlerContext) => ReadResourceResult | Promise<ReadResourceResult>;

/** Completes one variable or argument: the values that fit what was typed so far. */
export type Completer = (value: string, context: CompleterContext) => readonly string[] | Promise<readonly string[]>;

export interface CompleterContext {
  /** Values already given for the other arguments / variables. */
  readonly arguments: Readonly<Record<string, string>>;
  readonly handler: HandlerContext;
}

export interface ResourceTemplateConfig extends ResourceConfig {
  /** Enumerates concrete resources of this template for `resources/list`. */
  readonly list?: (context: HandlerContext) => readonly Resource[] | Promise<readonly Resource[]>;
  /** Completers for the template's variables. */
  readonly complete?: Readonly<Record<string, Completer>>;
}

export type TemplateReader = (uri: string, variables: Readonly<Record<string, UriVariableValue>>, context: HandlerContext) => ReadResourceResult | Promise<ReadResourceResult>;

export interface PromptArgumentConfig {
  readonly description?: string;
  readonly title?: string;
  readonly required?: boolean;
  readonly complete?: Completer;
}

export interface PromptConfig extends Described {
  /** The prompt's arguments (all strings on the wire). */
  readonly arguments?: Readonly<Record<string, PromptArgumentConfig>>;
}

export type PromptHandler = (args: Readonly<Record<string, string>>, context: HandlerContext) => GetPromptResult | Promise<GetPromptResult>;

/** What `tool()`, `resource()`, `resourceTemplate()` and `prompt()` return: the entry's life after registration. */
export interface RegisteredEntry<C> {
  readonly name: string;
  readonly enabled: boolean;
  enable(): void;
  disable(): void;
  /** Replaces parts of the configuration (and/or the handler); sessions are told the list changed. */
  update(changes: Partial<C>): void;
  remove(): void;
}

/** What a session knows of its client once initialized. */
export interface NegotiatedClient {
  readonly protocolVersion: ProtocolVersion;
  readonly capabilities: ClientCapabilities;
  readonly info: Implementation;
}

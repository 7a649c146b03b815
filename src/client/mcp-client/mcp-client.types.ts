import type { AnyProtocolVersion } from "../../constants/index.js";
import type { MCPError } from "../../error-codes/mcp-error.js";
import type { EventBus, MCPEventMap } from "../../events/events.js";
import type { JsonSchemaOptions } from "../../json-schema/json-schema.js";
import type { RequestOptions, TimeoutOptions } from "../../jsonrpc/dispatcher/dispatcher.types.js";
import type {
  CallToolResult,
  CompleteRequestParams,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitationCompleteNotificationParams,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  InputRequests,
  InputRequiredResult,
  LoggingMessageNotificationParams,
  NotificationParams,
  ProgressNotificationParams,
  Prompt,
  Resource,
  ResourceTemplate,
  ResourceUpdatedNotificationParams,
  Root,
  Tool,
} from "../../schemas/schemas.js";
import type { Telemetry } from "../../telemetry/telemetry.js";
import type { JsonObject, JsonRpcId } from "../../types/types.js";
import type { StructuredContentOf } from "../../server/mcp-server/mcp-server.types.js";
import type { ResponseCacheOptions } from "./response-cache.js";

/** A tool's result whose `structuredContent` the caller knows the type of (the tool's output schema: it is checked against it). */
export type ToolCallResult<S extends object = Record<string, unknown>> = CallToolResult & { readonly structuredContent?: S };

/**
 * The result of a tool the client's tool map names: a result that is not `isError: true` carries
 * `structuredContent` of the map's type (the client refuses one of a tool whose listed
 * `outputSchema` it breaks or lacks, with `MCP.PROTOCOL_INVALID`).
 */
export type TypedToolCallResult<S> = CallToolResult &
  ({ readonly isError?: false | undefined; readonly structuredContent: S } | { readonly isError: true });

/**
 * What `callTool` resolves to: `ToolCallResult<S>` when the caller names `S`, else typed by the client's tool map for a tool it names, else
 * untyped.
 */
export type ToolCallResultOf<Tools, N extends string, S extends object> = [S] extends [never]
  ? N extends keyof Tools
    ? TypedToolCallResult<Tools[N]>
    : ToolCallResult
  : ToolCallResult<S>;

/**
 * A client's tool map (`MCPClient<Tools>`) from a server's tool definitions: each entry a tool's
 * configuration (its `outputSchema` read) or its output schema itself, Zod or Standard Schema;
 * gives each tool the type of its `structuredContent` (a plain object for JSON Schema or none).
 */
export type ToolOutputs<D> = { -readonly [K in keyof D]: StructuredContentOf<D[K]> };

/** Per-call options: cancellation, timeouts, progress, and extra `_meta` for the request. */
export interface CallOptions extends Omit<RequestOptions, "relatedRequestId" | "onId"> {
  /** Merged into the request's `params._meta`. */
  readonly meta?: JsonObject;
  /**
   * Stateless era: answers a round's requests for input itself (e.g. to show a form between rounds),
   * with the answers under the server's keys; without it, the client's sampling, elicitation and
   * roots handlers answer them.
   */
  readonly onInputRequired?: (round: InputRound) => JsonObject | Promise<JsonObject>;
  /** Asks the server even when a cached result is still fresh (the answer is cached as usual). */
  readonly fresh?: boolean;
}

/** A round of input a stateless-era call is asked for: what the server asks, by its keys, and the round's number (from 1). */
export interface InputRound {
  readonly inputRequests: InputRequests;
  readonly round: number;
}

/** An input-required result of the stateless era. */
export type InputRequired = InputRequiredResult;

/** Which era a client speaks: found by probing (`"auto"`), or only one of them. */
export type EraChoice = "auto" | "session" | "stateless";

/** What `connect` settled on. */
export interface ConnectResult {
  readonly era: "session" | "stateless";
  readonly protocolVersion: AnyProtocolVersion;
}

export interface ConnectOptions {
  /** Aborts the handshake (the transport is closed). */
  readonly signal?: AbortSignal;
  /** How long to wait for the server's answer to `initialize`. */
  readonly timeoutMs?: number;
}

/** What a handler of a server-to-client request gets besides the params. */
export interface ServerRequestContext {
  readonly requestId: JsonRpcId;
  /** Fires when the server cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  readonly meta: JsonObject | undefined;
}

export type SamplingHandler = (
  params: CreateMessageRequestParams,
  context: ServerRequestContext,
) => CreateMessageResult | Promise<CreateMessageResult>;

export interface SamplingOptions {
  readonly createMessage: SamplingHandler;
  /** The handler can run the model with the server's `tools` (declares `sampling.tools`, 2025-11-25). */
  readonly tools?: boolean;
  /** The handler honours `includeContext` other than `"none"` (declares `sampling.context`, 2025-11-25). */
  readonly context?: boolean;
}

export type FormElicitationHandler = (
  params: ElicitRequestFormParams,
  context: ServerRequestContext,
) => ElicitResult | Promise<ElicitResult>;

export type UrlElicitationHandler = (params: ElicitRequestURLParams, context: ServerRequestContext) => ElicitResult | Promise<ElicitResult>;

export interface ElicitationOptions {
  /** Asks the user to fill in `requestedSchema` (form mode, 2025-06-18 on). */
  readonly form?: FormElicitationHandler;
  /** Asks the user's consent to open `url` (URL mode, 2025-11-25). */
  readonly url?: UrlElicitationHandler;
  /** Fill the schema's defaults into an accepted form's missing fields (SEP-1034; declared as `form.applyDefaults`). */
  readonly applyDefaults?: boolean;
}

/** The roots the client exposes: a list (change it with `setRoots`) or a function asked on every `roots/list`. */
export type RootsSource = readonly Root[] | (() => readonly Root[] | Promise<readonly Root[]>);

/** Which lists the client keeps, re-listing them when the server says they changed. */
export interface ListCacheOptions {
  readonly tools?: boolean;
  /** Resources and resource templates (both change with `notifications/resources/list_changed`). */
  readonly resources?: boolean;
  readonly prompts?: boolean;
}

/** Capabilities declared on top of those derived from the handlers. */
export interface ExtraClientCapabilities {
  readonly experimental?: Readonly<Record<string, JsonObject>>;
  readonly extensions?: Readonly<Record<string, JsonObject>>;
}

export interface MCPClientOptions extends TimeoutOptions {
  /**
   * The era: `"auto"` (the default) probes with `server/discover` where the transport carries the
   * stateless era and falls back to `initialize`; `"session"` or `"stateless"` speaks only that one.
   */
  readonly era?: EraChoice;
  /**
   * The revision to speak: a stateless one (2026-07-28) pins the stateless era; a session one is
   * offered in `initialize` (default: the newest; the server may answer an older one) and pins the
   * session era.
   */
  readonly protocolVersion?: AnyProtocolVersion;
  /** Stateless era: rounds of input one call may take (default 10). */
  readonly maxInputRounds?: number;
  /** How long `"auto"` waits for the answer to its `server/discover` probe before falling back (default 3000 ms). */
  readonly probeTimeoutMs?: number;
  /**
   * Stateless era: the first wait before a `subscriptions/listen` stream that broke or that the
   * server ended is re-opened (default 1000 ms; doubled after each failure in a row, up to 30 s).
   */
  readonly listenRetryDelayMs?: number;
  readonly capabilities?: ExtraClientCapabilities;
  /** Answers `sampling/createMessage`; declares `sampling`. */
  readonly sampling?: SamplingHandler | SamplingOptions;
  /** Answers `elicitation/create`; declares `elicitation` with the modes given. */
  readonly elicitation?: ElicitationOptions;
  /** Answers `roots/list`; declares `roots: { listChanged: true }`. */
  readonly roots?: RootsSource;
  /**
   * Keeps the results the server says stay fresh for a while (`ttlMs`, with `cacheScope`; 2026-07-28):
   * discover, list pages and resource reads. Default `true` (a cache of this client's own); `false`
   * keeps none; a shared `ResponseCache` with the server's and the principal's names serves several
   * clients (public results shared, private ones only with the same principal).
   */
  readonly responseCache?: boolean | ResponseCacheOptions;
  /**
   * Stateless era: declare the tasks extension (`io.modelcontextprotocol/tasks`) on every request, so
   * the server may run a tool call as a task (default `true`).
   */
  readonly tasks?: boolean;
  /** Keep listed tools/resources/prompts and re-list on `list_changed` (`true`: all of them). */
  readonly cache?: boolean | ListCacheOptions;
  /** Pages a list may take before the client gives up on a server that never stops (default 1000). */
  readonly maxListPages?: number;
  /** Metrics and spans; `null` turns them off. Default: the global OpenTelemetry API. */
  readonly telemetry?: Telemetry | null;
  /** Connection and request events of the underlying dispatcher, and `schema:unchecked`. */
  readonly events?: EventBus<MCPEventMap>;
  /**
   * How a tool's `outputSchema` is compiled to check its `structuredContent`: `schemas` are the
   * documents its `$ref`s may name by URI (never fetched). `unsupported` defaults to `"skip"` here: a
   * schema the validator cannot check lets results pass unchecked, and `events` hears
   * `schema:unchecked` once per schema; `"refuse"` fails the call instead.
   */
  readonly jsonSchema?: JsonSchemaOptions;
  /** Hears what cannot be thrown to a caller: protocol errors, throwing listeners, failed cache refreshes. */
  readonly onError?: (error: MCPError) => void;
}

/** What `client.on(event, listener)` can listen to, and what each listener gets. */
export interface MCPClientEventMap {
  /** `notifications/message`: a log message at or above the level set with `setLoggingLevel`. */
  log: LoggingMessageNotificationParams;
  /** `notifications/resources/updated`: a subscribed resource changed. */
  resourceUpdated: ResourceUpdatedNotificationParams;
  toolsListChanged: NotificationParams | undefined;
  resourcesListChanged: NotificationParams | undefined;
  promptsListChanged: NotificationParams | undefined;
  /** `notifications/elicitation/complete` for a URL elicitation this client accepted or was told about. */
  elicitationComplete: ElicitationCompleteNotificationParams;
  /** `notifications/progress` that belongs to none of this client's pending calls. */
  progress: ProgressNotificationParams;
  /** The cache (option `cache`) re-listed after a `list_changed`. */
  toolsRefreshed: readonly Tool[];
  resourcesRefreshed: readonly Resource[];
  resourceTemplatesRefreshed: readonly ResourceTemplate[];
  promptsRefreshed: readonly Prompt[];
  /** The connection is gone; every listener is removed right after this one. */
  close: { readonly error?: MCPError };
  /**
   * Stateless era: a listed tool left out of the listing, because its `x-mcp-header` annotations are invalid (it could not be called over
   * HTTP).
   */
  toolDropped: { readonly name: string; readonly reason: string };
}

export type CompletionReference = CompleteRequestParams["ref"];
export type CompletionArgument = CompleteRequestParams["argument"];
export type CompletionContext = NonNullable<CompleteRequestParams["context"]>;

import type { $ZodType, input, output } from "zod/v4/core";
import type { TaskScope, TaskSupport, ToolTaskConfig } from "../core/task-support.js";
import type { AnyProtocolVersion, ProtocolVersion } from "../../constants/index.js";
import type { Era } from "../../protocol/profiles.js";
import type { ChangeFeed } from "../../stores/change-feed.js";
import type { RequestStateKeys } from "../../stores/request-state-keys.js";
import type { MCPError } from "../../error-codes/mcp-error.js";
import type { EventBus, MCPEventMap } from "../../events/events.js";
import type { JsonSchemaOptions } from "../../json-schema/json-schema.js";
import type { TimeoutOptions } from "../../jsonrpc/dispatcher/dispatcher.types.js";
import type {
  Annotations,
  CallToolResult,
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
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

/**
 * A Standard Schema v1 validator (valibot, arktype, zod and others; https://standardschema.dev):
 * the library's own types-only copy of the public interface, nothing imported.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaProps<Input, Output>;
}

export interface StandardSchemaProps<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (
    value: unknown,
    options?: { readonly libraryOptions?: Record<string, unknown> | undefined },
  ) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
  readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  /** Standard JSON Schema: the validator's own JSON Schema of either side (valibot through `toStandardJsonSchema`). */
  readonly jsonSchema?: StandardJSONSchemaConverter | undefined;
}

export type StandardSchemaResult<Output> =
  { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly StandardSchemaIssue[] };

export interface StandardSchemaIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

export interface StandardJSONSchemaConverter {
  readonly input: (options: {
    readonly target: string;
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }) => Record<string, unknown>;
  readonly output: (options: {
    readonly target: string;
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }) => Record<string, unknown>;
}

/** A form elicitation whose `requestedSchema` is a Standard Schema validator. */
export type StandardElicitParams<S extends StandardSchemaV1> = {
  readonly [K in keyof ElicitRequestFormParams]: K extends "requestedSchema" ? S : ElicitRequestFormParams[K];
};

/** The answer to it: an accepted `content` is the validator's output. */
export type StandardElicitResult<S extends StandardSchemaV1> = {
  [K in keyof ElicitResult]: K extends "content" ? ArgumentsOf<S> : ElicitResult[K];
};

/** A tool's argument or result schema: a Zod schema, another Standard Schema validator (typed handler) or plain JSON Schema. */
export type ArgumentsSchema = $ZodType | StandardSchemaV1 | JsonSchemaObject;

/** The handler's argument type for a schema: inferred from Zod or the validator's output type, a plain object for JSON Schema. */
export type ArgumentsOf<S> = S extends $ZodType ? output<S> : S extends StandardSchemaV1<unknown, infer O> ? O : Record<string, unknown>;

export interface MCPServerOptions extends TimeoutOptions {
  /** Shown to the model by hosts that support it. */
  readonly instructions?: string;
  /** Capabilities to declare beyond those derived from what is registered (e.g. `{ tools: {} }` for tools added later, `experimental`). */
  readonly capabilities?: ServerCapabilities;
  /** Items per page of every list method (default 100). */
  readonly pageSize?: number;
  /**
   * Consulted before every request, `initialize` and `ping` included (in the stateless era every
   * request, `server/discover` included); false refuses it with `MCP.UNAUTHORIZED`. It is the
   * server's first layer (`authorize(hook)`), so no other layer runs for a request it refuses.
   */
  readonly authorize?: (request: AuthorizeRequest) => boolean | Promise<boolean>;
  /** Told when a session's client says its roots changed. */
  readonly onRootsListChanged?: (session: ServerSession) => void;
  readonly telemetry?: Telemetry | null | undefined;
  readonly events?: EventBus<MCPEventMap> | undefined;
  /**
   * How tool and prompt schemas given as plain JSON Schema are compiled: `schemas` are the documents
   * their `$ref`s may name by URI (never fetched). `unsupported` defaults to `"skip"` here: a schema
   * the validator cannot check is registered, its values pass unchecked, and `events` hears
   * `schema:unchecked`; `"refuse"` makes registering it throw.
   */
  readonly jsonSchema?: JsonSchemaOptions | undefined;
  /** Told of what cannot be answered (see the dispatcher); default: nothing. */
  readonly onProtocolError?: (error: MCPError, session: ServerSession | undefined) => void;
  /** The eras served (default both): `["stateless"]` serves 2026-07-28 only, `["session"]` the handshake revisions only. */
  readonly eras?: readonly Era[];
  /**
   * Where the server's changes go and its sessions and listen streams hear them (default: a feed of this process). Processes that serve one
   * deployment share one.
   */
  readonly changeFeed?: ChangeFeed;
  /**
   * Stateless era: how `requestState` is sealed (default: a key of this process, made on first use; several processes configure shared
   * keys).
   */
  readonly requestState?: { readonly keys?: RequestStateKeys; readonly ttlMs?: number };
  /** Stateless era: the principal a `requestState` is bound to (default: the transport's `authInfo` as JSON; none without it). */
  readonly principalOf?: (inbound: InboundContext | undefined) => string | undefined;
  /**
   * Stateless era: caching hints of discover and the lists; per registration, `cache` on a tool, prompt, resource or template narrows its
   * list's.
   */
  readonly cache?: CacheHints;
  /** Tasks (`serverTasks()`): what lets a tool declare `execution: { taskSupport: "optional" | "required" }`. */
  readonly tasks?: TaskSupport;
}

/** A result's caching hint (stateless era): how long it stays fresh, and whether shared caches may keep it. */
export interface CacheHint {
  readonly ttlMs: number;
  readonly cacheScope: "public" | "private";
}

/**
 * The server's caching hints. Defaults: lists and discover `{ ttlMs: 0, cacheScope: "public" }`
 * ("private" when the server has an `authorize` hook: lists may then differ by caller),
 * `resources/read` `{ ttlMs: 0, cacheScope: "private" }`.
 */
export interface CacheHints {
  readonly discover?: CacheHint;
  readonly lists?: CacheHint;
  readonly read?: CacheHint;
}

export interface AuthorizeRequest {
  readonly method: string;
  readonly params: unknown;
  /** The session of a session-era request; undefined in the stateless era. */
  readonly session: ServerSession | undefined;
  /** What the transport knows: HTTP headers, verified auth info. */
  readonly inbound: InboundContext | undefined;
}

/** The client as one request presents it: from `initialize` in the session era, from the request's `_meta` in the stateless era. */
export interface RequestClient {
  readonly info: Implementation | undefined;
  readonly capabilities: ClientCapabilities;
}

/** What a handler knows about the request it serves, whichever era it came in. */
export interface RequestScope {
  readonly protocolVersion: AnyProtocolVersion;
  readonly era: Era;
  readonly client: RequestClient;
  /**
   * The least severe level the client wants log messages of; undefined: every level (session era before `logging/setLevel`), or none
   * (stateless era without `logLevel`).
   */
  readonly logLevel: LoggingLevel | undefined;
  /** What the transport's authentication established (`InboundContext.authInfo`). */
  readonly principal: unknown;
  /** Fires when the request is cancelled, its connection closes, or (stateless era) its answer is decided without the handler. */
  readonly signal: AbortSignal;
  /** The session in the session era; undefined in the stateless era, which has none. */
  readonly session: SessionHandle | undefined;
}

/** What a handler may do with its session (session era). */
export interface SessionHandle {
  readonly id: string;
  /** The resource URIs the client subscribed to. */
  readonly subscriptions: ReadonlySet<string>;
  /** A log message to the whole session, filtered by its level. */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Tells the client a URL-mode elicitation finished (2025-11-25). */
  notifyElicitationComplete(elicitationId: string): Promise<void>;
}

/** Options of a request for input (elicitation, sampling, roots). */
export interface InputOptions extends ClientCallOptions {
  /**
   * Stateless era: the key of this input in the round's `inputRequests` (default: one made from the
   * order of the handler's requests, which stays the same as long as the handler asks in the same order).
   */
  readonly key?: string;
}

/**
 * What every handler of a server gets: the request's scope and the ways back to the client. Input
 * from the client works alike in both eras: a real request to a session client, an
 * `input_required` round in the stateless era (the handler runs again, from the start, with the answers).
 */
export interface HandlerContext extends RequestScope {
  readonly requestId: JsonRpcId;
  readonly meta: JsonObject | undefined;
  readonly inbound: InboundContext | undefined;
  /** Reports progress when the client asked for it (a no-op otherwise). */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** A log message for this request, filtered by the level in scope. */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Asks the client's model (`sampling/createMessage`) as part of this request. */
  createMessage(params: CreateMessageRequestParams, options?: InputOptions): Promise<CreateMessageResult>;
  /**
   * Asks the user through the client (`elicitation/create`) as part of this request. A form's
   * `requestedSchema` may be a Standard Schema validator (zod, valibot, arktype…): its JSON Schema
   * is sent, and an accepted answer comes back checked by it, typed as its output.
   */
  elicitInput<S extends StandardSchemaV1>(params: StandardElicitParams<S>, options?: InputOptions): Promise<StandardElicitResult<S>>;
  elicitInput(params: ElicitRequestParams, options?: InputOptions): Promise<ElicitResult>;
  /** The client's roots (`roots/list`) as part of this request. */
  listRoots(options?: InputOptions): Promise<ListRootsResult>;
  /** The task this handler runs as, if it does. */
  readonly task?: TaskScope;
}

interface Described {
  /**
   * Stateless era: this entry's caching hint; its list takes the shortest ttl and "private" if any entry is private (a resource's also
   * applies to reading it).
   */
  readonly cache?: CacheHint;
  /**
   * OAuth scopes a call of this entry needs (tools/call, resources/read, prompts/get), checked by
   * the HTTP handlers' `authorization` before the handler runs: a caller without them gets 403
   * `insufficient_scope` naming them. Lists show the entry to every caller.
   */
  readonly requiredScopes?: readonly string[];
  readonly title?: string;
  readonly description?: string;
  readonly icons?: Icon[];
  readonly _meta?: JsonObject;
}

export interface ToolConfig<I extends ArgumentsSchema | undefined, O extends ArgumentsSchema | undefined> extends Described {
  readonly inputSchema?: I;
  readonly outputSchema?: O;
  readonly annotations?: ToolAnnotations;
  /** Whether the tool may (`optional`) or must (`required`) run as a task; either needs the server's `tasks` option. */
  readonly execution?: ToolExecution;
  /** A task tool's own settings (never on the wire). */
  readonly task?: ToolTaskConfig<ArgumentsOf<I>>;
}

/**
 * A tool's handler. With a Zod or Standard Schema `outputSchema` it returns a {@link ToolResult}
 * typed by it; with a JSON Schema one, or none, any `CallToolResult`.
 */
// Why the always-true `[O] extends [unknown]`: it keeps the type deferred while `O` is being
// inferred, so TypeScript takes the handler's contextual type from the schema `config` gave `O`
// (the function type below, instantiated) instead of from an unresolved `ToolResult<O>`. With the
// plain function type, a literal the handler returns (`sky: "clear"`) is widened to `string` before
// it is checked against the schema's `"clear" | "rain"`, and a correct handler is refused.
export type ToolHandler<I, O = undefined> = [O] extends [unknown]
  ? (
      args: I extends ArgumentsSchema ? ArgumentsOf<I> : Record<string, never>,
      context: HandlerContext,
    ) => ToolResult<O> | Promise<ToolResult<O>>
  : never;

/**
 * What a tool with the output schema `O` returns: for a Zod or Standard Schema validator, a
 * result that is not `isError: true` carries `structuredContent` of its output type (an error
 * result need not); for plain JSON Schema, none, or a schema cast to `never`, any `CallToolResult`.
 */
export type ToolResult<O = undefined> = [O] extends [never]
  ? CallToolResult
  : O extends $ZodType | StandardSchemaV1
    ? CallToolResult & ({ readonly isError?: false | undefined; readonly structuredContent: ArgumentsOf<O> } | { readonly isError: true })
    : CallToolResult;

/**
 * The type of a tool's `structuredContent` by its output schema, or by its configuration (whose
 * `outputSchema` is read): Zod's or the validator's output; a plain object for JSON Schema or none.
 */
export type StructuredContentOf<D> = D extends $ZodType | StandardSchemaV1
  ? ArgumentsOf<D>
  : D extends { readonly outputSchema?: infer O }
    ? StructuredContentOf<Exclude<O, undefined>>
    : Record<string, unknown>;

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

/**
 * Reads a resource of a template. `variables` come from the requested URI (`UriTemplate.match`):
 * untrusted input that may hold `..` or slashes (`{+var}` keeps `%2F` as sent); see uri-template.md.
 */
export type TemplateReader = (
  uri: string,
  variables: Readonly<Record<string, UriVariableValue>>,
  context: HandlerContext,
) => ReadResourceResult | Promise<ReadResourceResult>;

export interface PromptArgumentConfig {
  readonly description?: string;
  readonly title?: string;
  readonly required?: boolean;
  readonly complete?: Completer;
}

/**
 * A prompt's arguments schema: zod or another Standard Schema validator of an object whose properties are strings on the input side (its
 * output may be anything).
 */
export type PromptArgsSchema = $ZodType | StandardSchemaV1;

/** The input side of a schema: the arguments a client sends. */
export type InputArgumentsOf<S> = S extends $ZodType ? input<S> : S extends StandardSchemaV1<infer I> ? I : never;

/**
 * A prompt. Its arguments (strings on the wire) are listed one by one (`arguments`), or given by a
 * schema (`argsSchema`): listed from its JSON Schema, checked by it on `prompts/get`, the handler
 * getting its output (a transform may turn a string into another type); their completers are then
 * beside it (`complete`).
 */
export interface PromptConfig<A extends PromptArgsSchema | undefined = undefined> extends Described {
  readonly arguments?: A extends PromptArgsSchema ? never : Readonly<Record<string, PromptArgumentConfig>>;
  readonly argsSchema?: A;
  /** Completers of the schema's arguments, by name. */
  readonly complete?: A extends PromptArgsSchema ? { readonly [K in keyof InputArgumentsOf<A>]?: Completer } : never;
}

export type PromptHandler<A extends PromptArgsSchema | undefined = undefined> = (
  args: A extends PromptArgsSchema ? ArgumentsOf<A> : Readonly<Record<string, string>>,
  context: HandlerContext,
) => GetPromptResult | Promise<GetPromptResult>;

/** What the server keeps of a prompt, whichever way its arguments are given. */
export interface AnyPromptConfig extends Described {
  readonly arguments?: Readonly<Record<string, PromptArgumentConfig>> | undefined;
  readonly argsSchema?: PromptArgsSchema | undefined;
  readonly complete?: Readonly<Record<string, Completer | undefined>> | undefined;
}

export type AnyPromptHandler = (args: never, context: HandlerContext) => GetPromptResult | Promise<GetPromptResult>;

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

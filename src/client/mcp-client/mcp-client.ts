import {
  ALL_PROTOCOL_VERSIONS,
  isProtocolVersion,
  isStatelessProtocolVersion,
  LATEST_PROTOCOL_VERSION,
  METHODS,
  NOTIFICATIONS,
  STATELESS_PROTOCOL_VERSIONS,
  type AnyProtocolVersion,
  type NotificationMethod,
  type ProtocolVersion,
  type StatelessProtocolVersion,
} from "../../constants/index.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, toMCPError } from "../../error-codes/mcp-error.js";
import { EventBus } from "../../events/events.js";
import { JsonRpcDispatcher } from "../../jsonrpc/dispatcher/dispatcher.js";
import type { PassNotification } from "../../jsonrpc/dispatcher/dispatcher.types.js";
import { loadWire } from "../../schemas/wire-loader.js";
import type {
  ClientCapabilities,
  CompleteResult,
  ElicitationCompleteNotificationParams,
  GetPromptResult,
  Implementation,
  ListToolsResult,
  LoggingLevel,
  ReadResourceResult,
  Root,
  ServerCapabilities,
} from "../../schemas/schemas.js";
import type { Transport } from "../../transport/transport/transport.types.js";
import type { JsonObject } from "../../types/types.js";
import { urlElicitationsRequired } from "./elicitation.js";
import { loadValidator } from "./validator-loader.js";
import type { NegotiatedServer } from "./handshake.js";
import { collect, LIST_KINDS, type ListKind, type PageOf } from "./lists.js";
import type {
  CallOptions,
  ToolCallResultOf,
  CompletionArgument,
  CompletionContext,
  CompletionReference,
  ConnectOptions,
  ConnectResult,
  EraChoice,
  MCPClientEventMap,
  MCPClientOptions,
  RootsSource,
} from "./mcp-client.types.js";
import type { StatelessCalls } from "../era/stateless-calls.js";
import { connectEra, type EraConnectSources } from "../era/connect.js";
import { ToolHeaders } from "../era/tool-headers.js";
import { ListingClient } from "./listing-client.js";
import type { ClientResponses } from "./response-cache.js";
import { withFields } from "../../types/objects.js";
import type { ChangeSubscriptions } from "../era/changes.js";
import type { ListKind as ChangeList } from "../../stores/change-feed.js";
import { outgoingLayers, type ClientMethod, type ClientMiddleware, type ClientRequestContext } from "../../middleware/client-middleware.js";
import type { MethodLayers } from "../../middleware/chain.js";
import {
  notificationLayers,
  passNotification,
  type NotificationLayerContext,
  type NotificationMiddleware,
} from "../../middleware/notification-middleware.js";
import {
  incomingLayers,
  layeredResponders,
  type IncomingContext,
  type IncomingMethod,
  type IncomingMiddleware,
} from "../../middleware/incoming-middleware.js";
import {
  CHANGE_EVENTS,
  eraOf,
  eraTimings,
  forwardNotifications,
  FORWARDED_NOTIFICATIONS,
  clientHandlers,
  notFoundOf,
  notInitialized,
  responsesOf,
  rootsNotDeclared,
  watchedLists,
} from "./client-options.js";
import { ClientTasks } from "../tasks/client-tasks.js";
import type { TaskCallOptions, TaskInput, TaskStatePage, ToolTask } from "../tasks/tasks.types.js";

/** Where a request leaves the client's outgoing layers. */
type SendLayered = (request: { readonly method: string; readonly params: unknown }, context: ClientRequestContext) => Promise<unknown>;

/** Either side may ping: the answer is an empty result. */
// Stryker disable next-line ArrowFunction: the dispatcher answers a handler's undefined with {}, the same empty result
const answerPing = (): object => ({});

/**
 * An MCP client: connects to one server over a transport, negotiates a revision, and offers every
 * server method as a typed call; answers the server's sampling, elicitation and roots requests with
 * the handlers it was given. Built on a `JsonRpcDispatcher`, which owns ids, timeouts, cancellation,
 * progress and validation of what arrives. `Tools` (types only): the tool map that types `callTool`'s results.
 */
export class MCPClient<Tools extends object = object> extends ListingClient {
  readonly #clientInfo: Implementation;
  readonly #options: MCPClientOptions;
  /** The era asked for, with the revision of each era this client would speak. */
  readonly #era: EraChoice;
  readonly #offered: ProtocolVersion;
  readonly #stateless: StatelessProtocolVersion;
  readonly #dispatcher: JsonRpcDispatcher<AnyProtocolVersion>;
  // What a connected client may never use is made on first use: a session-era client that only calls holds none of it.
  /** Tool calls (their output checked), and the tasks they become (see `#taskCalls`). */
  #tasks: ClientTasks | undefined;
  /** URL elicitations whose `notifications/elicitation/complete` is awaited; other ids are ignored, as the spec asks. */
  #awaitedElicitations: Set<string> | undefined;
  /** Stateless era: the header annotations of the tools listed. */
  #toolHeaders: ToolHeaders | undefined;
  /** The listeners of `on`, until the connection closes. */
  #listeners: EventBus<MCPClientEventMap> | undefined;
  #roots: RootsSource | undefined;
  #connectCalled = false;
  /** Set once connected: what this client declared. */
  #declared: ClientCapabilities | undefined;
  #server: NegotiatedServer | undefined;
  /** Set when the stateless era was chosen: how its requests are made. */
  #calls: StatelessCalls | undefined;
  /** Set once connected: how this client hears of the server's changes. */
  #changes: ChangeSubscriptions | undefined;
  /** Where results the server allows to be cached are kept (option `responseCache`), once one is asked for (see `#responses`). */
  #responseCache: ClientResponses | undefined;
  #layers: MethodLayers<ClientRequestContext> | undefined;
  #incoming: MethodLayers<IncomingContext> | undefined;
  #notifications: MethodLayers<NotificationLayerContext> | undefined;
  /** The lists whose changes a listener or the cache wants to hear of (none: undefined). */
  #watched: Set<ChangeList> | undefined;
  #ready = false;

  constructor(clientInfo: Implementation, options: MCPClientOptions = {}) {
    super(options);
    const pinned = options.protocolVersion;
    if (pinned !== undefined && !isProtocolVersion(pinned) && !isStatelessProtocolVersion(pinned)) {
      throw new MCPError(
        MCP_CODES.PROTOCOL_VERSION_MISMATCH,
        `protocolVersion "${String(pinned)}" is not one this client speaks (${ALL_PROTOCOL_VERSIONS.join(", ")})`,
      );
    }
    this.#clientInfo = clientInfo;
    this.#options = options;
    this.#era = eraOf(options.era ?? "auto", pinned);
    this.#offered = isProtocolVersion(pinned) ? pinned : LATEST_PROTOCOL_VERSION;
    this.#stateless = isStatelessProtocolVersion(pinned) ? pinned : (STATELESS_PROTOCOL_VERSIONS.at(-1) as StatelessProtocolVersion);
    this.#roots = options.roots;
    const { protocolVersion, timeoutMs, resetTimeoutOnProgress, maxTotalTimeoutMs, telemetry, events } = options;
    // Named one by one, not `{ ...options, side }` (see `withFields`): on Node 20 that object cost more than the rest of the constructor.
    this.#dispatcher = new JsonRpcDispatcher<AnyProtocolVersion>({
      side: "client",
      ...(protocolVersion !== undefined && { protocolVersion }),
      timeoutMs,
      resetTimeoutOnProgress,
      maxTotalTimeoutMs,
      telemetry,
      events,
      onProtocolError: (error) => this.#report(error),
      onErrorResponse: (error) => {
        for (const required of urlElicitationsRequired(error)) this.#awaitElicitation(required.elicitationId);
      },
      onClose: (error) => this.#teardown(error),
      notificationLayers: () => this.#passNotification,
    });
    if (this.cachedKinds.size > 0) this.#watched = watchedLists(this.cachedKinds);
    // Either side may ping, whatever was declared.
    this.#dispatcher.setRequestHandler(METHODS.ping, answerPing);
    // Stateless era: a change counts only on the listen stream this client keeps open.
    forwardNotifications(
      this.#dispatcher,
      (method, params) => this.#changes?.accepts(method, params) === false || this.#changed(method, params),
    );
  }

  // ---- Connection ----

  /**
   * Finds the era and revision to speak, once per client (`src/client/era/connect.ts`): `"auto"`
   * probes with `server/discover` where the transport carries the stateless era, and runs the
   * `initialize` handshake otherwise or when the server does not answer the probe. Says what it
   * settled on.
   */
  async connect(transport: Transport, options: ConnectOptions = {}): Promise<ConnectResult> {
    if (this.#connectCalled) {
      throw new MCPError(
        MCP_CODES.ALREADY_CONNECTED,
        "connect() was already called on this client; use a new MCPClient for another connection",
      );
    }
    this.#connectCalled = true;
    try {
      await this.#prepareWire();
      await this.#dispatcher.connect(transport);
      const connection = await connectEra(this.#eraSources(), transport, options);
      this.#declared = connection.declared;
      this.#server = connection.server;
      this.#calls = connection.calls;
      this.#changes = connection.changes;
      this.#ready = true;
      if (this.#watched) for (const list of this.#watched) connection.changes.watch(list);
      return connection.chosen;
    } catch (error) {
      await this.#dispatcher.close();
      throw error;
    }
  }

  #eraSources(): EraConnectSources {
    return {
      dispatcher: this.#dispatcher,
      era: this.#era,
      offered: this.#offered,
      stateless: this.#stateless,
      clientInfo: this.#clientInfo,
      ...eraTimings(this.#options),
      ...this.#layeredResponders(
        clientHandlers(
          this.#options,
          () => this.#roots,
          (elicitationId) => this.#awaitElicitation(elicitationId),
        ),
      ),
      toolHeaderParams: (tool) => this.#toolHeaders?.lookup(tool),
      request: (method, params, options) => this.#request(method, params, options),
      deliver: (method, params) => this.#changed(method, params),
      report: (error) => this.#report(error),
      responses: () => this.#responses(),
    };
  }

  /** Closes the transport: pending calls reject with `MCP.TRANSPORT_CLOSED`, caches and listeners are dropped. */
  async close(): Promise<void> {
    await this.#dispatcher.close();
  }

  /** True between a finished handshake and the close of the connection. */
  get connected(): boolean {
    return this.#ready && !this.#dispatcher.closed;
  }

  /** The capabilities this client declared (set once connected). */
  get capabilities(): ClientCapabilities | undefined {
    return this.#declared;
  }

  get serverInfo(): Implementation | undefined {
    return this.#server?.serverInfo;
  }

  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#server?.capabilities;
  }

  get instructions(): string | undefined {
    return this.#server?.instructions;
  }

  /** The negotiated revision. */
  get protocolVersion(): AnyProtocolVersion | undefined {
    // The dispatcher keeps the revision spoken (this side's one place for it); the server's answer only said it.
    return this.#server && this.#dispatcher.codec.version;
  }

  /** The era spoken, once connected. */
  get era(): "session" | "stateless" | undefined {
    return this.#server && (this.#calls ? "stateless" : "session");
  }

  // ---- Server methods ----

  /** `ping`; in the stateless era, which has none, a `server/discover` round trip (never served from the cache). */
  async ping(options?: CallOptions): Promise<void> {
    await this.#request(this.#calls ? METHODS.serverDiscover : METHODS.ping, undefined, withFields(options, { fresh: true }));
  }

  /** Forgets what this client cached of its server: kept lists (option `cache`) and results kept by their `ttlMs`. */
  clearCache(): void {
    this.forgetLists();
    this.#responseCache?.clear();
  }

  /** Calls a tool; its structuredContent is checked against the outputSchema the server listed (`MCP.PROTOCOL_INVALID` when broken),
   * and typed `S` when told, else by the client's tool map for a tool it names.
   * A tool the server runs as a task is waited for; with option `task`, the task itself is the answer (`src/client/tasks/tasks.md`). */
  callTool(name: string, args: JsonObject | undefined, options: TaskCallOptions): Promise<ToolTask>;
  callTool<S extends object = never, N extends string = string>(
    name: N,
    args?: JsonObject,
    options?: CallOptions,
  ): Promise<ToolCallResultOf<Tools, N, S>>;
  callTool(name: string, args?: JsonObject, options?: CallOptions): Promise<unknown> {
    return this.#taskCalls().call(name, args, options);
  }

  /** A task of the server's by its id (one kept from an earlier call), to follow, answer or cancel. */
  task(taskId: string, options?: { readonly onInput?: (input: TaskInput) => void }): ToolTask {
    return this.#taskCalls().attach(taskId, options?.onInput);
  }

  /** `tasks/list`: one page of the tasks this client may see (revision 2025-11-25 only; `MCP.METHOD_NOT_FOUND` otherwise). */
  listTasks(cursor?: string, options?: CallOptions): Promise<TaskStatePage> {
    return this.#taskCalls().list(cursor, options);
  }

  /**
   * `resources/read`; a resource the server does not have is `MCP.NOT_FOUND` in either era (-32002, or the stateless era's -32602 naming
   * the URI).
   */
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    const read = this.#request<ReadResourceResult>(METHODS.resourcesRead, { uri }, options);
    return this.#calls ? read.catch((error: unknown) => Promise.reject(notFoundOf(error, uri))) : read;
  }

  /**
   * Hears `resourceUpdated` for `uri`: `resources/subscribe` in the session era, the stream of
   * `subscriptions/listen` in the stateless era (resolves once the server acknowledged it).
   */
  async subscribeResource(uri: string, options?: CallOptions): Promise<void> {
    // Not connected (yet, or any more): #request rejects as any call would.
    if (!this.connected) await this.#request(METHODS.resourcesSubscribe, { uri }, options);
    else await (this.#changes as ChangeSubscriptions).subscribe(uri, options);
  }

  async unsubscribeResource(uri: string, options?: CallOptions): Promise<void> {
    if (!this.connected) await this.#request(METHODS.resourcesUnsubscribe, { uri }, options);
    else await (this.#changes as ChangeSubscriptions).unsubscribe(uri, options);
  }

  getPrompt(name: string, args?: Readonly<Record<string, string>>, options?: CallOptions): Promise<GetPromptResult> {
    return this.#request(METHODS.promptsGet, args === undefined ? { name } : { name, arguments: args }, options);
  }

  complete(
    ref: CompletionReference,
    argument: CompletionArgument,
    context?: CompletionContext,
    options?: CallOptions,
  ): Promise<CompleteResult> {
    return this.#request(METHODS.completionComplete, context === undefined ? { ref, argument } : { ref, argument, context }, options);
  }

  /** `logging/setLevel`; in the stateless era the level every later request asks for in its `_meta` (nothing is sent). */
  async setLoggingLevel(level: LoggingLevel, options?: CallOptions): Promise<void> {
    if (this.#calls) this.#calls.logLevel = level;
    else await this.#request(METHODS.loggingSetLevel, { level }, options);
  }

  // ---- Roots ----

  /**
   * Replaces the roots; once connected in the session era, tells the server with `notifications/roots/list_changed` (the stateless
   * era has no session to tell: a request that needs the roots asks for them).
   */
  async setRoots(roots: readonly Root[]): Promise<void> {
    // Once connect() was called, what the client declares is settled (a failed connect declared nothing).
    if (this.#connectCalled && !this.#declared?.roots) throw rootsNotDeclared();
    this.#roots = roots;
    if (this.#ready) await this.rootsListChanged();
  }

  /** Tells the server the roots changed (for a roots function whose answer changed); nothing to tell in the stateless era. */
  async rootsListChanged(): Promise<void> {
    if (!this.#ready) throw notInitialized(NOTIFICATIONS.rootsListChanged);
    // Stryker disable next-line OptionalChaining: #ready is set only after connect() declared, so #declared is defined here
    if (!this.#declared?.roots) throw rootsNotDeclared();
    // The stateless era has no session to tell: each request that needs the roots asks for them.
    if (!this.#calls) await this.#dispatcher.notify(NOTIFICATIONS.rootsListChanged);
  }

  // ---- Listeners ----

  /** Calls `listener` on each `event` until the returned function is called or the connection closes. */
  on<E extends keyof MCPClientEventMap>(event: E, listener: (payload: MCPClientEventMap[E]) => void): () => void {
    const list = CHANGE_EVENTS[event];
    if (list !== undefined && !this.#watched?.has(list)) {
      (this.#watched ??= new Set()).add(list);
      this.#changes?.watch(list);
    }
    return (this.#listeners ??= this.#newListeners()).on(event, listener);
  }

  /**
   * Puts a layer in front of every request this client sends, or of one method's, in either era:
   * `(next) => async (request, context) => …` may change the request or its options, answer it
   * without `next`, or change what `next` gave. The first added runs first.
   */
  use(middleware: ClientMiddleware): this;
  use<M extends ClientMethod>(method: M, middleware: ClientMiddleware<M>): this;
  use(first: unknown, second?: unknown): this {
    this.#sendLayered ??= (request, context) => this.#send(request.method, request.params as JsonObject | undefined, context.options);
    (this.#layers ??= outgoingLayers()).add(first, second);
    return this;
  }

  /**
   * Layers in front of the server's requests for input (sampling, elicitation, roots) in either era, before this client's handlers answer
   * them.
   */
  useIncoming(middleware: IncomingMiddleware): this;
  useIncoming<M extends IncomingMethod>(method: M, middleware: IncomingMiddleware<M>): this;
  useIncoming(first: unknown, second?: unknown): this {
    (this.#incoming ??= incomingLayers()).add(first, second);
    return this;
  }

  /**
   * Layers around the notifications either way (the server's before this client acts on them, this client's before they are sent), in
   * either era.
   */
  useNotifications(middleware: NotificationMiddleware): this;
  useNotifications<M extends NotificationMethod>(method: M, middleware: NotificationMiddleware<M>): this;
  useNotifications(first: unknown, second?: unknown): this {
    const layers = (this.#notifications ??= notificationLayers());
    this.#passNotification ??= (direction, method, params, way) =>
      passNotification(
        layers,
        isStatelessProtocolVersion(this.#dispatcher.codec.version) ? "stateless" : "session",
        direction,
        method,
        params,
        way,
      );
    layers.add(first, second);
    return this;
  }

  // ---- Internals ----

  #request<T>(method: string, params: JsonObject | undefined, options?: CallOptions): Promise<T> {
    if (!this.#ready && !this.#dispatcher.closed) return Promise.reject(notInitialized(method));
    if (this.#layers === undefined) return this.#send(method, params, options);
    const context: ClientRequestContext = {
      era: this.#calls ? "stateless" : "session",
      protocolVersion: this.protocolVersion as AnyProtocolVersion,
      options,
    };
    return this.#layers.run({ method, params }, context, this.#sendLayered as SendLayered) as Promise<T>;
  }

  /** Made with the first notification layer; the dispatcher asks for it (undefined while there are none). */
  #passNotification: PassNotification | undefined;
  /** What the outgoing layers end in, made with the first of them. */
  #sendLayered: SendLayered | undefined;

  #layeredResponders(handlers: ReturnType<typeof clientHandlers>): ReturnType<typeof clientHandlers> {
    return withFields(handlers, {
      responders: (declared: ClientCapabilities) => {
        const responders = handlers.responders(declared);
        // A client that declared nothing to answer has no responder a task could park.
        if (responders.size === 0) return responders;
        return layeredResponders(
          this.#taskCalls().parking(responders),
          () => this.#incoming,
          () => (this.#calls ? "stateless" : "session"),
        );
      },
    });
  }

  /** The tool calls and tasks, made with the first call, task or tools listing. */
  #taskCalls(): ClientTasks {
    if (this.#tasks) return this.#tasks;
    this.#tasks = new ClientTasks(
      {
        request: (method, params, callOptions) => this.#request(method, params, callOptions),
        calls: () => this.#calls,
        server: () => this.#server,
        listAll: () => this.listedTools(),
        relist: () => collect(this.items("tools", undefined)),
      },
      this.#dispatcher,
      {
        options: this.#options.jsonSchema ?? {},
        unchecked: (subject, reason) => this.#options.events?.emit("schema:unchecked", { side: "client", subject, reason }),
      },
    );
    // Made after the connection closed: its waits end at once, as those of tasks made before.
    if (this.#dispatcher.closed) this.#tasks.close();
    return this.#tasks;
  }

  /** The response cache of the stateless era, made when its first request asks for it. */
  #responses(): ClientResponses | undefined {
    return (this.#responseCache ??= responsesOf(this.#options.responseCache));
  }

  #awaitElicitation(elicitationId: string): void {
    (this.#awaitedElicitations ??= new Set()).add(elicitationId);
  }

  #send<T>(method: string, params: JsonObject | undefined, options: CallOptions | undefined): Promise<T> {
    if (this.#calls) return this.#calls.call(method, params, options) as Promise<T>;
    // The options go through as they are (a pending request keeps them): a copy only to move `meta` into params.
    if (options?.meta === undefined) return this.#dispatcher.request(method, params, options) as Promise<T>;
    const { meta, ...requestOptions } = options;
    return this.#dispatcher.request(method, withFields(params, { _meta: meta }), requestOptions) as Promise<T>;
  }

  protected async listPage<K extends ListKind>(kind: K, cursor: string | undefined, options: CallOptions | undefined): Promise<PageOf<K>> {
    const page = await this.#request<PageOf<K>>(LIST_KINDS[kind].method, cursor === undefined ? undefined : { cursor }, options);
    if (kind !== "tools") return page;
    const listed = page as ListToolsResult;
    // Stateless era: a tool whose header annotations are invalid cannot be called over HTTP, and is left out.
    const tools = this.#calls ? this.#headersOfTools().remember(listed.tools) : listed.tools;
    this.#taskCalls().tools.remember(tools);
    return tools === listed.tools ? page : (withFields(listed, { tools }) as PageOf<K>);
  }

  /** With the wire layer loaded: the offered revision's codec, and what needs a schema of its own. */
  async #prepareWire(): Promise<void> {
    // A client that answers form elicitations checks each answer with the validator: it loads with the connection, so that the
    // host's handlers are asked in the order the server's requests came (a first form would otherwise wait for the import).
    const [layer] = await Promise.all([loadWire(), this.#options.elicitation?.form && loadValidator()]);
    this.#dispatcher.setProtocolVersion(this.#offered);
    const completed = (params: unknown): void => {
      const notification = params as ElicitationCompleteNotificationParams;
      if (this.#awaitedElicitations?.delete(notification.elicitationId)) this.#listeners?.emit("elicitationComplete", notification);
    };
    // The schema covers revisions whose codec lacks the notification.
    this.#dispatcher.setNotificationHandler(
      NOTIFICATIONS.elicitationComplete,
      completed,
      layer.ElicitationCompleteNotificationParamsSchema,
    );
  }

  /** A server notification heard: the lists it says changed are forgotten (the cached ones re-listed), and listeners told. */
  #changed(method: string, params: unknown): void {
    this.#responseCache?.changed(method, params);
    if (method === NOTIFICATIONS.toolsListChanged) this.#tasks?.tools.forget();
    this.listsChanged(method);
    this.#listeners?.emit(FORWARDED_NOTIFICATIONS[method as keyof typeof FORWARDED_NOTIFICATIONS], params as never);
  }

  protected refreshed(kind: ListKind, items: readonly unknown[]): void {
    this.#listeners?.emit(`${kind}Refreshed`, items as never);
  }

  protected reportError(error: MCPError): void {
    this.#report(error);
  }

  #teardown(error: MCPError | undefined): void {
    this.forgetLists();
    this.#tasks?.tools.forget();
    this.#awaitedElicitations?.clear();
    this.#changes?.close();
    this.#tasks?.close();
    const listeners = this.#listeners;
    this.#listeners = undefined;
    listeners?.emit("close", error ? { error } : {});
  }

  #headersOfTools(): ToolHeaders {
    return (this.#toolHeaders ??= new ToolHeaders((name, reason) => this.#listeners?.emit("toolDropped", { name, reason })));
  }

  #newListeners(): EventBus<MCPClientEventMap> {
    const onError = this.#options.onError;
    return new EventBus({ onListenerError: onError && ((error) => onError(toMCPError(error))) });
  }

  #report(error: MCPError): void {
    this.#options.onError?.(error);
  }
}

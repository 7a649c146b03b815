import { METHODS, STATELESS_PROTOCOL_VERSIONS, type NotificationMethod, type StatelessProtocolVersion } from "../../constants/index.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, toMCPError } from "../../error-codes/mcp-error.js";
import { JsonRpcDispatcher } from "../../jsonrpc/dispatcher/dispatcher.js";
import type { PassNotification } from "../../jsonrpc/dispatcher/dispatcher.types.js";
import type {
  CallToolRequestParams,
  CompleteRequestParams,
  GetPromptRequestParams,
  Implementation,
  LoggingLevel,
  PaginatedRequestParams,
  ServerCapabilities,
} from "../../schemas/schemas.js";
import type { InboundContext, Transport } from "../../transport/transport/transport.types.js";
import type { JsonObject, JsonRpcId } from "../../types/types.js";
import { InMemoryChangeFeed, type ChangeFeed, type ListKind } from "../../stores/change-feed.js";
import { InMemoryRequestStateKeys } from "../../stores/request-state-keys.js";
import { RequestStateSealer } from "../stateless/request-state.js";
import type { RequestChannel } from "../stateless/stateless-context.js";
import { StatelessRequests, type StatelessAnswer, type StatelessHost } from "../stateless/stateless-requests.js";
import { encodeCapabilitiesFor } from "../../protocol/downgrade.js";
import { loadJsonSchemaConverter } from "../../schemas/wire-loader.js";
import { parseUriTemplateMatcher } from "../../uri-template/uri-template.js";
import { toJsonText } from "../../json-schema/json-values.js";
import { complete, hasCompleters } from "./completion.js";
import type {
  AnyPromptConfig,
  AnyPromptHandler,
  ArgumentsSchema,
  CacheHint,
  HandlerContext,
  MCPServerOptions,
  PromptArgsSchema,
  PromptConfig,
  PromptHandler,
  RegisteredEntry,
  ResourceConfig,
  ResourceReader,
  ResourceTemplateConfig,
  TemplateReader,
  ToolConfig,
  ToolHandler,
} from "./mcp-server.types.js";
import { paginate } from "./pagination.js";
import { checkPrompt, getPrompt, promptOnTheWire, type PromptSchemas } from "./prompts.js";
import { Registry } from "./registry.js";
import {
  listAllResources,
  readResource,
  resourceEntryOf,
  templateOnTheWire,
  type StaticResourceConfig,
  type TemplateConfig,
} from "./resources.js";
import type { RevisionProfile } from "../../protocol/profiles.js";
import type { FeatureHandler } from "./server-host.js";
import { ServerSession } from "./session.js";
import {
  callTool,
  checkTaskSupport,
  checkTool,
  toolHeaderParams,
  toolOnTheWire,
  type AnyToolConfig,
  type AnyToolHandler,
  type ToolEntry,
  type ToolSchemas,
} from "./tools.js";
import type { HeaderParam } from "../../protocol/mcp-headers.js";
import { layered, OWN_METHODS, type ServerMethod, type ServerMiddleware } from "../../middleware/server-middleware.js";
import { authorize } from "../../middleware/builtins/authorize.js";
import { MiddlewareStack, type MethodLayers, type Middleware } from "../../middleware/chain.js";
import {
  notificationLayers,
  passNotification,
  type NotificationLayerContext,
  type NotificationMiddleware,
} from "../../middleware/notification-middleware.js";

const DEFAULT_PAGE_SIZE = 100;

/**
 * An MCP server: the tools, resources and prompts it owns, served to any number of sessions at
 * once (`start(transport)` per connection). Each session negotiates its own revision.
 */
export class MCPServer implements StatelessHost {
  readonly #sessions = new Set<ServerSession>();
  readonly #changed = new Set<ListKind>();
  readonly changes: ChangeFeed;
  readonly #closing = new AbortController();
  readonly statelessVersions: readonly StatelessProtocolVersion[];
  readonly servesSessions: boolean;
  #sealer: RequestStateSealer | undefined;
  #stateless: StatelessRequests | undefined;
  /** zod's JSON Schema converter on its way, for a zod/mini tool or prompt schema; starts and the tools and prompts methods wait for it. */
  #converterLoading: Promise<void> | undefined;
  readonly #tools = new Registry<AnyToolConfig, AnyToolHandler>(
    "tool",
    () => this.#listChanged("tools"),
    (name, config) => {
      checkTaskSupport(name, config, this.options.tasks);
      return checkTool(name, config, this.#schemas) && this.#loadConverter();
    },
  );
  readonly #resources = new Registry<StaticResourceConfig, ResourceReader>("resource", () => this.#listChanged("resources"));
  readonly #templates = new Registry<TemplateConfig, TemplateReader>("resource template", () => this.#listChanged("resources"));
  readonly #prompts = new Registry<AnyPromptConfig, AnyPromptHandler>(
    "prompt",
    () => this.#listChanged("prompts"),
    (name, config) => checkPrompt(name, config, this.#schemas) && this.#loadConverter(),
  );
  /** The `jsonSchema` option and the tools and prompts this server prepared with it. */
  readonly #schemas: ToolSchemas & PromptSchemas;
  #features: ReadonlyMap<string, FeatureHandler> | undefined;
  /** The methods the server answers itself, behind the layers that see them: one handler per method and server. */
  readonly #own = new Map<string, FeatureHandler>();
  readonly #layers = new MiddlewareStack<HandlerContext>();
  /** The tables of what its sessions answer (see `ServerSession`): built with the first session. */
  #sessionTables: object | undefined;
  /** What clients of each revision are told, built once until a registration changes: shared by the sessions, so frozen. */
  #declared: Map<string, ServerCapabilities> | undefined;
  #notifications: MethodLayers<NotificationLayerContext> | undefined;

  constructor(
    readonly info: Implementation,
    readonly options: MCPServerOptions = {},
  ) {
    const eras = options.eras ?? ["session", "stateless"];
    this.statelessVersions = eras.includes("stateless") ? [...STATELESS_PROTOCOL_VERSIONS] : [];
    this.servesSessions = eras.includes("session");
    this.changes = options.changeFeed ?? new InMemoryChangeFeed();
    this.#schemas = {
      options: options.jsonSchema ?? {},
      unchecked: (subject, reason) => options.events?.emit("schema:unchecked", { side: "server", subject, reason }),
      tools: new WeakMap(),
      prompts: new WeakMap(),
    };
    // The first layer, so it is the outermost: nothing runs for a request it refuses.
    if (options.authorize) this.#layers.add(undefined, authorize(options.authorize) as Middleware<HandlerContext>);
    options.tasks?.attach(this);
    // One listener per server: it fans each change out to the sessions connected now.
    this.changes.subscribe((change) => {
      if (change.kind !== "task")
        void this.#toEverySession((session) =>
          change.kind === "list" ? session.listChanged(change.list) : session.resourceUpdated(change.uri),
        );
    });
  }

  get closing(): AbortSignal {
    return this.#closing.signal;
  }

  /** Stateless era: seals and opens `requestState` (with the configured keys, or a key of this process). */
  get sealer(): RequestStateSealer {
    const settings = this.options.requestState;
    return (this.#sealer ??= new RequestStateSealer(
      settings?.keys ?? new InMemoryRequestStateKeys(),
      settings?.ttlMs === undefined ? {} : { ttlMs: settings.ttlMs },
    ));
  }

  /**
   * Serves one stateless-era (2026-07-28) request: what a transport calls for a request whose
   * `_meta` names its protocol version. Its notifications go to `channel`; its answer is returned.
   */
  serveStateless(id: JsonRpcId, method: string, params: JsonObject | undefined, channel: RequestChannel): Promise<StatelessAnswer> {
    const layers = this.#notifications;
    // A channel on a connection sends through its dispatcher, whose notifications pass the layers already.
    const passing: RequestChannel | undefined =
      layers && !channel.recorded
        ? {
            signal: channel.signal,
            inbound: channel.inbound,
            notify: (name, body) =>
              passNotification(layers, "stateless", "outgoing", name, body, (wire) =>
                channel.notify(name, wire as JsonObject),
              ) as Promise<never>,
          }
        : undefined;
    return (this.#stateless ??= new StatelessRequests(this)).serve(id, method, params, passing ?? channel);
  }

  /**
   * Stateless era over HTTP: the `Mcp-Param-*` headers a request must carry: a tools/call's, from its tool (none for an unknown tool: the
   * call fails on its own).
   */
  headerParamsOf(method: string, params: JsonObject | undefined): readonly HeaderParam[] | undefined {
    const entry = method === "tools/call" ? this.registrationOf(method, params) : undefined;
    return entry && toolHeaderParams(entry as ToolEntry, this.#schemas);
  }

  /**
   * The registration a request names: its tool (tools/call) or prompt (prompts/get) by name, its
   * resource or template (resources/read) by URI; undefined for other methods and for names nothing
   * enabled answers to. The HTTP `authorization` option reads `requiredScopes` from it.
   */
  registrationOf(
    method: string,
    params: JsonObject | undefined,
  ): { readonly config: Readonly<Pick<ToolConfig<undefined, undefined>, "requiredScopes" | "cache">> } | undefined {
    if (method === "resources/read") return resourceEntryOf(String(params?.["uri"]), this.#resources, this.#templates);
    const named: Registry<AnyToolConfig | AnyPromptConfig, unknown> | undefined =
      method === "tools/call" ? this.#tools : method === "prompts/get" ? this.#prompts : undefined;
    return named?.get(params?.["name"] as string);
  }

  principalOf(inbound: InboundContext | undefined): string | undefined {
    const own = this.options.principalOf;
    if (own) return own(inbound);
    // The principal a requestState is bound to: the caller's authInfo as JSON.
    return inbound?.authInfo === undefined ? undefined : toJsonText(inbound.authInfo);
  }

  /** Stateless era: the caching hint of a cacheable result, from the server's defaults and what the entries behind it say. */
  cacheHintFor(method: string, params: JsonObject | undefined): CacheHint {
    const hints = this.options.cache;
    if (method === METHODS.serverDiscover) return hints?.discover ?? this.#listDefault();
    if (method === METHODS.resourcesRead)
      return this.registrationOf(method, params)?.config.cache ?? hints?.read ?? { ttlMs: 0, cacheScope: "private" };
    const entries: readonly { readonly config: { readonly cache?: CacheHint } }[] =
      method === METHODS.toolsList
        ? this.#tools.enabled()
        : method === METHODS.promptsList
          ? this.#prompts.enabled()
          : method === METHODS.resourcesTemplatesList
            ? this.#templates.enabled()
            : [...this.#resources.enabled(), ...this.#templates.enabled()];
    return narrowest(hints?.lists ?? this.#listDefault(), entries);
  }

  #listDefault(): CacheHint {
    return { ttlMs: 0, cacheScope: this.options.authorize ? "private" : "public" };
  }

  /** The sessions now connected. */
  get sessions(): ReadonlySet<ServerSession> {
    return this.#sessions;
  }

  /**
   * Registers a tool; a Zod or Standard Schema `inputSchema` types the handler's arguments, and
   * such an `outputSchema` the `structuredContent` it returns (unless `isError: true`).
   */
  tool<I extends ArgumentsSchema | undefined = undefined, O extends ArgumentsSchema | undefined = undefined>(
    name: string,
    config: ToolConfig<I, O>,
    handler: ToolHandler<I, O>,
  ): RegisteredEntry<AnyToolConfig & { handler: AnyToolHandler }> {
    return this.#tools.add(name, config, handler);
  }

  /** Registers a resource at a fixed URI. */
  resource(
    name: string,
    uri: string,
    config: ResourceConfig,
    reader: ResourceReader,
  ): RegisteredEntry<StaticResourceConfig & { handler: ResourceReader }> {
    return this.#resources.add(uri, { name, ...config }, reader);
  }

  /** Registers a family of resources under an RFC 6570 URI template. */
  resourceTemplate(
    name: string,
    uriTemplate: string,
    config: ResourceTemplateConfig,
    reader: TemplateReader,
  ): RegisteredEntry<TemplateConfig & { handler: TemplateReader }> {
    return this.#templates.add(name, { ...config, uriTemplate: parseUriTemplateMatcher(uriTemplate) }, reader);
  }

  /** Registers a prompt; an `argsSchema` (zod or another Standard Schema validator) types the handler's arguments. */
  prompt<A extends PromptArgsSchema | undefined = undefined>(
    name: string,
    config: PromptConfig<A>,
    handler: PromptHandler<A>,
  ): RegisteredEntry<PromptConfig<A> & { handler: PromptHandler<A> }> {
    return this.#prompts.add(name, config, handler);
  }

  /** Serves one connection; resolves once the transport is started. */
  async start(transport: Transport): Promise<ServerSession> {
    if (this.#converterLoading) await this.#converterLoading;
    let session: ServerSession;
    const { timeoutMs, maxTotalTimeoutMs, resetTimeoutOnProgress, telemetry, events } = this.options;
    // A connection that never initialized serves stateless-era requests (stdio).
    const pass: PassNotification = (direction, method, params, way) =>
      passNotification(
        this.#notifications as MethodLayers<NotificationLayerContext>,
        session.client ? "session" : "stateless",
        direction,
        method,
        params,
        way,
      );
    const dispatcher = new JsonRpcDispatcher({
      side: "server",
      timeoutMs,
      maxTotalTimeoutMs,
      resetTimeoutOnProgress,
      telemetry,
      events,
      onProtocolError: (error) => this.#report(error, session),
      onClose: () => {
        this.#sessions.delete(session);
        session.connectionClosed();
        this.options.tasks?.sessionClosed(session);
      },
      notificationLayers: () => this.#notifications && pass,
    });
    session = new ServerSession(this, dispatcher);
    this.#sessions.add(session);
    try {
      await dispatcher.connect(transport);
    } catch (error) {
      this.#sessions.delete(session);
      throw error;
    }
    return session;
  }

  /** Tells every session subscribed to `uri`, and every listen stream that asked for it, that it changed. */
  markResourceUpdated(uri: string): Promise<void> {
    return this.changes.publish({ kind: "resource", uri });
  }

  /** A log message to every session, each filtered by its own level. */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    return this.#toEverySession((session) => session.log(level, data, logger));
  }

  /** Cancels every running task, closes every session, and ends every listen stream with its result. */
  async close(): Promise<void> {
    // Tasks first: while they are cancelled, the sessions that may still be told are open.
    await this.options.tasks?.close();
    this.#closing.abort();
    await Promise.all([...this.#sessions].map((session) => session.close()));
  }

  /** The capabilities declared to a client of `rules`' revision (shared and frozen: a copy is needed to change them). */
  capabilitiesFor(rules: RevisionProfile): ServerCapabilities {
    let declared = this.#declared?.get(rules.version);
    if (!declared) (this.#declared ??= new Map()).set(rules.version, (declared = frozen(this.#capabilitiesNow(rules))));
    return declared;
  }

  #capabilitiesNow(rules: RevisionProfile): ServerCapabilities {
    // What the revision lacks (completions before 2025-03-26, tasks before 2025-11-25) is not declared, also when the options name it.
    const declared = encodeCapabilitiesFor(rules.version, this.options.capabilities ?? {});
    const capabilities: ServerCapabilities = { ...declared, logging: declared.logging ?? {} };
    if (this.#tools.size > 0 || declared.tools) capabilities.tools = { listChanged: true, ...declared.tools };
    if (this.#resources.size > 0 || this.#templates.size > 0 || declared.resources)
      capabilities.resources = { subscribe: true, listChanged: true, ...declared.resources };
    if (this.#prompts.size > 0 || declared.prompts) capabilities.prompts = { listChanged: true, ...declared.prompts };
    if (rules.declaresCompletions && (hasCompleters({ prompts: this.#prompts, templates: this.#templates }) || declared.completions))
      capabilities.completions = { ...declared.completions };
    const tasks = this.options.tasks;
    return tasks ? tasks.capabilities(rules, capabilities) : capabilities;
  }

  sessionTables<T extends object>(build: () => T): T {
    return (this.#sessionTables ??= build()) as T;
  }

  /** Whether an enabled tool may run as a task. */
  taskTools(): boolean {
    return this.#tools.enabled().some(({ config }) => (config.execution?.taskSupport ?? "forbidden") !== "forbidden");
  }

  /**
   * Puts a layer in front of every feature method (tools, resources, prompts, completion), or of
   * one, in both eras: `(next) => (request, ctx) => …` may change the request, answer it without
   * `next`, or change what `next` gave. The first added runs first. What a layer throws is the
   * request's protocol error.
   */
  use(middleware: ServerMiddleware): this;
  use<M extends ServerMethod>(method: M, middleware: ServerMiddleware<M>): this;
  use(first: unknown, second?: unknown): this {
    const method = second === undefined ? undefined : (first as string);
    const methods = [...this.featureHandlers().keys(), ...OWN_METHODS];
    if (method !== undefined && !methods.includes(method))
      throw new MCPError(MCP_CODES.INVALID_PARAMS, `No server middleware sees ${method}: layers see ${methods.join(", ")}`);
    const remove = this.#layers.add(method, (second ?? first) as Middleware<HandlerContext>);
    this.#features = undefined;
    this.#own.clear();
    try {
      // Composed now, so a layer that gives no handler is refused here rather than on every request.
      this.featureHandlers();
      // An own method's chain has its base only when a request comes: any function does to ask whether each layer gives a handler.
      // Stryker disable next-line ConditionalExpression: composing for no method too refuses nothing more (the feature table just composed
      // every layer that sees all)
      if (method !== undefined) this.#layers.compose(method, Object);
    } catch (error) {
      remove();
      throw error;
    }
    return this;
  }

  /**
   * Puts a layer around the notifications either way, or one method's, in both eras: what this
   * server sends (progress, log messages, list changes, resource updates…) before it goes out, what
   * its clients send (`initialized`, `cancelled`, `roots/list_changed`) before it acts on them.
   */
  useNotifications(middleware: NotificationMiddleware): this;
  useNotifications<M extends NotificationMethod>(method: M, middleware: NotificationMiddleware<M>): this;
  useNotifications(first: unknown, second?: unknown): this {
    (this.#notifications ??= notificationLayers()).add(first, second);
    return this;
  }

  /**
   * The handlers of the feature methods, behind the middleware: built once and shared by every session (a session holds none of its own).
   */
  featureHandlers(): ReadonlyMap<string, FeatureHandler> {
    return (this.#features ??= new Map(
      Array.from(this.#featureHandlers(), ([method, feature]) => [method, layered(this.#layers, method, feature)]),
    ));
  }

  /**
   * `own`, the server's answer to one of its own methods, behind the layers that see `method` (composed once per server until they change).
   */
  layeredOwn(method: string, own: FeatureHandler): FeatureHandler {
    let handler = this.#own.get(method);
    // Stryker disable next-line ConditionalExpression: composing again for every request gives the same chain (the map only spares the
    // work)
    if (!handler) this.#own.set(method, (handler = layered(this.#layers, method, own)));
    return handler;
  }

  *#featureHandlers(): Iterable<readonly [string, FeatureHandler]> {
    const page = <T>(items: readonly T[], params: PaginatedRequestParams | undefined) =>
      paginate(items, params?.cursor, this.options.pageSize ?? DEFAULT_PAGE_SIZE);
    yield [
      METHODS.toolsList,
      (params: PaginatedRequestParams | undefined, _context: HandlerContext, profile: RevisionProfile) =>
        this.#whenConverted(() =>
          listResult(
            "tools",
            page(
              this.#tools.enabled().map((entry) => toolOnTheWire(entry, profile, this.#schemas)),
              params,
            ),
          ),
        ),
    ];
    yield [
      METHODS.toolsCall,
      (params: CallToolRequestParams, context: HandlerContext, profile: RevisionProfile) =>
        this.#whenConverted(() => callTool(this.#tools.get(params.name), params, context, profile, this.#schemas, this.options.tasks)),
    ];
    yield [
      METHODS.resourcesList,
      async (params: PaginatedRequestParams | undefined, context: HandlerContext) =>
        listResult("resources", page(await listAllResources(this.#resources, this.#templates, context), params)),
    ];
    yield [
      METHODS.resourcesTemplatesList,
      (params: PaginatedRequestParams | undefined) =>
        listResult("resourceTemplates", page(this.#templates.enabled().map(templateOnTheWire), params)),
    ];
    yield [
      METHODS.resourcesRead,
      (params: { uri: string }, context: HandlerContext) => readResource(params.uri, this.#resources, this.#templates, context),
    ];
    yield [
      METHODS.promptsList,
      (params: PaginatedRequestParams | undefined) =>
        this.#whenConverted(() =>
          listResult(
            "prompts",
            page(
              this.#prompts.enabled().map((entry) => promptOnTheWire(entry, this.#schemas)),
              params,
            ),
          ),
        ),
    ];
    yield [
      METHODS.promptsGet,
      (params: GetPromptRequestParams, context: HandlerContext) =>
        this.#whenConverted(() => getPrompt(this.#prompts.get(params.name), params, context, this.#schemas)),
    ];
    yield [
      METHODS.completionComplete,
      (params: CompleteRequestParams, context: HandlerContext) =>
        complete(params, { prompts: this.#prompts, templates: this.#templates }, context),
    ];
    // Each answers as the request's revision has tasks: its codec admits only its own methods.
    if (this.options.tasks) yield* this.options.tasks.methods();
  }

  /** Loads zod's converter for a tool or prompt registered with a zod/mini schema (once per process). */
  #loadConverter(): void {
    this.#converterLoading ??= loadJsonSchemaConverter().then(() => {
      this.#converterLoading = undefined;
    });
  }

  /** Runs a tools or prompts method once every registered tool and prompt can be prepared. */
  #whenConverted<T>(run: () => T): T | Promise<T> {
    return this.#converterLoading ? this.#converterLoading.then(run) : run();
  }

  /** Collects changes made in one tick into one notification per list per session. */
  #listChanged(kind: ListKind): void {
    // What is registered decides the capabilities: they are built again when next asked for.
    this.#declared = undefined;
    // Stryker disable next-line ConditionalExpression: a flush queued for every change finds the changes gone with the first, and sends
    // nothing more
    if (this.#changed.size === 0) queueMicrotask(() => this.#flushListChanged());
    this.#changed.add(kind);
  }

  #flushListChanged(): void {
    const kinds = [...this.#changed];
    this.#changed.clear();
    for (const kind of kinds)
      this.changes
        .publish({ kind: "list", list: kind })
        .catch((error: unknown) => this.options.onProtocolError?.(toMCPError(error, MCP_CODES.TRANSPORT_ERROR), undefined));
  }

  /** Fan-out: a session whose connection fails does not stop the others; its failure is reported. */
  async #toEverySession(send: (session: ServerSession) => Promise<void>): Promise<void> {
    await Promise.all([...this.#sessions].map((session) => send(session).catch((error: unknown) => this.#report(error, session))));
  }

  #report(error: unknown, session: ServerSession): void {
    this.options.onProtocolError?.(toMCPError(error, MCP_CODES.TRANSPORT_ERROR), session);
  }
}

/**
 * A frozen copy of `capabilities`, the objects in it frozen too (shared by every session of a
 * revision). A copy (they are JSON): an object of the caller's (`options.capabilities.experimental`)
 * is never frozen under them.
 */
function frozen(capabilities: ServerCapabilities): ServerCapabilities {
  const shared = JSON.parse(JSON.stringify(capabilities)) as Record<string, unknown>;
  for (const value of Object.values(shared)) Object.freeze(value);
  return Object.freeze(shared) as ServerCapabilities;
}

/** The hint of a list: the server's, narrowed by its entries' (the shortest ttl; private if any is). */
function narrowest(hint: CacheHint, entries: readonly { readonly config: { readonly cache?: CacheHint } }[]): CacheHint {
  let { ttlMs, cacheScope } = hint;
  for (const { config } of entries) {
    if (!config.cache) continue;
    ttlMs = Math.min(ttlMs, config.cache.ttlMs);
    if (config.cache.cacheScope === "private") cacheScope = "private";
  }
  return { ttlMs, cacheScope };
}

function listResult<K extends string, T>(key: K, page: { items: T[]; nextCursor?: string }): Record<K, T[]> & { nextCursor?: string } {
  const result = { [key]: page.items } as Record<K, T[]> & { nextCursor?: string };
  if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
  return result;
}

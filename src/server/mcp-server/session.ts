import { LATEST_PROTOCOL_VERSION, METHODS, NOTIFICATIONS, isProtocolVersion, type ProtocolVersion } from "../../constants/index.js";
import type { Era } from "../../protocol/profiles.js";
import { LIST_CHANGED, type ListKind } from "../../stores/change-feed.js";
import type { SessionState } from "../../stores/session-directory.js";
import { checkInputAnswer } from "../core/input-answers.js";
import { missingCapabilityFor } from "../core/input-capabilities.js";
import { claimsStatelessEra } from "../stateless/request-meta.js";
import { ConnectionChannel } from "../stateless/stateless-context.js";
import { JSONRPC_ERROR_CODES, MCP_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError, MCPError } from "../../error-codes/mcp-error.js";
import type { JsonRpcDispatcher } from "../../jsonrpc/dispatcher/dispatcher.js";
import type { RequestContext, RequestOptions } from "../../jsonrpc/dispatcher/dispatcher.types.js";
import { LOGGING_LEVELS } from "../../constants/index.js";
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  InitializeRequestParams,
  InitializeResult,
  ListRootsResult,
  LoggingLevel,
  ServerCapabilities,
} from "../../schemas/schemas.js";
import { NOT_IN_REVISION, encodeNotificationFor, encodeResultFor, encodeServerRequestFor } from "../../protocol/downgrade.js";
import type { JsonObject } from "../../types/types.js";
import { SessionHandlerContext } from "./handler-context.js";
import type { NegotiatedClient, SessionHandle } from "./mcp-server.types.js";
import { PROFILES, type RevisionProfile } from "../../protocol/profiles.js";
import { checkedParams, type FeatureHandler, type ServerHost } from "./server-host.js";
import { withFields } from "../../types/objects.js";

export type ClientCallOptions = Omit<RequestOptions, "relatedRequestId" | "onId">;

/** A method a session answers from its own state (the context's session); `beforeInitialize` ones are served before the handshake too. */
interface SessionMethod {
  readonly beforeInitialize: boolean;
  readonly run: (params: never, context: SessionHandlerContext) => unknown;
}

/** Per server, the methods its sessions answer: their own (one table per server) and all of them. */
interface Served {
  readonly own: ReadonlyMap<string, SessionMethod>;
  readonly methods: ReadonlySet<string>;
}

/** Never written: the subscriptions of every session that has none (see `subscriptions`). */
const NO_SUBSCRIPTIONS: ReadonlySet<string> = /* @__PURE__ */ new Set<string>();

/**
 * One client connection of an MCPServer: its negotiated revision, client capabilities, log level,
 * subscriptions and in-flight requests. Nothing here is shared with another session.
 */
export class ServerSession implements SessionHandle {
  // What few sessions use (subscriptions, a wait on the end) is made on first use: a server may hold thousands of sessions.
  #subscriptions: Set<string> | undefined;
  /** The era this connection is pinned to: by `initialize` (session), or by its first stateless-era request other than discover. */
  #era: Era | undefined;
  /** The server's tables of what its sessions answer (shared, not copied). */
  readonly #served: Served;
  /** What the client said of itself at initialize; its revision is the dispatcher's (the one place this side keeps it). */
  #client: Omit<NegotiatedClient, "protocolVersion"> | undefined;
  /** What the server declared at initialize (its shared, frozen capabilities of the revision). */
  #declared: ServerCapabilities | undefined;
  #logLevel: LoggingLevel | undefined;
  #finished: Promise<void> | undefined;
  #markFinished: (() => void) | undefined;
  /** Told after `initialize` is answered and whenever the client changes its log level or subscriptions (what `state` shows). */
  onStateChange: (() => void) | undefined;

  /**
   * The methods a session answers from its own state. They, like the server's feature handlers, are
   * shared by every session: a session registers one function for all of its methods, so it holds
   * no closure per method. Built with the server's first session, not as a static field: a class
   * with a static initializer is kept by bundlers in apps that never use it (a client-only app).
   */
  static #buildOwnMethods(): ReadonlyMap<string, SessionMethod> {
    return new Map<string, SessionMethod>([
      [
        METHODS.initialize,
        { beforeInitialize: true, run: (params: InitializeRequestParams, context) => context.session.#initialize(params) },
      ],
      // Stryker disable next-line ArrowFunction: the dispatcher answers a handler's undefined with {} as well
      [METHODS.ping, { beforeInitialize: true, run: () => ({}) }],
      [
        METHODS.loggingSetLevel,
        {
          beforeInitialize: false,
          run: (params: { level: LoggingLevel }, context) => {
            context.session.#logLevel = params.level;
            context.session.onStateChange?.();
            return {};
          },
        },
      ],
      [
        METHODS.resourcesSubscribe,
        {
          beforeInitialize: false,
          run: (params: { uri: string }, context) => {
            (context.session.#subscriptions ??= new Set()).add(params.uri);
            context.session.onStateChange?.();
            return {};
          },
        },
      ],
      [
        METHODS.resourcesUnsubscribe,
        {
          beforeInitialize: false,
          run: (params: { uri: string }, context) => {
            context.session.#subscriptions?.delete(params.uri);
            context.session.onStateChange?.();
            return {};
          },
        },
      ],
    ]);
  }

  /** What the sessions of `host` answer: one table and one set per server, kept by the server and shared by its sessions only. */
  static #servedBy(host: ServerHost): Served {
    return host.sessionTables(() => {
      const own = ServerSession.#buildOwnMethods();
      return {
        own,
        methods: new Set([...own.keys(), ...host.featureHandlers().keys(), METHODS.serverDiscover, METHODS.subscriptionsListen]),
      };
    });
  }

  readonly #host: ServerHost;

  constructor(
    host: ServerHost,
    private readonly dispatcher: JsonRpcDispatcher,
  ) {
    this.#host = host;
    this.#served = ServerSession.#servedBy(host);
    dispatcher.routeRequests(this.#served.methods, (params, request) => this.#serve(params, request));
    dispatcher.setNotificationHandler(NOTIFICATIONS.rootsListChanged, () => host.options.onRootsListChanged?.(this));
  }

  /** The resource URIs the client subscribed to. */
  get subscriptions(): ReadonlySet<string> {
    return this.#subscriptions ?? NO_SUBSCRIPTIONS;
  }

  /** Resolves once the connection is gone, whichever end closed it. */
  get finished(): Promise<void> {
    return (this.#finished ??= this.dispatcher.closed ? Promise.resolve() : new Promise<void>((resolve) => (this.#markFinished = resolve)));
  }

  /** The transport's session id when it has one (HTTP), else the connection's own id. */
  get id(): string {
    return this.dispatcher.session.sessionId ?? this.dispatcher.id;
  }

  /** The client, once `initialize` was answered. */
  get client(): NegotiatedClient | undefined {
    const client = this.#client;
    return client && { protocolVersion: this.protocolVersion, capabilities: client.capabilities, info: client.info };
  }

  get protocolVersion(): ProtocolVersion {
    return this.dispatcher.codec.version;
  }

  get rules(): RevisionProfile {
    return PROFILES[this.dispatcher.codec.version];
  }

  get logLevel(): LoggingLevel | undefined {
    return this.#logLevel;
  }

  get closed(): boolean {
    return this.dispatcher.closed;
  }

  /** What the client negotiated and changed since; undefined before `initialize`. Another instance goes on with it through `restore`. */
  get state(): SessionState | undefined {
    const client = this.#client;
    if (!client) return undefined;
    const state = {
      protocolVersion: this.protocolVersion,
      clientInfo: client.info as JsonObject,
      clientCapabilities: client.capabilities as JsonObject,
      subscriptions: [...this.subscriptions],
    };
    return this.#logLevel === undefined ? state : { ...state, logLevel: this.#logLevel };
  }

  /**
   * Goes on with a session another instance negotiated (it was taken over): as if `initialize` had
   * been answered with `state`. Refused on a session that already negotiated, or for a revision this
   * server does not serve.
   */
  restore(state: SessionState): void {
    if (this.#era !== undefined || !isProtocolVersion(state.protocolVersion))
      throw new MCPError(MCP_CODES.INVALID_PARAMS, "Only a fresh session of a known revision can be restored");
    this.#era = "session";
    this.dispatcher.setProtocolVersion(state.protocolVersion);
    this.#client = {
      capabilities: state.clientCapabilities,
      info: state.clientInfo as NegotiatedClient["info"],
    };
    this.#declared = this.#host.capabilitiesFor(this.rules);
    this.#logLevel = state.logLevel as LoggingLevel | undefined;
    if (state.subscriptions.length > 0) this.#subscriptions = new Set(state.subscriptions);
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }

  /** Called by the server when the dispatcher reports the connection closed. */
  connectionClosed(): void {
    this.#markFinished?.();
  }

  /** `sampling/createMessage`; refused unless the client declared sampling (and tool use, when tools are given). */
  createMessage(params: CreateMessageRequestParams, options?: ClientCallOptions, via?: RequestContext): Promise<CreateMessageResult> {
    return this.#askClient(METHODS.samplingCreateMessage, params, options, via) as Promise<CreateMessageResult>;
  }

  /** `elicitation/create` in form or URL mode; a form answer is checked against the requested schema. */
  elicitInput(params: ElicitRequestParams, options?: ClientCallOptions, via?: RequestContext): Promise<ElicitResult> {
    return this.#askClient(METHODS.elicitationCreate, params, options, via) as Promise<ElicitResult>;
  }

  /** `roots/list`; refused unless the client declared roots. */
  listRoots(options?: ClientCallOptions, via?: RequestContext): Promise<ListRootsResult> {
    return this.#askClient(METHODS.rootsList, undefined, options, via) as Promise<ListRootsResult>;
  }

  /** A request for input: refused unless the client declared what it needs; its answer checked. */
  async #askClient(
    method: string,
    params: JsonObject | undefined,
    options: ClientCallOptions | undefined,
    via: RequestContext | undefined,
  ): Promise<unknown> {
    const lacking = missingCapabilityFor(method, params, this.#client?.capabilities ?? {}, this.rules);
    if (lacking) throw new MCPError(MCP_CODES.METHOD_NOT_FOUND, `The client did not declare the ${lacking.name} capability`);
    // The dispatcher checked the answer's shape against the session's revision.
    return checkInputAnswer(method, params, await this.#request(method, params, options, via), true);
  }

  /** Tells the client a URL-mode elicitation finished. */
  notifyElicitationComplete(elicitationId: string): Promise<void> {
    return this.#notify(NOTIFICATIONS.elicitationComplete, { elicitationId });
  }

  /** Sends `notifications/message` when `level` passes the session's level (all pass until the client sets one). */
  async log(level: LoggingLevel, data: unknown, logger?: string, via?: RequestContext): Promise<void> {
    if (!this.#client || this.dispatcher.closed || !passes(level, this.#logLevel)) return;
    const params: JsonObject = logger === undefined ? { level, data } : { level, logger, data };
    await this.#notify(NOTIFICATIONS.message, params, via);
  }

  /**
   * A notification tied to none of the client's open requests (a task's progress, log messages and
   * status), on the session's own channel; with a `level`, only when it passes the session's level.
   */
  async notifyApart(method: string, params: JsonObject, level?: LoggingLevel): Promise<void> {
    if (this.dispatcher.closed || (level !== undefined && !passes(level, this.#logLevel))) return;
    await this.#notify(method, params);
  }

  /** `notifications/resources/updated`, only when this session subscribed to `uri`. */
  async resourceUpdated(uri: string): Promise<void> {
    if (this.#subscriptions?.has(uri) && !this.dispatcher.closed) await this.#notify(NOTIFICATIONS.resourcesUpdated, { uri });
  }

  /** `notifications/<kind>/list_changed`, when the session was told at initialize that it would get them. */
  async listChanged(kind: ListKind): Promise<void> {
    if (this.#declared?.[kind]?.listChanged && !this.dispatcher.closed) await this.#notify(LIST_CHANGED[kind], undefined);
  }

  #initialize(params: InitializeRequestParams): InitializeResult {
    if (this.#client) throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_REQUEST, "The session is already initialized");
    const stateless = this.#host.statelessVersions;
    // A server of the stateless era only names its versions: an old client may have nothing else to show its user.
    if (!this.#host.servesSessions || this.#era === "stateless") {
      throw new JsonRpcError(
        JSONRPC_ERROR_CODES.UNSUPPORTED_PROTOCOL_VERSION,
        `This server speaks only ${stateless.join(", ")}: no initialize, each request carries _meta`,
        { supported: [...stateless], requested: params.protocolVersion },
      );
    }
    this.#era = "session";
    const version = isProtocolVersion(params.protocolVersion) ? params.protocolVersion : LATEST_PROTOCOL_VERSION;
    this.dispatcher.setProtocolVersion(version);
    this.#client = { capabilities: params.capabilities, info: params.clientInfo };
    this.#declared = this.#host.capabilitiesFor(this.rules);
    const instructions = this.#host.options.instructions;
    this.onStateChange?.();
    const result: InitializeResult = {
      protocolVersion: version,
      capabilities: this.#declared,
      serverInfo: this.#host.info,
    };
    return instructions === undefined ? result : withFields(result, { instructions });
  }

  /**
   * Every request of this connection. One that claims the stateless era (its `_meta` names a
   * version) is served statelessly, unless `initialize` pinned the connection to the session era;
   * the rest are validated against the session's revision, refused before initialize unless
   * allowed, then run behind the server's layers (`authorize` the first of them).
   */
  #serve(params: unknown, request: RequestContext): unknown {
    if (this.#era !== "session" && this.#host.statelessVersions.length > 0 && claimsStatelessEra(params))
      return this.#serveStateless(params as JsonObject, request);
    return this.#run(checkedParams(this.dispatcher.codec, request.method, params, `Method not found: ${request.method}`), request);
  }

  /**
   * Stateless era on this connection (stdio): notifications of the request go out on it, tied to the request; `notifications/cancelled`
   * aborts it.
   */
  async #serveStateless(params: JsonObject, request: RequestContext): Promise<unknown> {
    // Discover is answered without pinning: a client probes with it before it knows the era.
    if (request.method !== METHODS.serverDiscover) this.#era = "stateless";
    const answer = await this.#host.serveStateless(request.id, request.method, params, new ConnectionChannel(request));
    if ("result" in answer) return answer.result;
    throw new JsonRpcError(answer.error.code, answer.error.message, answer.error.data);
  }

  /** Runs a method's handler; what it throws (also synchronously) becomes the dispatcher's error response. */
  #run(params: unknown, request: RequestContext): unknown {
    const method = request.method;
    const own = this.#served.own.get(method);
    if (!own?.beforeInitialize && !this.#client)
      throw new MCPError(MCP_CODES.NOT_INITIALIZED, `${method} before initialize: the session is not initialized`);
    const context = new SessionHandlerContext(this, request);
    // Only the methods of the two tables are registered, so a method not in the first is in the second; both behind the server's layers.
    const handler = own
      ? this.#host.layeredOwn(method, own.run as unknown as FeatureHandler)
      : (this.#host.featureHandlers().get(method) as FeatureHandler);
    const result = handler(params as never, context, this.rules);
    // Revision downgrade of results (after the handler: initialize settles the version it is read from).
    return encodedResult(this.dispatcher.codec.version, method, result);
  }

  #request(
    method: string,
    params: JsonObject | undefined,
    options: ClientCallOptions = {},
    via: RequestContext | undefined,
  ): Promise<unknown> {
    // Revision downgrade of the server's own requests.
    const version = this.dispatcher.codec.version;
    const encoded = encodeServerRequestFor(version, method, params);
    if (encoded === NOT_IN_REVISION)
      return Promise.reject(new MCPError(MCP_CODES.METHOD_NOT_FOUND, `${method} does not exist in protocol revision ${version}`));
    const wire = encoded as JsonObject | undefined;
    return via ? via.request(method, wire, options) : this.dispatcher.request(method, wire, options);
  }

  /** Every notification of the session goes out here; one its revision lacks is not sent. */
  async #notify(method: string, params: JsonObject | undefined, via?: RequestContext): Promise<void> {
    // Revision downgrade of the server's notifications.
    const encoded = encodeNotificationFor(this.dispatcher.codec.version, method, params);
    if (encoded === NOT_IN_REVISION) return;
    const wire = encoded as JsonObject | undefined;
    await (via ? via.notify(method, wire) : this.dispatcher.notify(method, wire));
  }
}

/** A result in the session's revision; the newest takes it as it is, without waiting on it. */
function encodedResult(version: ProtocolVersion, method: string, result: unknown): unknown {
  if (version === LATEST_PROTOCOL_VERSION) return result;
  return result instanceof Promise
    ? result.then((value: unknown) => encodeResultFor(version, method, value))
    : encodeResultFor(version, method, result);
}

function passes(level: LoggingLevel, threshold: LoggingLevel | undefined): boolean {
  // Stryker disable next-line ConditionalExpression: without a threshold indexOf gives -1, which every level passes as well
  if (threshold === undefined) return true;
  return LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(threshold);
}

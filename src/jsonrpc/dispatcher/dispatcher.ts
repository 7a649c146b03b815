import {
  LATEST_PROTOCOL_VERSION,
  JSONRPC_VERSION,
  NOTIFICATIONS,
  type AnyProtocolVersion,
  type ProtocolVersion,
} from "../../constants/index.js";
import { JSONRPC_ERROR_CODES, MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, toMCPError, toWireError } from "../../error-codes/mcp-error.js";
import type { JsonRpcErrorObject } from "../../schemas/jsonrpc.js";
import type { EventBus, MCPEventMap } from "../../events/events.js";
import type { WireCodec } from "../../wire/wire-codecs.js";
import type { ValidationResult, WireSchema } from "../../wire/wire-schema.js";
import { ownParse, validateWithZod } from "../../schemas/zod-validation.js";
import { loadWire, wireLayer } from "../../schemas/wire-loader.js";
import type { Telemetry } from "../../telemetry/telemetry.js";
import { connectionTelemetry } from "../../telemetry/telemetry-loader.js";
import type { InboundContext, SendOptions, SentKind, Transport, TransportReceiver } from "../../transport/transport/transport.types.js";
import type { JsonObject, JsonRpcId, Side } from "../../types/types.js";
import { classify, describeInvalid, idOfInvalid, type WireMessage } from "./classify.js";
import type {
  DispatcherOptions,
  NotificationHandler,
  ParamsSchema,
  PassNotification,
  ProgressUpdate,
  RequestHandler,
  RequestOptions,
  ResultCheck,
  SessionInfo,
  TimeoutOptions,
} from "./dispatcher.types.js";
import { InflightRequest, type ContextHost } from "./incoming.js";
import { endRequest } from "./request-end.js";
import { DEFAULT_TIMEOUT_MS, OutgoingRequests, type PendingRequest, type Timeouts } from "./outgoing.js";
import { withFields } from "../../types/objects.js";

type Response =
  { jsonrpc: "2.0"; id: JsonRpcId | null; result: unknown } | { jsonrpc: "2.0"; id: JsonRpcId | null; error: JsonRpcErrorObject };

/** A handler with its params schema; one without a schema is kept as the bare function (no entry object per handler). */
type HandlerEntry<H> = H | { readonly handler: H; readonly schema: ParamsSchema };

function handlerOf<H extends (...args: never[]) => unknown>(entry: HandlerEntry<H>): H {
  return typeof entry === "function" ? entry : entry.handler;
}

function schemaOf<H extends (...args: never[]) => unknown>(entry: HandlerEntry<H> | undefined): ParamsSchema | undefined {
  return typeof entry === "object" ? entry.schema : undefined;
}

function entryOf<H>(handler: H, schema: ParamsSchema | undefined): HandlerEntry<H> {
  return schema === undefined ? handler : { handler, schema };
}

let dispatcherCount = 0;

const NO_OPTIONS: RequestOptions = Object.freeze({});

/** What a batch waits on for a message that needs no answer (a notification, a response). */
const NO_ANSWER: Promise<undefined> = Promise.resolve(undefined);

/** Never written: a dispatcher gets a map of its own while it serves requests (an idle connection holds none). */
const NO_INFLIGHT = /* @__PURE__ */ new Map<JsonRpcId, InflightRequest>();

// Never written either: most dispatchers register few handlers or none of a kind (a server session routes its requests, a client has no
// result check until it calls a tool), so each table is made with its first entry.
const NO_HANDLERS: ReadonlyMap<string, never> = /* @__PURE__ */ new Map<string, never>();

type ResultCheckEntry = { readonly check: ResultCheck; readonly keyOf: (params: JsonObject | undefined) => unknown };

function errorResponse(id: JsonRpcId | null, error: JsonRpcErrorObject): Response {
  return { jsonrpc: JSONRPC_VERSION, id, error };
}

/**
 * The JSON-RPC engine under both MCPServer and MCPClient: one per connection. It allocates ids,
 * keeps the pending map, runs handlers, answers every request it can parse, validates what arrives
 * against the negotiated revision's codec, and releases everything when the transport closes.
 */
export class JsonRpcDispatcher<V extends AnyProtocolVersion = ProtocolVersion> implements ContextHost, TransportReceiver {
  readonly side: Side;
  /** The id given, or the number of an id made when it is first read (`id`). */
  readonly #id: string | number;
  #requestHandlers: ReadonlyMap<string, HandlerEntry<RequestHandler>> = NO_HANDLERS;
  #notificationHandlers: ReadonlyMap<string, HandlerEntry<NotificationHandler>> = NO_HANDLERS;
  #resultChecks: ReadonlyMap<string, ResultCheckEntry> = NO_HANDLERS;
  /** Methods served by one handler, from a set shared with other dispatchers (see `routeRequests`). */
  #routed: { readonly methods: ReadonlySet<string>; readonly handler: RequestHandler } | undefined;
  #inflight: Map<JsonRpcId, InflightRequest> = NO_INFLIGHT;
  /** Made with the first request sent: most server sessions never send one. */
  #outgoingRequests: OutgoingRequests | undefined;
  readonly #timeouts: Timeouts;
  /** Given, or decided at connect (see `connectionTelemetry`); `null` asked for none. */
  #telemetry: Telemetry | null | undefined;
  readonly #events: EventBus<MCPEventMap> | undefined;
  readonly #onProtocolError: ((error: MCPError) => void) | undefined;
  readonly #onClose: ((error: MCPError | undefined) => void) | undefined;
  readonly #onErrorResponse: ((error: MCPError) => void) | undefined;
  readonly #notificationLayers: (() => PassNotification | undefined) | undefined;
  #protocolVersion: V;
  /** The codec of `#protocolVersion`, from the first use after the wire layer loads. */
  #codec: WireCodec<V> | undefined;
  #transport: Transport | undefined;
  #closed = false;
  #nextId = 1;

  constructor(options: DispatcherOptions<V>) {
    this.side = options.side;
    this.#id = options.id ?? ++dispatcherCount;
    this.#protocolVersion = options.protocolVersion ?? (LATEST_PROTOCOL_VERSION as V);
    this.#telemetry = options.telemetry;
    this.#events = options.events;
    this.#onProtocolError = options.onProtocolError;
    this.#onClose = options.onClose;
    this.#onErrorResponse = options.onErrorResponse;
    this.#notificationLayers = options.notificationLayers;
    this.#timeouts = timeoutsOf(options);
  }

  /** Names this connection in events and sessions: the id given, else `<side>-<n>`. */
  get id(): string {
    const id = this.#id;
    return typeof id === "string" ? id : `${this.side}-${id}`;
  }

  get #outgoing(): OutgoingRequests {
    return (this.#outgoingRequests ??= new OutgoingRequests(this.#timeouts, (id, reason) => this.#sendCancel(id, reason)));
  }

  /** The revision messages are checked against (the wire layer loads with `connect`: reading this before throws). */
  get codec(): WireCodec<V> {
    return (this.#codec ??= wireLayer().codecFor(this.#protocolVersion));
  }

  get closed(): boolean {
    return this.#closed;
  }

  get session(): SessionInfo {
    return { dispatcherId: this.id, sessionId: this.#transport?.sessionId, protocolVersion: this.#protocolVersion };
  }

  /** Requests sent and not yet settled, and requests received and not yet answered. */
  get pendingCount(): { outgoing: number; incoming: number } {
    return { outgoing: this.#outgoingRequests?.size ?? 0, incoming: this.#inflight.size };
  }

  /** Switches to the negotiated revision's schemas. */
  setProtocolVersion(version: V): void {
    this.#protocolVersion = version;
    this.#codec = undefined;
  }

  setRequestHandler(method: string, handler: RequestHandler, schema?: ParamsSchema): void {
    if (this.#requestHandlers.has(method) || this.#routed?.methods.has(method)) {
      throw new MCPError(MCP_CODES.DUPLICATE_REGISTRATION, `A handler for request ${method} is already registered`);
    }
    this.#requestHandlers = withEntry(this.#requestHandlers, method, entryOf(handler, schema));
  }

  /**
   * Serves every method of `methods` with `handler` (the method is in `context.method`). The set is
   * read, not copied: thousands of sessions of one server share it instead of a table each.
   */
  routeRequests(methods: ReadonlySet<string>, handler: RequestHandler): void {
    if (this.#routed) throw new MCPError(MCP_CODES.DUPLICATE_REGISTRATION, "Requests are already routed on this dispatcher");
    for (const method of methods) {
      if (this.#requestHandlers.has(method))
        throw new MCPError(MCP_CODES.DUPLICATE_REGISTRATION, `A handler for request ${method} is already registered`);
    }
    this.#routed = { methods, handler };
  }

  /**
   * Checks every result of `method` after its schema, before the caller gets it: what `check`
   * returns (or resolves to) is the result, what it throws rejects the call. `keyOf` picks, when the
   * request is sent, the little the check needs of it (a tool's name): a call in flight holds only that.
   */
  setResultCheck(method: string, check: ResultCheck, keyOf: (params: JsonObject | undefined) => unknown): void {
    this.#resultChecks = withEntry(this.#resultChecks, method, { check, keyOf });
  }

  setNotificationHandler(method: string, handler: NotificationHandler, schema?: ParamsSchema): void {
    if (this.#notificationHandlers.has(method)) {
      throw new MCPError(MCP_CODES.DUPLICATE_REGISTRATION, `A handler for notification ${method} is already registered`);
    }
    this.#notificationHandlers = withEntry(this.#notificationHandlers, method, entryOf(handler, schema));
  }

  removeRequestHandler(method: string): boolean {
    return this.#requestHandlers.has(method) && (this.#requestHandlers as Map<string, unknown>).delete(method);
  }

  removeNotificationHandler(method: string): boolean {
    return this.#notificationHandlers.has(method) && (this.#notificationHandlers as Map<string, unknown>).delete(method);
  }

  async connect(transport: Transport): Promise<void> {
    if (this.#transport) throw new MCPError(MCP_CODES.ALREADY_CONNECTED, "This dispatcher is already connected");
    if (this.#closed) throw this.#notConnected();
    this.#transport = transport;
    try {
      const [, telemetry] = await Promise.all([loadWire(), this.#telemetry === undefined ? connectionTelemetry() : this.#telemetry]);
      this.#telemetry = telemetry;
      // The dispatcher is the transport's receiver: a connection holds no receiver object and closures of its own.
      await transport.start(this);
    } catch (error) {
      this.#transport = undefined;
      throw toMCPError(error, MCP_CODES.TRANSPORT_ERROR);
    }
    this.#events?.emit("connection:opened", { side: this.side, dispatcherId: this.id });
  }

  // ---- What the transport calls (TransportReceiver): call them as methods of the dispatcher ----

  /** A message (or batch) from the peer, as the transport parsed it. */
  onMessage(message: unknown, context?: InboundContext): void {
    this.#receive(message, context);
  }

  /** A frame the transport could not parse: answered -32700 with id null. */
  onMalformed(error: MCPError): void {
    this.#send(errorResponse(null, { code: JSONRPC_ERROR_CODES.PARSE_ERROR, message: error.message }));
  }

  /** The transport closed for good: pending requests fail, handlers are aborted (`error` says why when it was not asked for). */
  onClose(error?: MCPError): void {
    this.#closeWith(error);
  }

  /** Sends a request and resolves with its validated result. */
  request(method: string, params?: JsonObject, options: RequestOptions = NO_OPTIONS): Promise<unknown> {
    const transport = this.#transport;
    if (!transport || this.#closed) return Promise.reject(this.#notConnected());
    const signal = options.signal;
    if (signal?.aborted)
      return Promise.reject(
        new MCPError(MCP_CODES.REQUEST_CANCELLED, `Request ${method} was cancelled before it was sent`, { cause: signal.reason }),
      );
    const id = this.#nextId++;
    options.onId?.(id);
    let wireParams = options.onProgress ? withProgressToken(params, id) : params;
    const record = this.#telemetry?.outgoingRequest({
      side: this.side,
      method,
      id,
      params: wireParams,
      sessionId: transport.sessionId,
      protocolVersion: this.#protocolVersion,
    });
    if (record) wireParams = record.params;
    const settled = this.#outgoing.add(id, method, this.#resultChecks.get(method)?.keyOf(wireParams), options, record);
    const message =
      wireParams === undefined ? { jsonrpc: JSONRPC_VERSION, id, method } : { jsonrpc: JSONRPC_VERSION, id, method, params: wireParams };
    transport.send(message, sendOptions("request", options.relatedRequestId)).catch((error: unknown) => {
      const pending = this.#outgoing.get(id);
      if (pending) this.#outgoing.reject(pending, toMCPError(error, MCP_CODES.TRANSPORT_ERROR));
    });
    return settled;
  }

  /** Sends a notification. */
  async notify(method: string, params?: JsonObject, relatedRequestId?: JsonRpcId): Promise<void> {
    const transport = this.#transport;
    if (!transport || this.#closed) throw this.#notConnected();
    const pass = this.#notificationLayers?.();
    if (!pass) return this.#emit(transport, method, params, relatedRequestId);
    await pass("outgoing", method, params, (wire) => this.#emit(transport, method, wire, relatedRequestId));
  }

  /** A notification on its way out: recorded, then sent. */
  #emit(transport: Transport, method: string, params: JsonObject | undefined, relatedRequestId: JsonRpcId | undefined): Promise<void> {
    this.#telemetry?.notification(this.side, method);
    this.#events?.emit("notification:emitted", { side: this.side, method, params });
    return transport.send(
      params === undefined ? { jsonrpc: JSONRPC_VERSION, method } : { jsonrpc: JSONRPC_VERSION, method, params },
      sendOptions("notification", relatedRequestId),
    );
  }

  /** Closes the transport; pending requests fail with `MCP.TRANSPORT_CLOSED`, handlers are aborted. */
  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#transport?.close();
    } finally {
      this.#closeWith(undefined);
    }
  }

  #notConnected(): MCPError {
    return new MCPError(MCP_CODES.TRANSPORT_CLOSED, this.#closed ? "The connection is closed" : "Not connected: call connect() first");
  }

  #closeWith(error: MCPError | undefined): void {
    if (this.#closed) return;
    this.#closed = true;
    // Made only when a request is left to fail: an error's stack is most of what closing an idle connection would cost.
    let reason: MCPError | undefined;
    const closedReason = (): MCPError =>
      (reason ??= new MCPError(MCP_CODES.TRANSPORT_CLOSED, error ? `The connection closed: ${error.message}` : "The connection closed", {
        cause: error,
      }));
    this.#outgoingRequests?.rejectAll(closedReason);
    for (const inflight of this.#inflight.values()) {
      inflight.abort(closedReason());
      this.#complete(inflight, undefined);
    }
    this.#events?.emit(
      "connection:closed",
      error ? { side: this.side, dispatcherId: this.id, reason: error.message } : { side: this.side, dispatcherId: this.id },
    );
    this.#onClose?.(error);
  }

  #reportProtocolError(error: MCPError): void {
    this.#onProtocolError?.(error);
  }

  /** Sends a response, or a batch of them. */
  #send(message: unknown): void {
    this.#transport
      ?.send(message, SENDING.response)
      .catch((error: unknown) => this.#reportProtocolError(toMCPError(error, MCP_CODES.TRANSPORT_ERROR)));
  }

  #sendCancel(id: JsonRpcId, reason: string): void {
    this.notify(NOTIFICATIONS.cancelled, { requestId: id, reason }).catch((error: unknown) =>
      this.#reportProtocolError(toMCPError(error, MCP_CODES.TRANSPORT_ERROR)),
    );
  }

  #receive(message: unknown, context: InboundContext | undefined): void {
    if (Array.isArray(message)) {
      this.#receiveBatch(message, context);
      return;
    }
    // Stryker disable next-line BooleanLiteral: with false, the same answer is sent by the `then` below, a microtask later (the flag spares
    // that promise per request)
    const answer = this.#receiveOne(message, context, true);
    if (answer) void answer.then((response) => response && this.#send(response));
  }

  #receiveBatch(batch: unknown[], context: InboundContext | undefined): void {
    // Only 2025-03-26 has batches: in any other revision a batch is one invalid request, answered once.
    if (!this.codec.batching) {
      this.#send(
        errorResponse(null, {
          code: JSONRPC_ERROR_CODES.INVALID_REQUEST,
          message: `JSON-RPC batches are not part of protocol revision ${this.#protocolVersion}`,
        }),
      );
      return;
    }
    if (batch.length === 0) {
      this.#send(
        errorResponse(null, { code: JSONRPC_ERROR_CODES.INVALID_REQUEST, message: "An empty batch is not a valid JSON-RPC request" }),
      );
      return;
    }
    const answers = batch.map((message) => this.#receiveOne(message, context, false) ?? NO_ANSWER);
    void Promise.all(answers).then((responses) => {
      const sent = responses.filter((response) => response !== undefined);
      if (sent.length > 0) this.#send(sent);
    });
  }

  /**
   * Handles one message. A request's answer comes back as a promise (undefined when none is due),
   * except a single request that reaches its handler (`sendsItself`): that one sends its own answer.
   */
  #receiveOne(message: unknown, context: InboundContext | undefined, sendsItself: boolean): Promise<Response | undefined> | undefined {
    if (this.#closed) return undefined;
    const wire = message as WireMessage;
    switch (classify(message)) {
      case "request":
        return this.#handleRequest(wire, context, sendsItself);
      case "notification":
        this.#handleNotification(wire, context);
        return undefined;
      case "response":
        this.#handleResult(wire);
        return undefined;
      case "error-response":
        this.#handleErrorResponse(wire);
        return undefined;
      // Stryker disable next-line StringLiteral,ConditionalExpression: an invalid message leaves the switch with or without this case (it
      // is here for the exhaustiveness check)
      case "invalid":
        break;
    }
    return Promise.resolve(
      errorResponse(idOfInvalid(message), {
        code: JSONRPC_ERROR_CODES.INVALID_REQUEST,
        message: `Invalid request: ${describeInvalid(message)}`,
      }),
    );
  }

  /** Checks a request and starts its handler; refusals are answered at once. */
  #handleRequest(
    message: WireMessage,
    inbound: InboundContext | undefined,
    sendsItself: boolean,
  ): Promise<Response | undefined> | undefined {
    const id = message.id as JsonRpcId;
    const method = message.method as string;
    const entry = this.#requestHandlers.get(method);
    const routed = entry === undefined && this.#routed?.methods.has(method) ? this.#routed.handler : undefined;
    if (!entry && !routed)
      return Promise.resolve(errorResponse(id, { code: JSONRPC_ERROR_CODES.METHOD_NOT_FOUND, message: `Method not found: ${method}` }));
    if (this.#inflight.has(id))
      return Promise.resolve(
        errorResponse(id, {
          code: JSONRPC_ERROR_CODES.INVALID_REQUEST,
          message: `Request id ${JSON.stringify(id)} is already in use by a request in progress`,
        }),
      );
    // Routed requests are validated by their router, which knows each one's revision (a connection may serve two eras).
    const checked = routed
      ? { ok: true as const, value: message.params }
      : checkParams(this.#incomingRequestSchema(method) ?? schemaOf(entry), message.params);
    if (!checked.ok)
      return Promise.resolve(
        errorResponse(id, { code: JSONRPC_ERROR_CODES.INVALID_PARAMS, message: `Invalid params for ${method}: ${checked.issues}` }),
      );
    const record = this.#telemetry?.incomingRequest({
      side: this.side,
      method,
      id,
      params: message.params,
      sessionId: this.#transport?.sessionId,
      protocolVersion: this.#protocolVersion,
    });
    const inflight = new InflightRequest(this, id, method, message.params, inbound, record, this.#events ? performance.now() : 0);
    if (this.#inflight === NO_INFLIGHT) this.#inflight = new Map();
    this.#inflight.set(id, inflight);
    this.#events?.emit("request:received", { side: this.side, method, id });
    const answered = this.#run(inflight, routed ?? handlerOf(entry as HandlerEntry<RequestHandler>), checked.value, sendsItself);
    return sendsItself ? undefined : answered;
  }

  // Kept apart from the checks so that a request waiting on its handler holds only what it needs.
  async #run(inflight: InflightRequest, handler: RequestHandler, params: unknown, sendsItself: boolean): Promise<Response | undefined> {
    // The handler runs in this frame (one suspended call per request in flight, not two); whatever it
    // throws, synchronously or not, becomes the error response.
    let response: Response;
    try {
      const record = inflight.record;
      const result = await (record ? record.run(() => handler(params, inflight)) : handler(params, inflight));
      response = { jsonrpc: JSONRPC_VERSION, id: inflight.id, result: result ?? {} };
    } catch (error) {
      response = errorResponse(inflight.id, toWireError(error));
    }
    // Cancelled by the peer or orphaned by close while the handler ran: no response is due.
    if (inflight.done) return undefined;
    this.#complete(inflight, response);
    if (sendsItself) this.#send(response);
    return response;
  }

  /** Ends an incoming request once: answered (`response`) or not (cancelled, closed). */
  #complete(inflight: InflightRequest, response: Response | undefined): void {
    inflight.done = true;
    this.#inflight.delete(inflight.id);
    if (this.#inflight.size === 0) this.#inflight = NO_INFLIGHT;
    endRequest(
      { side: this.side, method: inflight.method, id: inflight.id, record: inflight.record, startedAt: inflight.startedAt },
      this.#events,
      response === undefined,
      response && "error" in response ? response.error : undefined,
    );
  }

  #handleNotification(message: WireMessage, inbound: InboundContext | undefined): void {
    const method = message.method as string;
    this.#telemetry?.notification(peerOf(this.side), method);
    const entry = this.#notificationHandlers.get(method);
    const handler = entry && handlerOf(entry);
    const schema = this.#incomingNotificationSchema(method) ?? schemaOf(entry);
    // One neither the revision nor a handler knows is ignored; one of the revision's goes through the layers, handled here or not.
    if (!handler && !schema) return;
    let params = message.params;
    // A cancellation is read as leniently as the spec allows (an unknown or missing id is ignored), so it is not checked.
    if (method !== NOTIFICATIONS.cancelled) {
      const checked = checkParams(schema, params);
      // Reported when this side acts on it; one only the layers would have seen is dropped quietly.
      if (!checked.ok)
        return void (
          (handler || method === NOTIFICATIONS.progress) &&
          this.#reportProtocolError(new MCPError(MCP_CODES.INVALID_PARAMS, `Invalid params for notification ${method}: ${checked.issues}`))
        );
      params = checked.value as JsonObject | undefined;
    }
    const pass = this.#notificationLayers?.();
    if (!pass) return this.#handleChecked(method, params, handler, inbound);
    pass("incoming", method, params, (value) => this.#handleChecked(method, value, handler, inbound)).catch((error: unknown) =>
      this.#reportProtocolError(toMCPError(error)),
    );
  }

  #handleChecked(
    method: string,
    params: JsonObject | undefined,
    handler: NotificationHandler | undefined,
    inbound: InboundContext | undefined,
  ): void {
    if (method === NOTIFICATIONS.cancelled) return this.#handleCancelled(params);
    // Progress for one of our requests goes to its caller; any other goes to a progress handler, if there is one.
    if (method === NOTIFICATIONS.progress && this.#outgoingRequests?.progress(params as unknown as ProgressUpdate)) return;
    if (!handler) return;
    const context = { method, session: this.session, inbound };
    try {
      Promise.resolve(handler(params, context)).catch((error: unknown) => this.#reportProtocolError(toMCPError(error)));
    } catch (error) {
      this.#reportProtocolError(toMCPError(error));
    }
  }

  #handleCancelled(params: Record<string, unknown> | undefined): void {
    const { requestId, reason } = params ?? {};
    const inflight = this.#inflight.get(requestId as JsonRpcId);
    // An unknown id is ignored, as the spec allows: the request may have finished already.
    if (!inflight) return;
    inflight.abort(
      new MCPError(MCP_CODES.REQUEST_CANCELLED, `The peer cancelled ${inflight.method}${typeof reason === "string" ? `: ${reason}` : ""}`),
    );
    this.#complete(inflight, undefined);
  }

  #handleResult(message: WireMessage): void {
    const pending = this.#outgoingRequests?.get(message.id as JsonRpcId);
    if (!pending)
      return this.#reportProtocolError(
        new MCPError(MCP_CODES.PROTOCOL_INVALID, `Received a response for unknown request id ${JSON.stringify(message.id)}`),
      );
    const schema = this.#outgoingResultSchema(pending.method);
    const checked = schema ? schema.validate(message.result) : { ok: true as const, value: message.result };
    if (!checked.ok)
      return this.#outgoing.reject(
        pending,
        new MCPError(MCP_CODES.PROTOCOL_INVALID, `Invalid result for ${pending.method}: ${checked.issues}`, { data: message.result }),
      );
    const check = this.#resultChecks.get(pending.method)?.check;
    if (!check) return this.#outgoing.resolve(pending, checked.value);
    this.#settleChecked(pending, check, checked.value);
  }

  #settleChecked(pending: PendingRequest, check: ResultCheck, value: unknown): void {
    let result: unknown;
    try {
      result = check(value, pending.checkKey);
    } catch (error) {
      return this.#outgoing.reject(pending, toMCPError(error, MCP_CODES.PROTOCOL_INVALID));
    }
    if (result instanceof Promise) this.#outgoing.resolveLater(pending, result);
    else this.#outgoing.resolve(pending, result);
  }

  #handleErrorResponse(message: WireMessage): void {
    const error = message.error as JsonRpcErrorObject;
    // An id of null (the peer could not read our message) matches no request.
    const pending = this.#outgoingRequests?.get(message.id as JsonRpcId);
    if (pending) {
      const rejection = MCPError.fromWire(error);
      this.#onErrorResponse?.(rejection);
      return this.#outgoing.reject(pending, rejection);
    }
    const about = message.id === null ? "an unidentifiable message" : `unknown request id ${JSON.stringify(message.id)}`;
    this.#reportProtocolError(
      new MCPError(MCP_CODES.PROTOCOL_INVALID, `Received an error for ${about}: ${error.message}`, { cause: MCPError.fromWire(error) }),
    );
  }

  #incomingRequestSchema(method: string): WireSchema | undefined {
    return (this.side === "server" ? this.codec.clientRequests : this.codec.serverRequests)[method]?.params;
  }

  #outgoingResultSchema(method: string): WireSchema | undefined {
    return (this.side === "server" ? this.codec.serverRequests : this.codec.clientRequests)[method]?.result;
  }

  #incomingNotificationSchema(method: string): WireSchema | undefined {
    return (this.side === "server" ? this.codec.clientNotifications : this.codec.serverNotifications)[method];
  }
}

/** `table` with `key` set: the shared empty table is never written, the first entry makes the dispatcher's own. */
function withEntry<T>(table: ReadonlyMap<string, T>, key: string, value: T): ReadonlyMap<string, T> {
  const own = (table === NO_HANDLERS ? new Map<string, T>() : table) as Map<string, T>;
  own.set(key, value);
  return own;
}

/** The shared defaults when no timeout is given (the usual case): a dispatcher holds no copy of its own. */
const DEFAULT_TIMEOUTS: Timeouts = /* @__PURE__ */ Object.freeze({
  timeoutMs: DEFAULT_TIMEOUT_MS,
  resetTimeoutOnProgress: true,
  maxTotalTimeoutMs: undefined,
});

function timeoutsOf(options: TimeoutOptions): Timeouts {
  const { timeoutMs, resetTimeoutOnProgress, maxTotalTimeoutMs } = options;
  if (timeoutMs === undefined && resetTimeoutOnProgress === undefined && maxTotalTimeoutMs === undefined) return DEFAULT_TIMEOUTS;
  return { timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS, resetTimeoutOnProgress: resetTimeoutOnProgress ?? true, maxTotalTimeoutMs };
}

function peerOf(side: Side): Side {
  return side === "server" ? "client" : "server";
}

/** The options of a send with no related request, one per kind: most sends make no object. */
const SENDING: Readonly<Record<SentKind, SendOptions>> = {
  request: { kind: "request" },
  notification: { kind: "notification" },
  response: { kind: "response" },
};

/** A transport is told what each message is, so it need not classify what the dispatcher built. */
function sendOptions(kind: SentKind, relatedRequestId: JsonRpcId | undefined): SendOptions {
  return relatedRequestId === undefined ? SENDING[kind] : { kind, relatedRequestId };
}

function withProgressToken(params: JsonObject | undefined, token: JsonRpcId): JsonObject {
  const meta = params?.["_meta"] as JsonObject | undefined;
  return withFields(params, { _meta: withFields(meta, { progressToken: token }) });
}

/** Validates params when there is a schema, also when its own refinement throws (user schemas may). */
function checkParams(schema: ParamsSchema | undefined, value: unknown): ValidationResult<unknown> {
  if (!schema) return { ok: true, value };
  try {
    // A zod schema is checked through its own parse: the dispatcher itself never loads zod.
    return "_zod" in schema ? validateWithZod(ownParse, schema, value) : schema.validate(value);
  } catch (error) {
    return { ok: false, issues: `the params schema threw: ${toMCPError(error).message}` };
  }
}

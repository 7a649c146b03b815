import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, toMCPError } from "../../error-codes/mcp-error.js";
import type { SendOptions, Transport, TransportReceiver } from "../transport/transport.types.js";
import type { JsonRpcId } from "../../types/types.js";
import { discardBody, mediaTypeOf, readText } from "./body.js";
import { followEventStream } from "./event-stream.js";
import { httpError, httpErrorOf, httpStatusOf, isSessionExpired, sessionExpiredError } from "./http-error.js";
import { isJsonObject } from "../../json-schema/json-values.js";
import type { HeaderParam } from "../../protocol/header-params.js";
import { statelessRequestHeaders } from "../../protocol/request-headers.js";
import { requestedVersion } from "../../server/stateless/request-meta.js";
import type { HttpClientOptions, FetchBody, FetchResponse } from "./http-options.js";
import { ACCEPT_BOTH, EVENT_STREAM, HttpSession, unexpectedType, type RequestPlan } from "./http-session.js";
import { outgoingOf, parseFrame } from "./messages.js";
import { encodeMessage } from "../encode.js";
import { PostExchange } from "./post-exchange.js";
import { RequestCancel, type RequestSignal } from "./request-cancel.js";
import { renewSession, type KeptInitialize } from "./session-renewal.js";
import { resolveReconnection, type ReconnectionOptions, type ResolvedReconnection } from "./reconnection.js";
import { DEFAULT_MAX_EVENT_BYTES, type SseItem } from "./sse-parser.js";

export interface StreamableHttpTransportOptions extends HttpClientOptions {
  /** How broken or server-closed SSE streams are resumed. */
  readonly reconnection?: ReconnectionOptions;
  /** Open the GET stream for server-initiated messages once initialized (default true). */
  readonly openGetStream?: boolean;
  /** The protocol version to announce before the handshake tells it (rarely needed). */
  readonly protocolVersion?: string;
  /** End the session with DELETE on close (default true). */
  readonly terminateOnClose?: boolean;
  /** How long close() waits for the DELETE (default 5000 ms). */
  readonly closeTimeoutMs?: number;
  /**
   * When the server ends the session (404), start a new one in its place — initialize again with
   * the client's own initialize, then send the request again — instead of closing (default false).
   * What the server kept for the old session (subscriptions, log level) is gone: see `onSessionRenewed`.
   */
  readonly renewSession?: boolean;
  /** Told when a new session replaced a lost one (option `renewSession`). */
  readonly onSessionRenewed?: (sessionId: string | undefined, lostSessionId: string) => void;
}

export const DEFAULT_CLOSE_TIMEOUT_MS = 5000;

/**
 * The client side of the Streamable HTTP transport (MCP 2025-03-26 and later): every message is
 * a POST to the MCP endpoint, answered with JSON, an SSE stream or 202; server-initiated messages
 * come on a GET stream. Session id and protocol version headers, SSE resumption with
 * `Last-Event-ID` (SEP-1699 polling included) and DELETE on close are handled here.
 */
export class StreamableHttpTransport implements Transport {
  /** A POST whose request names a stateless-era version in `_meta` follows that era's rules (see `send`). */
  readonly carriesStatelessEra = true;
  readonly url: string;
  readonly #options: StreamableHttpTransportOptions;
  readonly #reconnection: ResolvedReconnection;
  readonly #closing = new AbortController();
  /** The streams of requests still open, by request id: a cancel closes its stream. */
  readonly #requestStreams = new Map<JsonRpcId, RequestCancel>();
  /** The streams of stateless-era requests: cancelling one of them is closing it. */
  readonly #statelessStreams = new WeakSet<RequestCancel>();
  /** One cancel per POST under way, aborted on close (no AbortSignal.any per POST: it is slow and lingers). */
  readonly #posts = new Set<RequestCancel>();
  #receiver: TransportReceiver | undefined;
  #closed = false;
  readonly #http: HttpSession;
  #versionFromClient = false;
  /** The client's initialize, kept to start a new session in place of a lost one (option `renewSession`). */
  #initialize: KeptInitialize | undefined;
  #renewal: { readonly lost: string; readonly done: Promise<MCPError | undefined> } | undefined;
  #getStreamStarted = false;
  #toolHeaderParams: ToolHeaderParams | undefined;

  constructor(url: string | URL, options: StreamableHttpTransportOptions = {}) {
    this.url = new URL(url).href;
    this.#options = options;
    this.#reconnection = resolveReconnection(options.reconnection);
    this.#http = new HttpSession(this.url, options, options.protocolVersion);
  }

  /** The session id the server assigned at initialization, if it did. */
  get sessionId(): string | undefined {
    return this.#http.sessionId;
  }

  /** The protocol version sent in `MCP-Protocol-Version`, once known. */
  get protocolVersion(): string | undefined {
    return this.#http.protocolVersion;
  }

  /** True once closed, by either end. */
  get closed(): boolean {
    return this.#closed;
  }

  /** The negotiated version, from the client; until it calls this, the initialize result's is used. */
  setProtocolVersion(version: string): void {
    this.#http.protocolVersion = version;
    this.#versionFromClient = true;
  }

  /** Where a tools/call's `Mcp-Param-*` headers come from: the annotations of the tool as the client listed it. */
  setToolHeaderParams(lookup: ToolHeaderParams): void {
    this.#toolHeaderParams = lookup;
  }

  async start(receiver: TransportReceiver): Promise<void> {
    if (this.#receiver) throw new MCPError(MCP_CODES.ALREADY_CONNECTED, "This Streamable HTTP transport is already started");
    if (this.#closed) throw closedError();
    this.#receiver = receiver;
  }

  /**
   * POSTs one message (or batch). For a request it settles once the answer was delivered or cannot
   * come. A message of the stateless era (its `_meta` names the version) goes without the session's
   * headers and with its own (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), and
   * a JSON-RPC error the server answers with a 4xx status reaches the caller as that error.
   */
  async send(message: unknown, options?: SendOptions): Promise<void> {
    if (this.#closed) throw closedError();
    const receiver = this.#receiver;
    if (!receiver) throw new MCPError(MCP_CODES.TRANSPORT_ERROR, "Cannot send: call start() first");
    const body = encodeMessage(message);
    const outgoing = outgoingOf(message, options?.kind);
    const cancelled = outgoing.cancelledId;
    if (cancelled !== undefined) {
      const stream = this.#requestStreams.get(cancelled);
      stream?.abort();
      // The stateless era cancels by closing the request's stream: there is nothing to POST.
      if (stream !== undefined && this.#statelessStreams.has(stream)) return;
    }
    const initializeId = outgoing.initializeId;
    if (initializeId !== undefined) this.#initialize = { body, id: initializeId };
    const exchange = new PostExchange(outgoing);
    const stream = new RequestCancel();
    for (const id of exchange.ids) this.#requestStreams.set(id, stream);
    this.#posts.add(stream);
    try {
      const stateless = statelessHeadersOf(message, this.#toolHeaderParams);
      if (stateless !== undefined) this.#statelessStreams.add(stream);
      const response = await this.#exchange("POST", { accept: ACCEPT_BOTH, body, signal: stream, stateless });
      await this.#answer(response, exchange, receiver, stream, stateless !== undefined);
    } catch (error) {
      // A request given up by a cancel needs nothing more; its caller has moved on.
      if (stream.aborted && !this.#closed) return;
      throw this.#closed && !isSessionExpired(error) ? closedError(error) : error;
    } finally {
      for (const id of exchange.ids) this.#requestStreams.delete(id);
      this.#posts.delete(stream);
    }
  }

  /** Aborts every stream, ends the session with DELETE (405 is fine), then reports the close. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#abortAll();
    if (this.#http.sessionId !== undefined && this.#options.terminateOnClose !== false)
      await this.#http.terminate(this.#options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS);
    this.#receiver?.onClose();
  }

  async #answer(
    response: FetchResponse,
    exchange: PostExchange,
    receiver: TransportReceiver,
    signal: RequestCancel,
    stateless: boolean,
  ): Promise<void> {
    if (!response.ok) {
      // The stateless era answers a refused request with its JSON-RPC error and a 4xx status (401 and 403 are the authorization's).
      if (stateless && exchange.ids.length > 0 && !DENIED.has(response.status) && mediaTypeOf(response) === "application/json")
        return this.#readRefusal(response, exchange, receiver);
      throw await httpError(response, "POST", this.url);
    }
    if (exchange.ids.length === 0 || response.status === 202) {
      discardBody(response);
      if (exchange.initialized) this.#startGetStream(receiver);
      return;
    }
    const type = mediaTypeOf(response);
    if (type === "application/json") return this.#readJson(response, exchange, receiver);
    if (type === EVENT_STREAM && response.body) return this.#followPostStream(response.body, exchange, receiver, signal);
    discardBody(response);
    throw unexpectedType(response, "POST", this.url, type);
  }

  async #readJson(response: FetchResponse, exchange: PostExchange, receiver: TransportReceiver): Promise<void> {
    const { text, complete } = await readText(response, this.#maxMessageBytes);
    if (!complete)
      throw new MCPError(
        MCP_CODES.TRANSPORT_ERROR,
        `The JSON answer to ${exchange.name} was cut off or longer than ${this.#maxMessageBytes} bytes`,
      );
    this.#deliver(text, exchange, receiver);
    const missing = exchange.missing();
    if (missing)
      throw new MCPError(MCP_CODES.PROTOCOL_INVALID, `The server answered POST ${this.url} without a response to ${missing}`, {
        data: { body: text.slice(0, 2048) },
      });
  }

  /** A stateless-era refusal: its body, when it answers the request, is the answer; else the HTTP error. */
  async #readRefusal(response: FetchResponse, exchange: PostExchange, receiver: TransportReceiver): Promise<void> {
    const { text, complete } = await readText(response, this.#maxMessageBytes);
    const frame = complete ? parseFrame(text) : undefined;
    if (frame === undefined || "error" in frame || !answersRequest(frame.value, exchange.ids[0] as JsonRpcId)) {
      throw httpErrorOf(response, "POST", this.url, text);
    }
    this.#deliver(text, exchange, receiver);
  }

  async #followPostStream(body: FetchBody, exchange: PostExchange, receiver: TransportReceiver, signal: RequestCancel): Promise<void> {
    await followEventStream(body, {
      reconnection: this.#reconnection,
      maxEventBytes: this.#maxMessageBytes,
      signal,
      reopen: (lastEventId) => this.#openEventStream(lastEventId, signal),
      onItem: (item) => this.#deliverItem(item, exchange, receiver),
      done: () => exchange.missing() === undefined,
      reopensWithoutId: false,
      name: () => `the stream of ${exchange.name}`,
    });
    if (this.#closed && exchange.missing() !== undefined) throw closedError();
  }

  #startGetStream(receiver: TransportReceiver): void {
    if (this.#getStreamStarted || this.#options.openGetStream === false) return;
    this.#getStreamStarted = true;
    this.#runGetStream(receiver).catch((error: unknown) => {
      if (!this.#closed) this.#options.onError?.(toMCPError(error, MCP_CODES.TRANSPORT_ERROR));
    });
  }

  async #runGetStream(receiver: TransportReceiver): Promise<void> {
    const signal = this.#closing.signal;
    let first: FetchBody;
    try {
      first = await this.#openEventStream(undefined, signal);
    } catch (error) {
      // 405: the server offers no GET stream, which the spec allows.
      if (httpStatusOf(error) === 405) return;
      throw error;
    }
    await followEventStream(first, {
      reconnection: this.#reconnection,
      maxEventBytes: this.#maxMessageBytes,
      signal,
      reopen: (lastEventId) => this.#openEventStream(lastEventId, signal),
      onItem: (item) => this.#deliverItem(item, undefined, receiver),
      done: () => false,
      reopensWithoutId: true,
      name: () => "the GET stream",
    });
  }

  async #openEventStream(lastEventId: string | undefined, signal: RequestSignal): Promise<FetchBody> {
    const response = await this.#exchange("GET", { accept: EVENT_STREAM, lastEventId, signal });
    if (!response.ok) throw await httpError(response, "GET", this.url);
    const type = mediaTypeOf(response);
    if (type === EVENT_STREAM && response.body) return response.body;
    discardBody(response);
    throw unexpectedType(response, "GET", this.url, type);
  }

  #deliverItem(item: SseItem, exchange: PostExchange | undefined, receiver: TransportReceiver): void {
    if (item.kind === "oversized") {
      receiver.onMalformed(
        new MCPError(MCP_CODES.PROTOCOL_INVALID, `Parse error: an SSE event longer than ${item.limit} bytes was skipped`),
      );
      return;
    }
    // Events without data prime the Last-Event-ID (SEP-1699); other event types are not MCP's.
    if (item.event.type !== "message" || item.event.data === "") return;
    this.#deliver(item.event.data, exchange, receiver);
  }

  #deliver(text: string, exchange: PostExchange | undefined, receiver: TransportReceiver): void {
    const frame = parseFrame(text);
    if ("error" in frame) {
      receiver.onMalformed(frame.error);
      return;
    }
    const version = exchange?.noteAnswers(frame.value);
    if (version !== undefined && !this.#versionFromClient) this.#http.protocolVersion = version;
    receiver.onMessage(frame.value);
  }

  /**
   * A POST or GET of the session. A 404 to a request that carried the session id means the server
   * ended the session: with `renewSession`, a new one is started and the request sent again once;
   * otherwise (or when that fails) the transport closes with a clear error.
   */
  async #exchange(method: "POST" | "GET", plan: RequestPlan): Promise<FetchResponse> {
    // A request made while a new session is being started waits for it (no await without one: a tick per request).
    if (this.#renewal) {
      const failedRenewal = await this.#renewal.done;
      if (failedRenewal) throw failedRenewal;
    }
    const lost = this.#http.sessionId;
    let response = await this.#http.request(method, plan);
    // An answer to a request given up on (a fetch that ignored the abort) says nothing about the session.
    if (plan.signal.aborted) {
      discardBody(response);
      plan.signal.throwIfAborted();
    }
    if (response.status !== 404 || lost === undefined) return response;
    let refusal = await httpError(response, method, this.url);
    let expired = lost;
    if (this.#options.renewSession && this.#initialize) {
      const failure = await this.#renew(lost, this.#initialize, refusal);
      if (failure) throw failure;
      expired = this.#http.sessionId ?? expired;
      response = await this.#http.request(method, plan);
      if (response.status !== 404) return response;
      refusal = await httpError(response, method, this.url);
    }
    const error = sessionExpiredError(refusal, expired);
    this.#shutDown(error);
    throw error;
  }

  /**
   * One renewal per lost session, shared by every request that met the loss. It never rejects: it
   * resolves with the session error when the renewal failed (the transport is then closed with it).
   */
  #renew(lost: string, initialize: KeptInitialize, refusal: MCPError): Promise<MCPError | undefined> {
    if (this.#renewal?.lost !== lost) {
      const done = renewSession(this.#http, initialize, this.#closing.signal, this.#maxMessageBytes).then(
        () => {
          this.#options.onSessionRenewed?.(this.#http.sessionId, lost);
          return undefined;
        },
        (failure: unknown) => {
          const error = sessionExpiredError(refusal, lost, failure);
          this.#shutDown(error);
          return error;
        },
      );
      this.#renewal = { lost, done };
    }
    return this.#renewal.done;
  }

  #abortAll(): void {
    this.#closing.abort();
    for (const post of this.#posts) post.abort();
  }

  /** The connection is gone for good (the session ended): close without a DELETE. */
  #shutDown(error: MCPError): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#abortAll();
    // Stryker disable next-line OptionalChaining: a shut-down comes only from a send or the GET stream it opened, so after start(): the
    // receiver is set
    this.#receiver?.onClose(error);
  }

  get #maxMessageBytes(): number {
    return this.#options.maxMessageBytes ?? DEFAULT_MAX_EVENT_BYTES;
  }
}

/** Statuses that refuse the caller, not the request: an authorization failure, whatever the body says. */
const DENIED: ReadonlySet<number> = /* @__PURE__ */ new Set([401, 403]);

/** Where a tools/call's `Mcp-Param-*` headers come from, by tool name. */
export type ToolHeaderParams = (tool: string) => readonly HeaderParam[] | undefined;

/** The headers of a stateless-era message (one request or notification whose `_meta` names a version), or undefined for any other. */
function statelessHeadersOf(message: unknown, toolParams: ToolHeaderParams | undefined): Record<string, string> | undefined {
  if (!isJsonObject(message) || typeof message["method"] !== "string") return undefined;
  const params = isJsonObject(message["params"]) ? message["params"] : undefined;
  const version = requestedVersion(params);
  if (version === undefined) return undefined;
  const method = message["method"];
  const tool = method === "tools/call" ? params?.["name"] : undefined;
  return statelessRequestHeaders(version, method, params, typeof tool === "string" ? toolParams?.(tool) : undefined);
}

/** Whether a received message is the response (result or error) to request `id`. */
function answersRequest(message: unknown, id: JsonRpcId): boolean {
  return isJsonObject(message) && message["id"] === id && ("error" in message || "result" in message);
}

function closedError(cause?: unknown): MCPError {
  return new MCPError(MCP_CODES.TRANSPORT_CLOSED, "The Streamable HTTP transport is closed", { cause });
}

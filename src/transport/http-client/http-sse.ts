import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, toMCPError } from "../../error-codes/mcp-error.js";
import type { Transport, TransportReceiver } from "../transport/transport.types.js";
import { discardBody, mediaTypeOf } from "./body.js";
import {
  bodyFeed,
  eventSourceFeed,
  type EventFeed,
  type EventSourceConstructor,
  type EventSourceInitLike,
  type FeedHandlers,
} from "./event-source.js";
import { httpError } from "./http-error.js";
import { fetchOf, fetchOrFail, headersFor, type HttpClientOptions } from "./http-options.js";
import { parseFrame } from "./messages.js";
import { encodeMessage } from "../encode.js";
import { RequestCancel, signalFor } from "./request-cancel.js";
import { DEFAULT_MAX_EVENT_BYTES } from "./sse-parser.js";
import { withFields } from "../../types/objects.js";

export interface HttpSseTransportOptions extends HttpClientOptions {
  /**
   * An `EventSource` constructor to open the stream with (the browser's, the `eventsource` package's); without it, fetch and this package's
   * parser read the stream.
   */
  readonly eventSourceImpl?: EventSourceConstructor;
  /** Passed to the EventSource constructor as given (`withCredentials`, an implementation's own options). */
  readonly eventSourceInit?: EventSourceInitLike;
  /** How long start() waits for the `endpoint` event (default 10 000 ms). */
  readonly endpointTimeoutMs?: number;
}

export const DEFAULT_ENDPOINT_TIMEOUT_MS = 10_000;

/**
 * The client side of the legacy HTTP+SSE transport (MCP 2024-11-05): a GET opens an SSE stream
 * whose first `endpoint` event names where to POST messages; the server's messages come as
 * `message` events. The endpoint must be on the stream's origin. A broken stream ends the
 * transport: this transport has no way to resume a session.
 */
export class HttpSseTransport implements Transport {
  readonly url: string;
  readonly #options: HttpSseTransportOptions;
  readonly #closing = new AbortController();
  /**
   * One cancel per POST under way, aborted on close. A POST must not carry the long-lived
   * `#closing` signal: fetch adds a listener to it per request, gone only when that request is collected.
   */
  readonly #posts = new Set<RequestCancel>();
  #receiver: TransportReceiver | undefined;
  #feed: EventFeed | undefined;
  #endpoint: string | undefined;
  #closed = false;
  /** Ends a start() still waiting for the endpoint. */
  #stopWaiting: ((error: MCPError) => void) | undefined;

  constructor(url: string | URL, options: HttpSseTransportOptions = {}) {
    this.url = new URL(url).href;
    this.#options = options;
  }

  /** Where messages are POSTed, once the server said so. */
  get endpoint(): string | undefined {
    return this.#endpoint;
  }

  /** The `sessionId` query parameter of the endpoint, where servers put it (as the official SDK does). */
  get sessionId(): string | undefined {
    return this.#endpoint === undefined ? undefined : (new URL(this.#endpoint).searchParams.get("sessionId") ?? undefined);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Opens the stream and resolves once the `endpoint` event arrived (rejects after `endpointTimeoutMs`). */
  async start(receiver: TransportReceiver): Promise<void> {
    if (this.#receiver) throw new MCPError(MCP_CODES.ALREADY_CONNECTED, "This HTTP+SSE transport is already started");
    if (this.#closed) throw closedError();
    this.#receiver = receiver;
    try {
      await this.#connect(receiver);
    } catch (error) {
      this.#closed = true;
      this.#abortAll();
      this.#feed?.close();
      throw error;
    }
  }

  async send(message: unknown): Promise<void> {
    if (this.#closed) throw closedError();
    const endpoint = this.#endpoint;
    if (endpoint === undefined) throw new MCPError(MCP_CODES.TRANSPORT_ERROR, "Cannot send: call start() and wait for it first");
    const body = encodeMessage(message);
    const given = headersFor(this.#options.headers, { "content-type": "application/json" });
    const headers = given instanceof Promise ? await given : given;
    const post = new RequestCancel();
    this.#posts.add(post);
    try {
      const fetchImpl = fetchOf(this.#options);
      const response = await fetchOrFail(fetchImpl, endpoint, { method: "POST", headers, body, signal: signalFor(fetchImpl, post) });
      if (!response.ok) throw await httpError(response, "POST", endpoint);
      discardBody(response);
    } finally {
      this.#posts.delete(post);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#abortAll();
    this.#feed?.close();
    this.#stopWaiting?.(closedError());
    this.#receiver?.onClose();
  }

  #connect(receiver: TransportReceiver): Promise<void> {
    const timeoutMs = this.#options.endpointTimeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new MCPError(MCP_CODES.TRANSPORT_ERROR, `No endpoint event on the SSE stream at ${this.url} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const settle = (error?: MCPError): void => {
        clearTimeout(timer);
        this.#stopWaiting = undefined;
        if (error) reject(error);
        else resolve();
      };
      this.#stopWaiting = settle;
      const handlers: FeedHandlers = {
        onEvent: (type, data) => {
          if (type === "endpoint") this.#takeEndpoint(data, settle);
          else if (type === "message") this.#deliver(data, receiver);
        },
        onBroken: (error) => (this.#endpoint === undefined ? settle(error) : this.#shutDown(error)),
      };
      this.#openFeed(handlers).then(
        (feed) => {
          this.#feed = feed;
          // close() may have come while the stream was opening.
          if (this.#closed) feed.close();
        },
        (error: unknown) => settle(toMCPError(error, MCP_CODES.TRANSPORT_ERROR)),
      );
    });
  }

  #takeEndpoint(data: string, settle: (error?: MCPError) => void): void {
    if (this.#endpoint !== undefined) return;
    const endpoint = URL.canParse(data, this.url) ? new URL(data, this.url) : undefined;
    if (endpoint?.origin !== new URL(this.url).origin) {
      settle(
        new MCPError(
          MCP_CODES.TRANSPORT_ERROR,
          `Refused the endpoint ${JSON.stringify(data)} from ${this.url}: it must be a URL on the stream's own origin`,
          { data: { endpoint: data } },
        ),
      );
      return;
    }
    this.#endpoint = endpoint.href;
    settle();
  }

  async #openFeed(handlers: FeedHandlers): Promise<EventFeed> {
    const { eventSourceImpl, eventSourceInit } = this.#options;
    if (eventSourceImpl) return eventSourceFeed(eventSourceImpl, this.url, eventSourceInit, ["endpoint", "message"], handlers);
    const headers = await headersFor(this.#options.headers, { accept: "text/event-stream" });
    const response = await fetchOrFail(fetchOf(this.#options), this.url, { method: "GET", headers, signal: this.#closing.signal });
    if (!response.ok) throw await httpError(response, "GET", this.url);
    if (mediaTypeOf(response) !== "text/event-stream" || !response.body) {
      discardBody(response);
      throw new MCPError(
        MCP_CODES.TRANSPORT_ERROR,
        `GET ${this.url} was answered with content type "${mediaTypeOf(response)}" where text/event-stream was expected`,
        { data: { status: response.status } },
      );
    }
    const maxBytes = this.#options.maxMessageBytes ?? DEFAULT_MAX_EVENT_BYTES;
    return bodyFeed(
      response.body,
      this.url,
      maxBytes,
      withFields(handlers, {
        onOversized: (limit: number) =>
          this.#receiver?.onMalformed(
            new MCPError(MCP_CODES.PROTOCOL_INVALID, `Parse error: an SSE event longer than ${limit} bytes was skipped`),
          ),
      }),
    );
  }

  #deliver(data: string, receiver: TransportReceiver): void {
    const frame = parseFrame(data);
    if ("error" in frame) receiver.onMalformed(frame.error);
    else receiver.onMessage(frame.value);
  }

  /** The stream broke after the endpoint (a closed transport's feed reports nothing). */
  #shutDown(error: MCPError): void {
    this.#closed = true;
    this.#abortAll();
    this.#receiver?.onClose(error);
  }

  #abortAll(): void {
    this.#closing.abort();
    for (const post of this.#posts) post.abort();
  }
}

function closedError(): MCPError {
  return new MCPError(MCP_CODES.TRANSPORT_CLOSED, "The HTTP+SSE transport is closed");
}

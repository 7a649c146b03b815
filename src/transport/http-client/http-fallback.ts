import type { ConnectOptions } from "../../client/mcp-client/mcp-client.types.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, toMCPError } from "../../error-codes/mcp-error.js";
import type { SendOptions, Transport, TransportReceiver } from "../transport/transport.types.js";
import { httpStatusOf } from "./http-error.js";
import { HttpSseTransport, type HttpSseTransportOptions } from "./http-sse.js";
import { StreamableHttpTransport, type StreamableHttpTransportOptions, type ToolHeaderParams } from "./streamable-http.js";
import { initializeRequestId } from "./messages.js";

/** The statuses to a Streamable HTTP initialize that mean "an older server": the spec's backwards-compatibility list. */
export const FALLBACK_STATUSES: ReadonlySet<number> = new Set([400, 404, 405]);

export interface FallbackHttpOptions extends StreamableHttpTransportOptions, HttpSseTransportOptions {
  /** Try HTTP+SSE when the server refuses `initialize` with 400, 404 or 405 (default true). */
  readonly fallback?: boolean;
  /** Where the HTTP+SSE stream is, when not at the same URL (the spec's default). */
  readonly sseUrl?: string | URL;
}

/**
 * Streamable HTTP first, HTTP+SSE for servers that predate it: the first message (the client's
 * `initialize`) is POSTed as Streamable HTTP; a 400, 404 or 405 answer switches to the legacy
 * transport (GET, wait for its `endpoint` event) and sends the message again there. Whichever
 * was chosen carries the rest of the connection; `selected` tells which.
 */
export class FallbackHttpTransport implements Transport {
  /** As Streamable HTTP: a server that speaks the stateless era speaks Streamable HTTP. */
  readonly carriesStatelessEra = true;
  readonly #url: string | URL;
  readonly #options: FallbackHttpOptions;
  readonly #streamable: StreamableHttpTransport;
  #current: StreamableHttpTransport | HttpSseTransport;
  #selected: StreamableHttpTransport | HttpSseTransport | undefined;
  #probe: Promise<void> | undefined;
  #receiver: TransportReceiver | undefined;
  #closed = false;
  #closeReported = false;

  constructor(url: string | URL, options: FallbackHttpOptions = {}) {
    this.#url = url;
    this.#options = options;
    this.#streamable = new StreamableHttpTransport(url, options);
    this.#current = this.#streamable;
  }

  /** The transport in use, once the first exchange decided it. */
  get selected(): StreamableHttpTransport | HttpSseTransport | undefined {
    return this.#selected;
  }

  get sessionId(): string | undefined {
    return this.#current.sessionId;
  }

  /** Passed on to Streamable HTTP (the legacy transport has no version header). */
  setProtocolVersion(version: string): void {
    this.#streamable.setProtocolVersion(version);
  }

  /** Passed on to Streamable HTTP (the only one that carries the stateless era). */
  setToolHeaderParams(lookup: ToolHeaderParams): void {
    this.#streamable.setToolHeaderParams(lookup);
  }

  async start(receiver: TransportReceiver): Promise<void> {
    if (this.#receiver) throw new MCPError(MCP_CODES.ALREADY_CONNECTED, "This HTTP transport is already started");
    this.#receiver = receiver;
    await this.#streamable.start(this.#forwardFrom(this.#streamable, receiver));
  }

  async send(message: unknown, options?: SendOptions): Promise<void> {
    if (this.#selected) return this.#selected.send(message, options);
    // Only the answer to initialize decides: a stateless-era probe that a 2025 server refuses with 400 says nothing of HTTP+SSE.
    // An answer to it settles the choice (see #forwardFrom).
    if (!this.#probe && initializeRequestId(message) === undefined) return this.#streamable.send(message, options);
    if (this.#probe) {
      await this.#probe.catch(() => undefined);
      return this.#current.send(message);
    }
    this.#probe = this.#probeWith(message);
    return this.#probe;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#current.close();
    this.#reportClose(undefined);
  }

  async #probeWith(message: unknown): Promise<void> {
    try {
      await this.#streamable.send(message);
      this.#selected ??= this.#streamable;
    } catch (error) {
      const status = httpStatusOf(error);
      if (this.#selected || this.#options.fallback === false || status === undefined || !FALLBACK_STATUSES.has(status) || this.#closed) {
        this.#selected ??= this.#streamable;
        throw error;
      }
      await this.#fallBack(message, toMCPError(error));
    }
  }

  async #fallBack(message: unknown, refusal: MCPError): Promise<void> {
    const legacy = new HttpSseTransport(this.#options.sseUrl ?? this.#url, this.#options);
    this.#current = legacy;
    await this.#streamable.close();
    try {
      await legacy.start(this.#forwardFrom(legacy, this.#receiver as TransportReceiver));
    } catch (error) {
      const failure = toMCPError(error, MCP_CODES.TRANSPORT_ERROR);
      throw new MCPError(
        failure.code,
        `The server refused Streamable HTTP (${refusal.message}), and HTTP+SSE failed too: ${failure.message}`,
        {
          cause: failure,
          data: { streamableHttp: refusal.data, httpSse: failure.data },
        },
      );
    }
    this.#selected = legacy;
    await legacy.send(message);
  }

  #reportClose(error: MCPError | undefined): void {
    if (this.#closeReported) return;
    this.#closeReported = true;
    this.#receiver?.onClose(error);
  }

  /** Messages pass straight on; a close counts only from the transport in use (not from the one replaced). */
  #forwardFrom(inner: Transport, receiver: TransportReceiver): TransportReceiver {
    return {
      onMessage: (message, context) => {
        // An answer over Streamable HTTP settles the choice before the client sends anything else.
        this.#selected ??= this.#current;
        receiver.onMessage(message, context);
      },
      onMalformed: (error) => receiver.onMalformed(error),
      onClose: (error) => {
        if (this.#current !== inner) return;
        this.#closed = true;
        this.#reportClose(error);
      },
    };
  }
}

/** What `connectHttp` needs of a client: `MCPClient` fits. */
export interface HttpConnectable {
  connect(transport: Transport, options?: ConnectOptions): Promise<unknown>;
}

export interface ConnectHttpOptions extends FallbackHttpOptions {
  /** Passed to `client.connect` (signal, timeoutMs). */
  readonly connect?: ConnectOptions;
}

/**
 * Connects `client` to the MCP server at `url` over HTTP, the way the spec's backwards-compatibility
 * section asks: Streamable HTTP, else HTTP+SSE. Resolves with the transport in use.
 */
export async function connectHttp(
  client: HttpConnectable,
  url: string | URL,
  options: ConnectHttpOptions = {},
): Promise<StreamableHttpTransport | HttpSseTransport> {
  const transport = new FallbackHttpTransport(url, options);
  await client.connect(transport, options.connect);
  return transport.selected as StreamableHttpTransport | HttpSseTransport;
}

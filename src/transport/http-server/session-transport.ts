import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { classify, type WireMessage } from "../../jsonrpc/dispatcher/classify.js";
import { randomHex } from "../../protocol/bytes-text.js";
import type { JsonRpcId } from "../../types/types.js";
import { encodeMessage } from "../encode.js";
import type { InboundContext, SendOptions, Transport, TransportReceiver } from "../transport/transport.types.js";
import type { EventStreamBody } from "./http-server.types.js";
import { JsonResponses } from "./json-responses.js";
import { cancelledRequestId } from "./messages.js";
import { OutboundStream, streamIdOf, type StreamEvent, type StreamSettings } from "./outbound-stream.js";
import { orphanedAnswer } from "./orphaned.js";
import { undeliverable, type RequestRoute } from "./routes.js";

export interface SessionTransportSettings extends StreamSettings {
  /** The session was taken over from another instance: a stream it does not know is one that instance served. */
  readonly adopting?: boolean;
  /** Something happened that shows the client is around (a connection ended, a request was answered). */
  readonly onActivity: () => void;
}

/**
 * The `Transport` of one Streamable HTTP session. Inbound, the handler delivers each POSTed message
 * with its request's context. Outbound, a response goes to the route of its request id, a message
 * a handler sends while working on a request (`relatedRequestId`) goes to that request's route, and
 * anything else to the session's GET stream.
 */
export class HttpSessionTransport implements Transport {
  readonly #settings: SessionTransportSettings;
  readonly #routes = new Map<JsonRpcId, RequestRoute>();
  /** Live streams by id: POST streams not yet answered, and the GET stream. */
  readonly #streams = new Map<string, OutboundStream>();
  #standalone: OutboundStream | undefined;
  #receiver: TransportReceiver | undefined;
  #closed = false;
  /** Closing hands the session to another instance: what the store keeps of it stays. */
  #handingOver = false;
  #nextStreamId = 0;
  /** Stream ids (and so event ids) differ between sessions, so an id from one session names nothing in another. */
  readonly #streamPrefix = randomHex(4);

  constructor(
    readonly sessionId: string | undefined,
    settings: SessionTransportSettings,
  ) {
    this.#settings = settings;
  }

  /** Whether the client is evidently still there: a request in progress or a stream connected. */
  get busy(): boolean {
    return this.#routes.size > 0 || [...this.#streams.values()].some((stream) => stream.connected);
  }

  async start(receiver: TransportReceiver): Promise<void> {
    if (this.#receiver) throw new MCPError(MCP_CODES.ALREADY_CONNECTED, "This HTTP session transport is already started");
    if (this.#closed) throw new MCPError(MCP_CODES.TRANSPORT_CLOSED, "This HTTP session transport is closed");
    this.#receiver = receiver;
  }

  send(message: unknown, options: SendOptions = {}): Promise<void> {
    if (this.#closed) return Promise.reject(new MCPError(MCP_CODES.TRANSPORT_CLOSED, "Cannot send: the HTTP session is closed"));
    if (Array.isArray(message)) return Promise.all(message.map((one: unknown) => this.send(one, options))).then(() => undefined);
    let data: string;
    try {
      data = encodeMessage(message);
    } catch (error) {
      return Promise.reject(error);
    }
    // The dispatcher says what it built; a message from anyone else is classified here.
    const kind = options.kind ?? classify(message);
    if (kind === "response" || kind === "error-response") return this.#respond((message as WireMessage).id as JsonRpcId | null, data);
    const isRequest = kind === "request";
    if (options.relatedRequestId === undefined) return this.#toStandalone(data, isRequest);
    const route = this.#routes.get(options.relatedRequestId);
    return route ? route.forward(data, isRequest) : undeliverable(isRequest, "the request it belongs to is over");
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const stream of this.#streams.values()) stream.close(this.#handingOver);
    for (const route of this.#routes.values()) route.close();
    this.#streams.clear();
    this.#routes.clear();
    const events = this.#settings.events;
    try {
      if (events && !this.#handingOver) await events.store.dropSession(events.sessionId);
    } catch {
      // A store that fails to forget cannot be helped now; its own bounds still hold.
    }
    this.#receiver?.onClose();
  }

  /** Closes this instance's hold on the session, keeping its events for the instance that goes on with it. */
  handOver(): Promise<void> {
    this.#handingOver = true;
    return this.close();
  }

  /** Hands one POSTed message to the session; a `notifications/cancelled` also releases its request's route. */
  deliver(message: WireMessage, inbound: InboundContext): void {
    this.#receiver?.onMessage(message, inbound);
    const cancelled = cancelledRequestId(message);
    const route = cancelled === undefined ? undefined : this.#routes.get(cancelled);
    if (route === undefined) return;
    this.#routes.delete(cancelled as JsonRpcId);
    route.retire(cancelled as JsonRpcId);
    this.#settings.onActivity();
  }

  /** Whether a request with this id is still being worked on (a new one may not reuse it). */
  inProgress(id: JsonRpcId): boolean {
    return this.#routes.has(id);
  }

  /** An SSE stream for the requests of one POST; `onEnd` hears when they are all answered or the client left. */
  openRequestStream(ids: readonly JsonRpcId[], prime: boolean, onEnd?: () => void): EventStreamBody {
    const stream = this.#newStream(ids, onEnd);
    for (const id of ids) this.#routes.set(id, stream);
    return stream.connect(prime);
  }

  /** The JSON answer of one POST; its messages other than responses go to the GET stream. */
  collectResponses(ids: readonly JsonRpcId[], batch: boolean): JsonResponses {
    const collector = new JsonResponses(ids, batch, (data, isRequest) => this.#toStandalone(data, isRequest));
    for (const id of ids) this.#routes.set(id, collector);
    return collector;
  }

  /** Connects the GET stream; undefined when it is connected already (one per session). */
  openStandaloneStream(prime: boolean): EventStreamBody | undefined {
    if (this.#standalone?.connected) return undefined;
    this.#standalone ??= this.#newStream(undefined);
    return this.#standalone.connect(prime);
  }

  /** Resumes the stream `lastEventId` belongs to, within this session only; undefined when it cannot. */
  resumeStream(lastEventId: string): Promise<EventStreamBody | "ended" | undefined> {
    const streamId = streamIdOf(lastEventId);
    if (streamId === undefined) return Promise.resolve(undefined);
    const live = this.#streams.get(streamId);
    if (live) return live.resume(lastEventId);
    if (this.#settings.adopting) return this.#adopt(streamId, lastEventId);
    // A stream already answered is no longer live; what it sent is still in the store.
    return new OutboundStream(streamId, this.#settings, [], (ended, event) => this.#streamEvent(ended, event)).resume(lastEventId);
  }

  /**
   * A stream the session's previous instance served: a POST's goes on here until its requests have answers; the GET stream becomes this
   * session's.
   */
  async #adopt(streamId: string, lastEventId: string): Promise<EventStreamBody | undefined> {
    const { store, sessionId } = this.#settings.events as NonNullable<StreamSettings["events"]>;
    const requests = await store.streamRequests?.({ sessionId, streamId });
    if (requests === undefined || (requests === null && this.#standalone?.connected === true)) return undefined;
    const stream = new OutboundStream(streamId, this.#settings, requests ?? undefined, (ended, event) => this.#streamEvent(ended, event));
    this.#streams.set(streamId, stream);
    if (requests === null) this.#standalone = stream;
    return stream.adopt(lastEventId, orphanedAnswer);
  }

  /** Ends the connection of the stream carrying `requestId` (the GET stream when omitted), for polling. */
  disconnectStream(requestId: JsonRpcId | undefined): Promise<boolean> {
    const route = requestId === undefined ? this.#standalone : this.#routes.get(requestId);
    return route instanceof OutboundStream ? route.disconnect() : Promise.resolve(false);
  }

  #respond(id: JsonRpcId | null, data: string): Promise<void> {
    const route = id === null ? undefined : this.#routes.get(id);
    // No route: the request was cancelled (no response is due) or never came over HTTP.
    if (route === undefined) return Promise.resolve();
    this.#routes.delete(id as JsonRpcId);
    this.#settings.onActivity();
    return route.respond(id as JsonRpcId, data);
  }

  #toStandalone(data: string, isRequest: boolean): Promise<void> {
    if (this.#standalone) return this.#standalone.forward(data, isRequest);
    return undeliverable(isRequest, "the client has no GET stream open for messages the server starts");
  }

  #newStream(ids: readonly JsonRpcId[] | undefined, onEnd?: () => void): OutboundStream {
    const stream = new OutboundStream(`${this.#streamPrefix}.${this.#nextStreamId++}`, this.#settings, ids, (ended, event) =>
      this.#streamEvent(ended, event, onEnd),
    );
    this.#streams.set(stream.id, stream);
    return stream;
  }

  #streamEvent(stream: OutboundStream, event: StreamEvent, onEnd?: () => void): void {
    if (event === "answered") this.#streams.delete(stream.id);
    this.#settings.onActivity();
    onEnd?.();
  }
}

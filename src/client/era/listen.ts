import { META_KEYS, NOTIFICATIONS } from "../../constants/index.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, toMCPError } from "../../error-codes/mcp-error.js";
import type { RequestOptions } from "../../jsonrpc/dispatcher/dispatcher.types.js";
import { LIST_CHANGED, type ListKind } from "../../stores/change-feed.js";
import type { JsonObject, JsonRpcId } from "../../types/types.js";
import type { CallOptions } from "../mcp-client/mcp-client.types.js";
import type { ChangeSubscriptions } from "./changes.js";

/** What a listen request asks to hear of, and what its acknowledgement says the server honours. */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

export interface ListenSources {
  /** Sends `subscriptions/listen` with these params (the era's `_meta` added). */
  readonly send: (params: JsonObject, options: RequestOptions) => Promise<unknown>;
  /** A change the client may have missed while no stream was open, delivered as its notification would be. */
  readonly deliver: (method: string, params: JsonObject) => void;
  readonly report: (error: MCPError) => void;
  /** How long to wait for an acknowledgement. */
  readonly ackTimeoutMs: number;
  /** The first wait before a broken stream is re-opened; each failure in a row doubles it, up to 30 s. */
  readonly retryDelayMs: number;
}

const MAX_RETRY_DELAY_MS = 30_000;
const LISTS: readonly ListKind[] = ["tools", "prompts", "resources"];

/** One `subscriptions/listen` request: its id names every message of its stream; its controller ends it. */
class ListenStream {
  honoured: ListenFilter | undefined;

  constructor(
    readonly id: JsonRpcId,
    readonly key: string,
    readonly controller: AbortController,
  ) {}

  /** Whether the acknowledgement (which a current stream has had) took `uri`. */
  honours(uri: string): boolean {
    return (this.honoured as ListenFilter).resourceSubscriptions?.includes(uri) === true;
  }
}

/**
 * The stateless era's change notifications: one `subscriptions/listen` stream whose filter is what
 * the client watches and subscribes to. A change of filter opens a new stream and ends the old one
 * once the new one is acknowledged; notifications count only from the acknowledged stream (stdio
 * carries every stream on one channel: the subscription id tells them apart). A stream that breaks,
 * or that the server ends, is re-opened after a growing delay, and what it honoured is delivered as
 * changed, since changes made in between were not heard.
 */
export class ListenSubscriptions implements ChangeSubscriptions {
  readonly #lists = new Set<ListKind>();
  readonly #uris = new Set<string>();
  readonly #opening = new Map<JsonRpcId, (honoured: ListenFilter) => void>();
  #current: ListenStream | undefined;
  /** One change of stream at a time. */
  #queue: Promise<unknown> = Promise.resolve();
  #failures = 0;
  #broken = false;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  readonly #sources: ListenSources;

  constructor(sources: ListenSources) {
    this.#sources = sources;
  }

  /** Adds `list` to the filter (the client asks once per list). */
  watch(list: ListKind): void {
    this.#lists.add(list);
    this.#update().catch((error: unknown) => this.#sources.report(toMCPError(error)));
  }

  async subscribe(uri: string, options: CallOptions | undefined): Promise<void> {
    options?.signal?.throwIfAborted();
    if (this.#closed) throw new MCPError(MCP_CODES.TRANSPORT_CLOSED, `Cannot subscribe to ${uri}: the connection is closed`);
    this.#uris.add(uri);
    try {
      await this.#update();
      // A stream that broke right after its acknowledgement is re-opened with the URI: only a refusal is an error.
      const current = this.#current;
      if (current !== undefined && !current.honours(uri)) {
        throw new MCPError(
          MCP_CODES.METHOD_NOT_FOUND,
          `The server did not take the subscription to ${uri}: its acknowledgement of subscriptions/listen left it out`,
        );
      }
    } catch (error) {
      this.#uris.delete(uri);
      throw error;
    }
  }

  async unsubscribe(uri: string, options: CallOptions | undefined): Promise<void> {
    options?.signal?.throwIfAborted();
    if (this.#uris.delete(uri)) await this.#update();
  }

  accepts(method: string, params: unknown): boolean {
    const isUpdate = method === NOTIFICATIONS.resourcesUpdated;
    // Logs and progress come on the streams of the calls they belong to.
    if (!isUpdate && !LISTS.some((list) => LIST_CHANGED[list] === method)) return true;
    const current = this.#current;
    const { _meta: meta, uri } = (params ?? {}) as { _meta?: JsonObject; uri?: unknown };
    if (current === undefined || meta?.[META_KEYS.subscriptionId] !== current.id) return false;
    return !isUpdate || this.#uris.has(uri as string);
  }

  /** `notifications/subscriptions/acknowledged`: the stream it names is open, with what the server honours. */
  acknowledged(params: unknown): void {
    const { _meta: meta, notifications } = params as { _meta?: JsonObject; notifications: ListenFilter };
    const id = meta?.[META_KEYS.subscriptionId] as JsonRpcId;
    this.#opening.get(id)?.(notifications);
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#end();
  }

  #update(): Promise<void> {
    const next = this.#queue.then(() => this.#reconcile());
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** Brings the stream in line with what is watched and subscribed to. */
  async #reconcile(): Promise<void> {
    if (this.#closed) return;
    const filter = this.#filter();
    const key = JSON.stringify(filter);
    if (this.#current?.key === key) return;
    if (key === "{}") return this.#end();
    const stream = await this.#open(filter, key);
    this.#failures = 0;
    if (this.#broken) this.#resumed(stream);
  }

  #filter(): ListenFilter {
    const filter: ListenFilter = {};
    for (const list of LISTS) if (this.#lists.has(list)) filter[`${list}ListChanged`] = true;
    if (this.#uris.size > 0) filter.resourceSubscriptions = [...this.#uris].toSorted();
    return filter;
  }

  /** Opens a stream and resolves once the server acknowledged it (the stream it replaces ended then). */
  #open(filter: ListenFilter, key: string): Promise<ListenStream> {
    return new Promise((resolve, reject) => {
      const controller = new AbortController();
      let stream: ListenStream | undefined;
      const timer = setTimeout(() => {
        controller.abort();
        reject(new MCPError(MCP_CODES.TIMEOUT, `subscriptions/listen was not acknowledged within ${this.#sources.ackTimeoutMs} ms`));
      }, this.#sources.ackTimeoutMs);
      const onId = (id: JsonRpcId): void => {
        const opened = new ListenStream(id, key, controller);
        stream = opened;
        this.#opening.set(id, (honoured) => {
          clearTimeout(timer);
          this.#opening.delete(id);
          opened.honoured = honoured;
          // Current at once: the stream's next notifications may be read before this promise's reaction runs.
          const previous = this.#current;
          this.#current = opened;
          previous?.controller.abort();
          resolve(opened);
        });
      };
      const options: RequestOptions = {
        signal: controller.signal,
        timeoutMs: Number.POSITIVE_INFINITY,
        maxTotalTimeoutMs: Number.POSITIVE_INFINITY,
        onId,
      };
      this.#sources.send({ notifications: filter }, options).then(
        () => this.#ended(stream as ListenStream, undefined),
        (error: unknown) => {
          // Before its acknowledgement (or before it was sent at all), a failure is the opener's.
          if (stream === undefined || this.#opening.delete(stream.id)) {
            clearTimeout(timer);
            return reject(toMCPError(error));
          }
          this.#ended(stream, toMCPError(error));
        },
      );
    });
  }

  #end(): void {
    this.#current?.controller.abort();
    this.#current = undefined;
  }

  /** A stream's request settled: if it is the current one, the server ended it or it broke; open it again later. */
  #ended(stream: ListenStream, error: MCPError | undefined): void {
    if (stream !== this.#current || this.#closed || error?.code === MCP_CODES.TRANSPORT_CLOSED) return;
    this.#current = undefined;
    this.#broken = true;
    if (error) this.#failed(error);
    else this.#again();
  }

  #failed(error: MCPError): void {
    // One report per streak of failures: a server that is down for a while is not reported every 30 s.
    if (this.#failures === 0)
      this.#sources.report(
        new MCPError(error.code, `The subscriptions/listen stream ended (${error.message}); re-opening it`, { cause: error }),
      );
    this.#again();
  }

  #again(): void {
    const delay = Math.min(this.#sources.retryDelayMs * 2 ** this.#failures, MAX_RETRY_DELAY_MS);
    this.#failures++;
    this.#retry = setTimeout(() => {
      this.#update().catch((error: unknown) => this.#failed(toMCPError(error)));
    }, delay);
    // Waiting to re-open keeps no process alive (where timers can let go of it).
    // Stryker disable next-line OptionalChaining: Node's timers have unref (the tests run there); a browser's numeric timer has none
    (this.#retry as { unref?: () => void }).unref?.();
  }

  /** Back after a break: whatever the stream honours may have changed meanwhile. */
  #resumed(stream: ListenStream): void {
    this.#broken = false;
    const honoured = stream.honoured as ListenFilter;
    for (const list of LISTS) if (honoured[`${list}ListChanged`]) this.#sources.deliver(LIST_CHANGED[list], {});
    for (const uri of this.#uris) if (stream.honours(uri)) this.#sources.deliver(NOTIFICATIONS.resourcesUpdated, { uri });
  }
}

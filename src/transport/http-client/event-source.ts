// Where the legacy HTTP+SSE transport gets its events from: an injected EventSource, or fetch with
// this package's own parser. Both come out as the same small "feed".
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, describeThrown } from "../../error-codes/mcp-error.js";
import { pump } from "./event-stream.js";
import { SseParser } from "./sse-parser.js";
import type { FetchBody } from "./http-options.js";

/** The event an EventSource passes to its listeners: `data` for messages; some implementations put a `message` or `code` on errors. */
export interface EventSourceEventLike {
  readonly data?: unknown;
  readonly message?: unknown;
  readonly code?: unknown;
}

/** The part of the WHATWG `EventSource` this package uses; the browser's and the `eventsource` package's both fit. */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: EventSourceEventLike) => void): void;
  close(): void;
}

/** The second argument of the EventSource constructor, passed through as given. */
export interface EventSourceInitLike {
  readonly withCredentials?: boolean;
}

export type EventSourceConstructor = new (url: string, init?: EventSourceInitLike) => EventSourceLike;

export interface FeedHandlers {
  onEvent(type: string, data: string): void;
  /** The stream failed or ended; the feed is closed. Called at most once. */
  onBroken(error: MCPError): void;
}

export interface EventFeed {
  close(): void;
}

/** Listens for `types` on an EventSource; its first error closes it (a reconnection would start another session). */
export function eventSourceFeed(
  EventSourceImpl: EventSourceConstructor,
  url: string,
  init: EventSourceInitLike | undefined,
  types: readonly string[],
  handlers: FeedHandlers,
): EventFeed {
  const source = init === undefined ? new EventSourceImpl(url) : new EventSourceImpl(url, init);
  let open = true;
  const close = (): void => {
    open = false;
    source.close();
  };
  for (const type of types) {
    source.addEventListener(type, (event) => {
      if (open) handlers.onEvent(type, typeof event.data === "string" ? event.data : "");
    });
  }
  source.addEventListener("error", (event) => {
    if (!open) return;
    close();
    const detail = [event.code, event.message].filter(isPrintable).join(" ");
    handlers.onBroken(
      new MCPError(MCP_CODES.TRANSPORT_ERROR, `The SSE stream at ${url} failed${detail ? `: ${detail}` : ""}`, {
        data: { url, ...(typeof event.code === "number" ? { status: event.code } : {}) },
      }),
    );
  });
  return { close };
}

/** Reads an already-open `text/event-stream` body with this package's parser until it ends or breaks. */
export function bodyFeed(
  body: FetchBody,
  url: string,
  maxEventBytes: number,
  handlers: FeedHandlers & { onOversized(limit: number): void },
): EventFeed {
  const stopped = new AbortController();
  const parser = new SseParser(maxEventBytes);
  const onItem = (item: ReturnType<SseParser["push"]>[number]): void => {
    if (item.kind === "oversized") handlers.onOversized(item.limit);
    else handlers.onEvent(item.event.type, item.event.data);
  };
  void pump(body, parser, stopped.signal, onItem, () => undefined).then((error) => {
    if (stopped.signal.aborted) return;
    const why = error === undefined ? "the server closed it" : describeThrown(error);
    handlers.onBroken(
      new MCPError(MCP_CODES.TRANSPORT_ERROR, `The SSE stream at ${url} ended (${why}); HTTP+SSE cannot resume a session`, {
        cause: error,
        data: { url },
      }),
    );
  });
  return { close: () => stopped.abort() };
}

function isPrintable(part: unknown): part is string | number {
  return typeof part === "string" || typeof part === "number";
}

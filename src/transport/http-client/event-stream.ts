import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, toMCPError } from "../../error-codes/mcp-error.js";
import { ignoreFailure, type ChunkReader } from "./body.js";
import { httpStatusOf, isSessionExpired } from "./http-error.js";
import { reconnectionDelay, sleep, type ResolvedReconnection } from "./reconnection.js";
import { SseParser, type SseItem } from "./sse-parser.js";
import type { FetchBody } from "./http-options.js";
import type { CancelSignal } from "./request-cancel.js";

/** How many event ids of one stream are remembered to drop replayed duplicates. */
export const REMEMBERED_EVENT_IDS = 1024;

/** Statuses worth another attempt: the server is busy or briefly unable, not refusing. */
const RETRYABLE_STATUSES = new Set([408, 409, 425, 429]);

export interface FollowOptions {
  readonly reconnection: ResolvedReconnection;
  readonly maxEventBytes: number;
  /** Aborts when the transport closes or the stream is no longer wanted. */
  readonly signal: CancelSignal;
  /** Opens the stream again with a GET (with `Last-Event-ID` when one is given). */
  readonly reopen: (lastEventId: string | undefined) => Promise<FetchBody>;
  /** Gets every new event and every oversized-event notice, in order. */
  readonly onItem: (item: SseItem) => void;
  /** True once the stream has done its job (a POST stream whose requests were all answered). */
  readonly done: () => boolean;
  /** Whether a stream that never gave an event id may be reopened from scratch (the GET stream). */
  readonly reopensWithoutId: boolean;
  /** What the stream is, for error messages ("the stream of request 3"): made only for one. */
  readonly name: () => string;
}

/**
 * Reads an SSE stream to its end, and while it has not done its job, reconnects with
 * `Last-Event-ID` after the server's `retry` (or an exponential backoff), a bounded number of
 * failed attempts in a row. Events replayed with an id already seen are dropped, so nothing is
 * delivered twice. Resolves when done or aborted; rejects when the stream cannot be resumed.
 */
export async function followEventStream(first: FetchBody, options: FollowOptions): Promise<void> {
  const seen = new RecentIds(REMEMBERED_EVENT_IDS);
  let body = first;
  let cursor = "";
  let retryMs: number | undefined;
  for (;;) {
    const parser = new SseParser(options.maxEventBytes);
    const broke = await pump(
      body,
      parser,
      options.signal,
      (item) => {
        if (item.kind === "event" && item.event.id !== undefined && !seen.add(item.event.id)) return;
        options.onItem(item);
      },
      () => {
        if (parser.lastEventId !== "") cursor = parser.lastEventId;
      },
    );
    retryMs = parser.retryMs ?? retryMs;
    if (options.signal.aborted || options.done()) return;
    if (cursor === "" && !options.reopensWithoutId) {
      throw new MCPError(
        MCP_CODES.TRANSPORT_ERROR,
        `The server ended ${options.name()} before it was done, with no event id to resume from`,
        { cause: broke },
      );
    }
    body = await reconnect(cursor, retryMs, options);
  }
}

/** Reads one connection to its end; returns the error that broke it, if any. */
export async function pump(
  body: FetchBody,
  parser: SseParser,
  signal: CancelSignal,
  onItem: (item: SseItem) => void,
  afterChunk: () => void,
): Promise<unknown> {
  const reader: ChunkReader = body.getReader();
  const stop = (): void => ignoreFailure(reader.cancel());
  // Not `once`: the finally below removes it, whether it ran or not.
  signal.addEventListener("abort", stop);
  if (signal.aborted) stop();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return undefined;
      for (const item of parser.push(value as Uint8Array)) {
        if (signal.aborted) return undefined;
        onItem(item);
      }
      afterChunk();
    }
  } catch (error) {
    return error;
  } finally {
    signal.removeEventListener("abort", stop);
  }
}

async function reconnect(cursor: string, retryMs: number | undefined, options: FollowOptions): Promise<FetchBody> {
  let failure: MCPError | undefined;
  for (let attempt = 0; attempt < options.reconnection.maxAttempts; attempt++) {
    await sleep(reconnectionDelay(attempt, retryMs, options.reconnection), options.signal);
    try {
      return await options.reopen(cursor === "" ? undefined : cursor);
    } catch (error) {
      failure = toMCPError(error, MCP_CODES.TRANSPORT_ERROR);
      if (!worthRetrying(failure)) break;
    }
  }
  const why = failure ? failure.message : "reconnection is off (maxAttempts is 0)";
  throw new MCPError(failure ? failure.code : MCP_CODES.TRANSPORT_ERROR, `Could not resume ${options.name()}: ${why}`, {
    cause: failure,
    data: failure?.data,
  });
}

/** Network failures, 5xx and "busy" statuses are worth another attempt; a refusal or a lost session is not. */
function worthRetrying(error: MCPError): boolean {
  if (error.code !== MCP_CODES.TRANSPORT_ERROR || isSessionExpired(error)) return false;
  const status = httpStatusOf(error);
  return status === undefined || status >= 500 || RETRYABLE_STATUSES.has(status);
}

/** A set of the most recent ids: `add` says false for an id already there. */
class RecentIds {
  readonly #ids = new Set<string>();

  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  add(id: string): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    if (this.#ids.size > this.#limit) this.#ids.delete(this.#ids.values().next().value as string);
    return true;
  }
}

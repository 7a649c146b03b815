import type { Change, ChangeFeed, ChangeListener, ListKind } from "../stores/change-feed.js";
import { checkPrefix, redisCommands, type RedisClient } from "./redis-commands.js";

export interface RedisChangeFeedOptions {
  /** The connection: a node-redis or ioredis client (connected), or a `RedisCommands`; subscribing uses a duplicate of it. */
  readonly client: RedisClient;
  /** The channel is `<prefix>changes` (default prefix `"mcp:"`). Processes that serve one deployment share it. */
  readonly prefix?: string;
  /**
   * Told of what goes wrong where no caller waits: a message on the channel that is not a change, a listener that throws, a failed
   * subscribe.
   */
  readonly onError?: (error: unknown) => void;
  /**
   * How long a command may wait for Redis's answer, in milliseconds (default 2000): then it rejects with `MCP.TRANSPORT_ERROR`, so no call
   * hangs while Redis is away.
   */
  readonly timeoutMs?: number;
}

/**
 * A change feed on a Redis channel: `publish` sends each change (JSON) to every process subscribed,
 * this one included, so a listener here hears its own process's changes once, through Redis. The
 * first listener subscribes (on a duplicate connection made once); the last one to leave
 * unsubscribes. A change published before the subscription is active is not heard: `ready()`
 * resolves once it is.
 */
export class RedisChangeFeed implements ChangeFeed {
  readonly #redis: ReturnType<typeof redisCommands>;
  readonly #channel: string;
  readonly #onError: (error: unknown) => void;
  readonly #listeners = new Set<ChangeListener>();
  /** The subscription being made or held, while there are listeners. */
  #subscribed: Promise<void> | undefined;

  constructor(options: RedisChangeFeedOptions) {
    this.#redis = redisCommands(options.client, { timeoutMs: options.timeoutMs });
    this.#channel = `${checkPrefix(options.prefix ?? "mcp:", "RedisChangeFeed")}changes`;
    this.#onError = options.onError ?? (() => {});
    this.#redis.onReconnect(() => this.#missed());
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  async publish(change: Change): Promise<void> {
    await this.#redis.command(["PUBLISH", this.#channel, JSON.stringify(change)]);
  }

  subscribe(listener: ChangeListener): () => void {
    // A wrapper per subscription: the same function subscribed twice is two subscriptions.
    const entry: ChangeListener = (change) => listener(change);
    this.#listeners.add(entry);
    this.#subscribed ??= this.#redis
      .subscribe(this.#channel, (message) => this.#heard(message))
      .catch((error: unknown) => {
        this.#subscribed = undefined;
        this.#onError(error);
      });
    return () => {
      // Stryker disable next-line ConditionalExpression: deleting twice is harmless, unsubscribing twice is not
      if (!this.#listeners.delete(entry) || this.#listeners.size > 0) return;
      this.#subscribed = undefined;
      this.#redis.unsubscribe(this.#channel).catch(this.#onError);
    };
  }

  /** Resolves once the listeners there are hear the channel (at once when there are none). */
  async ready(): Promise<void> {
    await this.#subscribed;
  }

  /** Closes the subscribing connection; the client given stays open. */
  close(): Promise<void> {
    this.#listeners.clear();
    this.#subscribed = undefined;
    return this.#redis.close();
  }

  #heard(message: string): void {
    const change = parseChange(message);
    if (change === undefined)
      return this.#onError(
        new Error(`RedisChangeFeed: ignored a message on ${this.#channel} that is not a change: ${message.slice(0, 64)}`),
      );
    this.#tell(change);
  }

  /**
   * The subscription is back after Redis was away: what was published meanwhile is lost. Every list
   * may have changed, so the listeners are told so (sessions and listen streams send list_changed,
   * and clients list again); a resource or task change cannot be guessed, and its readers poll.
   */
  #missed(): void {
    for (const list of LISTS) this.#tell({ kind: "list", list });
  }

  #tell(change: Change): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        this.#onError(error);
      }
    }
  }
}

const LISTS: readonly ListKind[] = ["tools", "resources", "prompts"];

/** A change as JSON text, checked field by field; undefined for anything else. */
function parseChange(message: string): Change | undefined {
  let value: unknown;
  try {
    value = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { kind, list, uri, taskId } = value as Record<string, unknown>;
  if (kind === "list" && LISTS.includes(list as ListKind)) return { kind, list: list as ListKind };
  if (kind === "resource" && typeof uri === "string") return { kind, uri };
  if (kind === "task" && typeof taskId === "string") return { kind, taskId };
  return undefined;
}

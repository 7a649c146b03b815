import type { InstanceBus, StopListening } from "../stores/instance-bus.js";
import { checkPrefix, redisCommands, type RedisClient, type RedisCommands } from "./redis-commands.js";

export interface RedisInstanceBusOptions {
  /** The connection: a node-redis or ioredis client (connected), or a `RedisCommands`; listening uses a duplicate of it. */
  readonly client: RedisClient;
  /** Channels are `<prefix>instance:<instance>` (default prefix `"mcp:"`). The instances of one deployment share it. */
  readonly prefix?: string;
  /**
   * How long a command may wait for Redis's answer, in milliseconds (default 2000): then it rejects with `MCP.TRANSPORT_ERROR`, so no call
   * hangs while Redis is away.
   */
  readonly timeoutMs?: number;
  /** Told of a listener that throws (the others are still told). */
  readonly onError?: (error: unknown) => void;
}

/** The listeners of one instance's channel, and whether the connection hears it. */
interface Channel {
  readonly listeners: Set<(message: string) => void>;
  subscribed: boolean;
  /** The last subscribe or unsubscribe asked for: each waits for the one before. */
  settled: Promise<void>;
}

/**
 * Messages between the instances of a deployment on Redis pub/sub: `send` publishes on the named
 * instance's channel, `<prefix>instance:<instance>`, and every process listening for that instance
 * hears it. The listeners of one instance share one subscription (on the adapter's duplicate
 * connection), made with the first and dropped with the last. Pub/sub is at most once: a message
 * published while the listening process is away from Redis is lost, as the contract allows.
 */
export class RedisInstanceBus implements InstanceBus {
  readonly #redis: RedisCommands;
  readonly #prefix: string;
  readonly #onError: (error: unknown) => void;
  readonly #channels = new Map<string, Channel>();

  constructor(options: RedisInstanceBusOptions) {
    this.#redis = redisCommands(options.client, { timeoutMs: options.timeoutMs });
    this.#prefix = `${checkPrefix(options.prefix ?? "mcp:", "RedisInstanceBus")}instance:`;
    this.#onError = options.onError ?? (() => {});
  }

  async listen(instance: string, onMessage: (message: string) => void): Promise<StopListening> {
    const name = this.#prefix + instance;
    let channel = this.#channels.get(name);
    if (channel === undefined) {
      channel = { listeners: new Set(), subscribed: false, settled: Promise.resolve() };
      this.#channels.set(name, channel);
    }
    // A wrapper per call: the same function listening twice hears each message twice.
    const entry = (message: string): void => onMessage(message);
    channel.listeners.add(entry);
    try {
      await this.#settle(name, channel);
    } catch (error) {
      channel.listeners.delete(entry);
      throw error;
    }
    const listening = channel;
    return async () => {
      // Stops delivery at once; the unsubscribe follows (only the first call: a later one must not touch the listeners that came since).
      if (listening.listeners.delete(entry)) await this.#settle(name, listening);
    };
  }

  async send(instance: string, message: string): Promise<void> {
    await this.#redis.command(["PUBLISH", this.#prefix + instance, message]);
  }

  /** Closes the listening connection; the client given stays open. */
  close(): Promise<void> {
    this.#channels.clear();
    return this.#redis.close();
  }

  /**
   * Makes the subscription match the listeners, after whatever was asked before: a listen racing
   * the last stop must not end with the channel unheard, nor subscribed twice.
   */
  #settle(name: string, channel: Channel): Promise<void> {
    const next = channel.settled.then(async () => {
      const wanted = channel.listeners.size > 0;
      if (wanted && !channel.subscribed) {
        await this.#redis.subscribe(name, (message) => this.#heard(channel, message));
        channel.subscribed = true;
      } else if (!wanted && channel.subscribed) {
        channel.subscribed = false;
        await this.#redis.unsubscribe(name);
      }
    });
    // The next change waits for this one, failed or not. A channel left unheard by no one is
    // forgotten (listeners that came meanwhile keep it: they are counted now, not when it began).
    channel.settled = next
      .catch(() => {})
      .then(() => {
        if (channel.listeners.size === 0 && !channel.subscribed && this.#channels.get(name) === channel) this.#channels.delete(name);
      });
    return next;
  }

  #heard(channel: Channel, message: string): void {
    for (const listener of channel.listeners) {
      try {
        listener(message);
      } catch (error) {
        this.#onError(error);
      }
    }
  }
}

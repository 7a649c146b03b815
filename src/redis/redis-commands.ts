import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPError } from "../error-codes/mcp-error.js";

/**
 * What the Redis stores need of a connection: one command at a time, and channels heard on a
 * connection of their own (a connection that subscribes can send nothing else). `redisCommands`
 * makes one from a node-redis or ioredis client; a user with another client writes these four.
 */
export interface RedisCommands {
  /** Sends one command (`["SET", key, value]`) and resolves with its reply as the client gives it. */
  command(args: readonly string[]): Promise<unknown>;
  /** Hears `channel` on the subscribing connection (made on first use); `onMessage` gets each message's text. */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<void>;
  unsubscribe(channel: string): Promise<void>;
  /** Closes the subscribing connection, if one was made; the user's own connection stays theirs to close. */
  close(): Promise<void>;
  /**
   * Tells `listener` each time the subscribing connection is ready again after it was lost, its
   * channels heard again (what was published meanwhile is lost); the returned function stops telling
   * it. Optional: a store given an adapter without it cannot tell its listeners what they missed.
   */
  onReconnect?(listener: () => void): () => void;
}

export interface RedisCommandsOptions {
  /** How long a command may wait for its answer, in milliseconds (default 2000); then it rejects with `MCP.TRANSPORT_ERROR`. */
  readonly timeoutMs?: number | undefined;
}

/** A node-redis client (v4 and later), connected: what the adapter calls of it. */
export interface NodeRedisClient {
  sendCommand(args: string[]): Promise<unknown>;
  duplicate(): NodeRedisSubscriber;
}

export interface NodeRedisSubscriber {
  connect(): Promise<unknown>;
  on(event: "ready" | "error", listener: () => void): unknown;
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  disconnect(): Promise<unknown>;
}

/** An ioredis client: what the adapter calls of it. */
export interface IoRedisClient {
  call(command: string, args: string[]): Promise<unknown>;
  duplicate(): IoRedisSubscriber;
}

export interface IoRedisSubscriber {
  subscribe(channel: string): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  on(event: "message", listener: (channel: string, message: string) => void): unknown;
  on(event: "ready" | "error", listener: () => void): unknown;
  disconnect(): unknown;
}

/** What the Redis stores take as their connection. */
export type RedisClient = NodeRedisClient | IoRedisClient | RedisCommands;

/**
 * The commands of the user's client: node-redis (`sendCommand`), ioredis (`call`), or an adapter
 * already; each command rejects when it has no answer within `timeoutMs`.
 */
export function redisCommands(
  client: RedisClient,
  options: RedisCommandsOptions = {},
): RedisCommands & Required<Pick<RedisCommands, "onReconnect">> {
  const { timeoutMs = 2000 } = options;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0)
    throw invalidOption("A Redis store's timeoutMs must be a positive whole number of milliseconds");
  return new TimedCommands(adapterOf(client), timeoutMs);
}

function adapterOf(client: RedisClient): RedisCommands {
  if (typeof client !== "object" || client === null) throw invalidClient();
  // ioredis has a sendCommand of its own (taking its Command objects): `call` tells it apart.
  if ("call" in client && typeof client.call === "function") return new IoRedisCommands(client);
  if ("sendCommand" in client && typeof client.sendCommand === "function") return new NodeRedisCommands(client);
  if ("command" in client && typeof client.command === "function") return client;
  throw invalidClient();
}

/**
 * Commands that give up after `timeoutMs`: node-redis and ioredis queue what is sent while they are
 * disconnected, so without it a store call would wait for as long as Redis is away. The message
 * names the command only: its arguments may hold secrets. Subscribing is not timed: the clients
 * subscribe again by themselves once connected, and a subscription given up on would then double.
 */
class TimedCommands implements RedisCommands {
  readonly #redis: RedisCommands;
  readonly #timeoutMs: number;

  constructor(redis: RedisCommands, timeoutMs: number) {
    this.#redis = redis;
    this.#timeoutMs = timeoutMs;
  }

  command(args: readonly string[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new MCPError(MCP_CODES.TRANSPORT_ERROR, `Redis did not answer ${String(args[0]).toUpperCase()} within ${this.#timeoutMs} ms`),
          ),
        this.#timeoutMs,
      );
      // A command given up on must not keep the process alive.
      timer.unref();
      this.#redis
        .command(args)
        .then(resolve, reject)
        .finally(() => clearTimeout(timer));
    });
  }

  subscribe(channel: string, onMessage: (message: string) => void): Promise<void> {
    return this.#redis.subscribe(channel, onMessage);
  }

  unsubscribe(channel: string): Promise<void> {
    return this.#redis.unsubscribe(channel);
  }

  close(): Promise<void> {
    return this.#redis.close();
  }

  onReconnect(listener: () => void): () => void {
    return this.#redis.onReconnect?.(listener) ?? (() => {});
  }
}

function invalidClient(): MCPError {
  return invalidOption("A Redis store needs a node-redis client, an ioredis client, or a RedisCommands adapter");
}

/** Who is told that a subscribing connection is back. */
class Reconnections {
  readonly #listeners = new Set<() => void>();

  add(listener: () => void): () => void {
    const entry = (): void => listener();
    this.#listeners.add(entry);
    return () => void this.#listeners.delete(entry);
  }

  tell(): void {
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch {
        // Called from the client's own event: a listener's throw must not reach it. The stores' listeners do not throw.
      }
    }
  }
}

/** The listeners of each channel of one subscribing connection. */
class Channels {
  readonly #listeners = new Map<string, (message: string) => void>();

  set(channel: string, onMessage: (message: string) => void): void {
    this.#listeners.set(channel, onMessage);
  }

  delete(channel: string): void {
    this.#listeners.delete(channel);
  }

  deliver(channel: string, message: string): void {
    this.#listeners.get(channel)?.(message);
  }

  get names(): string[] {
    return [...this.#listeners.keys()];
  }
}

class NodeRedisCommands implements RedisCommands {
  readonly #client: NodeRedisClient;
  readonly #reconnections = new Reconnections();
  #subscriber: Promise<NodeRedisSubscriber> | undefined;

  constructor(client: NodeRedisClient) {
    this.#client = client;
  }

  command(args: readonly string[]): Promise<unknown> {
    return this.#client.sendCommand([...args]);
  }

  async subscribe(channel: string, onMessage: (message: string) => void): Promise<void> {
    // One duplicate for the adapter's life, connected once, whoever subscribes first.
    this.#subscriber ??= connected(this.#client.duplicate(), () => this.#reconnections.tell());
    await (await this.#subscriber).subscribe(channel, (message) => onMessage(message));
  }

  async unsubscribe(channel: string): Promise<void> {
    if (this.#subscriber !== undefined) await (await this.#subscriber).unsubscribe(channel);
  }

  async close(): Promise<void> {
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    if (subscriber !== undefined) await (await subscriber).disconnect();
  }

  onReconnect(listener: () => void): () => void {
    return this.#reconnections.add(listener);
  }
}

async function connected(subscriber: NodeRedisSubscriber, onReconnect: () => void): Promise<NodeRedisSubscriber> {
  // The user's client reports Redis going away (it loses it too); an "error" event no one hears would throw.
  subscriber.on("error", () => {});
  await subscriber.connect();
  // Heard from now on, so the first "ready" (the connect above) is not one; node-redis emits it once it has subscribed again.
  subscriber.on("ready", onReconnect);
  return subscriber;
}

class IoRedisCommands implements RedisCommands {
  readonly #client: IoRedisClient;
  readonly #channels = new Channels();
  readonly #reconnections = new Reconnections();
  #subscriber: IoRedisSubscriber | undefined;

  constructor(client: IoRedisClient) {
    this.#client = client;
  }

  command(args: readonly string[]): Promise<unknown> {
    const [name = "", ...rest] = args;
    return this.#client.call(name, rest);
  }

  async subscribe(channel: string, onMessage: (message: string) => void): Promise<void> {
    if (this.#subscriber === undefined) {
      // ioredis connects a duplicate by itself and tells every message to one event.
      const subscriber = this.#client.duplicate();
      this.#subscriber = subscriber;
      subscriber.on("message", (heard, message) => this.#channels.deliver(heard, message));
      subscriber.on("error", () => {});
      let connectedOnce = false;
      subscriber.on("ready", () => {
        if (connectedOnce) {
          // ioredis emits "ready" before it subscribes again: subscribing here too (twice is harmless) tells when it is done.
          Promise.all(this.#channels.names.map((name) => subscriber.subscribe(name))).then(
            () => this.#reconnections.tell(),
            // Lost again at once: the next "ready" tries again.
            () => {},
          );
        }
        connectedOnce = true;
      });
    }
    this.#channels.set(channel, onMessage);
    await this.#subscriber.subscribe(channel);
  }

  async unsubscribe(channel: string): Promise<void> {
    this.#channels.delete(channel);
    if (this.#subscriber !== undefined) await this.#subscriber.unsubscribe(channel);
  }

  async close(): Promise<void> {
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    subscriber?.disconnect();
  }

  onReconnect(listener: () => void): () => void {
    return this.#reconnections.add(listener);
  }
}

/** A Lua script run by its SHA-1 (`EVALSHA`), sent whole (`EVAL`) when the server does not know it yet. */
export class RedisScript {
  readonly #source: string;
  #sha: string | undefined;

  constructor(source: string) {
    this.#source = source;
  }

  async run(redis: RedisCommands, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    const rest = [String(keys.length), ...keys, ...args];
    // Loaded when first used, as the Node entry loads its built-ins: importing the entry costs nothing.
    this.#sha ??= process.getBuiltinModule("node:crypto").createHash("sha1").update(this.#source).digest("hex");
    try {
      return await redis.command(["EVALSHA", this.#sha, ...rest]);
    } catch (error) {
      // A restarted or flushed server forgets its scripts: EVAL loads it again.
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return redis.command(["EVAL", this.#source, ...rest]);
    }
  }
}

/**
 * A hash tag, `{<kind>:<name>}`, with `%`, `{`, `}` and lone surrogates of the name escaped as `%`
 * and four hex digits: every key of one owner (or session) is in one slot of a Redis Cluster, two
 * names never share a tag, and no name (the empty one included) can end the tag early.
 */
export function tagOf(kind: string, name: string): string {
  return `{${kind}:${escapedName(name)}}`;
}

/** A name as a hash tag holds it: `%`, `{`, `}` and lone surrogates as `%` and four hex digits. */
export function escapedName(name: string): string {
  return name.replace(
    /[%{}]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    (char) => `%${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** A key prefix: text without braces (the stores place the hash tags). */
export function checkPrefix(prefix: unknown, store: string): string {
  if (typeof prefix !== "string" || /[{}]/.test(prefix)) throw invalidOption(`${store}: prefix must be a string without { or }`);
  return prefix;
}

export function invalidOption(message: string): MCPError {
  return new MCPError(MCP_CODES.INVALID_PARAMS, message);
}

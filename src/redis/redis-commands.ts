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
}

/** A node-redis client (v4 and later), connected: what the adapter calls of it. */
export interface NodeRedisClient {
  sendCommand(args: string[]): Promise<unknown>;
  duplicate(): NodeRedisSubscriber;
}

export interface NodeRedisSubscriber {
  connect(): Promise<unknown>;
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
  disconnect(): unknown;
}

/** What the Redis stores take as their connection. */
export type RedisClient = NodeRedisClient | IoRedisClient | RedisCommands;

/** The commands of the user's client: node-redis (`sendCommand`), ioredis (`call`), or an adapter already. */
export function redisCommands(client: RedisClient): RedisCommands {
  if (typeof client !== "object" || client === null) throw invalidClient();
  // ioredis has a sendCommand of its own (taking its Command objects): `call` tells it apart.
  if ("call" in client && typeof client.call === "function") return new IoRedisCommands(client);
  if ("sendCommand" in client && typeof client.sendCommand === "function") return new NodeRedisCommands(client);
  if ("command" in client && typeof client.command === "function") return client;
  throw invalidClient();
}

function invalidClient(): MCPError {
  return invalidOption("A Redis store needs a node-redis client, an ioredis client, or a RedisCommands adapter");
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
}

class NodeRedisCommands implements RedisCommands {
  readonly #client: NodeRedisClient;
  #subscriber: Promise<NodeRedisSubscriber> | undefined;

  constructor(client: NodeRedisClient) {
    this.#client = client;
  }

  command(args: readonly string[]): Promise<unknown> {
    return this.#client.sendCommand([...args]);
  }

  async subscribe(channel: string, onMessage: (message: string) => void): Promise<void> {
    // One duplicate for the adapter's life, connected once, whoever subscribes first.
    this.#subscriber ??= connected(this.#client.duplicate());
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
}

async function connected(subscriber: NodeRedisSubscriber): Promise<NodeRedisSubscriber> {
  await subscriber.connect();
  return subscriber;
}

class IoRedisCommands implements RedisCommands {
  readonly #client: IoRedisClient;
  readonly #channels = new Channels();
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
      this.#subscriber = this.#client.duplicate();
      this.#subscriber.on("message", (heard, message) => this.#channels.deliver(heard, message));
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
  const escaped = name.replace(/[%{}]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, (char) => `%${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `{${kind}:${escaped}}`;
}

/** A key prefix: text without braces (the stores place the hash tags). */
export function checkPrefix(prefix: unknown, store: string): string {
  if (typeof prefix !== "string" || /[{}]/.test(prefix)) throw invalidOption(`${store}: prefix must be a string without { or }`);
  return prefix;
}

export function invalidOption(message: string): MCPError {
  return new MCPError(MCP_CODES.INVALID_PARAMS, message);
}

import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPError } from "../error-codes/mcp-error.js";
import { randomHex } from "../protocol/bytes-text.js";

export interface RequestStateKey {
  readonly id: string;
  readonly secret: Uint8Array;
}

/**
 * The keys requestState is sealed with: one current key, and older ones still accepted (rotation). Several processes share them by
 * configuring the same keys.
 */
export interface RequestStateKeys {
  current(): RequestStateKey | Promise<RequestStateKey>;
  byId(id: string): RequestStateKey | undefined | Promise<RequestStateKey | undefined>;
}

/** What a key id may be: it is written in clear into every state sealed with the key. */
export const REQUEST_STATE_KEY_ID = /^[A-Za-z0-9._-]{1,32}$/;
/** The shortest secret accepted: HMAC-SHA256's own output size. */
export const MIN_REQUEST_STATE_SECRET_BYTES = 32;

/**
 * Keys given by the deployment: the first seals, all open. Secrets as Uint8Array or strings (UTF-8) of at least 32 bytes; ids unique,
 * non-empty, [A-Za-z0-9._-]{1,32}. Throws MCPError(MCP_CODES.INVALID_PARAMS, clear message) on bad config.
 */
export function staticRequestStateKeys(keys: readonly { id: string; secret: Uint8Array | string }[]): RequestStateKeys {
  if (!Array.isArray(keys) || keys.length === 0) throw invalidConfig("staticRequestStateKeys needs at least one key");
  const byId = new Map<string, RequestStateKey>();
  const positionOf = new Map<string, number>();
  keys.forEach((given: unknown, position) => {
    const key = checkedKey(given, position);
    const earlier = positionOf.get(key.id);
    if (earlier !== undefined) throw invalidConfig(`request-state keys #${earlier} and #${position} have the same id; ids must be unique`);
    byId.set(key.id, key);
    positionOf.set(key.id, position);
  });
  const current = [...byId.values()][0] as RequestStateKey;
  return { current: () => current, byId: (id) => byId.get(id) };
}

/**
 * A process of its own: one random 32-byte key made on first use (crypto.getRandomValues); `rotate()` makes a new current key and keeps the
 * previous `keep` (default 1) for opening.
 */
export class InMemoryRequestStateKeys implements RequestStateKeys {
  readonly #keep: number;
  /** Newest first: the current key, then at most `keep` previous ones. */
  #keys: readonly RequestStateKey[] = [];

  constructor(options: { keep?: number } = {}) {
    const keep = options.keep ?? 1;
    if (!Number.isSafeInteger(keep) || keep < 0)
      throw invalidConfig("InMemoryRequestStateKeys: keep must be a whole number of keys, 0 or more");
    this.#keep = keep;
  }

  current(): RequestStateKey {
    if (this.#keys.length === 0) this.rotate();
    return this.#keys[0] as RequestStateKey;
  }

  byId(id: string): RequestStateKey | undefined {
    return this.#keys.find((key) => key.id === id);
  }

  rotate(): void {
    const key: RequestStateKey = Object.freeze({
      id: randomHex(12),
      secret: crypto.getRandomValues(new Uint8Array(MIN_REQUEST_STATE_SECRET_BYTES)),
    });
    this.#keys = [key, ...this.#keys].slice(0, this.#keep + 1);
  }
}

function checkedKey(given: unknown, position: number): RequestStateKey {
  const { id, secret } = (typeof given === "object" && given !== null ? given : {}) as { id?: unknown; secret?: unknown };
  // Keys are named by position only: a misplaced secret in the id field must not reach a message.
  if (typeof id !== "string" || !REQUEST_STATE_KEY_ID.test(id))
    throw invalidConfig(`request-state key #${position}: id must be 1 to 32 characters of A-Z a-z 0-9 . _ -`);
  const bytes =
    typeof secret === "string" ? new TextEncoder().encode(secret) : secret instanceof Uint8Array ? Uint8Array.from(secret) : undefined;
  if (bytes === undefined) throw invalidConfig(`request-state key #${position}: secret must be a Uint8Array or a string`);
  if (bytes.length < MIN_REQUEST_STATE_SECRET_BYTES)
    throw invalidConfig(`request-state key #${position}: secret must have at least ${MIN_REQUEST_STATE_SECRET_BYTES} bytes`);
  return Object.freeze({ id, secret: bytes });
}

function invalidConfig(message: string): MCPError {
  return new MCPError(MCP_CODES.INVALID_PARAMS, message);
}

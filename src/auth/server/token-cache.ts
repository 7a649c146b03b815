import { encodeBase64 } from "../../protocol/bytes-text.js";

const encoder = /* @__PURE__ */ new TextEncoder();

/** The key a token is remembered by: its SHA-256, base64url. The token itself is never kept. */
export async function tokenKey(token: string): Promise<string> {
  return encodeBase64(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(token))), true);
}

interface Remembered<T> {
  readonly value: T;
  /** When it stops being used, in milliseconds since the epoch. */
  readonly until: number;
}

/**
 * What verifying a token found, remembered by the token's hash: at most `size` entries (the least
 * recently used one goes first), each until its own deadline. Lookups of a token being verified share
 * that verification, so a burst of requests with one new token asks once.
 */
export class TokenCache<T> {
  readonly #entries = new Map<string, Remembered<T>>();
  readonly #pending = new Map<string, Promise<{ readonly value: T; readonly until: number | undefined }>>();

  constructor(
    private readonly size: number,
    private readonly now: () => number,
    /** How a token becomes its key (tests give one that answers at once). */
    private readonly keyOf: (token: string) => Promise<string> = tokenKey,
  ) {}

  /**
   * The value remembered for `token`, else what `verify` finds; a result with a deadline (`until`)
   * later than now is remembered until then. A failure is never remembered.
   */
  async get(token: string, verify: () => Promise<{ readonly value: T; readonly until: number | undefined }>): Promise<T> {
    const key = await this.keyOf(token);
    const remembered = this.#entries.get(key);
    if (remembered !== undefined) {
      this.#entries.delete(key);
      if (remembered.until > this.now()) {
        this.#entries.set(key, remembered);
        return remembered.value;
      }
    }
    let pending = this.#pending.get(key);
    if (pending === undefined) {
      pending = verify().finally(() => this.#pending.delete(key));
      this.#pending.set(key, pending);
      this.#remember(key, await pending);
    }
    return (await pending).value;
  }

  #remember(key: string, found: { readonly value: T; readonly until: number | undefined }): void {
    if (found.until === undefined || found.until <= this.now()) return;
    this.#entries.set(key, { value: found.value, until: found.until });
    // A Map keeps insertion order, and a hit moves its entry to the end: the first one is the least
    // recently used. With a size of 0 that is the entry just added: nothing is remembered.
    if (this.#entries.size > this.size) this.#entries.delete(this.#entries.keys().next().value as string);
  }
}

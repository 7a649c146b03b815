import { METHODS } from "../../constants/index.js";
import type { ListKind } from "../../stores/change-feed.js";
import type { JsonObject } from "../../types/types.js";
import type { CallOptions } from "../mcp-client/mcp-client.types.js";

/** What a client hears of a server's changes, one API in both eras. */
export interface ChangeSubscriptions {
  /** Asks to be told when `list` changes (the session era is told anyway). */
  watch(list: ListKind): void;
  subscribe(uri: string, options: CallOptions | undefined): Promise<void>;
  unsubscribe(uri: string, options: CallOptions | undefined): Promise<void>;
  /** Whether a change notification belongs to what this client listens to. */
  accepts(method: string, params: unknown): boolean;
  close(): void;
}

/**
 * The session era's change notifications: the server sends list changes to every session that can
 * hear them, and resource updates after `resources/subscribe`.
 */
export class SessionChanges implements ChangeSubscriptions {
  readonly #request: (method: string, params: JsonObject, options: CallOptions | undefined) => Promise<unknown>;

  constructor(request: (method: string, params: JsonObject, options: CallOptions | undefined) => Promise<unknown>) {
    this.#request = request;
  }

  watch(): void {}

  async subscribe(uri: string, options: CallOptions | undefined): Promise<void> {
    await this.#request(METHODS.resourcesSubscribe, { uri }, options);
  }

  async unsubscribe(uri: string, options: CallOptions | undefined): Promise<void> {
    await this.#request(METHODS.resourcesUnsubscribe, { uri }, options);
  }

  accepts(): boolean {
    return true;
  }

  close(): void {}
}

import type { JsonRpcId } from "../../types/types.js";
import { answeredIdsOf, negotiatedVersionIn, type Outgoing } from "./messages.js";

/** One POSTed message (what `outgoingOf` read of it) and the answers it still waits for. */
export class PostExchange {
  /** The ids of the requests in the message (none for a notification or a response). */
  readonly ids: readonly JsonRpcId[];
  readonly #awaiting: Set<JsonRpcId>;
  readonly #initializeId: JsonRpcId | undefined;

  /** Whether the message is `notifications/initialized`. */
  readonly initialized: boolean;

  constructor(outgoing: Outgoing) {
    this.ids = outgoing.requestIds;
    this.initialized = outgoing.initialized;
    this.#awaiting = new Set(this.ids);
    this.#initializeId = outgoing.initializeId;
  }

  /** What was sent, for messages: "request 3", "requests 3, 4". */
  get name(): string {
    return describe(this.ids);
  }

  /** Crosses off the requests `value` answers; returns the protocol version when it answers `initialize`. */
  noteAnswers(value: unknown): string | undefined {
    for (const id of answeredIdsOf(value)) this.#awaiting.delete(id);
    // Stryker disable next-line ConditionalExpression: negotiatedVersionIn matches only responses, whose id is never undefined; the check
    // just skips the scan
    return this.#initializeId === undefined ? undefined : negotiatedVersionIn(value, this.#initializeId);
  }

  /** The requests not answered yet ("request 3"), or undefined when all were. */
  missing(): string | undefined {
    return this.#awaiting.size === 0 ? undefined : describe([...this.#awaiting]);
  }
}

function describe(ids: readonly JsonRpcId[]): string {
  return `request${ids.length === 1 ? "" : "s"} ${ids.map((id) => JSON.stringify(id)).join(", ")}`;
}

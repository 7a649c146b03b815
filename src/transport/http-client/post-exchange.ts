import type { JsonRpcId } from "../../types/types.js";
import { answeredIdsOf, initializeRequestId, negotiatedVersionIn } from "./messages.js";

/** One POSTed message and the answers it still waits for. */
export class PostExchange {
  readonly message: unknown;
  /** The ids of the requests in the message (none for a notification or a response). */
  readonly ids: readonly JsonRpcId[];
  readonly #awaiting: Set<JsonRpcId>;
  readonly #initializeId: JsonRpcId | undefined;

  constructor(message: unknown, ids: readonly JsonRpcId[]) {
    this.message = message;
    this.ids = ids;
    this.#awaiting = new Set(ids);
    this.#initializeId = initializeRequestId(message);
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

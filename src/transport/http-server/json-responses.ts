import type { JsonRpcId } from "../../types/types.js";
import type { RequestRoute } from "./routes.js";

/** How a JSON-answered POST ended: its body, nothing to answer (every request cancelled), or abandoned (the session closed). */
export type JsonOutcome =
  { readonly kind: "answered"; readonly body: string } | { readonly kind: "nothing" } | { readonly kind: "abandoned" };

/**
 * The route of a POST answered as JSON (`enableJsonResponse`): responses are collected until each
 * request has one, then become one body — an object, or an array in request order for a batch.
 * Messages sent before the response cannot ride on a JSON body; they go to `forwardTo` (the
 * session's GET stream).
 */
export class JsonResponses implements RequestRoute {
  readonly done: Promise<JsonOutcome>;
  #ids: readonly JsonRpcId[];
  readonly #bodies = new Map<JsonRpcId, string>();
  #settle!: (outcome: JsonOutcome) => void;

  readonly #batch: boolean;
  readonly #forwardTo: (data: string, isRequest: boolean) => Promise<void>;

  constructor(ids: readonly JsonRpcId[], batch: boolean, forwardTo: (data: string, isRequest: boolean) => Promise<void>) {
    this.#batch = batch;
    this.#forwardTo = forwardTo;
    this.#ids = ids;
    this.done = new Promise((resolve) => (this.#settle = resolve));
  }

  forward(data: string, isRequest: boolean): Promise<void> {
    return this.#forwardTo(data, isRequest);
  }

  respond(id: JsonRpcId, data: string): Promise<void> {
    this.#bodies.set(id, data);
    this.#settleIfAnswered();
    return Promise.resolve();
  }

  retire(id: JsonRpcId): void {
    this.#ids = this.#ids.filter((pending) => pending !== id);
    this.#settleIfAnswered();
  }

  close(): void {
    this.#settle({ kind: "abandoned" });
  }

  #settleIfAnswered(): void {
    if (!this.#ids.every((id) => this.#bodies.has(id))) return;
    const bodies = this.#ids.map((id) => this.#bodies.get(id) as string);
    if (bodies.length === 0) this.#settle({ kind: "nothing" });
    else this.#settle({ kind: "answered", body: this.#batch ? `[${bodies.join(",")}]` : (bodies[0] as string) });
  }
}

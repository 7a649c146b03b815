import { describeThrown } from "../../../error-codes/mcp-error.js";
import type { EventStreamBody, HttpExchange, HttpReply } from "../http-server.types.js";
import { errorReply } from "../responses.js";
import { relayedExchange, type RelayedExchange } from "./relayed-exchange.js";
import type { RelayMessage } from "./relay-wire.js";

/** What a request relayed here needs: answering the instance it came from, and forgetting it once over. */
export interface IncomingPort {
  send(to: string, message: RelayMessage): Promise<void>;
  serve(exchange: HttpExchange): Promise<HttpReply>;
  done(incoming: Incoming): void;
}

/**
 * One request another instance relayed here: served as if its client had sent it here, its reply
 * sent back as a head and, for an event stream, numbered pieces of text. The request ends when the
 * stream does, when the relaying instance says its client left, or when that instance's lease ends.
 */
export class Incoming {
  readonly #exchange: RelayedExchange;
  #next = 0;
  #cancel: (() => void) | undefined;
  #over = false;

  constructor(
    private readonly message: Extract<RelayMessage, { t: "req" }>,
    private readonly port: IncomingPort,
  ) {
    this.#exchange = relayedExchange(message);
  }

  async serve(): Promise<void> {
    this.#send({ t: "ack", r: this.message.r });
    let reply: HttpReply;
    try {
      reply = await this.port.serve(this.#exchange);
    } catch (error) {
      reply = errorReply(500, `Internal error: ${describeThrown(error)}`);
    }
    const { status, headers, body } = reply;
    const r = this.message.r;
    if (typeof body === "object") {
      this.#send({ t: "head", r, status, headers, stream: true });
      this.#relay(body);
    } else {
      this.#send(
        body === undefined ? { t: "head", r, status, headers, stream: false } : { t: "head", r, status, headers, stream: false, body },
      );
      this.#end();
    }
  }

  /** The relaying instance's client left, or that instance is gone. */
  leave(): void {
    if (this.#over) return;
    this.#exchange.leave();
    this.#cancel?.();
    this.#end();
  }

  #relay(body: EventStreamBody): void {
    const r = this.message.r;
    this.#cancel = body.open({
      write: (text) => {
        this.#send({ t: "data", r, n: this.#next++, text });
        return 0;
      },
      end: () => this.#finish({ t: "end", r, n: this.#next++ }),
      abort: () => this.#finish({ t: "abort", r, n: this.#next++ }),
    });
    if (this.#over) this.#cancel();
  }

  #finish(message: RelayMessage): void {
    if (this.#over) return;
    this.#send(message);
    this.#end();
  }

  #end(): void {
    if (this.#over) return;
    this.#over = true;
    this.port.done(this);
  }

  #send(message: RelayMessage): void {
    // A piece the bus failed to carry leaves a gap the other side sees: the stream ends there, as if its client left.
    this.port.send(this.message.from, message).catch(() => this.leave());
  }
}

export function keyOf(from: string, r: string): string {
  return `${from}\n${r}`;
}

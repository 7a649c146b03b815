import type { EventSink, EventStreamBody, HttpReply } from "../http-server.types.js";
import { errorReply } from "../responses.js";
import type { RelayMessage } from "./relay-wire.js";

/** What one relayed request needs of the relay: sending to its target, and forgetting it once it is over. */
export interface OutgoingPort {
  /** This instance. */
  readonly self: string;
  send(message: RelayMessage): void;
  done(outgoing: Outgoing): void;
}

/**
 * One request this instance relayed to the instance serving its session: the reply comes back as a
 * head and, for an event stream, numbered pieces of text written to this instance's client as they
 * come. A piece missing or out of order ends the stream abruptly (the client resumes it with
 * `Last-Event-ID`), never with a gap.
 */
export class Outgoing implements EventStreamBody {
  readonly reply: Promise<HttpReply>;
  #settle!: (reply: HttpReply) => void;
  #phase: "sent" | "taken" | "streaming" | "over" = "sent";
  #sink: EventSink | undefined;
  /** What came before the client's connection was open: text, then how the stream ended. */
  readonly #early: string[] = [];
  #ending: "end" | "abort" | undefined;
  #next = 0;

  constructor(
    readonly id: string,
    private readonly port: OutgoingPort,
    /** The reply when the target stopped before answering: `taken` when it had taken the request (it may have run). */
    private readonly fallback: (taken: boolean) => Promise<HttpReply>,
  ) {
    this.reply = new Promise((resolve) => (this.#settle = resolve));
  }

  /** Whether the target has answered with a head (the request reached it and was served). */
  get answered(): boolean {
    return this.#phase === "streaming" || this.#phase === "over";
  }

  receive(message: RelayMessage): void {
    if (message.t === "ack") this.#phase = this.#phase === "sent" ? "taken" : this.#phase;
    else if (message.t === "head") this.#head(message);
    else if (message.t === "data" || message.t === "end" || message.t === "abort") this.#piece(message);
  }

  /** The target did not take the request in time. */
  notTaken(): void {
    if (this.#phase === "sent")
      this.#finish(errorReply(503, "Service Unavailable: the instance serving this session did not take the request; retry it"));
  }

  /** The target's lease ended: a reply not begun is answered here; a stream being relayed ends abruptly. */
  targetGone(): void {
    if (this.#phase === "streaming") this.#stop("abort");
    else if (this.#phase !== "over") {
      const taken = this.#phase === "taken";
      this.#phase = "over";
      this.port.done(this);
      void this.fallback(taken).then((reply) => this.#settle(reply));
    }
  }

  /** This instance's client left: the target is told, and nothing more is written. */
  clientGone(): void {
    if (this.#phase === "over") return;
    this.port.send({ t: "gone", r: this.id, from: this.port.self });
    this.#finish(errorReply(503, "Service Unavailable: the client left"));
  }

  open(sink: EventSink): () => void {
    this.#sink = sink;
    for (const text of this.#early.splice(0)) sink.write(text);
    if (this.#ending) this.#close(this.#ending);
    return () => this.clientGone();
  }

  #head(message: Extract<RelayMessage, { t: "head" }>): void {
    if (this.answered) return;
    const { status, headers, body } = message;
    if (!message.stream) {
      this.#finish({ status, headers, body });
      return;
    }
    this.#phase = "streaming";
    this.#settle({ status, headers, body: this });
  }

  #piece(message: Extract<RelayMessage, { t: "data" | "end" | "abort" }>): void {
    if (this.#phase !== "streaming") return;
    if (message.n !== this.#next++) return this.#stop("abort");
    if (message.t !== "data") return this.#stop(message.t);
    if (this.#sink) this.#sink.write(message.text);
    else this.#early.push(message.text);
  }

  #stop(ending: "end" | "abort"): void {
    this.#phase = "over";
    this.port.done(this);
    if (this.#sink) this.#close(ending);
    else this.#ending = ending;
  }

  #close(ending: "end" | "abort"): void {
    const sink = this.#sink as EventSink;
    if (ending === "end") sink.end();
    else sink.abort(new Error("The relayed stream broke; resume it with Last-Event-ID"));
  }

  #finish(reply: HttpReply): void {
    this.#phase = "over";
    this.port.done(this);
    this.#settle(reply);
  }
}

import { randomHex } from "../../../protocol/bytes-text.js";
import type { InstanceBus, StopListening } from "../../../stores/instance-bus.js";
import type { HttpExchange, HttpReply } from "../http-server.types.js";
import { Incoming, keyOf } from "./relay-in.js";
import { Outgoing } from "./relay-out.js";
import { parseRelayMessage, type RelayMessage } from "./relay-wire.js";
import type { InstanceWatch } from "./instance-watch.js";

export interface RelaySettings {
  readonly instance: string;
  readonly bus: InstanceBus;
  readonly watch: InstanceWatch;
  /**
   * How long an instance that is still alive has to take a relayed request before it is answered 503 here (longer than a lease: a dead
   * instance is found out first).
   */
  readonly ackTimeoutMs: number;
  /** Serves a request relayed to this instance. */
  readonly serve: (exchange: HttpExchange) => Promise<HttpReply>;
}

/**
 * The relay of one instance: requests it sends to the instances serving their sessions
 * (`Outgoing`), and requests other instances send it (`Incoming`), over the bus. Each side watches
 * the other's lease while a request is open, so neither waits on a process that died.
 */
export class Relay {
  readonly #outgoing = new Map<string, Outgoing>();
  readonly #incoming = new Map<string, Incoming>();
  #stop: StopListening | undefined;

  constructor(private readonly settings: RelaySettings) {}

  async start(): Promise<void> {
    this.#stop = await this.settings.bus.listen(this.settings.instance, (text) => this.#receive(text));
  }

  /**
   * Relays `exchange` (its body read: `body`) to `target`; `fallback` answers it if `target` stops before answering (`taken`: after it took
   * the request).
   */
  relay(
    target: string,
    exchange: HttpExchange,
    body: string | undefined,
    fallback: (taken: boolean) => Promise<HttpReply>,
  ): Promise<HttpReply> {
    const { instance, bus, watch, ackTimeoutMs } = this.settings;
    const r = randomHex(8);
    let stopListening: (() => void) | undefined;
    const outgoing: Outgoing = new Outgoing(
      r,
      {
        self: instance,
        send: (message) => void bus.send(target, JSON.stringify(message)).catch(() => undefined),
        done: () => {
          clearTimeout(timer);
          stopWatching();
          stopListening?.();
          this.#outgoing.delete(r);
        },
      },
      fallback,
    );
    this.#outgoing.set(r, outgoing);
    const stopWatching = watch.watch(target, () => outgoing.targetGone());
    const timer = setTimeout(() => outgoing.notTaken(), ackTimeoutMs);
    // Last (`done` needs `timer` and `stopWatching`): a client gone already is told at once, ending the request, which is then never sent.
    stopListening = exchange.onClientGone(() => outgoing.clientGone());
    if (!this.#outgoing.has(r)) return outgoing.reply;
    const message: RelayMessage = {
      t: "req",
      r,
      from: instance,
      method: exchange.method,
      url: exchange.url.href,
      headers: exchange.headers(),
      ...(body === undefined ? {} : { body }),
    };
    bus.send(target, JSON.stringify(message)).catch(() => outgoing.notTaken());
    return outgoing.reply;
  }

  /** Ends every relayed request, both ways: outgoing ones as if their target stopped, incoming ones as if their client left. */
  async close(): Promise<void> {
    for (const outgoing of this.#outgoing.values()) outgoing.targetGone();
    for (const incoming of this.#incoming.values()) incoming.leave();
    await this.#stop?.();
  }

  #receive(text: string): void {
    const message = parseRelayMessage(text);
    if (message === undefined) return;
    if (message.t === "req") this.#serve(message);
    else if (message.t === "gone") this.#incoming.get(keyOf(message.from, message.r))?.leave();
    else this.#outgoing.get(message.r)?.receive(message);
  }

  #serve(message: Extract<RelayMessage, { t: "req" }>): void {
    const key = keyOf(message.from, message.r);
    if (this.#incoming.has(key)) return;
    const { bus, watch, serve } = this.settings;
    const incoming = new Incoming(message, {
      send: (to, reply) => bus.send(to, JSON.stringify(reply)),
      serve,
      done: () => {
        stopWatching();
        this.#incoming.delete(key);
      },
    });
    this.#incoming.set(key, incoming);
    const stopWatching = watch.watch(message.from, () => incoming.leave());
    void incoming.serve();
  }
}

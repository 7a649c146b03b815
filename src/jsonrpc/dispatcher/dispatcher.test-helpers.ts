import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import type { SendOptions, Transport, TransportReceiver } from "../../transport/transport/transport.types.js";
import { JsonRpcDispatcher } from "./dispatcher.js";
import type { DispatcherOptions } from "./dispatcher.types.js";

/** A transport whose far end is the test itself: it records what is sent and injects what arrives. */
export class ScriptedPeer implements Transport {
  readonly sent: unknown[] = [];
  /** What each send was given, as given: the message object itself and the send options. */
  readonly given: Array<{ message: unknown; options: SendOptions | undefined }> = [];
  receiver: TransportReceiver | undefined;
  closed = false;
  failSends: Error | undefined;
  #waiters: Array<() => void> = [];

  async start(receiver: TransportReceiver): Promise<void> {
    this.receiver = receiver;
  }

  async send(message: unknown, options?: SendOptions): Promise<void> {
    if (this.closed) throw new MCPError(MCP_CODES.TRANSPORT_CLOSED, "closed");
    if (this.failSends) throw this.failSends;
    this.given.push({ message, options });
    this.sent.push(JSON.parse(JSON.stringify(message)));
    for (const wake of this.#waiters.splice(0)) wake();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.receiver?.onClose();
  }

  deliver(message: unknown): void {
    this.receiver?.onMessage(message);
  }

  /** Resolves once at least `count` messages have been sent in all. */
  async waitForSent(count: number): Promise<unknown[]> {
    while (this.sent.length < count) await new Promise<void>((resolve) => this.#waiters.push(resolve));
    return this.sent;
  }
}

/** Turns fire-and-forget work into something a test can wait on. */
export async function settle(turns = 10): Promise<void> {
  for (let i = 0; i < turns; i++) await Promise.resolve();
}

export async function scriptedDispatcher(
  options: Partial<DispatcherOptions> = {},
): Promise<{ dispatcher: JsonRpcDispatcher; peer: ScriptedPeer }> {
  const peer = new ScriptedPeer();
  const dispatcher = new JsonRpcDispatcher({ side: "server", telemetry: null, ...options });
  await dispatcher.connect(peer);
  return { dispatcher, peer };
}

/** A client and a server dispatcher joined by an in-memory pair. */
export async function connectedPair(clientOptions: Partial<DispatcherOptions> = {}, serverOptions: Partial<DispatcherOptions> = {}) {
  const [clientTransport, serverTransport] = InMemoryTransport.pair();
  const client = new JsonRpcDispatcher({ side: "client", telemetry: null, ...clientOptions });
  const server = new JsonRpcDispatcher({ side: "server", telemetry: null, ...serverOptions });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return { client, server, clientTransport, serverTransport };
}

/** The error a promise rejects with (fails the test if it resolves). */
export function rejection(promise: Promise<unknown>): Promise<MCPError> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error as MCPError,
  );
}

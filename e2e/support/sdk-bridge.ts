// Test support: joins our Transport interface to the official SDK's (1.x or 2.x), so our client can
// drive an SDK server and an SDK client can drive our server in one process. Messages cross as JSON
// text both ways, as on a real wire.
import type { Transport as Sdk2Transport } from "@modelcontextprotocol/client";
import { InMemoryTransport as SdkInMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { MCP_CODES, MCPError, type Transport, type TransportReceiver } from "../../src/index.js";

function overTheWire(message: unknown): unknown {
  return JSON.parse(JSON.stringify(message));
}

/** Our end of a connection whose other end is an SDK transport. */
export class SdkBridge implements Transport {
  #closed = false;

  constructor(private readonly sdkEnd: SdkTransport | Sdk2Transport) {}

  async start(receiver: TransportReceiver): Promise<void> {
    this.sdkEnd.onmessage = (message: unknown) => receiver.onMessage(overTheWire(message));
    this.sdkEnd.onclose = () => {
      this.#closed = true;
      receiver.onClose();
    };
    await this.sdkEnd.start();
  }

  async send(message: unknown): Promise<void> {
    if (this.#closed) throw new MCPError(MCP_CODES.TRANSPORT_CLOSED, "The SDK end is closed");
    // Both SDKs' send take their own JSONRPCMessage; what crosses is JSON either way.
    await this.sdkEnd.send(overTheWire(message) as never);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.sdkEnd.close();
  }
}

/** A connected pair: `ours` for an MCPServer/MCPClient/dispatcher, `sdk` for an SDK Server/Client. */
export function sdkPair(): { ours: SdkBridge; sdk: SdkTransport } {
  const [mine, theirs] = SdkInMemoryTransport.createLinkedPair();
  return { ours: new SdkBridge(mine), sdk: theirs };
}

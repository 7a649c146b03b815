// Test support: the SDK bridge over the SDK 2.x's in-memory linked pair. Apart from sdk-bridge.ts, so
// the unit tests that bridge to SDK 1.x do not load the 2.x client.
import { InMemoryTransport, type Transport } from "@modelcontextprotocol/client";
import { SdkBridge } from "./sdk-bridge.js";

/** A connected pair: `ours` for an MCPServer/MCPClient/dispatcher, `sdk` for an SDK 2.x Server/McpServer/Client. */
export function sdk2Pair(): { ours: SdkBridge; sdk: Transport } {
  const [mine, theirs] = InMemoryTransport.createLinkedPair();
  return { ours: new SdkBridge(mine), sdk: theirs };
}

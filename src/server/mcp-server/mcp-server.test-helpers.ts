import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import { sdkPair } from "../../../e2e/support/sdk-bridge.js";
import { JsonRpcDispatcher } from "../../jsonrpc/dispatcher/dispatcher.js";
import type { ProtocolVersion } from "../../constants/index.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import type { InboundContext, Transport } from "../../transport/transport/transport.types.js";
import type { MCPServer } from "./mcp-server.js";
import type { ServerSession } from "./session.js";

/** The official SDK's client connected to `server` in-process: the real peer our server must satisfy. */
export async function sdkClientOf(server: MCPServer, options: ClientOptions = {}): Promise<{ client: Client; session: ServerSession }> {
  const { ours, sdk } = sdkPair();
  const session = await server.start(ours);
  const client = new Client({ name: "sdk-client", version: "1.0.0" }, options);
  await client.connect(sdk);
  return { client, session };
}

/** A bare JSON-RPC client end (no MCP client logic), for what the SDK client will not send. */
export async function rawClientOf(server: MCPServer): Promise<{ client: JsonRpcDispatcher; session: ServerSession }> {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  const session = await server.start(serverEnd);
  const client = new JsonRpcDispatcher({ side: "client", telemetry: null });
  await client.connect(clientEnd);
  return { client, session };
}

/** A bare client that has completed the handshake on `version`. */
export async function initializedRawClientOf(server: MCPServer, version: ProtocolVersion, capabilities: Record<string, unknown> = {}) {
  const connected = await rawClientOf(server);
  await connected.client.request("initialize", { protocolVersion: version, capabilities, clientInfo: { name: "raw", version: "1" } });
  connected.client.setProtocolVersion(version);
  await connected.client.notify("notifications/initialized");
  return connected;
}

/**
 * A bare client that has completed the handshake through a tapped server end: `sent` holds each
 * message object the server hands its transport (as a transport that does not go through JSON
 * text would get it), and every message the server receives comes with `inbound`.
 */
export async function tappedClientOf(server: MCPServer, version: ProtocolVersion, inbound?: InboundContext) {
  const [clientEnd, inner] = InMemoryTransport.pair();
  const sent: unknown[] = [];
  const serverEnd: Transport = {
    start: (receiver) =>
      inner.start({
        onMessage: (message) => receiver.onMessage(message, inbound),
        onMalformed: (error) => receiver.onMalformed(error),
        onClose: (error) => receiver.onClose(error),
      }),
    send: (message) => {
      sent.push(message);
      return inner.send(message);
    },
    close: () => inner.close(),
  };
  const session = await server.start(serverEnd);
  const client = new JsonRpcDispatcher({ side: "client", telemetry: null });
  await client.connect(clientEnd);
  await client.request("initialize", { protocolVersion: version, capabilities: {}, clientInfo: { name: "tapped", version: "1" } });
  client.setProtocolVersion(version);
  return { client, session, sent };
}

export async function settle(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await Promise.resolve();
}

// Test support for MCPClient: connect one to an official SDK server, or to a hand-written dispatcher.
import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { sdkPair } from "../../../e2e/support/sdk-bridge.js";
import { isProtocolVersion, LATEST_PROTOCOL_VERSION, type ProtocolVersion } from "../../constants/index.js";
import { JsonRpcDispatcher } from "../../jsonrpc/dispatcher/dispatcher.js";
import type { RequestHandler } from "../../jsonrpc/dispatcher/dispatcher.types.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import { MCPClient } from "./mcp-client.js";
import type { ConnectOptions, MCPClientOptions } from "./mcp-client.types.js";

export const CLIENT_INFO = { name: "suave-client", version: "1.0.0" };

/** Anything with the SDK's `connect(transport)`: `McpServer` or the low-level `Server`. */
export interface SdkServerLike {
  connect(transport: SdkTransport): Promise<void>;
}

/** A client of ours, connected to `server` (an SDK server) over the in-process bridge. */
export async function connectToSdk(server: SdkServerLike, options: MCPClientOptions = {}, connect?: ConnectOptions): Promise<MCPClient> {
  const { ours, sdk } = sdkPair();
  await server.connect(sdk);
  const client = new MCPClient(CLIENT_INFO, { telemetry: null, ...options });
  await client.connect(ours, connect);
  return client;
}

export interface RawServer {
  readonly dispatcher: JsonRpcDispatcher;
  readonly clientEnd: InMemoryTransport;
  /** The params of every `initialize` received. */
  readonly initializeParams: unknown[];
}

/**
 * A hand-written server on a bare dispatcher, for what no SDK server does: answering an unknown
 * revision, never answering, breaking the protocol. `initialize` answers `version(asked)`.
 */
export async function rawServer(
  handlers: Readonly<Record<string, RequestHandler>> = {},
  version: (asked: string) => string = (asked) => asked,
): Promise<RawServer> {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  const dispatcher = new JsonRpcDispatcher({ side: "server", telemetry: null });
  const initializeParams: unknown[] = [];
  dispatcher.setRequestHandler("initialize", (params) => {
    initializeParams.push(params);
    const answered = version((params as { protocolVersion: string }).protocolVersion);
    const codecVersion: ProtocolVersion = isProtocolVersion(answered) ? answered : LATEST_PROTOCOL_VERSION;
    dispatcher.setProtocolVersion(codecVersion);
    return { protocolVersion: answered, capabilities: { tools: { listChanged: true } }, serverInfo: { name: "raw", version: "0.0.1" } };
  });
  for (const [method, handler] of Object.entries(handlers)) dispatcher.setRequestHandler(method, handler);
  await dispatcher.connect(serverEnd);
  return { dispatcher, clientEnd, initializeParams };
}

/** A client connected to a raw server. */
export async function connectToRaw(
  handlers: Readonly<Record<string, RequestHandler>> = {},
  options: MCPClientOptions = {},
  version?: (asked: string) => string,
): Promise<{ client: MCPClient; server: RawServer }> {
  const server = await rawServer(handlers, version);
  const client = new MCPClient(CLIENT_INFO, { telemetry: null, ...options });
  await client.connect(server.clientEnd);
  return { client, server };
}

/** Resolves after pending messages crossed the in-memory wire (a few macrotask turns). */
export async function settle(turns = 3): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** Resolves when `condition()` holds, polling each macrotask turn; fails after `turns`. */
export async function until(condition: () => boolean, turns = 200): Promise<void> {
  for (let turn = 0; turn < turns; turn++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  throw new Error("condition never held");
}

// Our MCPClient connected to our MCPServer in memory, in either era: what most tests of both sides
// drive. The server's end can say what the transport authenticated, on every message, as HTTP would.
import { MCPClient } from "../../client/mcp-client/mcp-client.js";
import type { MCPClientOptions } from "../../client/mcp-client/mcp-client.types.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import type { Transport } from "../../transport/transport/transport.types.js";
import type { MCPServer } from "./mcp-server.js";

export interface OurClientOptions extends MCPClientOptions {
  /** The client's name in its `clientInfo` (default "test-client"). */
  readonly name?: string;
  /** What the server's end says the transport authenticated (`inbound.authInfo` of each message); none by default. */
  readonly authInfo?: unknown;
}

/** Connects a new MCPClient (no telemetry) to `server` in `era`. */
export async function ourClientOf(
  server: MCPServer,
  era: "session" | "stateless",
  { name = "test-client", authInfo, ...options }: OurClientOptions = {},
): Promise<MCPClient> {
  const [clientEnd, inner] = InMemoryTransport.pair();
  await server.start(authInfo === undefined ? inner : authenticated(inner, { authInfo }));
  const client = new MCPClient({ name, version: "1.0.0" }, { era, telemetry: null, ...options });
  await client.connect(clientEnd);
  return client;
}

function authenticated(inner: Transport, inbound: { readonly authInfo: unknown }): Transport {
  return {
    start: (receiver) =>
      inner.start({
        onMessage: (message) => receiver.onMessage(message, inbound),
        onMalformed: (error) => receiver.onMalformed(error),
        onClose: (error) => receiver.onClose(error),
      }),
    send: (message) => inner.send(message),
    close: () => inner.close(),
  };
}

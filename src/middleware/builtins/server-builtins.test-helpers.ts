// A real MCPClient of a real MCPServer in memory, in either era, whose requests reach the server with
// the principal a transport's authentication would have established (or none).
import { MCPClient } from "../../client/mcp-client/mcp-client.js";
import type { MCPServer } from "../../server/mcp-server/mcp-server.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import type { Transport } from "../../transport/transport/transport.types.js";

export const ERAS = ["session", "stateless"] as const;
export type TestEra = (typeof ERAS)[number];

export async function clientAs(server: MCPServer, era: TestEra, authInfo?: unknown): Promise<MCPClient> {
  const [clientEnd, inner] = InMemoryTransport.pair();
  const inbound = authInfo === undefined ? undefined : { authInfo };
  const serverEnd: Transport = {
    start: (receiver) => inner.start({ onMessage: (message) => receiver.onMessage(message, inbound), onMalformed: (error) => receiver.onMalformed(error), onClose: (error) => receiver.onClose(error) }),
    send: (message) => inner.send(message),
    close: () => inner.close(),
  };
  await server.start(serverEnd);
  const client = new MCPClient({ name: "builtins-client", version: "1.0.0" }, { era, telemetry: null });
  await client.connect(clientEnd);
  return client;
}

export const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

export const textOf = (result: { readonly content: readonly unknown[] }): string => (result.content[0] as { text: string }).text;

/** A clock the test moves. */
export function testClock(): { now: () => number; advance: (ms: number) => void } {
  let at = 1_000;
  return { now: () => at, advance: (ms) => void (at += ms) };
}

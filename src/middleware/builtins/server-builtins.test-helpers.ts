// A real MCPClient of a real MCPServer in memory, in either era, whose requests reach the server with
// the principal a transport's authentication would have established (or none).
import type { MCPClient } from "../../client/mcp-client/mcp-client.js";
import type { MCPServer } from "../../server/mcp-server/mcp-server.js";
import { ourClientOf } from "../../server/mcp-server/our-client.test-helpers.js";

export const ERAS = ["session", "stateless"] as const;
export type TestEra = (typeof ERAS)[number];

/** `authInfo`: the principal each request reaches the server with (none when undefined). */
export const clientAs = (server: MCPServer, era: TestEra, authInfo?: unknown): Promise<MCPClient> =>
  ourClientOf(server, era, { name: "builtins-client", authInfo });

export const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

export const textOf = (result: { readonly content: readonly unknown[] }): string => (result.content[0] as { text: string }).text;

/** A clock the test moves. */
export function testClock(): { now: () => number; advance: (ms: number) => void } {
  let at = 1_000;
  return { now: () => at, advance: (ms) => void (at += ms) };
}

// proxy(upstream): an MCPServer that serves what an upstream MCP server offers, through an MCPClient
// connected to it, in whatever era each side speaks; it follows the upstream's list changes.
import type { MCPClient } from "../client/mcp-client/mcp-client.js";
import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPError, toMCPError } from "../error-codes/mcp-error.js";
import { EntrySync } from "../server/compose/entry-sync.js";
import { MCPServer } from "../server/mcp-server/mcp-server.js";
import { routerOf } from "./input-router.js";
import { proxiedEntries, type ProxyScope } from "./proxy-entries.js";
import type { ProxyHandle, ProxyOptions } from "./proxy.types.js";

const LIST_EVENTS = ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const;

/**
 * Registers the connected `upstream`'s tools, prompts, resource templates and resources on a server
 * (a new one, or `options.server`), each answered by the upstream client for the downstream request:
 * progress, cancellation and errors pass through, and the upstream's questions (sampling, elicitation,
 * roots) reach the downstream client when the upstream client was made with `proxyClient`. Log
 * messages go to the one proxied request in flight, else to every session of the server. Rejects
 * (`MCP.NOT_INITIALIZED`) an upstream that is not connected, and when the first listing fails.
 */
export async function proxy(upstream: MCPClient, options: ProxyOptions = {}): Promise<ProxyHandle> {
  const { serverInfo: info, serverCapabilities } = upstream;
  if (!upstream.connected || info === undefined || serverCapabilities === undefined)
    throw new MCPError(MCP_CODES.NOT_INITIALIZED, "proxy: connect the upstream client first");
  const owned = options.server === undefined;
  const server = options.server ?? new MCPServer(options.serverInfo ?? info, options.serverOptions ?? serverOptionsOf(upstream));
  const router = routerOf(upstream);
  const upstreamName = options.upstreamName ?? info.name;
  const separator = options.separator ?? "_";
  const prefix = options.prefix;
  const scope: ProxyScope = {
    server,
    upstream,
    router,
    upstreamName: () => upstreamName,
    named: (name) => (prefix === undefined ? name : `${prefix}${separator}${name}`),
  };
  const onError = options.onError ?? ((error: MCPError) => server.options.onProtocolError?.(error, undefined));
  const sync = new EntrySync(
    () => proxiedEntries(scope),
    (error) => onError(toMCPError(error, MCP_CODES.INTERNAL_ERROR)),
  );
  const stops = LIST_EVENTS.map((event) => upstream.on(event, () => sync.resync()));
  stops.push(upstream.on("log", ({ level, data, logger }) => void (router.single() ?? server).log(level, data, logger)));
  if (serverCapabilities.logging) await upstream.setLoggingLevel("debug");
  try {
    await sync.start();
  } catch (error) {
    for (const stop of stops) stop();
    throw error;
  }
  return {
    server,
    synced: () => sync.synced(),
    close: async () => {
      for (const stop of stops) stop();
      sync.stop();
      await upstream.close();
      if (owned) await server.close();
    },
  };
}

/** A new server's options: the upstream's instructions, when it gave some. */
function serverOptionsOf(upstream: MCPClient): { instructions?: string } {
  return upstream.instructions === undefined ? {} : { instructions: upstream.instructions };
}

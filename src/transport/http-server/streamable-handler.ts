import type { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { JsonRpcId } from "../../types/types.js";
import { exchangeOf, toResponse } from "./fetch-exchange.js";
import { FrontDoor } from "./front-door.js";
import type { StreamableHttpHandler, StreamableHttpOptions } from "./http-server.types.js";
import { statefulPost } from "./stateful-post.js";
import { statelessPost } from "./stateless-post.js";
import { StreamableEndpoint } from "./streamable-endpoint.js";
import { streamableDelete, streamableGet } from "./streamable-get.js";

/**
 * Serves `server` over Streamable HTTP (revisions 2025-03-26 and later) as a web-standard handler:
 * `fetch(request)` runs unchanged on Node (through `toNodeHandler`), Bun, Deno and edge runtimes.
 */
export function streamableHttpHandler(server: MCPServer, options: StreamableHttpOptions = {}): StreamableHttpHandler {
  const endpoint = new StreamableEndpoint(server, options);
  // A server of the stateless era only has no GET stream and no session to DELETE: those get 405.
  const methods = endpoint.stateless || !server.servesSessions
    ? { POST: statelessPost.bind(undefined, endpoint) }
    : { GET: streamableGet.bind(undefined, endpoint), POST: statefulPost.bind(undefined, endpoint), DELETE: streamableDelete.bind(undefined, endpoint) };
  const door = new FrontDoor(options, { paths: options.path === undefined ? undefined : [options.path], methods, closed: () => endpoint.closed });
  return {
    fetch: async (request) => toResponse(await door.handle(exchangeOf(request))),
    handle: (exchange) => door.handle(exchange),
    async close() {
      endpoint.closed = true;
      await endpoint.registry.closeAll();
    },
    // oxlint-disable-next-line suave/no-object-accessor -- made once per handler, not per message
    get sessionCount() {
      return endpoint.registry.size;
    },
    closeSSEStream(sessionId: string, requestId?: JsonRpcId): Promise<boolean> {
      const session = endpoint.registry.find(sessionId);
      return session ? session.transport.disconnectStream(requestId) : Promise.resolve(false);
    },
  };
}

import type { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { JsonRpcId } from "../../types/types.js";
import { exchangeOf, toResponse } from "./fetch-exchange.js";
import { FrontDoor } from "./front-door.js";
import type { HttpExchange, HttpReply, StreamableHttpHandler, StreamableHttpOptions } from "./http-server.types.js";
import type { InboundContext } from "../transport/transport.types.js";
import { readPostedMessages } from "./read-post.js";
import { isStatelessEraPost, statelessEraPost } from "./stateless-era-post.js";
import { statefulPost } from "./stateful-post.js";
import { statelessPost } from "./stateless-post.js";
import { StreamableEndpoint } from "./streamable-endpoint.js";
import { streamableDelete, streamableGet } from "./streamable-get.js";

/** Every POST, read and checked once: one of the stateless era is served on its own path, the rest as the endpoint's sessions are. */
async function streamablePost(
  endpoint: StreamableEndpoint,
  sessionPost: typeof statefulPost,
  exchange: HttpExchange,
  inbound: InboundContext,
): Promise<HttpReply> {
  const read = await readPostedMessages(exchange, endpoint.maxBodyBytes, true, inbound, endpoint);
  if (!read.ok) return read.reply;
  return (isStatelessEraPost(endpoint, exchange, read.posted) ? statelessEraPost : sessionPost)(endpoint, exchange, inbound, read.posted);
}

/**
 * Serves `server` over Streamable HTTP (revisions 2025-03-26 and later) as a web-standard handler:
 * `fetch(request)` runs unchanged on Node (through `toNodeHandler`), Bun, Deno and edge runtimes.
 */
export function streamableHttpHandler(server: MCPServer, options: StreamableHttpOptions = {}): StreamableHttpHandler {
  const endpoint = new StreamableEndpoint(server, options);
  // A server of the stateless era only has no GET stream and no session to DELETE: those get 405.
  const sessionless = endpoint.stateless || !server.servesSessions;
  const post = streamablePost.bind(undefined, endpoint, sessionless ? statelessPost : statefulPost);
  const methods = sessionless
    ? { POST: post }
    : { GET: streamableGet.bind(undefined, endpoint), POST: post, DELETE: streamableDelete.bind(undefined, endpoint) };
  const door = new FrontDoor(options, {
    paths: options.path === undefined ? undefined : [options.path],
    methods,
    closed: () => endpoint.closed,
  });
  // `authorization` answers its metadata before the door, and sees every reply.
  const serveHere = (exchange: HttpExchange): Promise<HttpReply> => options.authorization?.serve(exchange, door) ?? door.handle(exchange);
  endpoint.serveHere = serveHere;
  const cluster = endpoint.cluster;
  const handle = cluster ? (exchange: HttpExchange): Promise<HttpReply> => cluster.route(exchange) ?? serveHere(exchange) : serveHere;
  return {
    fetch: async (request) => toResponse(await handle(exchangeOf(request))),
    handle,
    async close() {
      endpoint.closed = true;
      await cluster?.close();
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

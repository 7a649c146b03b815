import type { InboundContext } from "../transport/transport.types.js";
import { answerPost } from "./answer-post.js";
import type { HttpExchange, HttpReply } from "./http-server.types.js";
import type { PostedMessages } from "./messages.js";
import { headerVersion } from "./protocol-version.js";
import { MCP_HEADERS, errorReply, invalidRequestReply } from "./responses.js";
import { newSessionId } from "./session-id.js";
import { rulesOf, type StreamableEndpoint } from "./streamable-endpoint.js";

/** A session-era POST in stateful mode: initialize opens a session; anything else needs one (`Mcp-Session-Id`). */
export async function statefulPost(
  endpoint: StreamableEndpoint,
  exchange: HttpExchange,
  inbound: InboundContext,
  posted: PostedMessages,
): Promise<HttpReply> {
  if (posted.initialize) return openSession(endpoint, exchange, inbound, posted);
  const found = await endpoint.findSession(exchange, inbound);
  if (!found.ok) return found.reply;
  const { session } = found;
  if (posted.batch && !rulesOf(session).batching)
    return invalidRequestReply("JSON-RPC batches are not allowed in this session's protocol revision");
  const reused = posted.requestIds.find((id) => session.transport.inProgress(id));
  if (reused !== undefined) return invalidRequestReply(`request id ${JSON.stringify(reused)} is already in progress in this session`);
  const headers = { [MCP_HEADERS.sessionId]: session.id };
  return answerPost(session.transport, posted, exchange, inbound, { json: endpoint.json, prime: endpoint.primes(session), headers });
}

async function openSession(
  endpoint: StreamableEndpoint,
  exchange: HttpExchange,
  inbound: InboundContext,
  posted: PostedMessages,
): Promise<HttpReply> {
  if (exchange.header(MCP_HEADERS.sessionId) !== null)
    return invalidRequestReply("initialize opens a new session: send it without Mcp-Session-Id");
  const version = headerVersion(exchange);
  if (!version.ok) return version.reply;
  const cluster = endpoint.cluster;
  const id = cluster?.newSessionId() ?? newSessionId();
  const session = await endpoint.registry.open(id, endpoint.newTransport(id, id), endpoint.ownerOf(inbound));
  if (!session) return errorReply(503, "Service Unavailable: too many sessions are open");
  if (cluster && !(await cluster.opened(session))) {
    await session.close();
    return errorReply(503, "Service Unavailable: the session could not be recorded in the session directory", {
      headers: { "retry-after": "1" },
    });
  }
  // A session whose initialize failed is of no use to anyone: it ends with its answer.
  const onEnd = () => {
    if (!session.server.client) void session.close();
  };
  return answerPost(session.transport, posted, exchange, inbound, {
    json: endpoint.json,
    prime: false,
    headers: { [MCP_HEADERS.sessionId]: id },
    onEnd,
  });
}

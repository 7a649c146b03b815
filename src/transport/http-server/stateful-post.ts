import type { InboundContext } from "../transport/transport.types.js";
import { answerPost } from "./answer-post.js";
import type { PostedMessages } from "./messages.js";
import { headerVersion } from "./protocol-version.js";
import { readPostedMessages } from "./read-post.js";
import { MCP_HEADERS, errorResponse, invalidRequestResponse } from "./responses.js";
import { newSessionId } from "./session-id.js";
import { rulesOf, type StreamableEndpoint } from "./streamable-endpoint.js";

/** POST in stateful mode: initialize opens a session; anything else needs one (`Mcp-Session-Id`). */
export async function statefulPost(endpoint: StreamableEndpoint, request: Request, inbound: InboundContext): Promise<Response> {
  const read = await readPostedMessages(request, endpoint.maxBodyBytes, true);
  if (!read.ok) return read.response;
  if (read.posted.initialize) return openSession(endpoint, request, inbound, read.posted);
  const found = endpoint.findSession(request, inbound);
  if (!found.ok) return found.response;
  const { session } = found;
  if (read.posted.batch && !rulesOf(session).batching) return invalidRequestResponse("JSON-RPC batches are not allowed in this session's protocol revision");
  const reused = read.posted.requestIds.find((id) => session.transport.inProgress(id));
  if (reused !== undefined) return invalidRequestResponse(`request id ${JSON.stringify(reused)} is already in progress in this session`);
  const headers = { [MCP_HEADERS.sessionId]: session.id };
  return answerPost(session.transport, read.posted, request, inbound, { json: endpoint.json, prime: endpoint.primes(session), headers });
}

async function openSession(endpoint: StreamableEndpoint, request: Request, inbound: InboundContext, posted: PostedMessages): Promise<Response> {
  if (request.headers.has(MCP_HEADERS.sessionId)) return invalidRequestResponse("initialize opens a new session: send it without Mcp-Session-Id");
  const version = headerVersion(request);
  if (!version.ok) return version.response;
  const id = newSessionId();
  const session = await endpoint.registry.open(id, endpoint.newTransport(id, id), endpoint.ownerOf(inbound));
  if (!session) return errorResponse(503, "Service Unavailable: too many sessions are open");
  // A session whose initialize failed is of no use to anyone: it ends with its answer.
  const onEnd = () => {
    if (!session.server.client) void session.close();
  };
  return answerPost(session.transport, posted, request, inbound, { json: endpoint.json, prime: false, headers: { [MCP_HEADERS.sessionId]: id }, onEnd });
}

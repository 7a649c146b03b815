import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { METHODS } from "../../constants/index.js";
import type { InboundContext } from "../transport/transport.types.js";
import { answerPost } from "./answer-post.js";
import type { PostedMessages } from "./messages.js";
import type { HttpExchange, HttpReply } from "./http-server.types.js";
import { PROFILES } from "../../protocol/profiles.js";
import { ASSUMED_PROTOCOL_VERSION, headerVersion } from "./protocol-version.js";
import { emptyReply, errorReply, invalidRequestReply } from "./responses.js";
import { newSessionId } from "./session-id.js";
import type { StreamableEndpoint, StreamableSession } from "./streamable-endpoint.js";

/** The id of the initialize a stateless session is opened with; it never reaches the wire. */
const STATELESS_INITIALIZE_ID = "stateless-initialize";

/**
 * A session-era POST in stateless mode: no session ids. Each POST with requests is served by a fresh
 * session of the server, initialized for the revision the request names (`MCP-Protocol-Version`,
 * else 2025-03-26), and closed once the POST is answered or its client leaves. Notifications and
 * responses alone have no session to reach and are acknowledged (202).
 */
export async function statelessPost(
  endpoint: StreamableEndpoint,
  exchange: HttpExchange,
  inbound: InboundContext,
  posted: PostedMessages,
): Promise<HttpReply> {
  const header = headerVersion(exchange);
  if (!header.ok) return header.reply;
  const version = header.version ?? ASSUMED_PROTOCOL_VERSION;
  if (posted.batch && !PROFILES[version].batching)
    return invalidRequestReply(`JSON-RPC batches are not allowed in protocol revision ${version}`);
  if (posted.requestIds.length === 0) return emptyReply(202);
  const key = newSessionId();
  const session = await endpoint.registry.open(key, endpoint.newTransport(key, undefined), undefined);
  if (!session) return errorReply(503, "Service Unavailable: too many requests are being served");
  const refused = posted.initialize ? undefined : await initialize(session, version, inbound);
  if (refused) {
    await session.close();
    return refused;
  }
  return answerPost(session.transport, posted, exchange, inbound, {
    json: endpoint.json,
    prime: false,
    headers: {},
    onEnd: () => void session.close(),
  });
}

/** Initializes a fresh session the way the client did on whichever session it first met; a refusal becomes the POST's answer. */
async function initialize(session: StreamableSession, version: string, inbound: InboundContext): Promise<HttpReply | undefined> {
  const collector = session.transport.collectResponses([STATELESS_INITIALIZE_ID], false);
  const params = { protocolVersion: version, capabilities: {}, clientInfo: { name: "stateless-http-client", version: "0" } };
  session.transport.deliver({ jsonrpc: "2.0", id: STATELESS_INITIALIZE_ID, method: METHODS.initialize, params }, inbound);
  const outcome = await collector.done;
  if (outcome.kind !== "answered") return errorReply(503, "Service Unavailable: the endpoint closed while the request was being served");
  const answer = JSON.parse(outcome.body) as { error?: { code: number; message: string } };
  if (!answer.error) return undefined;
  const status = answer.error.code === JSONRPC_ERROR_CODES.UNAUTHORIZED ? 403 : 500;
  return errorReply(status, answer.error.message, { code: answer.error.code });
}

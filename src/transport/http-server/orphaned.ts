import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import type { JsonRpcId } from "../../types/types.js";
import type { HttpReply } from "./http-server.types.js";
import { checkPostedMessages } from "./messages.js";
import { MCP_HEADERS, emptyReply } from "./responses.js";

const ORPHANED = "The server instance running this request stopped before answering it; it may or may not have taken effect";

/** The answer to a request whose instance stopped before answering it (its session was taken over, or the relay lost it). */
export function orphanedAnswer(id: JsonRpcId): string {
  return JSON.stringify({ jsonrpc: "2.0", id, error: { code: JSONRPC_ERROR_CODES.INTERNAL_ERROR, message: ORPHANED } });
}

/** A POST relayed to an instance that stopped before answering: its requests answered with that error (JSON), or 202 when it held none. */
export function orphanedReply(sessionId: string, body: string): HttpReply {
  const headers = { [MCP_HEADERS.sessionId]: sessionId };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const checked = checkPostedMessages(parsed);
  const ids = checked.ok ? checked.posted.requestIds : [];
  if (ids.length === 0) return emptyReply(202, headers);
  const answers = ids.map(orphanedAnswer);
  return {
    status: 200,
    headers: { ...headers, "content-type": "application/json" },
    body: checked.ok && checked.posted.batch ? `[${answers.join(",")}]` : answers[0],
  };
}

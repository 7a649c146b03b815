import type { InboundContext } from "../transport/transport.types.js";
import type { HttpExchange, HttpReply } from "./http-server.types.js";
import type { JsonOutcome } from "./json-responses.js";
import type { PostedMessages } from "./messages.js";
import { withFields } from "../../types/objects.js";
import { emptyReply, errorReply, sseHeaders } from "./responses.js";
import type { HttpSessionTransport } from "./session-transport.js";

export interface AnswerSettings {
  /** Answer with one JSON body rather than an SSE stream. */
  readonly json: boolean;
  /** Start the SSE stream with a priming event. */
  readonly prime: boolean;
  /** Headers of the answer (the session id). */
  readonly headers: Record<string, string>;
  /** The POST is over: its requests answered, or its client gone. */
  readonly onEnd?: () => void;
}

/**
 * Hands a POST's messages to its session and answers the POST: 202 when it holds no request, else
 * an SSE stream that ends after the last response, or (JSON mode) one body with every response.
 */
export async function answerPost(
  transport: HttpSessionTransport,
  posted: PostedMessages,
  exchange: HttpExchange,
  inbound: InboundContext,
  settings: AnswerSettings,
): Promise<HttpReply> {
  if (posted.requestIds.length === 0) {
    deliverAll(transport, posted, inbound);
    return emptyReply(202, settings.headers);
  }
  if (!settings.json) {
    const body = transport.openRequestStream(posted.requestIds, settings.prime, settings.onEnd);
    deliverAll(transport, posted, inbound);
    return { status: 200, headers: sseHeaders(settings.headers), body };
  }
  const collector = transport.collectResponses(posted.requestIds, posted.batch);
  const stopWatching = exchange.onClientGone(() => collector.close());
  deliverAll(transport, posted, inbound);
  const outcome = await collector.done;
  stopWatching();
  settings.onEnd?.();
  return jsonAnswer(outcome, settings.headers);
}

function deliverAll(transport: HttpSessionTransport, posted: PostedMessages, inbound: InboundContext): void {
  for (const message of posted.messages) transport.deliver(message, inbound);
}

function jsonAnswer(outcome: JsonOutcome, headers: Record<string, string>): HttpReply {
  if (outcome.kind === "answered")
    return { status: 200, headers: withFields(headers, { "content-type": "application/json" }), body: outcome.body };
  if (outcome.kind === "nothing") return emptyReply(202, headers);
  return errorReply(404, "Session not found: it ended before the requests were answered");
}

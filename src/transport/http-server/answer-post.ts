import type { InboundContext } from "../transport/transport.types.js";
import type { JsonOutcome } from "./json-responses.js";
import type { PostedMessages } from "./messages.js";
import { errorResponse, sseHeaders } from "./responses.js";
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
export async function answerPost(transport: HttpSessionTransport, posted: PostedMessages, request: Request, inbound: InboundContext, settings: AnswerSettings): Promise<Response> {
  const deliverAll = () => {
    for (const message of posted.messages) transport.deliver(message, inbound);
  };
  if (posted.requestIds.length === 0) {
    deliverAll();
    return new Response(null, { status: 202, headers: settings.headers });
  }
  if (!settings.json) {
    const body = transport.openRequestStream(posted.requestIds, settings.prime, settings.onEnd);
    deliverAll();
    return new Response(body, { status: 200, headers: sseHeaders(settings.headers) });
  }
  const collector = transport.collectResponses(posted.requestIds, posted.batch);
  const clientGone = () => collector.close();
  request.signal.addEventListener("abort", clientGone, { once: true });
  deliverAll();
  const outcome = await collector.done;
  request.signal.removeEventListener("abort", clientGone);
  settings.onEnd?.();
  return jsonAnswer(outcome, settings.headers);
}

function jsonAnswer(outcome: JsonOutcome, headers: Record<string, string>): Response {
  if (outcome.kind === "answered") return new Response(outcome.body, { status: 200, headers: { ...headers, "content-type": "application/json" } });
  if (outcome.kind === "nothing") return new Response(null, { status: 202, headers });
  return errorResponse(404, "Session not found: it ended before the requests were answered");
}

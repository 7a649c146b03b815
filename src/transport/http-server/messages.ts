import { METHODS, NOTIFICATIONS } from "../../constants/index.js";
import { classify, describeInvalid, idOfInvalid, type WireMessage } from "../../jsonrpc/dispatcher/classify.js";
import type { JsonRpcId } from "../../types/types.js";
import type { HttpReply } from "./http-server.types.js";
import { invalidRequestReply } from "./responses.js";

/** A POST body that passed the envelope checks: what the transport hands on, message by message. */
export interface PostedMessages {
  readonly messages: readonly WireMessage[];
  readonly batch: boolean;
  /** Ids of the requests among them, in order: the POST is answered once each has its response. */
  readonly requestIds: readonly JsonRpcId[];
  readonly initialize: boolean;
}

export type PostedMessagesCheck =
  { readonly ok: true; readonly posted: PostedMessages } | { readonly ok: false; readonly reply: HttpReply };

function refuse(detail: string, id: JsonRpcId | null = null): PostedMessagesCheck {
  return { ok: false, reply: invalidRequestReply(detail, id) };
}

/** Checks a parsed POST body: one JSON-RPC message or a non-empty batch of them, ids unique, initialize alone. */
export function checkPostedMessages(body: unknown): PostedMessagesCheck {
  const batch = Array.isArray(body);
  const messages: unknown[] = batch ? body : [body];
  if (messages.length === 0) return refuse("an empty batch is not a JSON-RPC message");
  const requestIds: JsonRpcId[] = [];
  let initialize = false;
  for (const message of messages) {
    const kind = classify(message);
    // A lone message's usable id is echoed, as the dispatcher does; a refused batch has no one id.
    if (kind === "invalid") return refuse(describeInvalid(message), batch ? null : idOfInvalid(message));
    if (kind !== "request") continue;
    const { id, method } = message as WireMessage;
    if (requestIds.includes(id as JsonRpcId)) return refuse(`request id ${JSON.stringify(id)} appears twice`);
    requestIds.push(id as JsonRpcId);
    initialize ||= method === METHODS.initialize;
  }
  if (initialize && messages.length > 1) return refuse("initialize must be sent alone, not in a batch");
  return { ok: true, posted: { messages: messages as WireMessage[], batch, requestIds, initialize } };
}

/** The id a client's `notifications/cancelled` names, when the message is one. */
export function cancelledRequestId(message: WireMessage): JsonRpcId | undefined {
  if (message.method !== NOTIFICATIONS.cancelled) return undefined;
  const requestId = message.params?.["requestId"];
  return typeof requestId === "string" || typeof requestId === "number" ? requestId : undefined;
}

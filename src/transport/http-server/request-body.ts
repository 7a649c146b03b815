import { describeThrown } from "../../error-codes/mcp-error.js";
import type { BodyText, HttpExchange, HttpReply } from "./http-server.types.js";
import { errorReply, parseErrorReply } from "./responses.js";

export type JsonBody = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reply: HttpReply };

function tooLarge(maxBytes: number): JsonBody {
  return { ok: false, reply: errorReply(413, `Payload Too Large: the body must not exceed ${maxBytes} bytes`) };
}

/** The answer to a body that could not be read: 413 past `maxBytes`, else 400 (-32700). */
export function unreadBodyReply(body: Extract<BodyText, { ok: false }>, maxBytes: number): HttpReply {
  return body.tooLarge ? (tooLarge(maxBytes) as { reply: HttpReply }).reply : parseErrorReply(body.detail);
}

/**
 * Reads and parses a JSON body, never holding more than `maxBytes`: a declared Content-Length over
 * the limit is refused unread, and reading stops as soon as the limit is passed (413). Bytes that are
 * not UTF-8 or text that is not JSON get 400 with -32700.
 */
export async function readJsonBody(exchange: HttpExchange, maxBytes: number): Promise<JsonBody> {
  if (Number(exchange.header("content-length")) > maxBytes) return tooLarge(maxBytes);
  const body = await exchange.text(maxBytes);
  if (!body.ok) return { ok: false, reply: unreadBodyReply(body, maxBytes) };
  try {
    return { ok: true, value: JSON.parse(body.text) };
  } catch (error) {
    return { ok: false, reply: parseErrorReply(describeThrown(error)) };
  }
}

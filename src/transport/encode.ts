import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPError, describeThrown } from "../error-codes/mcp-error.js";

/**
 * The one place an outgoing message becomes text, and the text a frame. Every transport stringifies
 * once, here, and wraps the result for its framing: a stdio line, an SSE event, a JSON body (the
 * text itself).
 *
 * Why no framing scans the text for line breaks: `JSON.stringify` escapes every control character
 * inside strings (`"\n"` becomes the two characters `\` `n`) and puts no whitespace between tokens,
 * so its output never holds a raw CR or LF. U+2028 and U+2029 may appear raw, and neither ends a
 * line for newline-delimited JSON nor for SSE (whose line ends are CR, LF and CRLF only).
 */

/** The JSON text of a message (or a batch) to send; `MCP.TRANSPORT_ERROR` when it has none. */
export function encodeMessage(message: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(message);
  } catch (error) {
    throw new MCPError(MCP_CODES.TRANSPORT_ERROR, `Cannot send: the message is not serialisable as JSON (${describeThrown(error)})`, {
      cause: error,
    });
  }
  if (text === undefined) throw new MCPError(MCP_CODES.TRANSPORT_ERROR, "Cannot send: the message has no JSON form");
  return text;
}

/** A newline-delimited frame (stdio) of JSON text from `encodeMessage`. */
export function lineFrame(text: string): string {
  return `${text}\n`;
}

/** One Server-Sent Event: fields as the SSE standard names them. */
export interface SseEvent {
  readonly event?: string | undefined;
  readonly id?: string | undefined;
  readonly retry?: number | undefined;
  /** One line: JSON text from `encodeMessage`, a URL, or "" (a priming event). Never a raw CR or LF. */
  readonly data?: string | undefined;
}

/** The wire form of an event. */
export function sseFrame(event: SseEvent): string {
  let text = "";
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.retry !== undefined) text += `retry: ${event.retry}\n`;
  if (event.data !== undefined) text += `data: ${event.data}\n`;
  return `${text}\n`;
}

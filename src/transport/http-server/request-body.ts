import { describeThrown } from "../../error-codes/mcp-error.js";
import { errorResponse, parseErrorResponse } from "./responses.js";

export type JsonBody = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly response: Response };

function tooLarge(maxBytes: number): JsonBody {
  return { ok: false, response: errorResponse(413, `Payload Too Large: the body must not exceed ${maxBytes} bytes`) };
}

/**
 * Reads and parses a JSON body, never holding more than `maxBytes`: a declared Content-Length over
 * the limit is refused unread, and reading stops as soon as the limit is passed (413). Bytes that are
 * not UTF-8 or text that is not JSON get 400 with -32700.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBody> {
  if (Number(request.headers.get("content-length")) > maxBytes) return tooLarge(maxBytes);
  const reader = request.body?.getReader();
  if (!reader) return { ok: false, response: parseErrorResponse("the body is empty") };
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let received = 0;
  let text = "";
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      const bytes = chunk.value as Uint8Array;
      received += bytes.byteLength;
      if (received > maxBytes) {
        await reader.cancel();
        return tooLarge(maxBytes);
      }
      text += decoder.decode(bytes, { stream: true });
    }
    text += decoder.decode();
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, response: parseErrorResponse(describeThrown(error)) };
  }
}

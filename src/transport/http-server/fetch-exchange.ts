import { describeThrown } from "../../error-codes/mcp-error.js";
import type { ChunkReader } from "../http-client/body.js";
import type { BodyText, EventStreamBody, HttpExchange, HttpReply } from "./http-server.types.js";

const encoder = /* @__PURE__ */ new TextEncoder();

/** A web `Request` as a handler's core reads it: the `fetch` side of the handlers. */
export function exchangeOf(request: Request): HttpExchange {
  return {
    method: request.method,
    url: new URL(request.url),
    header: (name) => request.headers.get(name),
    headers: () => {
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => (headers[name] = value));
      return headers;
    },
    text: (maxBytes) => readText(request.body, maxBytes),
    onClientGone: (listener) => {
      request.signal.addEventListener("abort", listener, { once: true });
      // Gone already (it left while the handler worked): an aborted signal fires no more events.
      if (request.signal.aborted) listener();
      return () => request.signal.removeEventListener("abort", listener);
    },
    request: () => request,
  };
}

/** A reply as a web `Response`; an event stream becomes a body stream the reply is written into. */
export function toResponse(reply: HttpReply): Response {
  const body = typeof reply.body === "object" ? eventStreamOf(reply.body) : (reply.body ?? null);
  return new Response(body, { status: reply.status, headers: reply.headers });
}

/**
 * An event stream as a web byte stream. It holds what its reader has not read yet and reports that
 * to the writer (in bytes), which ends a connection whose reader stopped; a cancelled read is the
 * client going away.
 */
export function eventStreamOf(body: EventStreamBody): ReadableStream<Uint8Array> {
  let clientGone!: () => void;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        clientGone = body.open({
          write(text) {
            controller.enqueue(encoder.encode(text));
            return -(controller.desiredSize as number);
          },
          end: () => controller.close(),
          abort: (reason) => controller.error(reason),
        });
      },
      cancel: () => clientGone(),
    },
    { highWaterMark: 0, size: (chunk) => chunk.byteLength },
  );
}

/** Reads a body stream as UTF-8 text, cancelling it once more than `maxBytes` came. */
async function readText(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<BodyText> {
  const reader: ChunkReader | undefined = body?.getReader();
  if (!reader) return { ok: false, tooLarge: false, detail: "the body is empty" };
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let received = 0;
  let text = "";
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      const bytes = chunk.value as Uint8Array;
      received += bytes.byteLength;
      if (received > maxBytes) {
        await reader.cancel();
        return { ok: false, tooLarge: true };
      }
      text += decoder.decode(bytes, { stream: true });
    }
    return { ok: true, text: text + decoder.decode() };
  } catch (error) {
    return { ok: false, tooLarge: false, detail: describeThrown(error) };
  }
}

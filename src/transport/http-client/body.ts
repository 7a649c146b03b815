// Reading response bodies within bounds.
import type { FetchResponse } from "./http-options.js";

/** A body read up to a limit: `complete` is false when it went on past `maxBytes` (the rest is dropped). */
export interface BoundedText {
  readonly text: string;
  readonly complete: boolean;
}

/** For promises whose failure means nothing more than "already gone" (cancelling a finished body). */
export function ignoreFailure(promise: Promise<unknown>): void {
  promise.catch(() => undefined);
}

/** A stream reader as both the web-standard and the Node typings describe it. */
export interface ChunkReader {
  read(): Promise<{ readonly done: boolean; readonly value?: Uint8Array | undefined }>;
  cancel(reason?: unknown): Promise<void>;
}

// Shared: it decodes whole texts only (no streaming state), so answers read side by side cannot mix.
const utf8 = /* @__PURE__ */ new TextDecoder();

/** Reads at most `maxBytes` of a body as UTF-8; a body that breaks off keeps what was read. */
export async function readText(response: FetchResponse, maxBytes: number): Promise<BoundedText> {
  const reader: ChunkReader | undefined = response.body?.getReader();
  if (!reader) return { text: "", complete: true };
  const chunks: Uint8Array[] = [];
  let received = 0;
  let complete = false;
  try {
    while (received <= maxBytes) {
      const { done, value } = await reader.read();
      if (done) {
        complete = true;
        break;
      }
      const chunk = value as Uint8Array;
      chunks.push(received + chunk.length > maxBytes ? chunk.subarray(0, maxBytes - received) : chunk);
      received += chunk.length;
    }
  } catch {
    // What arrived before the break is still worth reporting.
  }
  ignoreFailure(reader.cancel());
  return { text: utf8.decode(joinedBytes(chunks)), complete };
}

/** The chunks as one array of bytes (the one chunk itself when there is one). */
export function joinedBytes(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const whole = new Uint8Array(chunks.reduce((length, chunk) => length + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.length;
  }
  return whole;
}

/** The media type of a response, lower-cased, without parameters ("" when there is none). */
export function mediaTypeOf(response: FetchResponse): string {
  const header = response.headers.get("content-type") ?? "";
  return (header.split(";")[0] as string).trim().toLowerCase();
}

/** Drops a body that will not be read, so the connection is released. */
export function discardBody(response: FetchResponse): void {
  if (response.body) ignoreFailure(response.body.cancel());
}

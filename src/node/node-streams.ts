import type { Writable } from "node:stream";
import type { StdioWritable } from "../transport/stdio/stdio.js";

/**
 * A Node `Writable` as a stdio writable: a write resolves when Node hands the bytes on (so a slow
 * reader slows the sender), and stream errors (EPIPE when the peer is gone) fail the write instead
 * of crashing the process as an unhandled 'error' event would.
 */
export function writableOf(stream: Writable, { endOnClose = true }: { endOnClose?: boolean } = {}): StdioWritable {
  let failure: Error | undefined;
  stream.on("error", (error: Error) => {
    failure ??= error;
  });
  return {
    write: (chunk) =>
      new Promise<void>((resolve, reject) => {
        if (failure) return reject(failure);
        if (stream.writableEnded || stream.destroyed) return reject(new Error("The stream is closed"));
        stream.write(chunk, (error) => (error ? reject(error) : resolve()));
      }),
    close: () =>
      new Promise<void>((resolve) => {
        if (!endOnClose || stream.writableEnded || stream.destroyed) return resolve();
        stream.end(() => resolve());
      }),
  };
}

import type { Readable, Writable } from "node:stream";
import type { StdioChunkSource, StdioWritable } from "../transport/stdio/stdio.js";

/**
 * A Node `Writable` as a stdio writable. Text goes straight to `stream.write` (Node encodes it in
 * native code) and counts as taken at once until the stream's buffer is full; then the caller waits
 * for 'drain'. Stream errors (EPIPE when the peer is gone) fail the next write instead of crashing
 * the process as an unhandled 'error' event would.
 */
/** Frames at least this long (UTF-16 units) are not corked. */
const CORK_BELOW = 16 * 1024;

export function writableOf(stream: Writable, { endOnClose = true }: { endOnClose?: boolean } = {}): StdioWritable {
  let failure: Error | undefined;
  stream.on("error", (error: Error) => {
    failure ??= error;
  });
  const refusal = (): Error | undefined =>
    failure ?? (stream.writableEnded || stream.destroyed ? new Error("The stream is closed") : undefined);
  // Text written in one tick (a burst of answers) leaves in one system call, when the tick ends. A
  // large frame gains nothing from that and costs writev an extra pass over it: it goes at once
  // (behind anything already corked this tick, so the order holds).
  let corked = false;
  const uncork = (): void => {
    corked = false;
    stream.uncork();
  };
  return {
    write: (chunk) =>
      new Promise<void>((resolve, reject) => {
        const refused = refusal();
        if (refused) return reject(refused);
        stream.write(chunk, (error) => (error ? reject(error) : resolve()));
      }),
    writeText: (text) => {
      const refused = refusal();
      if (refused) return Promise.reject(refused);
      if (!corked && text.length < CORK_BELOW) {
        corked = true;
        stream.cork();
        process.nextTick(uncork);
      }
      return stream.write(text) ? undefined : drained(stream);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (!endOnClose || stream.writableEnded || stream.destroyed) return resolve();
        stream.end(() => resolve());
      }),
  };
}

/** Resolves on 'drain'; rejects when the stream fails or closes first. */
function drained(stream: Writable): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const settle = (error?: Error): void => {
      stream.off("drain", onDrain);
      stream.off("error", onError);
      stream.off("close", onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = (): void => settle();
    const onError = (error: Error): void => settle(error);
    const onClose = (): void => settle(new Error("The stream closed before its buffered data was written"));
    stream.on("drain", onDrain);
    stream.on("error", onError);
    stream.on("close", onClose);
  });
}

/**
 * A Node `Readable` as a push source: its 'data' events feed the transport directly. Stopping
 * destroys the stream, as leaving a `for await` does, so a process reading its own stdin can exit.
 */
export function sourceOf(stream: Readable): StdioChunkSource {
  return {
    subscribe: (sink) => {
      const onData = (chunk: Uint8Array | string): void => sink.chunk(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
      const onEnd = (): void => sink.end();
      const onError = (error: Error): void => sink.fail(error);
      // Destroyed without an error and before its end (someone else closed it): a failure, not a quiet end.
      const onClose = (): void => {
        if (!stream.readableEnded && !stream.errored) sink.fail(new Error("The stream closed before its end"));
      };
      stream.on("data", onData);
      stream.once("end", onEnd);
      stream.once("error", onError);
      stream.once("close", onClose);
      return () => {
        stream.off("data", onData);
        stream.off("end", onEnd);
        stream.off("error", onError);
        stream.off("close", onClose);
        stream.destroy();
      };
    },
  };
}

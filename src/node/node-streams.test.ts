import { PassThrough, Readable, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { sourceOf, writableOf } from "./node-streams.js";

/** A Writable that records each system-call-sized write: one entry per write or writev. */
function recordingStream(highWaterMark?: number): { stream: Writable; writes: string[] } {
  const writes: string[] = [];
  const stream = new Writable({
    ...(highWaterMark === undefined ? {} : { highWaterMark }),
    writev: (chunks, callback) => {
      writes.push(chunks.map(({ chunk }) => String(chunk)).join(""));
      callback();
    },
    write: (chunk, _encoding, callback) => {
      writes.push(String(chunk));
      callback();
    },
  });
  return { stream, writes };
}

describe("writableOf", () => {
  it("resolves each write once Node took the bytes, and ends the stream on close", async () => {
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    const writable = writableOf(stream);
    await writable.write(new TextEncoder().encode("one\n"));
    await writable.write(new TextEncoder().encode("two\n"));
    await writable.close();
    await writable.close();
    expect(Buffer.concat(chunks).toString()).toBe("one\ntwo\n");
    expect(stream.writableEnded).toBe(true);
    await expect(writable.write(new Uint8Array([1]))).rejects.toThrow("The stream is closed");
  });

  it("turns a stream error into a failed write instead of an unhandled 'error' event", async () => {
    const broken = new Writable({ write: (_chunk, _encoding, callback) => callback(new Error("EPIPE")) });
    const writable = writableOf(broken);
    await expect(writable.write(new Uint8Array([1]))).rejects.toThrow("EPIPE");
    await expect(writable.write(new Uint8Array([2]))).rejects.toThrow("EPIPE");
  });

  it("leaves the stream open on close when asked to", async () => {
    const stream = new PassThrough();
    const writable = writableOf(stream, { endOnClose: false });
    await writable.close();
    expect(stream.writableEnded).toBe(false);
  });
});

describe("writableOf: text", () => {
  it("takes text at once, and what one tick wrote leaves in one write", async () => {
    const { stream, writes } = recordingStream();
    const writable = writableOf(stream);
    expect(writable.writeText?.("one\n")).toBeUndefined();
    expect(writable.writeText?.("two\n")).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(writable.writeText?.("three\n")).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(["one\ntwo\n", "three\n"]);
  });

  it("writes a large frame at once, uncorked, yet behind what this tick corked before it", async () => {
    const { stream, writes } = recordingStream(1024 * 1024);
    const writable = writableOf(stream);
    const large = `${"x".repeat(16 * 1024)}\n`;
    expect(writable.writeText?.(large)).toBeUndefined();
    expect(writes).toEqual([large]);
    expect(writable.writeText?.("small\n")).toBeUndefined();
    expect(writable.writeText?.(large)).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([large, `small\n${large}`]);
  });

  it("hands out a promise when the buffer is full, settled by 'drain'", async () => {
    let release!: () => void;
    const stream = new Writable({ highWaterMark: 4, write: (_chunk, _encoding, callback) => (release = callback) });
    const writable = writableOf(stream);
    const waiting = writable.writeText?.("more than four bytes\n");
    expect(waiting).toBeInstanceOf(Promise);
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await expect(waiting).resolves.toBeUndefined();
    expect(stream.listenerCount("drain")).toBe(0);
  });

  it("fails the wait when the stream fails or closes first, and refuses text once it has", async () => {
    const failing = new Writable({ highWaterMark: 1, write: () => undefined });
    const writable = writableOf(failing);
    const waiting = writable.writeText?.("xx");
    failing.destroy(new Error("EPIPE"));
    await expect(waiting).rejects.toThrow("EPIPE");
    await expect(writable.writeText?.("again")).rejects.toThrow("EPIPE");
    const closing = new Writable({ highWaterMark: 1, write: () => undefined });
    const closed = writableOf(closing).writeText?.("xx");
    closing.destroy();
    await expect(closed).rejects.toThrow("The stream closed before its buffered data was written");
  });
});

describe("sourceOf", () => {
  it("pushes each chunk as bytes, then the end; stopping destroys the stream", async () => {
    const stream = new PassThrough();
    const seen: string[] = [];
    const stop = sourceOf(stream).subscribe({
      chunk: (bytes) => seen.push(`${bytes instanceof Uint8Array ? "bytes" : "?"}:${new TextDecoder().decode(bytes)}`),
      end: () => seen.push("end"),
      fail: (error) => seen.push(`fail:${String(error)}`),
    });
    stream.write("a");
    stream.setEncoding("utf8"); // a stream someone switched to text still gives bytes
    stream.write("b");
    stream.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(["bytes:a", "bytes:b", "end"]);
    stop();
    expect(stream.destroyed).toBe(true);
    expect(stream.listenerCount("data")).toBe(0);
  });

  it("reports a stream destroyed before its end as a failure", async () => {
    const stream = new PassThrough();
    const seen: string[] = [];
    sourceOf(stream).subscribe({ chunk: () => undefined, end: () => seen.push("end"), fail: (error) => seen.push(String(error)) });
    stream.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(["Error: The stream closed before its end"]);
  });

  it("passes on a read failure", async () => {
    const stream = new Readable({ read: () => undefined });
    const failures: unknown[] = [];
    sourceOf(stream).subscribe({ chunk: () => undefined, end: () => undefined, fail: (error) => failures.push(error) });
    stream.destroy(new Error("EIO"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(failures).toEqual([new Error("EIO")]); // once: the close that follows the error is not a second failure
  });
});

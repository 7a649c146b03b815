import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { writableOf } from "./node-streams.js";

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

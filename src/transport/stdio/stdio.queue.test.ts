import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { StdioTransport, type StdioWritable } from "./stdio.js";
import { ChunkSource, RecordingWritable, TextWritable, outcome, recorder } from "./stdio.test-helpers.js";

async function flush(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await Promise.resolve();
}

/** The size the transport counts for a message: its JSON and the newline, in UTF-16 units. */
const frameSize = (message: unknown): number => JSON.stringify(message).length + 1;

async function started(writable: StdioWritable, maxQueuedBytes?: number) {
  const transport = new StdioTransport(
    maxQueuedBytes === undefined ? { readable: new ChunkSource(), writable } : { readable: new ChunkSource(), writable, maxQueuedBytes },
  );
  const seen = recorder();
  await transport.start(seen.receiver);
  return { transport, ...seen };
}

/** A peer whose writes the test holds back (block) and lets through (unblock), like a reader taking its time. */
interface Peer {
  readonly writable: StdioWritable;
  block(): void;
  unblock(): void;
  text(): string;
}

const PEERS: Record<string, () => Peer> = {
  "a writable whose writes wait for the peer": () => {
    const sink = new RecordingWritable();
    return { writable: sink, block: () => sink.hold(), unblock: () => sink.release(), text: () => sink.text() };
  },
  "a text writable that fills up until the peer drains it": () => {
    const sink = new TextWritable();
    return { writable: sink, block: () => (sink.full = true), unblock: () => sink.drain(), text: () => sink.texts.join("") };
  },
};

/** A notification of about 1 KiB, the same size whatever its number (below 10 000). */
const notification = (seq: number) => ({
  jsonrpc: "2.0",
  method: "notifications/message",
  params: { seq: String(seq).padStart(4, "0"), data: "x".repeat(1000) },
});

describe("StdioTransport: the queue limit and a peer that reads", () => {
  const LIMIT = 4096;
  // Three frames fit under the limit, a fourth does not.
  const size = frameSize(notification(0));

  it.each(Object.entries(PEERS))(
    "keeps working indefinitely with %s: far more than the limit in total, in steps the peer reads",
    async (_name, makePeer) => {
      const peer = makePeer();
      const { transport, closes } = await started(peer.writable, LIMIT);
      expect(3 * size).toBeLessThanOrEqual(LIMIT);
      let seq = 0;
      for (let round = 0; round < 60; round++) {
        peer.block();
        // One frame goes to the writable at once, the ones sent while it waits are queued behind it.
        const sends = Array.from({ length: 1 + (round % 3) }, () => outcome(transport.send(notification(seq++))));
        peer.unblock();
        expect(await Promise.all(sends)).toEqual(sends.map(() => "written"));
      }
      expect(seq * size).toBeGreaterThan(25 * LIMIT);
      expect(closes).toEqual([]);
      expect(peer.text()).toBe(Array.from({ length: seq }, (_, n) => `${JSON.stringify(notification(n))}\n`).join(""));
      // Everything written was counted off: a stuck peer is refused exactly where a fresh transport would refuse it.
      peer.block();
      const waiting = [0, 1, 2].map(() => outcome(transport.send(notification(seq++))));
      const refused = await outcome(transport.send(notification(seq++)));
      expect(refused).toMatchObject({
        code: MCP_CODES.TRANSPORT_ERROR,
        message: `The peer is not reading: ${3 * size} bytes are waiting to be written (limit ${LIMIT})`,
      });
      peer.unblock();
      expect(await Promise.all(waiting)).toEqual(["written", refused, refused]);
    },
  );

  it("accepts a frame that brings the queue exactly to the limit, and refuses one byte more", async () => {
    const first = { n: 1 };
    const fits = { pad: "x".repeat(100) };
    const limit = frameSize(first) + frameSize(fits);
    const sink = new RecordingWritable();
    const { transport, closes } = await started(sink, limit);
    sink.hold();
    const sent = [outcome(transport.send(first)), outcome(transport.send(fits))];
    sink.release();
    expect(await Promise.all(sent)).toEqual(["written", "written"]);
    sink.hold();
    const under = outcome(transport.send(first));
    const refused = await outcome(transport.send({ pad: "x".repeat(101) }));
    expect(refused).toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: `The peer is not reading: ${frameSize(first)} bytes are waiting to be written (limit ${limit})`,
    });
    expect(closes).toEqual([refused]);
    sink.release();
    await expect(under).resolves.toBe("written");
    expect(sink.messages()).toEqual([first, fits, first]);
  });
});

describe("StdioTransport: a peer that never reads", () => {
  it("bounds what it queues: past the limit the send fails, the transport closes, and the queue is given up", async () => {
    const stuck = new RecordingWritable();
    stuck.hold();
    const { transport, closes } = await started(stuck, 4096);
    const message = { jsonrpc: "2.0", method: "notifications/message", params: { data: "x".repeat(1000) } };
    const first = outcome(transport.send(message));
    await flush();
    const queued = [1, 2].map(() => outcome(transport.send(message)));
    const refused = await outcome(transport.send(message));
    expect(refused).toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: "The peer is not reading: 3216 bytes are waiting to be written (limit 4096)",
    });
    expect(closes).toEqual([refused]);
    await expect(transport.send({ n: 1 })).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    // Frames queued behind the stuck write are given up; the one already being written completes if the peer wakes.
    expect(await Promise.all(queued)).toEqual([refused, refused]);
    stuck.release();
    await expect(first).resolves.toBe("written");
  });

  it("fails the write under way with the same error if it then fails: the peer was not reading", async () => {
    const stuck = new RecordingWritable();
    stuck.hold();
    const { transport, closes } = await started(stuck, 64);
    const first = outcome(transport.send({ n: 1 }));
    const refused = await outcome(transport.send({ pad: "x".repeat(100) }));
    expect(refused).toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: "The peer is not reading: 8 bytes are waiting to be written (limit 64)",
    });
    stuck.failWith = new Error("EPIPE");
    stuck.release();
    expect(await first).toBe(refused);
    expect(closes).toEqual([refused]);
  });
});

describe("StdioTransport: batching frames sent while a write is under way", () => {
  it("joins frames up to exactly 64 KiB in one write; the next frame starts another", async () => {
    const sink = new RecordingWritable();
    const { transport } = await started(sink);
    const a = { a: "x".repeat(30_000) };
    const b = { b: "y".repeat(64 * 1024 - frameSize(a) - frameSize({ b: "" })) };
    expect(frameSize(a) + frameSize(b)).toBe(64 * 1024);
    sink.hold();
    const sent = [{ n: 1 }, a, b, { n: 2 }].map((message) => outcome(transport.send(message)));
    sink.release();
    expect(await Promise.all(sent)).toEqual(["written", "written", "written", "written"]);
    expect(sink.messages()).toEqual([{ n: 1 }, a, b, { n: 2 }]);
    expect(sink.chunks.map((chunk) => chunk.length)).toEqual([frameSize({ n: 1 }), 64 * 1024, frameSize({ n: 2 })]);
  });
});

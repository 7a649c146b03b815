import { describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import type { MCPError } from "../../error-codes/mcp-error.js";
import { JsonRpcDispatcher } from "../../jsonrpc/dispatcher/dispatcher.js";
import { StdioTransport } from "./stdio.js";
import { ChunkSource, PushSource, RecordingWritable, TextWritable, outcome, recorder } from "./stdio.test-helpers.js";

async function flush(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await Promise.resolve();
}

async function started(maxFrameBytes?: number) {
  const source = new ChunkSource();
  const sink = new RecordingWritable();
  const transport = new StdioTransport(
    maxFrameBytes === undefined ? { readable: source, writable: sink } : { readable: source, writable: sink, maxFrameBytes },
  );
  const seen = recorder();
  await transport.start(seen.receiver);
  return { source, sink, transport, ...seen };
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe("StdioTransport: reading frames", () => {
  it("reassembles a frame split into single bytes", async () => {
    const { source, messages } = await started();
    for (const byte of bytes('{"jsonrpc":"2.0","method":"a","params":{"x":[1,2]}}\n')) source.push(new Uint8Array([byte]));
    await flush(400);
    expect(messages).toEqual([{ jsonrpc: "2.0", method: "a", params: { x: [1, 2] } }]);
  });

  it("separates several frames in one chunk, skipping blank lines and tolerating CRLF", async () => {
    const { source, messages, malformed } = await started();
    source.push('{"n":1}\r\n\n{"n":2}\n\r\n{"n":3}\n');
    await flush();
    expect(messages).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(malformed).toEqual([]);
  });

  it("keeps a multi-byte UTF-8 character that is split across chunks", async () => {
    const { source, messages } = await started();
    const frame = bytes('{"text":"héllo 🌍"}\n');
    const emoji = frame.indexOf(0xf0);
    source.push(frame.subarray(0, 10));
    source.push(frame.subarray(10, emoji + 2));
    source.push(frame.subarray(emoji + 2));
    await flush();
    expect(messages).toEqual([{ text: "héllo 🌍" }]);
  });

  it("rejects a frame over the limit with a clear error, skips it, and reads the next one", async () => {
    const { source, messages, malformed } = await started(32);
    source.push(`{"big":"${"x".repeat(20)}`);
    source.push(`${"y".repeat(20)}"}\n{"ok":1}\n`);
    await flush();
    expect(malformed).toEqual(["Parse error: a frame is longer than the limit of 32 bytes"]);
    expect(messages).toEqual([{ ok: 1 }]);
  });

  it("accepts a large frame arriving in many small chunks", async () => {
    const { source, messages } = await started();
    const payload = "z".repeat(256 * 1024);
    const frame = bytes(`{"p":"${payload}"}\n`);
    for (let offset = 0; offset < frame.length; offset += 1000) source.push(frame.subarray(offset, offset + 1000));
    await flush(2000);
    expect(messages).toEqual([{ p: payload }]);
  });

  it("reports a line that is not JSON, or not UTF-8, and goes on", async () => {
    const { source, messages, malformed } = await started();
    source.push("not json\n");
    source.push(new Uint8Array([0xff, 0xfe, 0x0a]));
    source.push('{"after":true}\n');
    await flush();
    expect(malformed).toEqual([expect.stringMatching(/^Parse error: /), "Parse error: a frame is not valid UTF-8"]);
    expect(messages).toEqual([{ after: true }]);
  });

  it("delivers a last frame without a newline at the end of input, then closes", async () => {
    const { source, messages, closes } = await started();
    source.push('{"last":1}');
    source.end();
    await flush();
    expect(messages).toEqual([{ last: 1 }]);
    expect(closes).toEqual([undefined]);
  });

  it("delivers nothing that arrives while it is closing", async () => {
    const { transport, source, messages } = await started();
    const closing = transport.close();
    source.push('{"late":1}\n');
    await closing;
    await flush();
    expect(messages).toEqual([]);
  });

  it("closes with MCP.TRANSPORT_ERROR when reading fails, even if the writable cannot close", async () => {
    const { source, closes, sink } = await started();
    sink.failClose = true;
    source.fail(new Error("EIO"));
    await flush();
    expect(closes).toEqual([expect.objectContaining({ code: MCP_CODES.TRANSPORT_ERROR, message: "Reading failed: EIO" })]);
  });

  it("closes with MCP.TRANSPORT_ERROR when reading fails, the read's error as its cause", async () => {
    const { source, closes, sink } = await started();
    const eio = new Error("EIO");
    source.fail(eio);
    await flush();
    expect(closes).toEqual([expect.objectContaining({ code: MCP_CODES.TRANSPORT_ERROR, message: "Reading failed: EIO" })]);
    expect(closes[0]?.cause).toBe(eio);
    expect(sink.closed).toBe(true);
  });

  it("drops a last line without a newline when this side closes: only the end of the peer's input completes it", async () => {
    const { transport, source, messages } = await started();
    source.push('{"partial":1}');
    await flush();
    await transport.close();
    await flush();
    expect(source.returned).toBe(true);
    expect(messages).toEqual([]);
  });
});

describe("StdioTransport: writing frames", () => {
  it("writes newline-terminated JSON in order, each send awaiting its write", async () => {
    const { transport, sink } = await started();
    sink.hold();
    const first = transport.send({ n: 1 });
    const second = transport.send({ n: 2, s: "line\nbreak" });
    let firstDone = false;
    void first.then(() => (firstDone = true));
    await flush();
    expect(firstDone).toBe(false);
    sink.release();
    await Promise.all([first, second]);
    expect(sink.text()).toBe('{"n":1}\n{"n":2,"s":"line\\nbreak"}\n');
  });

  it("writes frames sent while a write is under way together, in order, up to 64 KiB per write", async () => {
    const { transport, sink } = await started();
    sink.hold();
    const first = transport.send({ n: 1 });
    await flush();
    const burst = [
      transport.send({ n: 2 }),
      transport.send({ n: 3 }),
      transport.send({ big: "x".repeat(70_000) }),
      transport.send({ n: 4 }),
    ];
    sink.release();
    await Promise.all([first, ...burst]);
    expect(sink.messages()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { big: "x".repeat(70_000) }, { n: 4 }]);
    expect(sink.chunks.map((chunk) => new TextDecoder().decode(chunk).split("\n").length - 1)).toEqual([1, 2, 1, 1]);
  });

  it("flushes what was sent before close, then closes the writable and stops reading", async () => {
    const { transport, sink, source, closes } = await started();
    sink.hold();
    const sent = transport.send({ before: "close" });
    const closing = transport.close();
    sink.release();
    await Promise.all([sent, closing]);
    expect(sink.messages()).toEqual([{ before: "close" }]);
    expect(sink.closed).toBe(true);
    expect(source.returned).toBe(true);
    expect(closes).toEqual([undefined]);
    await transport.close();
    expect(closes).toHaveLength(1);
    await expect(transport.send({})).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_CLOSED,
      message: "Cannot send: the stdio transport is closed",
    });
  });

  it("fails a write with MCP.TRANSPORT_ERROR, closes, and does not attempt what was queued behind it", async () => {
    const { transport, sink, closes } = await started();
    sink.hold();
    const first = transport.send({ n: 1 });
    await flush(); // the first write is under way: the second frame waits for its own
    const second = transport.send({ n: 2 });
    const epipe = new Error("EPIPE");
    sink.failWith = epipe;
    sink.release();
    const failure = await outcome(first);
    expect(failure).toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR, message: "Write failed: EPIPE" });
    expect((failure as MCPError).cause).toBe(epipe);
    await expect(second).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR });
    expect(closes).toEqual([expect.objectContaining({ message: "Write failed: EPIPE" })]);
    expect(sink.chunks).toEqual([]);
  });

  it("refuses what JSON cannot carry", async () => {
    const { transport } = await started();
    await expect(transport.send({ n: 1n })).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: expect.stringContaining("not serialisable"),
    });
    await expect(transport.send(undefined)).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: expect.stringContaining("no JSON form"),
    });
    const thrown = new Error("no JSON here");
    const refused = await outcome(
      transport.send({
        toJSON: () => {
          throw thrown;
        },
      }),
    );
    expect(refused).toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: "Cannot send: the message is not serialisable as JSON (no JSON here)",
    });
    expect((refused as MCPError).cause).toBe(thrown);
    expect(transport.closed).toBe(false);
  });

  it("closes even when the writable fails to close", async () => {
    const { transport, sink, closes } = await started();
    sink.failClose = true;
    await transport.close();
    expect(closes).toEqual([undefined]);
  });
});

describe("StdioTransport: lifecycle", () => {
  it("says it carries the stateless era as well as the session era (a client may probe with server/discover)", () => {
    expect(new StdioTransport({ readable: new ChunkSource(), writable: new RecordingWritable() }).carriesStatelessEra).toBe(true);
  });

  it("refuses a second start and a start after close", async () => {
    const { transport } = await started();
    await expect(transport.start(recorder().receiver)).rejects.toMatchObject({
      code: MCP_CODES.ALREADY_CONNECTED,
      message: "This stdio transport is already started",
    });
    const unstarted = new StdioTransport({ readable: new ChunkSource(), writable: new RecordingWritable() });
    await unstarted.close();
    await expect(unstarted.start(recorder().receiver)).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_CLOSED,
      message: "This stdio transport is closed",
    });
  });

  it("closes when a write sent before start fails, with no receiver to tell", async () => {
    const sink = new RecordingWritable();
    sink.failWith = new Error("EPIPE");
    const transport = new StdioTransport({ readable: new ChunkSource(), writable: sink });
    await expect(transport.send({ n: 1 })).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR, message: "Write failed: EPIPE" });
    expect(transport.closed).toBe(true);
    expect(sink.closed).toBe(true);
  });

  it("survives a source whose return() throws", async () => {
    const source: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<Uint8Array>>(() => undefined),
        return: () => Promise.reject(new Error("already destroyed")),
      }),
    };
    const transport = new StdioTransport({ readable: source, writable: new RecordingWritable() });
    const seen = recorder();
    await transport.start(seen.receiver);
    await transport.close();
    expect(seen.closes).toEqual([undefined]);
  });
});

describe("StdioTransport under a dispatcher", () => {
  it("answers a bad line with -32700 and a non-JSON-RPC line with -32600, and keeps serving", async () => {
    const source = new ChunkSource();
    const sink = new RecordingWritable();
    const server = new JsonRpcDispatcher({ side: "server", telemetry: null });
    server.setRequestHandler("test/echo", (params) => params);
    await server.connect(new StdioTransport({ readable: source, writable: sink }));
    source.push('{oops\n{"jsonrpc":"2.0","id":1}\n{"jsonrpc":"2.0","id":2,"method":"test/echo","params":{"v":1}}\n');
    await vi.waitFor(() => expect(sink.messages()).toHaveLength(3));
    expect(sink.messages()).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } },
      { jsonrpc: "2.0", id: 1, error: { code: -32600, message: expect.stringContaining("Invalid request") } },
      { jsonrpc: "2.0", id: 2, result: { v: 1 } },
    ]);
  });

  it("rejects pending requests with MCP.TRANSPORT_CLOSED when the input ends", async () => {
    const source = new ChunkSource();
    const client = new JsonRpcDispatcher({ side: "client", telemetry: null });
    await client.connect(new StdioTransport({ readable: source, writable: new RecordingWritable() }));
    const pending = client.request("test/slow");
    source.end();
    await expect(pending).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
  });
});

async function pushed(options: { maxQueuedBytes?: number } = {}) {
  const source = new PushSource();
  const sink = new TextWritable();
  const transport = new StdioTransport({ readable: source, writable: sink, ...options });
  const seen = recorder();
  await transport.start(seen.receiver);
  return { source, sink, transport, ...seen };
}

describe("StdioTransport: a push source and a text writable (the Node fast path)", () => {
  it("frames what the source pushes, split anywhere, and closes at its end (a last unterminated line counts)", async () => {
    const { source, messages, malformed, closes } = await pushed();
    source.sink?.chunk(bytes('{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":'));
    source.sink?.chunk(bytes('"2.0","method":"b"}\nnot json\n{"jsonrpc":"2.0","method":"c"}'));
    source.sink?.end();
    source.sink?.chunk(bytes('{"jsonrpc":"2.0","method":"late"}\n'));
    expect(messages).toEqual(["a", "b", "c"].map((method) => ({ jsonrpc: "2.0", method })));
    expect(malformed).toHaveLength(1);
    expect(closes).toEqual([undefined]);
  });

  it("closes with the source's failure, and stops the source when closed", async () => {
    const failed = await pushed();
    const eio = new Error("EIO");
    failed.source.sink?.fail(eio);
    expect(failed.closes).toEqual([expect.objectContaining({ code: MCP_CODES.TRANSPORT_ERROR, message: "Reading failed: EIO" })]);
    expect(failed.closes[0]?.cause).toBe(eio);
    const { source, transport, messages } = await pushed();
    source.sink?.chunk(bytes('{"partial":1}'));
    await transport.close();
    await transport.close();
    source.sink?.end(); // a source that ends after the close is not heard: its last unterminated line is not delivered
    expect(source.stopped).toBe(1);
    expect(messages).toEqual([]);
  });

  it("writes text straight through while the writable takes it, with no promise of its own", async () => {
    const { sink, transport } = await pushed();
    const first = transport.send({ n: 1 });
    const second = transport.send({ n: 2 });
    expect(first).toBe(second); // the one shared settled promise
    await first;
    expect(sink.texts).toEqual(['{"n":1}\n', '{"n":2}\n']);
  });

  it("queues behind a full writable, sends the queue as one write on drain, in order", async () => {
    const { sink, transport } = await pushed();
    sink.full = true;
    const order: string[] = [];
    const first = transport.send({ n: 1 }).then(() => order.push("1"));
    const rest = [2, 3].map((n) => transport.send({ n }).then(() => order.push(String(n))));
    expect(sink.texts).toEqual(['{"n":1}\n']);
    const closed = transport.close(); // waits for what was sent
    sink.drain();
    await Promise.all([first, ...rest, closed]);
    expect(sink.texts).toEqual(['{"n":1}\n', '{"n":2}\n{"n":3}\n']);
    expect(order).toEqual(["1", "2", "3"]);
  });

  it("fails the write under way and everything queued behind it when the writable fails, and closes", async () => {
    const { sink, transport, closes } = await pushed();
    sink.full = true;
    const first = outcome(transport.send({ n: 1 }));
    const queued = outcome(transport.send({ n: 2 }));
    sink.drain(new Error("EPIPE"));
    const failure = await first;
    expect(failure).toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR, message: "Write failed: EPIPE" });
    expect(await queued).toBe(failure);
    expect(closes).toEqual([failure]);
  });

  it("turns a writable that throws into a failed send", async () => {
    const { sink, transport, closes } = await pushed();
    sink.failWith = new Error("stream destroyed");
    await expect(transport.send({ n: 1 })).rejects.toMatchObject({ message: "Write failed: stream destroyed" });
    expect(closes).toHaveLength(1);
  });

  it("sends a queued batch that the writable then takes at once, and the ones after it", async () => {
    const { sink, transport } = await pushed({ maxQueuedBytes: 1 << 20 });
    sink.full = true;
    const first = transport.send({ n: 1 });
    const big = "y".repeat(40 * 1024);
    const second = transport.send({ big }); // 40 KiB: the next one starts a batch of its own
    const third = transport.send({ big });
    sink.full = false;
    sink.drain();
    await Promise.all([first, second, third]);
    expect(sink.texts).toHaveLength(3);
  });
});

describe("StdioTransport: a queued batch whose own write fails", () => {
  it("fails that batch's sends and closes", async () => {
    const sink = new TextWritable();
    const transport = new StdioTransport({ readable: new PushSource(), writable: sink });
    const seen = recorder();
    await transport.start(seen.receiver);
    sink.full = true;
    const first = outcome(transport.send({ n: 1 }));
    const second = outcome(transport.send({ n: 2 }));
    sink.drain();
    sink.full = true; // the batch behind it meets a full buffer again
    await expect(first).resolves.toBe("written");
    expect(transport.closed).toBe(false);
    sink.drain(new Error("EPIPE"));
    expect(await second).toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR, message: "Write failed: EPIPE" });
    expect(transport.closed).toBe(true);
    expect(sink.texts).toEqual(['{"n":1}\n', '{"n":2}\n']);
  });
});

import { describe, expect, it } from "vitest";
import { SseParser, type SseEvent, type SseItem } from "./sse-parser.js";

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

function parseChunks(chunks: readonly (string | Uint8Array)[], maxEventBytes?: number): { items: SseItem[]; parser: SseParser } {
  const parser = new SseParser(maxEventBytes);
  const items = chunks.flatMap((chunk) => parser.push(typeof chunk === "string" ? encode(chunk) : chunk));
  return { items, parser };
}

function events(chunks: readonly (string | Uint8Array)[]): SseEvent[] {
  return parseChunks(chunks).items.flatMap((item) => (item.kind === "event" ? [item.event] : []));
}

/** The same bytes, split into two chunks at every position (and into single bytes). */
function everySplit(text: string): Uint8Array[][] {
  const bytes = encode(text);
  const splits: Uint8Array[][] = [];
  for (let at = 0; at <= bytes.length; at++) splits.push([bytes.subarray(0, at), bytes.subarray(at)]);
  splits.push([...bytes].map((byte) => new Uint8Array([byte])));
  return splits;
}

/** A small deterministic generator, so the hostile-input test is repeatable. */
function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe("SseParser: fields", () => {
  it("dispatches data on a blank line, with the default type, the event's own id and the last event id", () => {
    expect(events(["data: hello\n\n"])).toEqual([{ type: "message", data: "hello", id: undefined, lastEventId: "" }]);
    expect(events(["event: endpoint\nid: 7\ndata: /messages\n\n"])).toEqual([
      { type: "endpoint", data: "/messages", id: "7", lastEventId: "7" },
    ]);
  });

  it("joins several data lines with LF, and strips exactly one leading space from a value", () => {
    expect(events(["data: a\ndata:  b\ndata:c\ndata\n\n"]).map((event) => event.data)).toEqual(["a\n b\nc\n"]);
  });

  it("ignores comments, unknown fields and a field of the wrong case", () => {
    expect(events([": keep-alive\nfoo: bar\nData: no\ndata: yes\n:\n\n"]).map((event) => event.data)).toEqual(["yes"]);
  });

  it("keeps the last event id across events until the server changes it, and an empty id resets it", () => {
    const seen = events(["id: 1\ndata: a\n\n", "data: b\n\n", "id\ndata: c\n\n"]);
    expect(seen.map((event) => [event.id, event.lastEventId])).toEqual([
      ["1", "1"],
      [undefined, "1"],
      ["", ""],
    ]);
  });

  it("ignores an id containing NUL", () => {
    const seen = events(["id: 1\ndata: a\n\n", "id: 2\u00003\ndata: b\n\n"]);
    expect(seen.map((event) => [event.id, event.lastEventId])).toEqual([
      ["1", "1"],
      [undefined, "1"],
    ]);
  });

  it("records an id from a block without data (a SEP-1699 priming block) without dispatching it", () => {
    const { items, parser } = parseChunks(["id: prime-1\n\n"]);
    expect(items).toEqual([]);
    expect(parser.lastEventId).toBe("prime-1");
  });

  it("dispatches an empty data field as an event with empty data", () => {
    expect(events(["id: 5\ndata:\n\n"])).toEqual([{ type: "message", data: "", id: "5", lastEventId: "5" }]);
  });

  it("takes retry only when it is all ASCII digits", () => {
    expect(parseChunks(["retry: 2500\n\n"]).parser.retryMs).toBe(2500);
    expect(parseChunks(["retry: 2500\nretry: 1e3\nretry: -5\nretry: 12ms\nretry:\n\n"]).parser.retryMs).toBe(2500);
    expect(new SseParser().retryMs).toBeUndefined();
  });

  it("does not dispatch an event the stream ended in the middle of", () => {
    expect(events(["data: complete\n\ndata: cut off\n"])).toHaveLength(1);
  });

  it("resets the event type after each event", () => {
    expect(events(["event: a\ndata: 1\n\ndata: 2\n\nevent: ignored\n\ndata: 3\n\n"]).map((event) => event.type)).toEqual([
      "a",
      "message",
      "message",
    ]);
  });
});

describe("SseParser: line endings, encoding and chunking", () => {
  it("accepts CRLF, CR and LF line endings, mixed", () => {
    expect(events(["data: a\r\n\r\ndata: b\r\rdata: c\n\ndata: d\r\n\n"]).map((event) => event.data)).toEqual(["a", "b", "c", "d"]);
  });

  it("treats a CR at the end of a chunk and an LF at the start of the next as one line ending", () => {
    expect(events(["data: a\r", "\ndata: b\r", "\n\r", "\n"]).map((event) => event.data)).toEqual(["a\nb"]);
    // A CR then a data line: the CR ended the line, the next chunk starts a new one.
    expect(events(["data: a\r", "\r"]).map((event) => event.data)).toEqual(["a"]);
  });

  it("drops a leading BOM, even when split across chunks, but keeps one anywhere else", () => {
    const bom = encode("\uFEFF");
    expect(events([bom.subarray(0, 1), bom.subarray(1), "data: x\n\n"]).map((event) => event.data)).toEqual(["x"]);
    expect(events(["data: x\n\n\uFEFFdata: y\n\n"]).map((event) => event.data)).toEqual(["x"]);
    expect(events(["\uFEFF\n", "data: \uFEFFz\n\n"]).map((event) => event.data)).toEqual(["\uFEFFz"]);
  });

  it("keeps a multi-byte character split across chunks, and turns invalid UTF-8 into U+FFFD", () => {
    const bytes = encode("data: h\u00e9llo \u{1F30D}\n\n");
    const emoji = bytes.indexOf(0xf0);
    expect(events([bytes.subarray(0, 8), bytes.subarray(8, emoji + 2), bytes.subarray(emoji + 2)]).map((event) => event.data)).toEqual([
      "h\u00e9llo \u{1F30D}",
    ]);
    expect(events([new Uint8Array([...encode("data: "), 0xff, 0xc3, 0x0a, 0x0a])]).map((event) => event.data)).toEqual(["\uFFFD\uFFFD"]);
  });

  it("gives the same events and state whichever byte the stream is split at", () => {
    const stream =
      '\uFEFF: hello\r\nretry: 40\nevent: message\nid: 1\ndata: {"a":"\u00e9\u{1F30D}"}\r\n\r\nid: 2\rdata: x\rdata: y\r\rid: 3\n\n';
    const expected = events([stream]);
    expect(expected.map((event) => event.data)).toEqual(['{"a":"\u00e9\u{1F30D}"}', "x\ny"]);
    for (const chunks of everySplit(stream)) {
      const { items, parser } = parseChunks(chunks);
      expect(items.map((item) => (item.kind === "event" ? item.event : item))).toEqual(expected);
      expect([parser.lastEventId, parser.retryMs]).toEqual(["3", 40]);
    }
  });

  it("does not keep a reference to a chunk its producer may reuse", () => {
    const parser = new SseParser();
    const chunk = encode("data: abc");
    parser.push(chunk);
    chunk.fill(0x21);
    expect(parser.push(encode("\n\n"))).toEqual([
      { kind: "event", event: { type: "message", data: "abc", id: undefined, lastEventId: "" } },
    ]);
  });
});

describe("SseParser: the bound on an event", () => {
  it("skips an event whose data outgrows the bound, says so once, and reads the next event", () => {
    const big = `data: ${"x".repeat(30)}\n`.repeat(4);
    const { items } = parseChunks([`data: small\n\n${big}id: skipped\n\ndata: after\n\n`], 64);
    expect(items).toEqual([
      { kind: "event", event: { type: "message", data: "small", id: undefined, lastEventId: "" } },
      { kind: "oversized", limit: 64 },
      { kind: "event", event: { type: "message", data: "after", id: undefined, lastEventId: "" } },
    ]);
  });

  it("skips a line with no end in sight without holding it, chunk after chunk", () => {
    const parser = new SseParser(16);
    const items: SseItem[] = [];
    items.push(...parser.push(encode("data: 0123456789")));
    for (let i = 0; i < 50; i++) items.push(...parser.push(encode("0123456789")));
    items.push(...parser.push(encode("\n\ndata: ok\n\n")));
    expect(items.map((item) => item.kind)).toEqual(["oversized", "event"]);
  });

  it("never throws on hostile input, split anywhere", () => {
    const random = prng(42);
    const alphabet = encode("data:id:event:retry: \r\n:\uFEFF\u0000x9");
    for (let round = 0; round < 200; round++) {
      const parser = new SseParser(32);
      for (let chunk = 0; chunk < 10; chunk++) {
        const bytes = Uint8Array.from({ length: Math.floor(random() * 40) }, () =>
          random() < 0.1 ? Math.floor(random() * 256) : (alphabet[Math.floor(random() * alphabet.length)] as number),
        );
        expect(() => parser.push(bytes)).not.toThrow();
      }
    }
  });
});

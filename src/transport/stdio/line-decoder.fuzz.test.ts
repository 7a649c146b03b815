import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunked } from "../bytes.test-helpers.js";
import { type LineEvent, LineDecoder } from "./line-decoder.js";

/** Runs per property: small in `npm test`, `FUZZ_RUNS=<n>` for a longer campaign. */
const runs = (normal: number): number => Number(process.env["FUZZ_RUNS"]) || normal;
const SEED = 0x5eed_0001;

const NEWLINE = 0x0a;
const CR = 0x0d;
const fatal = new TextDecoder("utf-8", { fatal: true });

/** The frames of a whole byte stream, as the stdio framing rules state them (stdio.md), written independently of the decoder. */
function reference(stream: Uint8Array, maxFrameBytes: number): LineEvent[] {
  const events: LineEvent[] = [];
  let start = 0;
  const frame = (raw: Uint8Array) => {
    if (raw.length > maxFrameBytes) {
      events.push({ kind: "rejected", reason: `Parse error: a frame is longer than the limit of ${maxFrameBytes} bytes` });
      return;
    }
    const body = raw.length > 0 && raw[raw.length - 1] === CR ? raw.subarray(0, raw.length - 1) : raw;
    if (body.length === 0) return;
    try {
      events.push({ kind: "line", text: fatal.decode(body) });
    } catch {
      events.push({ kind: "rejected", reason: "Parse error: a frame is not valid UTF-8" });
    }
  };
  for (let index = 0; index < stream.length; index++) {
    if (stream[index] !== NEWLINE) continue;
    frame(stream.subarray(start, index));
    start = index + 1;
  }
  frame(stream.subarray(start));
  return events;
}

const encoder = new TextEncoder();
/** Pieces a real stream is made of: text (multi-byte included), line ends, blank lines, invalid UTF-8, runs that exceed the limit. */
const piece = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 12 }).map((text) => encoder.encode(text)),
  fc.constantFrom(
    Uint8Array.of(NEWLINE),
    Uint8Array.of(CR, NEWLINE),
    Uint8Array.of(CR),
    Uint8Array.of(NEWLINE, NEWLINE),
    Uint8Array.of(0xff), // never valid
    Uint8Array.of(0xc3), // a truncated two-byte sequence
    Uint8Array.of(0xed, 0xa0, 0x80), // an encoded surrogate
    Uint8Array.of(0xf0, 0x9f, 0x8c, 0x8d), // 🌍
    Uint8Array.of(0xef, 0xbb, 0xbf), // BOM
  ),
  fc.uint8Array({ maxLength: 8 }),
  fc.integer({ min: 1, max: 200 }).map((length) => new Uint8Array(length).fill(0x61)),
);
const stream = fc.array(piece, { maxLength: 30 }).map((pieces) => {
  const total = pieces.reduce((sum, part) => sum + part.length, 0);
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const part of pieces) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
});

function decodeAll(chunks: readonly Uint8Array[], maxFrameBytes: number): LineEvent[] {
  const decoder = new LineDecoder(maxFrameBytes);
  const events: LineEvent[] = [];
  for (const chunk of chunks) events.push(...decoder.push(chunk));
  events.push(...decoder.end());
  return events;
}

describe("LineDecoder under fuzzing", () => {
  it("yields the same frames, rejections and order whatever the chunking, as the framing rules state", () => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 40 }), fc.integer({ min: 1, max: 96 }), (bytes, cuts, maxFrameBytes) => {
        const expected = reference(bytes, maxFrameBytes);
        expect(decodeAll(chunked(bytes, cuts), maxFrameBytes)).toEqual(expected);
        // One byte at a time: the most hostile chunking.
        expect(
          decodeAll(
            Array.from(bytes, (byte) => Uint8Array.of(byte)),
            maxFrameBytes,
          ),
        ).toEqual(expected);
      }),
      { numRuns: runs(1000), seed: SEED },
    );
  });

  it("never keeps a producer's chunk: reusing the chunk buffer after push changes nothing", () => {
    fc.assert(
      fc.property(stream, fc.array(fc.nat(), { maxLength: 20 }), (bytes, cuts) => {
        const decoder = new LineDecoder(1024);
        const events: LineEvent[] = [];
        for (const chunk of chunked(bytes, cuts)) {
          events.push(...decoder.push(chunk));
          chunk.fill(0x7a); // the producer reuses its buffer
        }
        events.push(...decoder.end());
        expect(events).toEqual(reference(bytes, 1024));
      }),
      { numRuns: runs(300), seed: SEED + 1 },
    );
  });

  it("skips a frame far over the default limit and reads the next one", () => {
    const limit = 16 * 1024 * 1024;
    const decoder = new LineDecoder(limit);
    const big = new Uint8Array(256 * 1024).fill(0x20);
    const events: LineEvent[] = [];
    // 17 MiB of one line, in 68 chunks, then a good frame.
    for (let i = 0; i < 68; i++) events.push(...decoder.push(big));
    events.push(...decoder.push(encoder.encode('\n{"ok":true}\n')));
    expect(events).toEqual([
      { kind: "rejected", reason: `Parse error: a frame is longer than the limit of ${limit} bytes` },
      { kind: "line", text: '{"ok":true}' },
    ]);
  });
});

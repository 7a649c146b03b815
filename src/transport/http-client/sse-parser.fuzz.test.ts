import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunked } from "../bytes.test-helpers.js";
import { joinedBytes } from "./body.js";
import { type SseEvent, type SseItem, SseParser } from "./sse-parser.js";

/** Runs per property: small in `npm test`, `FUZZ_RUNS=<n>` for a longer campaign. */
const runs = (normal: number): number => Number(process.env["FUZZ_RUNS"]) || normal;
const SEED = 0x5eed_0002;

/**
 * The WHATWG event-stream interpretation, written from the standard over the whole decoded text
 * (independently of the incremental parser): what must come out, whatever the chunking.
 */
function reference(bytes: Uint8Array): { events: SseEvent[]; lastEventId: string; retryMs: number | undefined } {
  let text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  const events: SseEvent[] = [];
  let data: string[] = [];
  let type = "";
  let idBuffer = "";
  let ownId: string | undefined;
  let lastEventId = "";
  let retryMs: number | undefined;
  const lines = text.split(/\r\n|\r|\n/);
  lines.pop(); // an unterminated last line is not a line yet
  // A CR at the very end may be the first half of a CRLF: the parser has ended that line already, so does this.
  for (const line of lines) {
    if (line === "") {
      lastEventId = idBuffer;
      if (data.length > 0) events.push({ type: type || "message", data: data.join("\n"), id: ownId, lastEventId });
      data = [];
      type = "";
      ownId = undefined;
      continue;
    }
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "data") data.push(value);
    else if (name === "event") type = value;
    else if (name === "id" && !value.includes("\u0000")) {
      idBuffer = value;
      ownId = value;
    } else if (name === "retry" && /^\d+$/.test(value)) retryMs = Number(value);
  }
  return { events, lastEventId, retryMs };
}

const encoder = new TextEncoder();
const token = fc.oneof(
  fc.constantFrom(
    "data",
    "data:",
    "data: ",
    "event:",
    "event: ping",
    "id:",
    "id: ",
    "id: 7",
    "retry:",
    "retry: 250",
    "retry: x1",
    ":",
    ": comment",
    "x:",
    " ",
    "\u0000",
    "é",
    "🌍",
    "\uFEFF",
  ),
  fc.constantFrom("\n", "\r", "\r\n", "\n\n", "\r\r", "\r\n\r\n"),
  fc.string({ maxLength: 6 }),
);
const streamOf = (extra: fc.Arbitrary<Uint8Array>) =>
  fc
    .array(
      fc.oneof(
        token.map((text) => encoder.encode(text)),
        extra,
      ),
      { maxLength: 40 },
    )
    .map(joinedBytes);
const invalidUtf8 = fc.constantFrom(Uint8Array.of(0xff), Uint8Array.of(0xc3), Uint8Array.of(0xe2, 0x82), Uint8Array.of(0xed, 0xa0, 0x80));

function parseAll(chunks: readonly Uint8Array[], maxEventBytes?: number) {
  const parser = new SseParser(maxEventBytes);
  const items: SseItem[] = [];
  for (const chunk of chunks) items.push(...parser.push(chunk));
  return { items, lastEventId: parser.lastEventId, retryMs: parser.retryMs };
}

describe("SseParser under fuzzing", () => {
  it("dispatches exactly the events of the standard's interpretation, whatever the chunking and bytes", () => {
    fc.assert(
      fc.property(streamOf(invalidUtf8), fc.array(fc.nat(), { maxLength: 30 }), (bytes, cuts) => {
        const expected = reference(bytes);
        const got = parseAll(chunked(bytes, cuts));
        expect(got.items).toEqual(expected.events.map((event) => ({ kind: "event", event })));
        expect(got.lastEventId).toBe(expected.lastEventId);
        expect(got.retryMs).toBe(expected.retryMs);
      }),
      { numRuns: runs(1000), seed: SEED },
    );
  });

  it("with a small event bound, gives the same events and drops (reported) whatever the chunking", () => {
    fc.assert(
      fc.property(
        streamOf(fc.uint8Array({ maxLength: 10 })),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.integer({ min: 1, max: 40 }),
        (bytes, cuts, limit) => {
          const whole = parseAll([bytes], limit);
          expect(parseAll(chunked(bytes, cuts), limit)).toEqual(whole);
          expect(
            parseAll(
              Array.from(bytes, (byte) => Uint8Array.of(byte)),
              limit,
            ),
          ).toEqual(whole);
          // The bound is on wire bytes; each wire byte yields at most one UTF-16 unit (invalid ones become U+FFFD).
          const longest = Math.max(0, ...whole.items.map((item) => (item.kind === "event" ? item.event.data.length : 0)));
          expect(longest).toBeLessThanOrEqual(limit);
          expect(whole.items.filter((item) => item.kind === "oversized")).toEqual(
            whole.items.filter((item) => item.kind !== "event").map(() => ({ kind: "oversized", limit })),
          );
        },
      ),
      { numRuns: runs(500), seed: SEED + 1 },
    );
  });
});

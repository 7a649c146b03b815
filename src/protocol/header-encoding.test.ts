import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeHeaderValue, encodeHeaderValue } from "./mcp-headers.js";

/** Runs per property: small in `npm test`, `FUZZ_RUNS=<n>` for a longer campaign. */
const runs = (normal: number): number => Number(process.env["FUZZ_RUNS"]) || normal;
const SEED = 0x5eed_0020;
/** Any refusal, whatever its reason. */
const REFUSED = { ok: false, reason: expect.any(String) };

/** An independent oracle: Node's Base64 of the UTF-8 bytes, in the sentinel. */
const sentinel = (value: string): string => `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;

describe("encodeHeaderValue", () => {
  it.each([
    // The spec's Value Encoding table.
    ["us-west1", "us-west1"],
    ["Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    [" padded ", "=?base64?IHBhZGRlZCA=?="],
    ["line1\nline2", "=?base64?bGluZTEKbGluZTI=?="],
    ["=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
    // SEP-2243's edge cases.
    [" us-west1", "=?base64?IHVzLXdlc3Qx?="],
    ["us-west1 ", "=?base64?dXMtd2VzdDEg?="],
    [" us-west1 ", "=?base64?IHVzLXdlc3QxIA==?="],
    ["us west 1", "us west 1"],
    ["日本語", "=?base64?5pel5pys6Kqe?="],
    ["line1\r\nline2", "=?base64?bGluZTENCmxpbmUy?="],
    ["\tindented", "=?base64?CWluZGVudGVk?="],
    ["", ""],
    ["my-tool-name", "my-tool-name"],
    ["file:///path/to/file%20name.txt", "file:///path/to/file%20name.txt"],
    ["https://example.com/resource?id=123", "https://example.com/resource?id=123"],
  ])("sends %j as %j", (value, sent) => {
    expect(encodeHeaderValue(value)).toBe(sent);
  });

  it.each([
    ["a tab inside", "a\tb"],
    ["DEL", "a\u007fb"],
    ["a NUL", "\u0000"],
    ["a lone space", " "],
    ["a trailing tab", "x\t"],
    ["Latin-1", "café"],
    ["the sentinel's prefix without its suffix", "=?base64?SGVsbG8="],
    ["the whole prefix alone", "=?base64?"],
  ])("encodes a value with %s", (_, value) => {
    expect(encodeHeaderValue(value)).toBe(sentinel(value));
  });

  it.each([["=?BASE64?x?="], ["x?="], ["=?base64"], ["!"], ["~ ~"], ["a=?base64?b?="]])(
    "leaves %j plain (not the sentinel's exact prefix)",
    (value) => {
      expect(encodeHeaderValue(value)).toBe(value);
    },
  );

  it("sends a lone surrogate as U+FFFD (UTF-8 has no form for it)", () => {
    expect(encodeHeaderValue("a\uD800b")).toBe(sentinel("a\uFFFDb"));
    expect(decodeHeaderValue(encodeHeaderValue("\uDC00"))).toEqual({ ok: true, value: "\uFFFD" });
  });
});

describe("decodeHeaderValue", () => {
  it.each([
    ["=?base64?SGVsbG8=?=", "Hello"],
    ["=?base64?SGVsbG8sIOS4lueVjA==?=", "Hello, 世界"],
    ["=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=", "=?base64?literal?="],
    ["=?base64??=", ""],
    ["=?base64?77u/YQ==?=", "\uFEFFa"],
    ["=?base64?SGVsbG8=?=  ", "Hello"],
    // Not the sentinel: literal values (SEP-2243's table).
    ["SGVsbG8=", "SGVsbG8="],
    ["=?base64?SGVsbG8=", "=?base64?SGVsbG8="],
    ["=?BASE64?SGVsbG8=?=", "=?BASE64?SGVsbG8=?="],
    ["=?base64?=", "=?base64?="],
    ["us-west1", "us-west1"],
    ["us west 1", "us west 1"],
    ["", ""],
    ["  foo  ", "foo"],
    ["\t foo \t", "foo"],
    ["a\tb", "a\tb"],
  ])("reads %j as %j", (raw, value) => {
    expect(decodeHeaderValue(raw)).toEqual({ ok: true, value });
  });

  it.each([
    ["padding missing", "=?base64?SGVsbG8?="],
    ["characters outside the alphabet", "=?base64?SGVs!!!bG8=?="],
    ["a space inside", "=?base64?SGVs bG8=?="],
    ["base64url's alphabet", "=?base64?-_-_?="],
    ["too much padding", "=?base64?SGk===?="],
    ["padding in the middle", "=?base64?SG==SGk=?="],
    ["a stray character", "=?base64?SGVsbG8=A?="],
    ["non-zero bits after the last byte (==)", "=?base64?SGVsbG9=?="],
    ["non-zero bits after the last byte (=)", "=?base64?SGl=?="],
    ["non-zero bits after the last byte (== on one byte)", "=?base64?SB==?="],
  ])("refuses Base64 with %s", (_, raw) => {
    expect(decodeHeaderValue(raw)).toEqual({ ok: false, reason: "is not canonical padded Base64" });
  });

  it.each([
    ["0xFF", "=?base64?/w==?="],
    ["an overlong '/'", "=?base64?wK8=?="],
    ["an encoded surrogate", "=?base64?7aCA?="],
    ["a cut sequence", "=?base64?4pw=?="],
  ])("refuses Base64 of %s (not UTF-8)", (_, raw) => {
    expect(decodeHeaderValue(raw)).toEqual({ ok: false, reason: "is Base64 of bytes that are not UTF-8" });
  });

  it.each([["caf\u00e9"], ["a\u0001b"], ["a\u007fb"], ["a\nb"], ["\u0080"], ["日本"]])(
    "refuses the plain value %j (not visible ASCII, space or tab)",
    (raw) => {
      expect(decodeHeaderValue(raw)).toEqual({ ok: false, reason: "holds a character that is not visible ASCII, space or tab" });
    },
  );
});

describe("header value encoding under fuzzing", () => {
  it("decode(encode(s)) is s for every well-formed string, and what is sent is always a valid field value", () => {
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 40 }),
      fc.string({ unit: fc.constantFrom("=", "?", "b", "a", "s", "e", "6", "4", " ", "\t", "\n", "é", "x"), maxLength: 16 }),
      fc.string({ maxLength: 12 }).map((tail) => `=?base64?${tail}`),
    );
    fc.assert(
      fc.property(text, (value) => {
        const sent = encodeHeaderValue(value);
        expect(decodeHeaderValue(sent)).toEqual({ ok: true, value });
        expect(sent).toMatch(/^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/);
        // A field value survives the Fetch Headers API unchanged (it trims and refuses CR, LF, NUL).
        const headers = new Headers();
        headers.set("mcp-param-x", sent);
        expect(headers.get("mcp-param-x")).toBe(sent);
      }),
      { numRuns: runs(400), seed: SEED },
    );
  });

  it("decodeHeaderValue never throws, and accepts a sentinel exactly when it wraps canonical Base64 of UTF-8", () => {
    const alphabet = fc.constantFrom(
      ..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".split(""),
      "=",
      "-",
      "_",
      " ",
      "!",
      "\u00e9",
    );
    const payload = fc.oneof(
      fc.string({ unit: alphabet, maxLength: 24 }),
      fc.uint8Array({ maxLength: 18 }).map((bytes) => Buffer.from(bytes).toString("base64")),
    );
    fc.assert(
      fc.property(payload, (base64) => {
        const result = decodeHeaderValue(`=?base64?${base64}?=`);
        const bytes = Buffer.from(base64, "base64");
        const canonical = bytes.toString("base64") === base64;
        let utf8: string | undefined;
        try {
          utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
        } catch {
          utf8 = undefined;
        }
        expect(result).toEqual(canonical && utf8 !== undefined ? { ok: true, value: utf8 } : REFUSED);
      }),
      { numRuns: runs(400), seed: SEED },
    );
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (raw) => {
        const result = decodeHeaderValue(raw);
        const literal = raw.replace(/^[\t ]+|[\t ]+$/g, "");
        // A sentinel's outcome is the property above; a literal is accepted exactly when it holds no character outside the field-value set.
        const plain = /^[\t\x20-\x7e]*$/.test(literal) ? { ok: true, value: literal } : REFUSED;
        expect(result).toEqual(literal.startsWith("=?base64?") ? result : plain);
      }),
      { numRuns: runs(400), seed: SEED },
    );
  });
});

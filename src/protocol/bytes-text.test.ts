import * as fc from "fast-check";
import { describe, expect, it } from "vitest";

import { decodeBase64, decodeHex, encodeBase64, randomHex } from "./bytes-text.js";

const runs = (normal: number): number => Number(process.env["FUZZ_RUNS"]) || normal;
const SEED = 20260728;

describe.each([
  ["base64", false],
  ["base64url", true],
] as const)("%s", (encoding, url) => {
  it("encodes as Node does (base64url unpadded), and decodes back", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const text = encodeBase64(bytes, url);
        expect(text).toBe(Buffer.from(bytes).toString(encoding));
        expect(decodeBase64(text, url)).toEqual(bytes);
      }),
      { numRuns: runs(300), seed: SEED },
    );
  });

  it("decodes only the one text that encodes the bytes", () => {
    const alphabetText = fc.string({
      unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/. é".split("")),
      maxLength: 12,
    });
    const alphabet = url ? /^[A-Za-z0-9_-]*$/ : /^[A-Za-z0-9+/=]*$/;
    fc.assert(
      fc.property(fc.oneof(alphabetText, fc.string({ maxLength: 12 })), (text) => {
        const canonical = alphabet.test(text) && Buffer.from(text, encoding).toString(encoding) === text;
        const decoded = decodeBase64(text, url);
        expect(decoded === undefined ? undefined : Buffer.from(decoded).toString(encoding)).toBe(canonical ? text : undefined);
      }),
      { numRuns: runs(500), seed: SEED + 1 },
    );
  });
});

describe("decodeBase64", () => {
  it("base64url: refuses unused low bits that are set, a fifth character of a quantum, and padding", () => {
    expect(decodeBase64("AA", true)).toEqual(new Uint8Array([0]));
    expect(decodeBase64("AB", true)).toBeUndefined();
    expect(decodeBase64("AAA", true)).toEqual(new Uint8Array([0, 0]));
    expect(decodeBase64("AAB", true)).toBeUndefined();
    expect(decodeBase64("AAAAA", true)).toBeUndefined();
    expect(decodeBase64("AA==", true)).toBeUndefined();
    expect(decodeBase64("", true)).toEqual(new Uint8Array(0));
  });

  it("base64: refuses a missing or extra padding, unused bits that are set, and whitespace atob would skip", () => {
    expect(decodeBase64("AA==")).toEqual(new Uint8Array([0]));
    expect(decodeBase64("AA")).toBeUndefined();
    expect(decodeBase64("AA=")).toBeUndefined();
    expect(decodeBase64("AB==")).toBeUndefined();
    expect(decodeBase64("AAB=")).toBeUndefined();
    expect(decodeBase64("AAA==")).toBeUndefined();
    expect(decodeBase64("AA AA")).toBeUndefined();
    expect(decodeBase64("-_==")).toBeUndefined();
    expect(decodeBase64("")).toEqual(new Uint8Array(0));
  });
});

describe("randomHex", () => {
  it("gives two lower-case hex digits per random byte, another text each time", () => {
    const texts = Array.from({ length: 50 }, () => randomHex(12));
    for (const text of texts) expect(text).toMatch(/^[0-9a-f]{24}$/);
    expect(new Set(texts).size).toBe(texts.length);
    expect(randomHex(0)).toBe("");
  });
});

describe("decodeHex", () => {
  it("gives back the bytes randomHex wrote, in either case, and refuses what is not hex", () => {
    const text = randomHex(32);
    const bytes = decodeHex(text);
    expect(Array.from(bytes ?? [], (byte) => byte.toString(16).padStart(2, "0")).join("")).toBe(text);
    expect(decodeHex("00ffA0")).toEqual(new Uint8Array([0, 255, 160]));
    expect(decodeHex("")).toEqual(new Uint8Array([]));
    for (const bad of ["abc", "0g", "zz", " 0f", "0x0f"]) expect(decodeHex(bad)).toBeUndefined();
  });
});

import * as fc from "fast-check";
import { describe, expect, it } from "vitest";

import { decodeBase64url, encodeBase64url } from "./base64url.js";

const runs = (normal: number): number => Number(process.env["FUZZ_RUNS"]) || normal;
const SEED = 20260728;

describe("base64url", () => {
  it("encodes as Node's unpadded base64url does, and decodes back", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const text = encodeBase64url(bytes);
        expect(text).toBe(Buffer.from(bytes).toString("base64url"));
        expect(decodeBase64url(text)).toEqual(bytes);
      }),
      { numRuns: runs(300), seed: SEED },
    );
  });

  it("decodes only the one text that encodes the bytes", () => {
    const alphabetText = fc.string({ unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/. é".split("")), maxLength: 12 });
    fc.assert(
      fc.property(fc.oneof(alphabetText, fc.string({ maxLength: 12 })), (text) => {
        const canonical = /^[A-Za-z0-9_-]*$/.test(text) && Buffer.from(text, "base64url").toString("base64url") === text;
        const decoded = decodeBase64url(text);
        expect(decoded === undefined ? undefined : Buffer.from(decoded).toString("base64url")).toBe(canonical ? text : undefined);
      }),
      { numRuns: runs(500), seed: SEED + 1 },
    );
  });

  it("refuses unused low bits that are set, a fifth character of a quantum, and padding", () => {
    expect(decodeBase64url("AA")).toEqual(new Uint8Array([0]));
    expect(decodeBase64url("AB")).toBeUndefined();
    expect(decodeBase64url("AAA")).toEqual(new Uint8Array([0, 0]));
    expect(decodeBase64url("AAB")).toBeUndefined();
    expect(decodeBase64url("AAAAA")).toBeUndefined();
    expect(decodeBase64url("AA==")).toBeUndefined();
    expect(decodeBase64url("")).toEqual(new Uint8Array(0));
  });
});

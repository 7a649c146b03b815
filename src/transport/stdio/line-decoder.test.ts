import { describe, expect, it, vi } from "vitest";
import { LineDecoder } from "./line-decoder.js";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("LineDecoder: what it copies", () => {
  it("decodes frames that lie wholly inside a chunk where they lie: a chunk that ends with its newline is not copied at all", () => {
    const decoder = new LineDecoder(1024);
    const copies = vi.spyOn(Uint8Array.prototype, "slice");
    const events = decoder.push(bytes('{"a":1}\n{"b":2}\r\n'));
    expect(copies).not.toHaveBeenCalled();
    expect(events).toEqual([
      { kind: "line", text: '{"a":1}' },
      { kind: "line", text: '{"b":2}' },
    ]);
  });

  it("copies only the unfinished frame at a chunk's end, once, and finishes it with the next chunk", () => {
    const decoder = new LineDecoder(1024);
    const copies = vi.spyOn(Uint8Array.prototype, "slice");
    expect(decoder.push(bytes('{"a":1}\n{"b":'))).toEqual([{ kind: "line", text: '{"a":1}' }]);
    expect(copies).toHaveBeenCalledTimes(1);
    expect(copies.mock.results[0]?.value).toEqual(bytes('{"b":'));
    expect(decoder.push(bytes("2}\n"))).toEqual([{ kind: "line", text: '{"b":2}' }]);
    expect(decoder.end()).toEqual([]);
  });
});

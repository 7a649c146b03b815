import { describe, expect, it } from "vitest";
import { encodeMessage, lineFrame, sseFrame } from "./encode.js";
import { SseParser } from "./http-client/sse-parser.js";
import { LineDecoder } from "./stdio/line-decoder.js";

const bytes = (text: string) => new TextEncoder().encode(text);

/** Strings holding every character a frame could mistake for the end of a line, and other control characters. */
const TRICKY = ["a\nb", "a\r\nb", "a\rb", "line\u2028sep\u2029para", "\u0000\u0007\u001f\u007f\u0085", "data: x\n\nid: 9", "\n\n\n"];
const MESSAGE = {
  jsonrpc: "2.0",
  id: "x\ny",
  result: { content: TRICKY.map((text) => ({ type: "text", text })), [TRICKY.join("|")]: TRICKY },
};

describe("encodeMessage", () => {
  it("gives the JSON text of a message or a batch", () => {
    expect(encodeMessage({ jsonrpc: "2.0", method: "m" })).toBe('{"jsonrpc":"2.0","method":"m"}');
    expect(encodeMessage([{ jsonrpc: "2.0", id: 1, result: {} }])).toBe('[{"jsonrpc":"2.0","id":1,"result":{}}]');
  });

  it("never holds a raw line break, whatever the strings inside hold", () => {
    const text = encodeMessage(MESSAGE);
    expect(text).not.toMatch(/[\r\n]/);
    expect(text).toContain("\u2028");
    expect(JSON.parse(text)).toEqual(MESSAGE);
  });

  it("refuses a message without JSON form with MCP.TRANSPORT_ERROR naming why", () => {
    expect(() => encodeMessage({ id: 10n })).toThrow(
      expect.objectContaining({
        code: "MCP.TRANSPORT_ERROR",
        message: expect.stringMatching(/^Cannot send: the message is not serialisable as JSON \(.*BigInt/),
      }),
    );
    const cycle: Record<string, unknown> = {};
    cycle["self"] = cycle;
    expect(() => encodeMessage(cycle)).toThrow(expect.objectContaining({ code: "MCP.TRANSPORT_ERROR", cause: expect.any(TypeError) }));
    expect(() => encodeMessage(undefined)).toThrow(
      expect.objectContaining({ code: "MCP.TRANSPORT_ERROR", message: "Cannot send: the message has no JSON form" }),
    );
  });
});

describe("frames", () => {
  it("a stdio line is one line for the line decoder, giving the message back", () => {
    const decoder = new LineDecoder(1 << 20);
    const text = encodeMessage(MESSAGE);
    const events = [...decoder.push(bytes(lineFrame(text) + lineFrame(text))), ...decoder.end()];
    expect(events).toEqual([
      { kind: "line", text },
      { kind: "line", text },
    ]);
    expect(JSON.parse(text)).toEqual(MESSAGE);
  });

  it("an SSE event is one event with one data line for an SSE parser, giving the message back", () => {
    const text = encodeMessage(MESSAGE);
    const frame = sseFrame({ event: "message", id: "s.0_1", data: text });
    expect(frame.match(/^data: /gm)).toHaveLength(1);
    const items = new SseParser().push(bytes(frame + sseFrame({ id: "s.0_2", retry: 10, data: "" })));
    expect(items).toEqual([
      { kind: "event", event: { type: "message", data: text, id: "s.0_1", lastEventId: "s.0_1" } },
      { kind: "event", event: { type: "message", data: "", id: "s.0_2", lastEventId: "s.0_2" } },
    ]);
  });

  it("writes the fields given, in the standard's order, and ends the event with a blank line", () => {
    expect(sseFrame({ event: "message", id: "7", retry: 10, data: "{}" })).toBe("event: message\nid: 7\nretry: 10\ndata: {}\n\n");
    expect(sseFrame({ retry: 5 })).toBe("retry: 5\n\n");
    expect(sseFrame({ event: "endpoint", data: "/mcp?sessionId=1" })).toBe("event: endpoint\ndata: /mcp?sessionId=1\n\n");
  });
});

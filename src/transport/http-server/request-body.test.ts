import { describe, expect, it } from "vitest";
import type { BodyText, HttpExchange, HttpReply } from "./http-server.types.js";
import { readJsonBody } from "./request-body.js";

/** An exchange with the given Content-Length and body text; counts how often the body is read. */
function postOf(contentLength: string | null, text: string): { exchange: HttpExchange; reads: () => number } {
  let reads = 0;
  const exchange: HttpExchange = {
    method: "POST",
    url: new URL("http://127.0.0.1/mcp"),
    header: (name) => (name === "content-length" ? contentLength : null),
    headers: () => ({}),
    text: (maxBytes): Promise<BodyText> => {
      reads++;
      return Promise.resolve(new TextEncoder().encode(text).byteLength > maxBytes ? { ok: false, tooLarge: true } : { ok: true, text });
    },
    onClientGone: () => () => undefined,
    request: () => new Request("http://127.0.0.1/mcp", { method: "POST" }),
  };
  return { exchange, reads: () => reads };
}

const errorBody = (reply: HttpReply) => JSON.parse(reply.body as string) as { error: { code: number; message: string } };

describe("readJsonBody", () => {
  it("reads a body whose declared length is exactly the limit", async () => {
    const body = '{"n":12345}';
    const { exchange, reads } = postOf(String(body.length), body);
    expect(await readJsonBody(exchange, body.length)).toEqual({ ok: true, value: { n: 12345 } });
    expect(reads()).toBe(1);
  });

  it("refuses a declared length over the limit without reading the body, even when the body itself would fit", async () => {
    const { exchange, reads } = postOf("11", "{}");
    const read = await readJsonBody(exchange, 10);
    if (read.ok) throw new Error("a declared length over the limit is refused");
    expect(read.reply.status).toBe(413);
    expect(errorBody(read.reply).error).toEqual({ code: -32000, message: "Payload Too Large: the body must not exceed 10 bytes" });
    expect(reads()).toBe(0);
  });

  it("refuses a body that passes the limit while read, and one that is not JSON", async () => {
    const large = await readJsonBody(postOf(null, '{"n":123456}').exchange, 10);
    expect(large.ok ? undefined : large.reply.status).toBe(413);
    const broken = await readJsonBody(postOf(null, "{").exchange, 10);
    if (broken.ok) throw new Error("'{' is not JSON");
    expect(broken.reply.status).toBe(400);
    expect(errorBody(broken.reply).error).toMatchObject({ code: -32700, message: expect.stringMatching(/^Parse error: /) });
  });
});

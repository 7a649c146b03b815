// A request that could not be relayed is served here with the body already read: `withBody` gives
// the exchange back as it came, the body included.
import { describe, expect, it } from "vitest";
import { exchangeOf } from "../fetch-exchange.js";
import { withBody } from "./relayed-exchange.js";

describe("withBody", () => {
  it("gives everything of the exchange back, and the body read already", async () => {
    const controller = new AbortController();
    const original = exchangeOf(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { "x-n": "1", "content-type": "application/json" },
        body: "{}",
        signal: controller.signal,
      }),
    );
    await original.text(100);
    const again = withBody(original, '{"jsonrpc":"2.0"}');
    expect([again.method, again.url.href, again.header("x-n"), again.headers()["x-n"]]).toEqual(["POST", "http://127.0.0.1/mcp", "1", "1"]);
    expect(await again.text(100)).toEqual({ ok: true, text: '{"jsonrpc":"2.0"}' });
    expect(await again.text(5)).toEqual({ ok: false, tooLarge: true });
    expect(await again.request().text()).toBe('{"jsonrpc":"2.0"}');
    let gone = 0;
    again.onClientGone(() => void (gone += 1));
    controller.abort();
    expect(gone).toBe(1);
    expect(withBody(original, undefined)).toBe(original);
  });
});

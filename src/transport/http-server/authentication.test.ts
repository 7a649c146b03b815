import { describe, expect, it } from "vitest";
import { identifyCaller } from "./authentication.js";
import type { HttpExchange } from "./http-server.types.js";

/** An exchange that counts how often its headers are gathered. */
function countingExchange(): { exchange: HttpExchange; gathered: () => number } {
  let gathered = 0;
  const exchange: HttpExchange = {
    method: "POST",
    url: new URL("http://127.0.0.1/mcp"),
    header: () => null,
    headers: () => {
      gathered++;
      return { "x-trace": "t-1" };
    },
    text: () => Promise.resolve({ ok: true, text: "" }),
    onClientGone: () => () => undefined,
    request: () => new Request("http://127.0.0.1/mcp", { method: "POST" }),
  };
  return { exchange, gathered: () => gathered };
}

describe("identifyCaller", () => {
  it("gathers a request's headers only when someone reads them, and then once", async () => {
    const { exchange, gathered } = countingExchange();
    const caller = await identifyCaller(undefined, exchange);
    if (!caller.ok) throw new Error("no authenticate: every caller passes");
    expect(gathered()).toBe(0);
    expect(caller.inbound.authInfo).toBeUndefined();
    expect(caller.inbound.headers).toEqual({ "x-trace": "t-1" });
    expect(caller.inbound.headers).toBe(caller.inbound.headers);
    expect(gathered()).toBe(1);
    expect(JSON.parse(JSON.stringify(caller.inbound))).toEqual({ headers: { "x-trace": "t-1" } });
  });

  it("carries what authenticate established beside the headers", async () => {
    const { exchange, gathered } = countingExchange();
    const caller = await identifyCaller(() => ({ authInfo: { subject: "alice" } }), exchange);
    if (!caller.ok) throw new Error("authenticate accepted the caller");
    expect(caller.inbound.authInfo).toEqual({ subject: "alice" });
    expect(gathered()).toBe(0);
    expect(caller.inbound.headers?.["x-trace"]).toBe("t-1");
    expect(JSON.parse(JSON.stringify(caller.inbound))).toEqual({ authInfo: { subject: "alice" }, headers: { "x-trace": "t-1" } });
  });
});

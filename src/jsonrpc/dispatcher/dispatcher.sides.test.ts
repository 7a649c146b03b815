// Which half of the codec checks what arrives: a client checks the server's requests and
// notifications, a server the client's; a method only the other side sends is left to its handler.
import { describe, expect, it } from "vitest";
import { scriptedDispatcher } from "./dispatcher.test-helpers.js";

describe("the side a dispatcher speaks for picks the schemas of what arrives", () => {
  it("a client checks the params of server requests, and not those of client requests", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client" });
    const called: string[] = [];
    dispatcher.setRequestHandler("elicitation/create", () => {
      called.push("elicitation/create");
      return { action: "decline" };
    });
    dispatcher.setRequestHandler("tools/call", () => {
      called.push("tools/call");
      return {};
    });
    peer.deliver({ jsonrpc: "2.0", id: 1, method: "elicitation/create", params: {} });
    peer.deliver({ jsonrpc: "2.0", id: 2, method: "tools/call", params: {} });
    const answers = await peer.waitForSent(2);
    expect(answers).toHaveLength(2);
    expect(answers).toEqual(
      expect.arrayContaining([
        {
          jsonrpc: "2.0",
          id: 1,
          error: { code: -32602, message: "Invalid params for elicitation/create: message: is required; requestedSchema: is required" },
        },
        { jsonrpc: "2.0", id: 2, result: {} },
      ]),
    );
    expect(called).toEqual(["tools/call"]);
  });

  it("a server checks the params of client notifications, and not those of server notifications", async () => {
    const reported: string[] = [];
    const { dispatcher, peer } = await scriptedDispatcher({ side: "server", onProtocolError: (error) => reported.push(error.message) });
    const seen: unknown[] = [];
    dispatcher.setNotificationHandler("notifications/roots/list_changed", (params) => void seen.push(["roots", params]));
    dispatcher.setNotificationHandler("notifications/message", (params) => void seen.push(["message", params]));
    peer.deliver({ jsonrpc: "2.0", method: "notifications/roots/list_changed", params: { _meta: 5 } });
    peer.deliver({ jsonrpc: "2.0", method: "notifications/message", params: { level: 5 } });
    expect(reported).toEqual(["Invalid params for notification notifications/roots/list_changed: _meta: expected object, received number"]);
    expect(seen).toEqual([["message", { level: 5 }]]);
  });
});

import { describe, expect, it } from "vitest";
import { outgoingOf } from "./messages.js";

const none = { requestIds: [], initializeId: undefined, cancelledId: undefined, initialized: false };

describe("outgoingOf: what a client transport notes of a message it sends", () => {
  it("notes a request's id, and an initialize request's", () => {
    expect(outgoingOf({ jsonrpc: "2.0", id: 4, method: "tools/list" })).toEqual({ ...none, requestIds: [4] });
    expect(outgoingOf({ jsonrpc: "2.0", id: "i", method: "initialize", params: {} })).toEqual({
      ...none,
      requestIds: ["i"],
      initializeId: "i",
    });
  });

  it("notes notifications/initialized and the request a notifications/cancelled gives up on", () => {
    expect(outgoingOf({ jsonrpc: "2.0", method: "notifications/initialized" })).toEqual({ ...none, initialized: true });
    expect(outgoingOf({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } })).toEqual({
      ...none,
      cancelledId: 7,
    });
    expect(outgoingOf({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1.5 } })).toEqual(none);
    expect(outgoingOf({ jsonrpc: "2.0", method: "notifications/progress", params: {} })).toEqual(none);
  });

  it("notes nothing of responses and of what is no message", () => {
    expect(outgoingOf({ jsonrpc: "2.0", id: 1, result: {} })).toEqual(none);
    expect(outgoingOf({ jsonrpc: "2.0", id: 1, error: { code: 1, message: "m" } })).toEqual(none);
    expect(outgoingOf("text")).toEqual(none);
  });

  it("notes the requests of a batch, and nothing else of it", () => {
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: {} },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "ping" },
    ];
    expect(outgoingOf(batch)).toEqual({ ...none, requestIds: [1, 2] });
    expect(outgoingOf([{ jsonrpc: "2.0", method: "notifications/initialized" }])).toEqual(none);
  });

  it("takes the kind its sender gives instead of classifying", () => {
    // A sender that says "request" is believed; one that says "response" gets nothing noted, whatever the shape.
    expect(outgoingOf({ jsonrpc: "2.0", id: 3, method: "ping" }, "response")).toEqual(none);
    expect(outgoingOf({ jsonrpc: "2.0", id: 3, method: "initialize" }, "request")).toEqual({ ...none, requestIds: [3], initializeId: 3 });
    expect(outgoingOf({ jsonrpc: "2.0", method: "notifications/initialized" }, "notification")).toEqual({ ...none, initialized: true });
  });
});

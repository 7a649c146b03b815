// What the dispatcher tells its users and its transport, exactly: the messages, causes and data of
// its errors, its ids, and the message objects and send options a transport is given.
import { describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError, MCPError } from "../../error-codes/mcp-error.js";
import { Telemetry } from "../../telemetry/telemetry.js";
import type { Transport, TransportReceiver } from "../../transport/transport/transport.types.js";
import { JsonRpcDispatcher } from "./dispatcher.js";
import { rejection, scriptedDispatcher } from "./dispatcher.test-helpers.js";

const duplicate = (message: string) => expect.objectContaining({ code: MCP_CODES.DUPLICATE_REGISTRATION, message });

describe("JsonRpcDispatcher: what its errors say", () => {
  it("names what is registered twice, and a second connect", async () => {
    const { dispatcher, peer } = await scriptedDispatcher();
    dispatcher.setRequestHandler("test/a", () => ({}));
    dispatcher.setNotificationHandler("test/n", () => undefined);
    dispatcher.routeRequests(new Set(["test/routed"]), () => ({}));
    expect(() => dispatcher.setRequestHandler("test/a", () => ({}))).toThrow(
      duplicate("A handler for request test/a is already registered"),
    );
    expect(() => dispatcher.setRequestHandler("test/routed", () => ({}))).toThrow(
      duplicate("A handler for request test/routed is already registered"),
    );
    expect(() => dispatcher.setNotificationHandler("test/n", () => undefined)).toThrow(
      duplicate("A handler for notification test/n is already registered"),
    );
    expect(() => dispatcher.routeRequests(new Set(["test/other"]), () => ({}))).toThrow(
      duplicate("Requests are already routed on this dispatcher"),
    );
    await expect(dispatcher.connect(peer)).rejects.toMatchObject({
      code: MCP_CODES.ALREADY_CONNECTED,
      message: "This dispatcher is already connected",
    });
  });

  it("rejects a request whose signal is already aborted with the signal's reason as cause, and sends nothing", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client" });
    const error = await rejection(dispatcher.request("test/a", {}, { signal: AbortSignal.abort("changed my mind") }));
    expect(error).toMatchObject({
      code: MCP_CODES.REQUEST_CANCELLED,
      message: "Request test/a was cancelled before it was sent",
      cause: "changed my mind",
    });
    expect(peer.given).toEqual([]);
  });

  it("rejects what is pending when close() is called with 'The connection closed', and closes the transport once", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client" });
    const closeTransport = vi.spyOn(peer, "close");
    const pending = rejection(dispatcher.request("test/a"));
    await dispatcher.close();
    await dispatcher.close();
    const error = await pending;
    expect(error).toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED, message: "The connection closed" });
    expect(error.cause).toBeUndefined();
    expect(closeTransport).toHaveBeenCalledTimes(1);
  });

  it("answers an empty batch with the reason", async () => {
    const { peer } = await scriptedDispatcher({ protocolVersion: "2025-03-26" });
    peer.deliver([]);
    const [answer] = await peer.waitForSent(1);
    expect(answer).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "An empty batch is not a valid JSON-RPC request" },
    });
  });

  it("reports a notification's bad params with the method and the issue", async () => {
    const reported: MCPError[] = [];
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client", onProtocolError: (error) => reported.push(error) });
    dispatcher.setNotificationHandler("notifications/resources/updated", () => undefined);
    peer.deliver({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: 42 } });
    expect(reported).toEqual([
      expect.objectContaining({
        code: MCP_CODES.INVALID_PARAMS,
        message: "Invalid params for notification notifications/resources/updated: uri: expected string, received number",
      }),
    ]);
  });

  it("rejects a malformed result with the result itself as data", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client" });
    const pending = rejection(dispatcher.request("tools/list"));
    await peer.waitForSent(1);
    peer.deliver({ jsonrpc: "2.0", id: 1, result: { tools: "not a list" } });
    const error = await pending;
    expect(error).toMatchObject({
      code: MCP_CODES.PROTOCOL_INVALID,
      message: "Invalid result for tools/list: tools: expected array, received string",
    });
    expect(error.data).toEqual({ tools: "not a list" });
  });

  it("reports an error response nobody waits for with the peer's error as cause", async () => {
    const reported: MCPError[] = [];
    const { peer } = await scriptedDispatcher({ side: "client", onProtocolError: (error) => reported.push(error) });
    peer.deliver({ jsonrpc: "2.0", id: 98, error: { code: -32602, message: "late", data: { field: "x" } } });
    peer.deliver({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "you sent garbage" } });
    expect(reported.map((error) => [error.code, error.message])).toEqual([
      [MCP_CODES.PROTOCOL_INVALID, "Received an error for unknown request id 98: late"],
      [MCP_CODES.PROTOCOL_INVALID, "Received an error for an unidentifiable message: you sent garbage"],
    ]);
    const [late, garbage] = reported.map((error) => error.cause as MCPError);
    expect(late).toBeInstanceOf(MCPError);
    expect(late).toMatchObject({ code: MCP_CODES.INVALID_PARAMS, wireCode: -32602, message: "late", data: { field: "x" } });
    expect(late?.cause).toBeInstanceOf(JsonRpcError);
    expect(garbage).toMatchObject({ code: MCP_CODES.PROTOCOL_INVALID, wireCode: -32700, message: "you sent garbage" });
  });
});

describe("JsonRpcDispatcher: ids", () => {
  it("names each dispatcher by its side and a number one higher than the last one's, unless given an id", () => {
    const first = new JsonRpcDispatcher({ side: "client", telemetry: null });
    const second = new JsonRpcDispatcher({ side: "server", telemetry: null });
    const named = new JsonRpcDispatcher({ side: "server", telemetry: null, id: "mine" });
    const third = new JsonRpcDispatcher({ side: "server", telemetry: null });
    expect(first.id).toMatch(/^client-[1-9]\d*$/);
    const number = Number(first.id.slice("client-".length));
    expect([second.id, named.id, third.id]).toEqual([`server-${number + 1}`, "mine", `server-${number + 2}`]);
  });
});

describe("JsonRpcDispatcher: what a transport is given", () => {
  it("omits absent params from the message object, and tells the transport each message's kind and related request", async () => {
    const { dispatcher, peer } = await scriptedDispatcher();
    dispatcher.setRequestHandler("test/outer", async (_params, context) => {
      await context.notify("test/related");
      void context.request("test/inner").catch(() => undefined);
      return {};
    });
    void dispatcher.request("test/plain").catch(() => undefined);
    await dispatcher.notify("test/plain");
    peer.deliver({ jsonrpc: "2.0", id: "outer", method: "test/outer" });
    await peer.waitForSent(5);
    // toStrictEqual: a member present with the value undefined would not match.
    expect(peer.given).toStrictEqual([
      { message: { jsonrpc: "2.0", id: 1, method: "test/plain" }, options: { kind: "request" } },
      { message: { jsonrpc: "2.0", method: "test/plain" }, options: { kind: "notification" } },
      { message: { jsonrpc: "2.0", method: "test/related" }, options: { kind: "notification", relatedRequestId: "outer" } },
      { message: { jsonrpc: "2.0", id: 2, method: "test/inner" }, options: { kind: "request", relatedRequestId: "outer" } },
      { message: { jsonrpc: "2.0", id: "outer", result: {} }, options: { kind: "response" } },
    ]);
    await dispatcher.close();
  });

  it("says an error answer and a batch of answers are responses", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ protocolVersion: "2025-03-26" });
    dispatcher.setRequestHandler("test/ok", async () => ({}));
    peer.deliver({ jsonrpc: "2.0", id: 1, method: "test/unknown" });
    peer.deliver([
      { jsonrpc: "2.0", id: 2, method: "test/ok" },
      { jsonrpc: "2.0", id: 3, method: "test/ok" },
    ]);
    await peer.waitForSent(2);
    expect(peer.given).toStrictEqual([
      { message: { jsonrpc: "2.0", id: 1, error: expect.objectContaining({ code: -32601 }) }, options: { kind: "response" } },
      {
        message: [
          { jsonrpc: "2.0", id: 2, result: {} },
          { jsonrpc: "2.0", id: 3, result: {} },
        ],
        options: { kind: "response" },
      },
    ]);
    await dispatcher.close();
  });

  it("neither answers nor throws into a transport that failed to start and still calls back", async () => {
    let receiver: TransportReceiver | undefined;
    const send = vi.fn(async () => undefined);
    const broken: Transport = {
      start: async (given) => {
        receiver = given;
        throw new Error("port in use");
      },
      send,
      close: async () => undefined,
    };
    const dispatcher = new JsonRpcDispatcher({ side: "server", telemetry: new Telemetry() });
    let ran = false;
    dispatcher.setRequestHandler("test/a", () => {
      ran = true;
      return {};
    });
    await expect(dispatcher.connect(broken)).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR, message: "port in use" });
    expect(() => receiver?.onMessage({ jsonrpc: "2.0", id: 1, method: "test/a" })).not.toThrow();
    expect(() => receiver?.onMalformed(new MCPError(MCP_CODES.PROTOCOL_INVALID, "Parse error"))).not.toThrow();
    // The answer is dropped the moment the request completes.
    await vi.waitFor(() => expect(dispatcher.pendingCount).toEqual({ outgoing: 0, incoming: 0 }));
    expect(ran).toBe(true);
    expect(send).not.toHaveBeenCalled();
  });
});

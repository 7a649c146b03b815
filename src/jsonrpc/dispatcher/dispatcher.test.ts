import { describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { PROTOCOL_VERSIONS } from "../../constants/index.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError, MCPError } from "../../error-codes/mcp-error.js";
import { EventBus, type MCPEventMap } from "../../events/events.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import { JsonRpcDispatcher } from "./dispatcher.js";
import { connectedPair, rejection, scriptedDispatcher, settle } from "./dispatcher.test-helpers.js";

/** The one revision with JSON-RPC batches. */
const BATCHING_REVISION = "2025-03-26";

describe("JsonRpcDispatcher: requests and responses", () => {
  it("round-trips a request to the peer's handler and resolves with its result", async () => {
    const { client, server } = await connectedPair();
    server.setRequestHandler("test/echo", (params) => ({ echoed: params }));
    await expect(client.request("test/echo", { a: 1 })).resolves.toEqual({ echoed: { a: 1 } });
  });

  it("allocates a fresh increasing id for every request", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client" });
    void dispatcher.request("test/a").catch(() => undefined);
    void dispatcher.request("test/b", { x: 1 }).catch(() => undefined);
    const sent = await peer.waitForSent(2);
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: 1, method: "test/a" },
      { jsonrpc: "2.0", id: 2, method: "test/b", params: { x: 1 } },
    ]);
    await dispatcher.close();
  });

  it("answers an unknown method with -32601, rejected locally as MCP.METHOD_NOT_FOUND", async () => {
    const { client } = await connectedPair();
    const error = await rejection(client.request("test/nothing"));
    expect(error).toBeInstanceOf(MCPError);
    expect(error.code).toBe(MCP_CODES.METHOD_NOT_FOUND);
    expect(error.wireCode).toBe(-32601);
    expect(error.message).toContain("test/nothing");
  });

  it("validates params against the codec and answers -32602 (MCP.INVALID_PARAMS) with the issue", async () => {
    const { client, server } = await connectedPair();
    const handler = vi.fn(() => ({ content: [] }));
    server.setRequestHandler("tools/call", handler);
    const error = await rejection(client.request("tools/call", { arguments: {} }));
    expect(error.code).toBe(MCP_CODES.INVALID_PARAMS);
    expect(error.wireCode).toBe(-32602);
    expect(error.message).toMatch(/tools\/call.*name/);
    expect(handler).not.toHaveBeenCalled();
  });

  it("validates params of a method the codec does not know against the handler's own schema", async () => {
    const { client, server } = await connectedPair();
    server.setRequestHandler(
      "test/add",
      (params) => {
        const { a, b } = params as { a: number; b: number };
        return { sum: a + b };
      },
      z.object({ a: z.number(), b: z.number() }),
    );
    await expect(client.request("test/add", { a: 2, b: 3 })).resolves.toEqual({ sum: 5 });
    const error = await rejection(client.request("test/add", { a: "2" }));
    expect(error.code).toBe(MCP_CODES.INVALID_PARAMS);
  });

  it("answers -32602 when a handler's schema itself throws", async () => {
    const { client, server } = await connectedPair();
    const exploding = z.object({}).refine(() => {
      throw new Error("refinement blew up");
    });
    server.setRequestHandler("test/x", () => ({}), exploding);
    const error = await rejection(client.request("test/x", {}));
    expect(error.code).toBe(MCP_CODES.INVALID_PARAMS);
    expect(error.message).toContain("refinement blew up");
  });

  it("resolves with an empty object when the handler returns nothing", async () => {
    const { client, server } = await connectedPair();
    server.setRequestHandler("test/void", () => undefined);
    await expect(client.request("test/void")).resolves.toEqual({});
  });

  it("validates results against the codec: a malformed result rejects with MCP.PROTOCOL_INVALID", async () => {
    const { client, server } = await connectedPair();
    server.setRequestHandler("tools/list", () => ({ tools: "not a list" }));
    const error = await rejection(client.request("tools/list"));
    expect(error.code).toBe(MCP_CODES.PROTOCOL_INVALID);
    expect(error.message).toContain("tools/list");
  });

  it("uses the negotiated revision's schemas once setCodec switches them", async () => {
    const { client, server } = await connectedPair();
    server.setRequestHandler("tools/call", () => ({ content: [{ type: "audio", data: "AA==", mimeType: "audio/wav" }] }));
    await expect(client.request("tools/call", { name: "t" })).resolves.toMatchObject({ content: [{ type: "audio" }] });
    client.setProtocolVersion("2024-11-05");
    expect(client.codec.version).toBe("2024-11-05");
    expect(client.session.protocolVersion).toBe("2024-11-05");
    const error = await rejection(client.request("tools/call", { name: "t" }));
    expect(error.code).toBe(MCP_CODES.PROTOCOL_INVALID);
  });

  it("refuses a second handler for the same method with MCP.DUPLICATE_REGISTRATION, and allows it after removal", async () => {
    const { server } = await connectedPair();
    server.setRequestHandler("test/a", () => ({}));
    expect(() => server.setRequestHandler("test/a", () => ({}))).toThrow(
      expect.objectContaining({ code: MCP_CODES.DUPLICATE_REGISTRATION }),
    );
    expect(server.removeRequestHandler("test/a")).toBe(true);
    expect(server.removeRequestHandler("test/a")).toBe(false);
    server.setRequestHandler("test/a", () => ({}));
    server.setNotificationHandler("test/n", () => undefined);
    expect(() => server.setNotificationHandler("test/n", () => undefined)).toThrow(
      expect.objectContaining({ code: MCP_CODES.DUPLICATE_REGISTRATION }),
    );
    expect(server.removeNotificationHandler("test/n")).toBe(true);
    expect(server.removeNotificationHandler("test/n")).toBe(false);
  });

  it("routes a shared set of methods to one handler, next to its own handlers, and refuses overlaps", async () => {
    const { client, server } = await connectedPair();
    const methods: ReadonlySet<string> = new Set(["test/a", "test/b"]);
    server.setRequestHandler("test/own", () => ({ own: true }));
    expect(() => server.routeRequests(new Set(["test/own"]), () => ({}))).toThrow(
      expect.objectContaining({ code: MCP_CODES.DUPLICATE_REGISTRATION, message: "A handler for request test/own is already registered" }),
    );
    server.routeRequests(methods, (params, context) => ({ method: context.method, params }));
    expect(() => server.routeRequests(new Set(["test/c"]), () => ({}))).toThrow(
      expect.objectContaining({ code: MCP_CODES.DUPLICATE_REGISTRATION }),
    );
    expect(() => server.setRequestHandler("test/b", () => ({}))).toThrow(
      expect.objectContaining({ code: MCP_CODES.DUPLICATE_REGISTRATION }),
    );
    await expect(client.request("test/a", { x: 1 })).resolves.toEqual({ method: "test/a", params: { x: 1 } });
    await expect(client.request("test/b")).resolves.toEqual({ method: "test/b" });
    await expect(client.request("test/own")).resolves.toEqual({ own: true });
    const error = await rejection(client.request("test/c"));
    expect(error.wireCode).toBe(-32601);
  });

  it("runs a method's result check with the key taken from its request: a value, a promise, or a throw", async () => {
    const { client, server } = await connectedPair();
    server.setRequestHandler("test/echo", (params) => ({ echoed: params }));
    const keys: unknown[] = [];
    client.setResultCheck(
      "test/echo",
      (result, key) => {
        keys.push(key);
        if (key === "later") return Promise.resolve({ checked: "later" });
        if (key === "later-bad") return Promise.reject(new Error("not what was promised"));
        if (key === "bad") throw new Error("broken result");
        if (key === "mcp") throw new MCPError(MCP_CODES.INVALID_PARAMS, "kept as is");
        return { checked: result };
      },
      (params) => params?.["key"],
    );
    await expect(client.request("test/echo", { key: "now" })).resolves.toEqual({ checked: { echoed: { key: "now" } } });
    await expect(client.request("test/echo", { key: "later" })).resolves.toEqual({ checked: "later" });
    expect(await rejection(client.request("test/echo", { key: "bad" }))).toMatchObject({
      code: MCP_CODES.PROTOCOL_INVALID,
      message: "broken result",
    });
    expect(await rejection(client.request("test/echo", { key: "mcp" }))).toMatchObject({
      code: MCP_CODES.INVALID_PARAMS,
      message: "kept as is",
    });
    expect(await rejection(client.request("test/echo", { key: "later-bad" }))).toMatchObject({
      code: MCP_CODES.PROTOCOL_INVALID,
      message: "not what was promised",
    });
    expect(keys).toEqual(["now", "later", "bad", "mcp", "later-bad"]);
    expect(client.pendingCount.outgoing).toBe(0);
  });

  it("answers a request whose id is already in progress with -32600 and keeps the first one running", async () => {
    const { dispatcher, peer } = await scriptedDispatcher();
    let release!: () => void;
    dispatcher.setRequestHandler("test/slow", () => new Promise<object>((resolve) => (release = () => resolve({ first: true }))));
    peer.deliver({ jsonrpc: "2.0", id: 7, method: "test/slow" });
    peer.deliver({ jsonrpc: "2.0", id: 7, method: "test/slow" });
    const [duplicate] = await peer.waitForSent(1);
    expect(duplicate).toMatchObject({ id: 7, error: { code: -32600, message: expect.stringContaining("already in use") } });
    release();
    const sent = await peer.waitForSent(2);
    expect(sent[1]).toEqual({ jsonrpc: "2.0", id: 7, result: { first: true } });
  });
});

describe("JsonRpcDispatcher: handler failures become error responses", () => {
  const cases: Array<[string, () => unknown, { code: number; message: string; data?: unknown }, string]> = [
    [
      "an Error",
      () => {
        throw new Error("boom");
      },
      { code: -32603, message: "boom" },
      MCP_CODES.INTERNAL_ERROR,
    ],
    [
      "a rejected promise",
      () => Promise.reject(new Error("later boom")),
      { code: -32603, message: "later boom" },
      MCP_CODES.INTERNAL_ERROR,
    ],
    [
      "a string",
      () => {
        throw "just a string";
      },
      { code: -32603, message: "just a string" },
      MCP_CODES.INTERNAL_ERROR,
    ],
    [
      "undefined",
      () => {
        throw undefined;
      },
      { code: -32603, message: "undefined" },
      MCP_CODES.INTERNAL_ERROR,
    ],
    [
      "a plain object",
      () => {
        throw { why: "no" };
      },
      { code: -32603, message: '{"why":"no"}' },
      MCP_CODES.INTERNAL_ERROR,
    ],
    [
      "an MCPError",
      () => {
        throw new MCPError(MCP_CODES.NOT_FOUND, "no such resource", { data: { uri: "x://y" } });
      },
      { code: -32002, message: "no such resource", data: { uri: "x://y" } },
      MCP_CODES.NOT_FOUND,
    ],
    [
      "a JsonRpcError",
      () => {
        throw new JsonRpcError(-32042, "elicit first", { url: "https://example.com" });
      },
      { code: -32042, message: "elicit first", data: { url: "https://example.com" } },
      MCP_CODES.HANDLER_FAILED,
    ],
  ];

  it.each(cases)("a handler that throws %s answers with the mapped wire error", async (_label, handler, wire, localCode) => {
    const { client, server } = await connectedPair();
    server.setRequestHandler("test/fail", handler);
    const error = await rejection(client.request("test/fail"));
    expect(error.toJSON()).toEqual(wire);
    expect(error.code).toBe(localCode);
    expect(error.cause).toBeInstanceOf(JsonRpcError);
    // The connection survives every failure.
    server.setRequestHandler("test/ok", () => ({ ok: true }));
    await expect(client.request("test/ok")).resolves.toEqual({ ok: true });
  });
});

describe("JsonRpcDispatcher: notifications", () => {
  it("delivers notifications to their handler with the session, and sends none back", async () => {
    const { client, server } = await connectedPair();
    const seen: unknown[] = [];
    server.setNotificationHandler("test/note", (params, context) => {
      seen.push([params, context.method, context.session.dispatcherId]);
    });
    await client.notify("test/note", { n: 1 });
    await client.notify("test/note");
    await settle();
    expect(seen).toEqual([
      [{ n: 1 }, "test/note", server.id],
      [undefined, "test/note", server.id],
    ]);
  });

  it("ignores notifications nobody handles", async () => {
    const { peer } = await scriptedDispatcher();
    peer.deliver({ jsonrpc: "2.0", method: "test/unheard", params: {} });
    await settle();
    expect(peer.sent).toEqual([]);
  });

  it("validates notification params against the codec and reports a bad one instead of calling the handler", async () => {
    const onProtocolError = vi.fn();
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client", onProtocolError });
    const handler = vi.fn();
    dispatcher.setNotificationHandler("notifications/resources/updated", handler);
    peer.deliver({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: 42 } });
    peer.deliver({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///a" } });
    await settle();
    expect(handler).toHaveBeenCalledTimes(1);
    expect(handler.mock.calls[0]?.[0]).toEqual({ uri: "file:///a" });
    expect(onProtocolError).toHaveBeenCalledWith(expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS }));
  });

  it("validates an unknown notification against the handler's own schema", async () => {
    const onProtocolError = vi.fn();
    const { dispatcher, peer } = await scriptedDispatcher({ onProtocolError });
    const handler = vi.fn();
    dispatcher.setNotificationHandler("test/typed", handler, z.object({ n: z.number() }));
    peer.deliver({ jsonrpc: "2.0", method: "test/typed", params: { n: "x" } });
    peer.deliver({ jsonrpc: "2.0", method: "test/typed", params: { n: 1 } });
    await settle();
    expect(handler).toHaveBeenCalledTimes(1);
    expect(onProtocolError).toHaveBeenCalledTimes(1);
  });

  it("reports a notification handler that throws or rejects, and keeps serving", async () => {
    const onProtocolError = vi.fn();
    const { dispatcher, peer } = await scriptedDispatcher({ onProtocolError });
    dispatcher.setNotificationHandler("test/throws", () => {
      throw new Error("sync failure");
    });
    dispatcher.setNotificationHandler("test/rejects", () => Promise.reject(new Error("async failure")));
    dispatcher.setRequestHandler("test/ok", () => ({ ok: 1 }));
    peer.deliver({ jsonrpc: "2.0", method: "test/throws" });
    peer.deliver({ jsonrpc: "2.0", method: "test/rejects" });
    peer.deliver({ jsonrpc: "2.0", id: 1, method: "test/ok" });
    await peer.waitForSent(1);
    await settle();
    expect(onProtocolError.mock.calls.map(([error]) => (error as MCPError).message)).toEqual(["sync failure", "async failure"]);
    expect(peer.sent).toEqual([{ jsonrpc: "2.0", id: 1, result: { ok: 1 } }]);
  });
});

describe("JsonRpcDispatcher: malformed input is answered and the connection stays up", () => {
  it("answers an unparsable frame with -32700 and id null", async () => {
    const { dispatcher, peer } = await scriptedDispatcher();
    dispatcher.setRequestHandler("test/ok", () => ({ ok: 1 }));
    peer.receiver?.onMalformed(new MCPError(MCP_CODES.PROTOCOL_INVALID, "Parse error: unexpected token"));
    peer.deliver({ jsonrpc: "2.0", id: 2, method: "test/ok" });
    const sent = await peer.waitForSent(2);
    expect(sent[0]).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: unexpected token" } });
    expect(sent[1]).toEqual({ jsonrpc: "2.0", id: 2, result: { ok: 1 } });
  });

  const invalid: Array<[string, unknown, unknown, string]> = [
    ["a number", 42, null, "a JSON-RPC message must be an object"],
    ["null", null, null, "a JSON-RPC message must be an object"],
    ["a wrong jsonrpc version", { jsonrpc: "1.0", id: 1, method: "x" }, 1, 'the "jsonrpc" member must be exactly "2.0"'],
    ["a non-string method", { jsonrpc: "2.0", id: "a", method: 5 }, "a", 'the "method" member must be a string'],
    ["array params", { jsonrpc: "2.0", id: 3, method: "x", params: [1] }, 3, 'the "params" member must be an object'],
    ["a null request id", { jsonrpc: "2.0", id: null, method: "x" }, null, 'a request "id" must be a string or an integer'],
    [
      "a null request id with params",
      { jsonrpc: "2.0", id: null, method: "x", params: {} },
      null,
      'a request "id" must be a string or an integer',
    ],
    ["a fractional request id", { jsonrpc: "2.0", id: 1.5, method: "x" }, null, 'a request "id" must be a string or an integer'],
    ["a result without id", { jsonrpc: "2.0", result: {} }, null, 'a response "id" must be a string or an integer'],
    ["a non-object result", { jsonrpc: "2.0", id: 4, result: 3 }, 4, 'the "result" member must be an object'],
    [
      "an error without code",
      { jsonrpc: "2.0", id: 5, error: { message: "x" } },
      5,
      'an error response needs an "error" with an integer "code" and a string "message", and an id',
    ],
    ["nothing recognisable", { jsonrpc: "2.0", id: 6 }, 6, 'a JSON-RPC message needs a "method", a "result" or an "error"'],
  ];

  it.each(invalid)("answers %s with -32600 and the reason", async (_label, message, id, reason) => {
    const { peer } = await scriptedDispatcher();
    peer.deliver(message);
    const [answer] = await peer.waitForSent(1);
    expect(answer).toEqual({ jsonrpc: "2.0", id, error: { code: -32600, message: `Invalid request: ${reason}` } });
  });

  it("reports a response to an unknown id, and an error response nobody can match", async () => {
    const onProtocolError = vi.fn();
    const { peer } = await scriptedDispatcher({ onProtocolError });
    peer.deliver({ jsonrpc: "2.0", id: 99, result: {} });
    peer.deliver({ jsonrpc: "2.0", id: 98, error: { code: -32603, message: "late" } });
    peer.deliver({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "you sent garbage" } });
    await settle();
    expect(onProtocolError.mock.calls.map(([error]) => (error as MCPError).message)).toEqual([
      "Received a response for unknown request id 99",
      "Received an error for unknown request id 98: late",
      "Received an error for an unidentifiable message: you sent garbage",
    ]);
    expect(peer.sent).toEqual([]);
  });
});

describe("JsonRpcDispatcher: batches", () => {
  it.each(PROTOCOL_VERSIONS.filter((version) => version !== BATCHING_REVISION))(
    "answers a batch in %s with one -32600 and runs none of it",
    async (protocolVersion) => {
      const { dispatcher, peer } = await scriptedDispatcher({ protocolVersion });
      const handler = vi.fn(() => ({}));
      const note = vi.fn();
      dispatcher.setRequestHandler("test/run", handler);
      dispatcher.setNotificationHandler("test/note", note);
      peer.deliver([
        { jsonrpc: "2.0", id: 1, method: "test/run" },
        { jsonrpc: "2.0", method: "test/note" },
      ]);
      const [answer] = await peer.waitForSent(1);
      expect(answer).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: `JSON-RPC batches are not part of protocol revision ${protocolVersion}` },
      });
      peer.deliver({ jsonrpc: "2.0", id: 2, method: "test/run" });
      expect(await peer.waitForSent(2)).toEqual([answer, { jsonrpc: "2.0", id: 2, result: {} }]);
      expect(handler).toHaveBeenCalledTimes(1);
      expect(note).not.toHaveBeenCalled();
    },
  );

  it("answers a batch mixing requests and notifications with one batch of the requests' responses", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ protocolVersion: BATCHING_REVISION });
    const notes: unknown[] = [];
    dispatcher.setRequestHandler("test/double", (params) => ({ value: (params as { n: number }).n * 2 }));
    dispatcher.setNotificationHandler("test/note", (params) => {
      notes.push(params);
    });
    peer.deliver([
      { jsonrpc: "2.0", id: 1, method: "test/double", params: { n: 2 } },
      { jsonrpc: "2.0", method: "test/note", params: { hello: true } },
      { jsonrpc: "2.0", id: "b", method: "test/missing" },
      { jsonrpc: "2.0", id: 3, method: "test/double", params: { n: 5 } },
      17,
    ]);
    const [batch] = await peer.waitForSent(1);
    expect(batch).toEqual([
      { jsonrpc: "2.0", id: 1, result: { value: 4 } },
      { jsonrpc: "2.0", id: "b", error: { code: -32601, message: "Method not found: test/missing" } },
      { jsonrpc: "2.0", id: 3, result: { value: 10 } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request: a JSON-RPC message must be an object" } },
    ]);
    expect(notes).toEqual([{ hello: true }]);
    expect(peer.sent).toHaveLength(1);
  });

  it("sends nothing for a batch of notifications only", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ protocolVersion: BATCHING_REVISION });
    const handler = vi.fn();
    dispatcher.setNotificationHandler("test/note", handler);
    peer.deliver([
      { jsonrpc: "2.0", method: "test/note" },
      { jsonrpc: "2.0", method: "test/note" },
    ]);
    await settle();
    expect(handler).toHaveBeenCalledTimes(2);
    expect(peer.sent).toEqual([]);
  });

  it("sends nothing for a batch whose only request was cancelled", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ protocolVersion: BATCHING_REVISION });
    let finish!: () => void;
    dispatcher.setRequestHandler("test/slow", () => new Promise<object>((resolve) => (finish = () => resolve({}))));
    peer.deliver([{ jsonrpc: "2.0", id: 1, method: "test/slow" }]);
    await settle();
    peer.deliver({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    finish();
    await settle();
    expect(peer.sent).toEqual([]);
  });

  it("answers an empty batch with a single -32600", async () => {
    const { peer } = await scriptedDispatcher({ protocolVersion: BATCHING_REVISION });
    peer.deliver([]);
    const [answer] = await peer.waitForSent(1);
    expect(answer).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it("settles responses that arrive in a batch", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client", protocolVersion: BATCHING_REVISION });
    const first = dispatcher.request("test/a");
    const second = dispatcher.request("test/b");
    await peer.waitForSent(2);
    peer.deliver([
      { jsonrpc: "2.0", id: 2, result: { b: true } },
      { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "nope" } },
    ]);
    await expect(second).resolves.toEqual({ b: true });
    await expect(first).rejects.toMatchObject({ code: MCP_CODES.METHOD_NOT_FOUND });
    expect(peer.sent).toHaveLength(2);
  });
});

describe("JsonRpcDispatcher: connection lifecycle", () => {
  it("rejects a request before connect and after close with MCP.TRANSPORT_CLOSED", async () => {
    const lonely = new JsonRpcDispatcher({ side: "client", telemetry: null });
    await expect(lonely.request("test/a")).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_CLOSED,
      message: expect.stringContaining("connect()"),
    });
    await expect(lonely.notify("test/a")).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    const { client } = await connectedPair();
    await client.close();
    expect(client.closed).toBe(true);
    await expect(client.request("test/a")).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED, message: "The connection is closed" });
    await expect(client.notify("test/a")).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    await client.close();
  });

  it("refuses a second connect with MCP.ALREADY_CONNECTED, and a connect after close", async () => {
    const { client } = await connectedPair();
    const [spare] = InMemoryTransport.pair();
    await expect(client.connect(spare)).rejects.toMatchObject({ code: MCP_CODES.ALREADY_CONNECTED });
    const closed = new JsonRpcDispatcher({ side: "client", telemetry: null });
    await closed.close();
    await expect(closed.connect(spare)).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
  });

  it("reports a transport that fails to start as MCP.TRANSPORT_ERROR and can connect another", async () => {
    const dispatcher = new JsonRpcDispatcher({ side: "client", telemetry: null });
    const broken = { start: () => Promise.reject(new Error("port in use")), send: async () => undefined, close: async () => undefined };
    await expect(dispatcher.connect(broken)).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR, message: "port in use" });
    const [a, b] = InMemoryTransport.pair();
    const server = new JsonRpcDispatcher({ side: "server", telemetry: null });
    server.setRequestHandler("test/ok", () => ({ ok: true }));
    await server.connect(b);
    await dispatcher.connect(a);
    await expect(dispatcher.request("test/ok")).resolves.toEqual({ ok: true });
  });

  it("rejects a request whose message cannot be serialised with MCP.TRANSPORT_ERROR and leaves nothing pending", async () => {
    const { client } = await connectedPair();
    await expect(client.request("test/a", { big: 1n })).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR });
    expect(client.pendingCount).toEqual({ outgoing: 0, incoming: 0 });
  });

  it("reports a response the transport fails to send", async () => {
    const onProtocolError = vi.fn();
    const { dispatcher, peer } = await scriptedDispatcher({ onProtocolError });
    dispatcher.setRequestHandler("test/ok", () => ({}));
    peer.failSends = new Error("socket reset");
    peer.deliver({ jsonrpc: "2.0", id: 1, method: "test/ok" });
    await settle();
    expect(onProtocolError).toHaveBeenCalledWith(expect.objectContaining({ code: MCP_CODES.TRANSPORT_ERROR, message: "socket reset" }));
  });

  it("closes with requests pending on both sides: rejects them at once and aborts the handlers", async () => {
    const events = new EventBus<MCPEventMap>();
    const closedEvents: Array<MCPEventMap["connection:closed"]> = [];
    events.on("connection:closed", (event) => closedEvents.push(event));
    const { client, server } = await connectedPair({ events }, { events });
    const serverSignals: AbortSignal[] = [];
    const clientSignals: AbortSignal[] = [];
    server.setRequestHandler("test/hang", (_params, context) => {
      serverSignals.push(context.signal);
      return new Promise(() => undefined);
    });
    client.setRequestHandler("test/hang", (_params, context) => {
      clientSignals.push(context.signal);
      return new Promise(() => undefined);
    });
    const fromClient = [rejection(client.request("test/hang")), rejection(client.request("test/hang"))];
    const fromServer = rejection(server.request("test/hang"));
    await settle();
    expect(client.pendingCount).toEqual({ outgoing: 2, incoming: 1 });
    expect(server.pendingCount).toEqual({ outgoing: 1, incoming: 2 });
    await client.close();
    for (const error of await Promise.all(fromClient)) expect(error.code).toBe(MCP_CODES.TRANSPORT_CLOSED);
    expect(clientSignals.map((signal) => signal.aborted)).toEqual([true]);
    await settle();
    expect((await fromServer).code).toBe(MCP_CODES.TRANSPORT_CLOSED);
    expect(serverSignals.map((signal) => signal.aborted)).toEqual([true, true]);
    expect((serverSignals[0]?.reason as MCPError | undefined)?.code).toBe(MCP_CODES.TRANSPORT_CLOSED);
    expect(client.pendingCount).toEqual({ outgoing: 0, incoming: 0 });
    expect(server.pendingCount).toEqual({ outgoing: 0, incoming: 0 });
    expect(closedEvents.map((event) => event.dispatcherId).toSorted()).toEqual([client.id, server.id].toSorted());
  });

  it("says why in the close reason when the transport closed with an error", async () => {
    const events = new EventBus<MCPEventMap>();
    const closed = vi.fn();
    const onClose = vi.fn();
    events.on("connection:closed", closed);
    const { dispatcher, peer } = await scriptedDispatcher({ events, side: "client", onClose });
    const pending = rejection(dispatcher.request("test/a"));
    peer.receiver?.onClose(new MCPError(MCP_CODES.TRANSPORT_ERROR, "child exited with code 3"));
    const error = await pending;
    expect(error.code).toBe(MCP_CODES.TRANSPORT_CLOSED);
    expect(error.message).toContain("child exited with code 3");
    expect(closed).toHaveBeenCalledWith({ side: "client", dispatcherId: dispatcher.id, reason: "child exited with code 3" });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(onClose.mock.calls[0]?.[0]).toMatchObject({ message: "child exited with code 3" });
    await dispatcher.close();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("drops what arrives after close and does not answer it", async () => {
    const { dispatcher, peer } = await scriptedDispatcher();
    const handler = vi.fn(() => ({}));
    dispatcher.setRequestHandler("test/a", handler);
    await dispatcher.close();
    peer.deliver({ jsonrpc: "2.0", id: 1, method: "test/a" });
    await settle();
    expect(handler).not.toHaveBeenCalled();
  });

  it("closes even when the transport's close throws", async () => {
    const { dispatcher, peer } = await scriptedDispatcher();
    peer.close = () => Promise.reject(new Error("already gone"));
    await expect(dispatcher.close()).rejects.toThrow("already gone");
    expect(dispatcher.closed).toBe(true);
  });

  it("emits opened, received, completed and emitted events", async () => {
    const events = new EventBus<MCPEventMap>();
    const log: string[] = [];
    events.on("connection:opened", (event) => log.push(`opened ${event.side}`));
    events.on("request:received", (event) => log.push(`received ${event.side} ${event.method} ${event.id}`));
    events.on("request:completed", (event) => log.push(`completed ${event.method} ${event.outcome} ${event.durationMs >= 0}`));
    events.on("notification:emitted", (event) => log.push(`emitted ${event.side} ${event.method} ${JSON.stringify(event.params)}`));
    const { client, server } = await connectedPair({ events }, { events });
    server.setRequestHandler("test/ok", () => ({}));
    server.setRequestHandler("test/fail", () => {
      throw new Error("x");
    });
    await client.request("test/ok");
    await client.request("test/fail").catch(() => undefined);
    await client.notify("test/note", { a: 1 });
    expect(log).toEqual([
      "opened server",
      "opened client",
      "received server test/ok 1",
      "completed test/ok success true",
      "received server test/fail 2",
      "completed test/fail error true",
      'emitted client test/note {"a":1}',
    ]);
  });

  it("rejects with MCP.TRANSPORT_CLOSED, not a late send failure, when the connection closes while sending", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client" });
    let failSend!: (error: Error) => void;
    peer.send = () => new Promise<void>((_resolve, reject) => (failSend = reject));
    const pending = rejection(dispatcher.request("test/a"));
    await dispatcher.close();
    failSend(new Error("write after end"));
    expect((await pending).code).toBe(MCP_CODES.TRANSPORT_CLOSED);
  });

  it("reports a cancel notification the transport fails to send", async () => {
    const onProtocolError = vi.fn();
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client", onProtocolError });
    const controller = new AbortController();
    const pending = rejection(dispatcher.request("test/a", {}, { signal: controller.signal }));
    await peer.waitForSent(1);
    peer.failSends = new Error("pipe broken");
    controller.abort();
    expect((await pending).code).toBe(MCP_CODES.REQUEST_CANCELLED);
    await settle();
    expect(onProtocolError).toHaveBeenCalledWith(expect.objectContaining({ code: MCP_CODES.TRANSPORT_ERROR, message: "pipe broken" }));
  });

  it("validates the client's answers to server-initiated requests against the codec", async () => {
    const { client, server } = await connectedPair();
    let roots: unknown = [{ uri: "file:///home" }];
    client.setRequestHandler("roots/list", () => ({ roots }));
    await expect(server.request("roots/list")).resolves.toEqual({ roots: [{ uri: "file:///home" }] });
    roots = [{ name: "no uri" }];
    await expect(server.request("roots/list")).rejects.toMatchObject({ code: MCP_CODES.PROTOCOL_INVALID });
  });

  it("exposes the session to handlers", async () => {
    const { client, server } = await connectedPair();
    server.setRequestHandler("test/who", (_params, context) => ({ ...context.session, method: context.method, id: context.id }));
    await expect(client.request("test/who")).resolves.toEqual({
      dispatcherId: server.id,
      protocolVersion: "2025-11-25",
      method: "test/who",
      id: 1,
    });
  });
});

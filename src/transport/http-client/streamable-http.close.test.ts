import { describe, expect, it, onTestFinished, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { JsonRpcDispatcher } from "../../jsonrpc/dispatcher/dispatcher.js";
import { httpStatusOf, isSessionExpired } from "./http-error.js";
import type { FetchInit } from "./http-options.js";
import { StreamableHttpTransport, type StreamableHttpTransportOptions } from "./streamable-http.js";
import {
  FakeServer,
  accepted,
  initializeRequest,
  initializeResult,
  jsonAnswer,
  liveStream,
  notification,
  recorder,
  request,
  sseAnswer,
  sseEvent,
} from "./http-client.test-helpers.js";

const ENDPOINT = "http://127.0.0.1:3000/mcp";

/** A transport that went through initialize, so it has session "s-1" and version 2025-06-18. */
async function inSession(server: FakeServer, options: StreamableHttpTransportOptions = {}) {
  server.requests.length = 0;
  const errors: MCPError[] = [];
  const scripted = new FakeServer();
  const transport = new StreamableHttpTransport(ENDPOINT, {
    fetchImpl: (url, init) => (scripted.requests.length === 0 ? scripted.fetch(url, init) : server.fetch(url, init)),
    onError: (error) => errors.push(error),
    openGetStream: false,
    ...options,
  });
  scripted.on("POST", () => jsonAnswer(initializeResult(1), { "mcp-session-id": "s-1" }));
  const seen = recorder();
  await transport.start(seen.receiver);
  await transport.send(initializeRequest(1));
  seen.messages.length = 0;
  return { transport, errors, ...seen };
}

const lost = () => new Response(null, { status: 404 });
const never = ({ signal }: { signal: AbortSignal }) =>
  new Promise<Response>((_resolve, reject) => signal.addEventListener("abort", () => reject(new Error("aborted"))));

describe("StreamableHttpTransport: a cancelled request's late answer", () => {
  it("does not read a 404 that answers a POST it gave up on as the end of the session", async () => {
    // An in-process fetch (a handler called directly) may ignore the abort and still answer.
    let answer!: (response: Response) => void;
    const server = new FakeServer().on(
      "POST",
      () => new Promise<Response>((resolve) => (answer = resolve)),
      accepted,
      () => jsonAnswer({ jsonrpc: "2.0", id: 3, result: {} }),
    );
    const { transport, errors, closes } = await inSession(server);
    const sent = transport.send(request(2, "tools/call"));
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    await transport.send(notification("notifications/cancelled", { requestId: 2 }));
    answer(lost());
    await expect(sent).resolves.toBeUndefined();
    expect(closes).toEqual([]);
    expect(errors).toEqual([]);
    await transport.send(request(3, "ping"));
    expect(transport.sessionId).toBe("s-1");
  });
});

describe("StreamableHttpTransport: close", () => {
  it("ends the session with DELETE carrying its id and version, reports the close once, and is idempotent", async () => {
    const server = new FakeServer();
    const { transport, closes, errors } = await inSession(server);
    await transport.close();
    await transport.close();
    expect(server.sent("DELETE")).toHaveLength(1);
    const [ending] = server.sent("DELETE");
    expect(ending?.headers).toMatchObject({ "mcp-session-id": "s-1", "mcp-protocol-version": "2025-06-18" });
    // A request without a body says no content type, and hands the fetch no body member at all.
    expect(ending?.headers).not.toHaveProperty("content-type");
    expect(Object.keys(ending?.init ?? {}).toSorted()).toEqual(["headers", "method", "signal"]);
    expect(closes).toEqual([undefined]);
    expect(errors).toEqual([]);
  });

  it("takes 405 (no explicit termination) and 404 (already gone) as fine", async () => {
    for (const status of [405, 404]) {
      const server = new FakeServer().on("DELETE", () => new Response(null, { status }));
      const { transport, errors } = await inSession(server);
      await transport.close();
      expect(errors).toEqual([]);
    }
  });

  it("tells onError, and still closes, when the DELETE fails, breaks or gets no answer in time", async () => {
    const failing = new FakeServer().on("DELETE", () => new Response("locked", { status: 500 }));
    const first = await inSession(failing);
    await first.transport.close();
    expect(first.errors.map((error) => error.message)).toEqual([`HTTP 500 from DELETE ${ENDPOINT}: locked`]);
    expect(first.closes).toEqual([undefined]);

    const broken = new FakeServer().on("DELETE", () => Promise.reject(new Error("ECONNRESET")));
    const second = await inSession(broken);
    await second.transport.close();
    expect(second.errors.map((error) => error.message)).toEqual([
      `Ending session s-1 with DELETE ${ENDPOINT} failed: DELETE ${ENDPOINT} failed: ECONNRESET`,
    ]);
    expect(second.errors[0]?.cause).toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR, message: `DELETE ${ENDPOINT} failed: ECONNRESET` });

    const silent = new FakeServer().on("DELETE", never);
    const third = await inSession(silent, { closeTimeoutMs: 10 });
    await third.transport.close();
    expect(third.errors.map((error) => error.message)).toEqual([
      `Ending session s-1 with DELETE ${ENDPOINT} failed: no answer within 10 ms`,
    ]);
    expect(third.errors[0]?.cause).toMatchObject({
      code: MCP_CODES.TRANSPORT_CLOSED,
      message: expect.stringMatching(/^DELETE \S+ was aborted/),
    });
    expect(third.closes).toEqual([undefined]);
  });

  it("still closes, quietly, when the DELETE breaks and no onError was given", async () => {
    const server = new FakeServer()
      .on("POST", () => jsonAnswer(initializeResult(1), { "mcp-session-id": "s-1" }))
      .on("DELETE", () => Promise.reject(new Error("ECONNRESET")));
    const transport = new StreamableHttpTransport(ENDPOINT, { fetchImpl: server.fetch, openGetStream: false });
    const seen = recorder();
    await transport.start(seen.receiver);
    await transport.send(initializeRequest(1));
    await expect(transport.close()).resolves.toBeUndefined();
    expect(server.sent("DELETE")).toHaveLength(1);
    expect(seen.closes).toEqual([undefined]);
  });

  it("stops the DELETE's timeout once it is answered", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    onTestFinished(() => void vi.useRealTimers());
    const server = new FakeServer();
    const { transport, errors } = await inSession(server);
    await transport.close();
    expect(server.sent("DELETE")).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
    expect(errors).toEqual([]);
  });

  it("sends no DELETE without a session, or when told not to", async () => {
    const server = new FakeServer();
    const plain = new StreamableHttpTransport(ENDPOINT, { fetchImpl: server.fetch });
    await plain.start(recorder().receiver);
    await plain.close();
    expect(server.requests).toEqual([]);
    const { transport } = await inSession(server, { terminateOnClose: false });
    await transport.close();
    expect(server.sent("DELETE")).toEqual([]);
  });

  it("aborts an open request stream and an in-flight POST: their sends reject with MCP.TRANSPORT_CLOSED", async () => {
    const open = liveStream();
    const server = new FakeServer().on("POST", () => sseAnswer(open.stream), never);
    const { transport } = await inSession(server);
    const streaming = transport.send(request(2, "tools/call"));
    open.push(sseEvent({ data: notification("notifications/progress", { progressToken: 2, progress: 1 }) }));
    const posting = transport.send(request(3, "tools/call"));
    await vi.waitFor(() => expect(server.sent("POST")).toHaveLength(2));
    await transport.close();
    await expect(streaming).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    await expect(posting).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_CLOSED,
      message: "The Streamable HTTP transport is closed",
      cause: { code: MCP_CODES.TRANSPORT_CLOSED, message: expect.stringMatching(/^POST \S+ was aborted/) },
    });
    expect(open.cancelled).toBe(true);
  });
});

describe("StreamableHttpTransport: a session the server forgot", () => {
  it("turns a 404 to a request with the session id into a clear error, and closes the transport with it", async () => {
    const open = liveStream();
    const server = new FakeServer().on(
      "POST",
      () => sseAnswer(open.stream),
      () => new Response('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}}', { status: 404 }),
    );
    const { transport, closes } = await inSession(server);
    const other = transport.send(request(2, "tools/call"));
    await vi.waitFor(() => expect(server.sent("POST")).toHaveLength(1));
    const error = (await transport.send(request(3, "ping")).catch((thrown: unknown) => thrown)) as MCPError;
    expect(error).toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message:
        `The server no longer knows session s-1 (HTTP 404 to POST ${ENDPOINT}): ` +
        "the session has ended; connect again to start a new one",
      data: { status: 404, sessionExpired: true, sessionId: "s-1" },
    });
    expect(error.cause).toMatchObject({ message: `HTTP 404 from POST ${ENDPOINT}: Session not found` });
    expect(isSessionExpired(error)).toBe(true);
    expect(closes).toEqual([error]);
    await expect(other).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    await expect(transport.send(request(4, "ping"))).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    await transport.close();
    expect(server.sent("DELETE")).toEqual([]);
    expect(closes).toHaveLength(1);
  });

  it("reports the lost session once when several requests meet it", async () => {
    const server = new FakeServer().on("POST", lost, lost);
    const { transport, closes } = await inSession(server);
    const outcomes = await Promise.all(
      [transport.send(request(2, "ping")), transport.send(request(3, "ping"))].map((sent) => sent.catch((thrown: unknown) => thrown)),
    );
    for (const outcome of outcomes) expect(isSessionExpired(outcome)).toBe(true);
    expect(closes).toHaveLength(1);
  });

  it("closes the transport when resuming a request's stream finds the session gone", async () => {
    const server = new FakeServer()
      .on("POST", () => sseAnswer(sseEvent({ id: "a", data: "" })))
      .on("GET", () => new Response(null, { status: 404 }));
    const { transport, closes } = await inSession(server, { reconnection: { initialDelayMs: 1 } });
    const error = await transport.send(request(2, "tools/call")).catch((thrown: unknown) => thrown as MCPError);
    expect(error).toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: expect.stringMatching(/^Could not resume the stream of request 2: The server no longer knows session s-1/),
      data: { sessionExpired: true },
    });
    expect(server.sent("GET")).toHaveLength(1);
    expect(closes).toHaveLength(1);
  });

  it("fails a pending request at once instead of leaving it to hang", async () => {
    const server = new FakeServer().on("POST", () => new Response(null, { status: 404 }));
    const scripted = new FakeServer().on("POST", () => jsonAnswer(initializeResult(1), { "mcp-session-id": "s-9" }), accepted);
    const fetchImpl = (url: string, init: FetchInit) =>
      scripted.requests.length < 2 ? scripted.fetch(url, init) : server.fetch(url, init);
    const transport = new StreamableHttpTransport(ENDPOINT, { fetchImpl, openGetStream: false });
    const dispatcher = new JsonRpcDispatcher({ side: "client", telemetry: null });
    await dispatcher.connect(transport);
    await dispatcher.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } });
    await dispatcher.notify("notifications/initialized");
    await expect(dispatcher.request("tools/list")).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_CLOSED,
      cause: { data: { sessionExpired: true, sessionId: "s-9" } },
    });
    expect(dispatcher.closed).toBe(true);
  });

  it("closes the transport when the GET stream finds the session gone", async () => {
    const server = new FakeServer().on("POST", accepted).on("GET", () => new Response(null, { status: 404 }));
    const { transport, closes, errors } = await inSession(server, { openGetStream: true });
    await transport.send(notification("notifications/initialized"));
    await vi.waitFor(() => expect(closes).toHaveLength(1));
    expect(closes[0]).toMatchObject({ data: { sessionExpired: true, method: "GET" } });
    expect(errors).toEqual([]);
    expect(transport.closed).toBe(true);
  });

  it("treats a 404 to a request without a session id as an ordinary HTTP error", async () => {
    const server = new FakeServer().on("POST", () => new Response("no such endpoint", { status: 404 }));
    const transport = new StreamableHttpTransport(ENDPOINT, { fetchImpl: server.fetch });
    const seen = recorder();
    await transport.start(seen.receiver);
    const error = await transport.send(initializeRequest(1)).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR, data: { status: 404 } });
    expect(isSessionExpired(error)).toBe(false);
    expect(httpStatusOf(error)).toBe(404);
    expect(seen.closes).toEqual([]);
  });

  it("tells HTTP errors from other errors", () => {
    expect(httpStatusOf(new Error("x"))).toBeUndefined();
    expect(httpStatusOf(new MCPError(MCP_CODES.TRANSPORT_ERROR, "x"))).toBeUndefined();
    expect(httpStatusOf(new MCPError(MCP_CODES.TRANSPORT_ERROR, "x", { data: { status: "500" } }))).toBeUndefined();
    expect(isSessionExpired(new MCPError(MCP_CODES.TRANSPORT_ERROR, "x"))).toBe(false);
    expect(isSessionExpired("x")).toBe(false);
  });
});

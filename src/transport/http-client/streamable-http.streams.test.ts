import { describe, expect, it, onTestFinished, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import type { MCPError } from "../../error-codes/mcp-error.js";
import { StreamableHttpTransport, type StreamableHttpTransportOptions } from "./streamable-http.js";
import {
  FakeServer,
  accepted,
  jsonAnswer,
  liveStream,
  notification,
  recorder,
  request,
  result,
  sseAnswer,
  sseEvent,
  streamOf,
} from "./http-client.test-helpers.js";

const ENDPOINT = "http://127.0.0.1:3000/mcp";
const FAST = { initialDelayMs: 1, maxDelayMs: 8, growFactor: 2, maxAttempts: 3 };
const progress = (n: number) => notification("notifications/progress", { progressToken: 1, progress: n });
/** Event `e<index>` of a long stream. */
const numbered = (index: number) => sseEvent({ id: `e${index}`, data: notification("n", { index }) });

async function started(server: FakeServer, options: StreamableHttpTransportOptions = {}) {
  const errors: MCPError[] = [];
  const transport = new StreamableHttpTransport(ENDPOINT, {
    fetchImpl: server.fetch,
    reconnection: FAST,
    onError: (error) => errors.push(error),
    ...options,
  });
  const seen = recorder();
  await transport.start(seen.receiver);
  return { transport, errors, ...seen };
}

/** The waits the transport scheduled: the delays given to setTimeout, in order. */
function recordDelays(): number[] {
  const delays: number[] = [];
  const original = globalThis.setTimeout;
  vi.spyOn(globalThis, "setTimeout").mockImplementation((callback: () => void, ms?: number) => {
    delays.push(ms ?? 0);
    return original(callback, ms);
  });
  return delays;
}

describe("StreamableHttpTransport: SSE answers", () => {
  it("delivers the messages of a POST's stream in order, skipping comments, priming events and other event types", async () => {
    const body = [
      ": keep-alive\n\n",
      sseEvent({ id: "p", data: "" }),
      sseEvent({ data: progress(1) }),
      sseEvent({ event: "ping", data: progress(9) }),
      sseEvent({ event: "message", data: progress(2) }),
      sseEvent({ data: result(1) }),
    ].join("");
    const server = new FakeServer().on("POST", () => sseAnswer(body));
    const { transport, messages, malformed } = await started(server);
    await transport.send(request(1, "tools/call", { name: "t" }));
    expect(messages).toEqual([progress(1), progress(2), result(1)]);
    expect(malformed).toEqual([]);
  });

  it("gives the same messages whichever byte the stream is split at", async () => {
    const body = new TextEncoder().encode(
      `${sseEvent({ id: "1", data: progress(1) })}${sseEvent({ id: "2", data: { ...result(1), result: { text: "h\u00e9\u{1F30D}" } } })}`,
    );
    for (let at = 0; at <= body.length; at++) {
      const server = new FakeServer().on("POST", () => sseAnswer(streamOf([body.subarray(0, at), body.subarray(at)])));
      const { transport, messages } = await started(server);
      await transport.send(request(1, "tools/call"));
      expect(messages).toEqual([progress(1), { ...result(1), result: { text: "h\u00e9\u{1F30D}" } }]);
    }
  });

  it("reports a message that is not JSON, or an event over the size bound, to onMalformed and keeps reading", async () => {
    const body = sseEvent({ data: "{oops" }) + sseEvent({ data: "y".repeat(300) }) + sseEvent({ data: result(1) });
    const server = new FakeServer().on("POST", () => sseAnswer(body));
    const { transport, messages, malformed } = await started(server, { maxMessageBytes: 200 });
    await transport.send(request(1, "ping"));
    expect(malformed.map((error) => error.message)).toEqual([
      expect.stringMatching(/^Parse error: /),
      "Parse error: an SSE event longer than 200 bytes was skipped",
    ]);
    expect(messages).toEqual([result(1)]);
  });

  it("rejects a request whose stream ends before its answer when there is no event id to resume from", async () => {
    const server = new FakeServer().on(
      "POST",
      () => sseAnswer(sseEvent({ data: progress(1) })),
      () => sseAnswer(streamOf([sseEvent({ data: progress(1) })], new Error("socket hang up"))),
    );
    const { transport, messages } = await started(server);
    await expect(transport.send(request(1, "tools/call"))).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: "The server ended the stream of request 1 before it was done, with no event id to resume from",
    });
    const broken = (await transport.send(request(2, "tools/call")).catch((thrown: unknown) => thrown)) as MCPError;
    expect(broken.cause).toMatchObject({ message: "socket hang up" });
    expect(messages).toEqual([progress(1), progress(1)]);
    expect(server.sent("GET")).toEqual([]);
  });
});

describe("StreamableHttpTransport: resuming a POST stream (SEP-1699)", () => {
  it("when the server closes a stream early, polls with GET and Last-Event-ID after its retry, losing and repeating nothing", async () => {
    const delays = recordDelays();
    const server = new FakeServer()
      .on("POST", () => sseAnswer(sseEvent({ id: "s1-0", retry: 7, data: "" }) + sseEvent({ id: "s1-1", data: progress(1) })))
      .on(
        "GET",
        // The first poll has nothing new yet; the server replays the event at the cursor (a duplicate), then moves on.
        () => sseAnswer(""),
        () => sseAnswer(sseEvent({ id: "s1-1", data: progress(1) }) + sseEvent({ id: "s1-2", data: progress(2) })),
        () => sseAnswer(sseEvent({ id: "s1-3", data: result(1) })),
      );
    const { transport, messages } = await started(server);
    await transport.send(request(1, "tools/call"));
    expect(messages).toEqual([progress(1), progress(2), result(1)]);
    expect(server.sent("GET").map((get) => [get.headers["last-event-id"], get.headers.accept])).toEqual([
      ["s1-1", "text/event-stream"],
      ["s1-1", "text/event-stream"],
      ["s1-2", "text/event-stream"],
    ]);
    expect(delays).toEqual([7, 7, 7]);
  });

  it("resumes a stream that broke mid-event from the last complete event, with exponential backoff when reconnecting fails", async () => {
    const delays = recordDelays();
    const broken = liveStream();
    const server = new FakeServer()
      .on("POST", () => sseAnswer(broken.stream))
      .on(
        "GET",
        () => Promise.reject(new TypeError("connect ECONNREFUSED")),
        () => new Response("busy", { status: 503 }),
        () => sseAnswer(sseEvent({ id: "e2", data: progress(2) }) + sseEvent({ id: "e3", data: result(1) })),
      );
    const { transport, messages } = await started(server);
    const sent = transport.send(request(1, "tools/call"));
    broken.push(sseEvent({ id: "e1", data: progress(1) }) + "id: e2\ndata: ");
    await vi.waitFor(() => expect(messages).toHaveLength(1));
    delays.length = 0;
    broken.fail(new Error("network reset"));
    await sent;
    expect(messages).toEqual([progress(1), progress(2), result(1)]);
    expect(server.sent("GET").map((get) => get.headers["last-event-id"])).toEqual(["e1", "e1", "e1"]);
    expect(delays).toEqual([1, 2, 4]);
  });

  it("gives up after maxAttempts failed reconnections, naming the last failure", async () => {
    const server = new FakeServer()
      .on("POST", () => sseAnswer(sseEvent({ id: "a", data: progress(1) })))
      .on(
        "GET",
        () => new Response(null, { status: 502 }),
        () => new Response(null, { status: 503 }),
        () => new Response("down", { status: 504 }),
      );
    const { transport } = await started(server);
    await expect(transport.send(request(1, "tools/call"))).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: `Could not resume the stream of request 1: HTTP 504 from GET ${ENDPOINT}: down`,
      data: { status: 504 },
    });
    expect(server.sent("GET")).toHaveLength(3);
  });

  it("stops at once when the server refuses the resumption (405 here), and does not reconnect when reconnection is off", async () => {
    const server = new FakeServer().on(
      "POST",
      () => sseAnswer(sseEvent({ id: "a", data: progress(1) })),
      () => sseAnswer(sseEvent({ id: "b", data: progress(1) })),
    );
    const { transport } = await started(server);
    await expect(transport.send(request(1, "tools/call"))).rejects.toMatchObject({
      message: `Could not resume the stream of request 1: HTTP 405 from GET ${ENDPOINT}`,
      data: { status: 405 },
    });
    const off = await started(server, { reconnection: { maxAttempts: 0 } });
    await expect(off.transport.send(request(2, "tools/call"))).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: "Could not resume the stream of request 2: reconnection is off (maxAttempts is 0)",
    });
    expect(server.sent("GET")).toHaveLength(1);
  });

  it("gives up at once, without another attempt, when the transport closes during a resumption", async () => {
    const server = new FakeServer()
      .on("POST", () => sseAnswer(sseEvent({ id: "a", data: progress(1) })))
      .on(
        "GET",
        ({ signal }) => new Promise<Response>((_resolve, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")))),
      );
    const { transport } = await started(server);
    const sent = transport.send(request(1, "tools/call"));
    await vi.waitFor(() => expect(server.sent("GET")).toHaveLength(1));
    await transport.close();
    const error = (await sent.catch((thrown: unknown) => thrown)) as MCPError;
    expect(error).toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED, message: "The Streamable HTTP transport is closed" });
    // The aborted GET is the last word: no wait for a next attempt (which would fail as "closed while waiting").
    expect(error.cause).toMatchObject({
      code: MCP_CODES.TRANSPORT_CLOSED,
      message: `Could not resume the stream of request 1: GET ${ENDPOINT} was aborted (the transport closed, or the request was given up)`,
    });
  });

  it("retries a resumption answered 409 or 429, and refuses one answered with another content type", async () => {
    const server = new FakeServer()
      .on("POST", () => sseAnswer(sseEvent({ id: "a", data: progress(1) })))
      .on(
        "GET",
        () => new Response(null, { status: 409 }),
        () => new Response(null, { status: 429 }),
        () => new Response("{}", { headers: { "content-type": "application/json" } }),
      );
    const { transport } = await started(server);
    await expect(transport.send(request(1, "tools/call"))).rejects.toMatchObject({
      message:
        `Could not resume the stream of request 1: GET ${ENDPOINT} was answered with content type "application/json" ` +
        "where text/event-stream was expected",
    });
    expect(server.sent("GET")).toHaveLength(3);
  });
});

describe("StreamableHttpTransport: cancelling a request", () => {
  it("stops reading a request's stream when the client cancels it, and resolves its send quietly", async () => {
    const open = liveStream();
    const server = new FakeServer().on("POST", () => sseAnswer(open.stream), accepted, accepted);
    const { transport, messages } = await started(server);
    const sent = transport.send(request(1, "tools/call"));
    open.push(sseEvent({ data: progress(1) }));
    await vi.waitFor(() => expect(messages).toHaveLength(1));
    await transport.send(notification("notifications/cancelled", { requestId: 1, reason: "user" }));
    await expect(sent).resolves.toBeUndefined();
    expect(open.cancelled).toBe(true);
    // A cancel for a request that is already over changes nothing.
    await transport.send(notification("notifications/cancelled", { requestId: 1 }));
  });

  it("cancels a stateless-era request by closing its stream alone: no notifications/cancelled is POSTed", async () => {
    const open = liveStream();
    const server = new FakeServer().on("POST", () => sseAnswer(open.stream));
    const { transport, messages } = await started(server);
    const meta = { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } };
    const sent = transport.send({
      jsonrpc: "2.0",
      id: 1,
      method: "subscriptions/listen",
      params: { notifications: { toolsListChanged: true }, ...meta },
    });
    open.push(sseEvent({ data: notification("notifications/subscriptions/acknowledged", { notifications: {} }) }));
    await vi.waitFor(() => expect(messages).toHaveLength(1));
    await transport.send(notification("notifications/cancelled", { requestId: 1, reason: "narrowed" }));
    await expect(sent).resolves.toBeUndefined();
    expect(open.cancelled).toBe(true);
    expect(server.sent("POST")).toHaveLength(1);
  });

  it("gives up a request whose POST has not been answered yet", async () => {
    let release!: (response: Response) => void;
    const server = new FakeServer().on("POST", () => new Promise<Response>((resolve) => (release = resolve)), accepted);
    const { transport } = await started(server);
    const sent = transport.send(request(1, "tools/call"));
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    await transport.send(notification("notifications/cancelled", { requestId: 1 }));
    // This fetch ignores the abort; the transport drops the stream it brings.
    const late = liveStream();
    release(sseAnswer(late.stream));
    await expect(sent).resolves.toBeUndefined();
    expect(late.cancelled).toBe(true);
  });

  it("resolves the send of a request cancelled while its POST was in flight on a real fetch (aborted)", async () => {
    const server = new FakeServer().on(
      "POST",
      ({ signal }) => new Promise<Response>((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
      accepted,
    );
    const { transport } = await started(server);
    const sent = transport.send(request(1, "tools/call"));
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    await transport.send(notification("notifications/cancelled", { requestId: 1 }));
    await expect(sent).resolves.toBeUndefined();
  });

  it("leaves a finished request alone: neither a later cancel of its id nor the close aborts the signal its fetch was given", async () => {
    const server = new FakeServer().on("POST", () => jsonAnswer(result(1)), accepted);
    const { transport } = await started(server);
    await transport.send(request(1, "ping"));
    await transport.send(notification("notifications/cancelled", { requestId: 1 }));
    await transport.close();
    expect(server.sent("POST").map((post) => post.signal.aborted)).toEqual([false, false]);
  });

  it("resolves a request whose answer came, even when the receiver closes the transport on that answer", async () => {
    const server = new FakeServer().on("POST", () => sseAnswer(sseEvent({ data: progress(1) }) + sseEvent({ data: result(1) })));
    const seen = recorder();
    const transport = new StreamableHttpTransport(ENDPOINT, { fetchImpl: server.fetch });
    await transport.start({
      ...seen.receiver,
      onMessage: (message) => {
        seen.messages.push(message);
        if (seen.messages.length === 2) void transport.close();
      },
    });
    await expect(transport.send(request(1, "tools/call"))).resolves.toBeUndefined();
    expect(seen.messages).toEqual([progress(1), result(1)]);
    expect(transport.closed).toBe(true);
  });

  it("stops delivering the rest of a chunk once the stream is given up", async () => {
    const server = new FakeServer().on("POST", () => sseAnswer(sseEvent({ data: progress(1) }) + sseEvent({ data: progress(2) })));
    const seen = recorder();
    const transport = new StreamableHttpTransport(ENDPOINT, { fetchImpl: server.fetch });
    await transport.start({
      ...seen.receiver,
      onMessage: (message) => {
        seen.messages.push(message);
        void transport.close();
      },
    });
    await expect(transport.send(request(1, "tools/call"))).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    expect(seen.messages).toEqual([progress(1)]);
  });
});

describe("StreamableHttpTransport: the GET stream", () => {
  it("opens once notifications/initialized is accepted, and is quietly absent when the server answers 405", async () => {
    const server = new FakeServer()
      .on(
        "POST",
        () => new Response(null, { status: 202, headers: { "mcp-session-id": "s-1" } }),
        accepted,
        () => jsonAnswer(result(2)),
      )
      .on("DELETE", () => new Response("gone wrong", { status: 500 }));
    const { transport, errors } = await started(server);
    await transport.send(notification("notifications/initialized"));
    await vi.waitFor(() => expect(server.sent("GET")).toHaveLength(1));
    expect(server.sent("GET")[0]?.headers).toMatchObject({ accept: "text/event-stream" });
    expect(server.sent("GET")[0]?.headers).not.toHaveProperty("last-event-id");
    expect(server.sent("GET")[0]?.headers).not.toHaveProperty("content-type");
    expect(Object.keys(server.sent("GET")[0]?.init ?? {}).toSorted()).toEqual(["headers", "method", "signal"]);
    await transport.send(notification("notifications/initialized"));
    // A later request goes out after the one GET, with no other between.
    await transport.send(request(2, "ping"));
    expect(server.requests.map((seen) => seen.method)).toEqual(["POST", "GET", "POST", "POST"]);
    // A later error is the first that onError hears: the 405 was none.
    await transport.close();
    expect(errors.map((error) => error.message)).toEqual([`HTTP 500 from DELETE ${ENDPOINT}: gone wrong`]);
  });

  it("is not opened when openGetStream is false", async () => {
    const server = new FakeServer().on("POST", accepted, () => jsonAnswer(result(2)));
    const { transport } = await started(server, { openGetStream: false });
    await transport.send(notification("notifications/initialized"));
    // A later request goes out alone: no GET came before it.
    await transport.send(request(2, "ping"));
    expect(server.requests.map((seen) => seen.method)).toEqual(["POST", "POST"]);
  });

  it("delivers server requests and notifications; reconnects after the server's retry with Last-Event-ID, repeating nothing", async () => {
    const delays = recordDelays();
    const second = liveStream();
    const server = new FakeServer().on("POST", accepted).on(
      "GET",
      () =>
        sseAnswer(
          sseEvent({ id: "g1", retry: 3, data: request("s1", "roots/list") }) +
            sseEvent({ data: notification("notifications/tools/list_changed") }),
        ),
      () => sseAnswer(second.stream),
    );
    const { transport, messages } = await started(server);
    await transport.send(notification("notifications/initialized"));
    await vi.waitFor(() => expect(server.sent("GET")).toHaveLength(2));
    second.push(
      sseEvent({ id: "g1", data: request("s1", "roots/list") }) +
        sseEvent({ id: "g2", data: notification("notifications/resources/updated", { uri: "a://b" }) }),
    );
    await vi.waitFor(() => expect(messages).toHaveLength(3));
    expect(messages).toEqual([
      request("s1", "roots/list"),
      notification("notifications/tools/list_changed"),
      notification("notifications/resources/updated", { uri: "a://b" }),
    ]);
    expect(server.sent("GET")[1]?.headers["last-event-id"]).toBe("g1");
    expect(delays).toEqual([3]);
    await transport.close();
    expect(second.cancelled).toBe(true);
  });

  it("reconnects a GET stream that never gave an event id from scratch, and tells onError when it gives up", async () => {
    const server = new FakeServer().on("POST", accepted).on(
      "GET",
      () => sseAnswer(""),
      () => new Response(null, { status: 500 }),
      () => new Response(null, { status: 500 }),
      () => new Response(null, { status: 400 }),
    );
    const { transport, errors, closes } = await started(server);
    await transport.send(notification("notifications/initialized"));
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors[0]).toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: `Could not resume the GET stream: HTTP 400 from GET ${ENDPOINT}`,
    });
    expect(server.sent("GET").map((get) => get.headers["last-event-id"])).toEqual([undefined, undefined, undefined, undefined]);
    expect(closes).toEqual([]);
    expect(transport.closed).toBe(false);
  });

  it("remembers the last 1024 event ids of a stream to drop replays", async () => {
    const many = Array.from({ length: 1030 }, (_, index) => numbered(index)).join("");
    const server = new FakeServer().on("POST", accepted).on(
      "GET",
      () => sseAnswer(many),
      () => sseAnswer([6, 0, 1029, 1030].map(numbered).join("")),
    );
    const { transport, messages } = await started(server);
    await transport.send(notification("notifications/initialized"));
    await vi.waitFor(() => expect(messages).toHaveLength(1032));
    // e6 is the oldest of the 1024 remembered (e6..e1029), so its replay is dropped; e0 had been forgotten, so it comes through.
    expect(messages.slice(1030)).toEqual([notification("n", { index: 0 }), notification("n", { index: 1030 })]);
    expect(server.sent("GET")[1]?.headers["last-event-id"]).toBe("e1029");
    await transport.close();
  });

  it("reports a first GET that fails other than with 405", async () => {
    const server = new FakeServer().on("POST", accepted).on("GET", () => new Response("nope", { status: 500 }));
    const { transport, errors } = await started(server);
    await transport.send(notification("notifications/initialized"));
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect(errors[0]?.message).toBe(`HTTP 500 from GET ${ENDPOINT}: nope`);
  });

  it("stops waiting to reconnect when the transport closes, and reports nothing", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    onTestFinished(() => void vi.useRealTimers());
    const server = new FakeServer().on("POST", accepted).on("GET", () => sseAnswer(sseEvent({ id: "g1", retry: 60_000, data: "" })));
    const { transport, errors, closes } = await started(server);
    await transport.send(notification("notifications/initialized"));
    // The stream ended at once: the transport waits the server's retry before reconnecting.
    await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
    await transport.close();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.sent("GET")).toHaveLength(1);
    expect(errors).toEqual([]);
    expect(closes).toEqual([undefined]);
  });
});

import { describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import type { MCPError } from "../../error-codes/mcp-error.js";
import type { EventSourceEventLike, EventSourceInitLike, EventSourceLike } from "./event-source.js";
import { HttpSseTransport, type HttpSseTransportOptions } from "./http-sse.js";
import {
  FakeServer,
  accepted,
  liveStream,
  notification,
  recorder,
  request,
  result,
  sseAnswer,
  sseEvent,
} from "./http-client.test-helpers.js";

const SSE_URL = "http://127.0.0.1:3000/sse";

/** An EventSource double: the test fires its events by hand. */
class FakeEventSource implements EventSourceLike {
  static readonly opened: FakeEventSource[] = [];
  readonly listeners = new Map<string, Array<(event: EventSourceEventLike) => void>>();
  closed = false;

  constructor(
    readonly url: string,
    readonly init?: EventSourceInitLike,
  ) {
    FakeEventSource.opened.push(this);
  }

  addEventListener(type: string, listener: (event: EventSourceEventLike) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close(): void {
    this.closed = true;
  }

  fire(type: string, event: EventSourceEventLike = {}): void {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }

  static last(): FakeEventSource {
    return FakeEventSource.opened.at(-1) as FakeEventSource;
  }
}

function endpointStream(endpoint = "/messages?sessionId=abc") {
  const live = liveStream();
  live.push(sseEvent({ event: "endpoint", data: endpoint }));
  return live;
}

async function started(server: FakeServer, options: HttpSseTransportOptions = {}) {
  const transport = new HttpSseTransport(SSE_URL, { fetchImpl: server.fetch, ...options });
  const seen = recorder();
  await transport.start(seen.receiver);
  return { transport, ...seen };
}

describe("HttpSseTransport over fetch", () => {
  it("opens the stream with GET, POSTs to the endpoint it names, and delivers its message events", async () => {
    const live = endpointStream();
    const server = new FakeServer().on("GET", () => sseAnswer(live.stream)).on("POST", accepted);
    const { transport, messages } = await started(server, { headers: { authorization: "Bearer t" } });
    expect(server.sent("GET")[0]?.headers).toMatchObject({ accept: "text/event-stream", authorization: "Bearer t" });
    expect(transport.endpoint).toBe("http://127.0.0.1:3000/messages?sessionId=abc");
    expect(transport.sessionId).toBe("abc");
    await transport.send(request(1, "ping"));
    expect(server.sent("POST")[0]).toMatchObject({
      url: "http://127.0.0.1:3000/messages?sessionId=abc",
      body: request(1, "ping"),
      headers: { "content-type": "application/json", authorization: "Bearer t" },
    });
    live.push(
      sseEvent({ event: "message", data: result(1) }) +
        sseEvent({ data: notification("n") }) +
        sseEvent({ event: "other", data: "x" }) +
        sseEvent({ event: "endpoint", data: "/elsewhere" }),
    );
    await vi.waitFor(() => expect(messages).toEqual([result(1), notification("n")]));
    expect(transport.endpoint).toBe("http://127.0.0.1:3000/messages?sessionId=abc");
    await transport.close();
    expect(live.cancelled).toBe(true);
  });

  it("asks a headers function afresh for every request, the stream's GET and each POST alike", async () => {
    const server = new FakeServer()
      .on("GET", () => sseAnswer(endpointStream().stream))
      .on("POST", accepted)
      .on("POST", accepted);
    let issued = 0;
    const { transport } = await started(server, { headers: async () => ({ authorization: `Bearer ${++issued}` }) });
    await transport.send(request(1, "ping"));
    await transport.send(request(2, "ping"));
    expect(server.sent("GET")[0]?.headers).toMatchObject({ authorization: "Bearer 1" });
    expect(server.sent("POST").map((sent) => sent.headers["authorization"])).toEqual(["Bearer 2", "Bearer 3"]);
    await transport.close();
  });

  it("has no session id when the endpoint carries none, and accepts an absolute endpoint on the same origin", async () => {
    const server = new FakeServer().on("GET", () => sseAnswer(endpointStream("http://127.0.0.1:3000/post").stream));
    const { transport } = await started(server);
    expect(transport.endpoint).toBe("http://127.0.0.1:3000/post");
    expect(transport.sessionId).toBeUndefined();
    expect(new HttpSseTransport(SSE_URL).sessionId).toBeUndefined();
  });

  it("refuses an endpoint on another origin, or one that is not a URL", async () => {
    for (const endpoint of ["https://evil.example/steal", "http://127.0.0.1:3001/messages", "http://[::1"]) {
      const server = new FakeServer().on("GET", () => sseAnswer(endpointStream(endpoint).stream));
      const transport = new HttpSseTransport(SSE_URL, { fetchImpl: server.fetch });
      await expect(transport.start(recorder().receiver)).rejects.toMatchObject({
        code: MCP_CODES.TRANSPORT_ERROR,
        message: `Refused the endpoint ${JSON.stringify(endpoint)} from ${SSE_URL}: it must be a URL on the stream's own origin`,
      });
      expect(transport.closed).toBe(true);
    }
  });

  it("fails start with the HTTP error, an unexpected content type, or a stream that ends before the endpoint", async () => {
    const server = new FakeServer().on(
      "GET",
      () => new Response("Method Not Allowed", { status: 405 }),
      () => new Response("{}", { headers: { "content-type": "application/json" } }),
      () => sseAnswer(": hello\n\n"),
    );
    const transport = () => new HttpSseTransport(SSE_URL, { fetchImpl: server.fetch });
    await expect(transport().start(recorder().receiver)).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR, data: { status: 405 } });
    await expect(transport().start(recorder().receiver)).rejects.toMatchObject({
      message: `GET ${SSE_URL} was answered with content type "application/json" where text/event-stream was expected`,
    });
    await expect(transport().start(recorder().receiver)).rejects.toMatchObject({
      message: `The SSE stream at ${SSE_URL} ended (the server closed it); HTTP+SSE cannot resume a session`,
    });
  });

  it("gives up waiting for the endpoint after endpointTimeoutMs, and drops a stream that arrives after", async () => {
    const late = liveStream();
    let release!: (response: Response) => void;
    const server = new FakeServer().on("GET", () => new Promise<Response>((resolve) => (release = resolve)));
    const transport = new HttpSseTransport(SSE_URL, { fetchImpl: server.fetch, endpointTimeoutMs: 10 });
    await expect(transport.start(recorder().receiver)).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: `No endpoint event on the SSE stream at ${SSE_URL} within 10 ms`,
    });
    release(sseAnswer(late.stream));
    await vi.waitFor(() => expect(late.cancelled).toBe(true));
  });

  it("closes with an error when the stream breaks after the endpoint", async () => {
    const live = endpointStream();
    const { transport, closes } = await started(new FakeServer().on("GET", () => sseAnswer(live.stream)));
    live.fail(new Error("socket hang up"));
    await vi.waitFor(() => expect(closes).toHaveLength(1));
    expect(closes[0]).toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: `The SSE stream at ${SSE_URL} ended (socket hang up); HTTP+SSE cannot resume a session`,
    });
    await expect(transport.send(request(1, "ping"))).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    await transport.close();
    expect(closes).toHaveLength(1);
  });

  it("reports unparsable and oversized messages to onMalformed and keeps reading", async () => {
    const live = endpointStream();
    const { malformed, messages } = await started(
      new FakeServer().on("GET", () => sseAnswer(live.stream)),
      { maxMessageBytes: 64 },
    );
    live.push(sseEvent({ data: "{nope" }) + sseEvent({ data: "z".repeat(100) }) + sseEvent({ data: result(2) }));
    await vi.waitFor(() => expect(messages).toEqual([result(2)]));
    expect(malformed.map((error) => error.message)).toEqual([
      expect.stringMatching(/^Parse error: /),
      "Parse error: an SSE event longer than 64 bytes was skipped",
    ]);
  });

  it("maps a failed POST to an HTTP error, and refuses what cannot be sent", async () => {
    const server = new FakeServer()
      .on("GET", () => sseAnswer(endpointStream().stream))
      .on("POST", () => new Response("Could not parse message", { status: 400 }));
    const { transport } = await started(server);
    await expect(transport.send(request(1, "ping"))).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: "HTTP 400 from POST http://127.0.0.1:3000/messages?sessionId=abc: Could not parse message",
    });
    await expect(transport.send(undefined)).rejects.toMatchObject({ message: "Cannot send: the message has no JSON form" });
  });

  it("refuses to send before start, to start twice, and to start or send once closed", async () => {
    const server = new FakeServer().on("GET", () => sseAnswer(endpointStream().stream));
    const transport = new HttpSseTransport(SSE_URL, { fetchImpl: server.fetch });
    await expect(transport.send(request(1, "ping"))).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: "Cannot send: call start() and wait for it first",
    });
    const seen = recorder();
    await transport.start(seen.receiver);
    await expect(transport.start(seen.receiver)).rejects.toMatchObject({ code: MCP_CODES.ALREADY_CONNECTED });
    await transport.close();
    await transport.close();
    expect(seen.closes).toEqual([undefined]);
    await expect(transport.send(request(1, "ping"))).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    const closedFirst = new HttpSseTransport(SSE_URL);
    await closedFirst.close();
    await expect(closedFirst.start(recorder().receiver)).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
  });
});

async function startedWithSource(options: HttpSseTransportOptions = {}) {
  const server = new FakeServer().on("POST", accepted);
  const transport = new HttpSseTransport(SSE_URL, { fetchImpl: server.fetch, eventSourceImpl: FakeEventSource, ...options });
  const seen = recorder();
  const starting = transport.start(seen.receiver);
  const source = FakeEventSource.last();
  source.fire("endpoint", { data: "/messages?sessionId=es" });
  await starting;
  return { server, transport, source, ...seen };
}

describe("HttpSseTransport over an injected EventSource", () => {
  it("opens the EventSource at the URL (passing init when given), POSTs to its endpoint, and delivers its messages", async () => {
    const { server, transport, source, messages, malformed } = await startedWithSource({ eventSourceInit: { withCredentials: true } });
    expect([source.url, source.init]).toEqual([SSE_URL, { withCredentials: true }]);
    await transport.send(notification("notifications/initialized"));
    expect(server.sent("POST")[0]?.url).toBe("http://127.0.0.1:3000/messages?sessionId=es");
    source.fire("message", { data: JSON.stringify(result(1)) });
    source.fire("message", { data: 42 });
    expect(messages).toEqual([result(1)]);
    expect(malformed).toHaveLength(1);
    await transport.close();
    expect(source.closed).toBe(true);
    source.fire("message", { data: JSON.stringify(result(2)) });
    expect(messages).toHaveLength(1);
  });

  it("constructs the EventSource with the URL alone when no init is given", async () => {
    const { source } = await startedWithSource();
    expect(source.init).toBeUndefined();
  });

  it("closes the EventSource and the transport on its first error, with what the error says", async () => {
    const { transport, source, closes } = await startedWithSource();
    source.fire("error", { code: 502, message: "Bad Gateway" });
    expect(source.closed).toBe(true);
    expect(closes).toEqual([
      expect.objectContaining({
        code: MCP_CODES.TRANSPORT_ERROR,
        message: `The SSE stream at ${SSE_URL} failed: 502 Bad Gateway`,
        data: { url: SSE_URL, status: 502 },
      }),
    ]);
    source.fire("error", {});
    expect(closes).toHaveLength(1);
    expect(transport.closed).toBe(true);
  });

  it("fails start with MCP.TRANSPORT_ERROR when the EventSource cannot even be constructed", async () => {
    class Refusing extends FakeEventSource {
      constructor(url: string) {
        super(url);
        throw new SyntaxError("The URL is invalid");
      }
    }
    const transport = new HttpSseTransport(SSE_URL, { eventSourceImpl: Refusing });
    await expect(transport.start(recorder().receiver)).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: "The URL is invalid",
    });
  });

  it("fails start when the EventSource errors before the endpoint", async () => {
    const transport = new HttpSseTransport(SSE_URL, { eventSourceImpl: FakeEventSource });
    const starting = transport.start(recorder().receiver);
    FakeEventSource.last().fire("error", { message: { not: "printable" } });
    const error = (await starting.catch((thrown: unknown) => thrown)) as MCPError;
    expect(error).toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: `The SSE stream at ${SSE_URL} failed`,
      data: { url: SSE_URL },
    });
    expect(FakeEventSource.last().closed).toBe(true);
  });

  it("ends a start still waiting for the endpoint when closed, and closes the EventSource it raced with", async () => {
    const transport = new HttpSseTransport(SSE_URL, { eventSourceImpl: FakeEventSource });
    const seen = recorder();
    const starting = transport.start(seen.receiver);
    await transport.close();
    await expect(starting).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    await vi.waitFor(() => expect(FakeEventSource.last().closed).toBe(true));
    expect(seen.closes).toEqual([undefined]);
  });
});

describe("HttpSseTransport: what each POST holds", () => {
  it("gives each POST its own signal (fetch holds a listener on it until the request is collected), aborted on close", async () => {
    const live = endpointStream();
    // The third POST hangs until its signal aborts, then fails as fetch does.
    const server = new FakeServer()
      .on("GET", () => sseAnswer(live.stream))
      .on(
        "POST",
        accepted,
        accepted,
        ({ signal }) => new Promise<Response>((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
      );
    const { transport } = await started(server);
    await transport.send(request(1, "ping"));
    await transport.send(request(2, "ping"));
    const stuck = transport.send(request(3, "ping")).catch((error: unknown) => error as MCPError);
    await vi.waitFor(() => expect(server.sent("POST")).toHaveLength(3));
    const [first, second, third] = server.sent("POST").map((seen) => seen.signal);
    const streamSignal = server.sent("GET")[0]?.signal;
    expect(new Set([first, second, third, streamSignal]).size).toBe(4);
    expect(third?.aborted).toBe(false);
    await transport.close();
    expect(third?.aborted).toBe(true);
    expect(first?.aborted).toBe(false); // finished POSTs are left alone
    expect(await stuck).toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
  });
});

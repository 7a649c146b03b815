import { describe, expect, it, vi } from "vitest";
import { MCPClient } from "../../client/mcp-client/mcp-client.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { FallbackHttpTransport, connectHttp, type FallbackHttpOptions } from "./http-fallback.js";
import { HttpSseTransport } from "./http-sse.js";
import { StreamableHttpTransport } from "./streamable-http.js";
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
  result,
  sseAnswer,
  sseEvent,
} from "./http-client.test-helpers.js";

const ENDPOINT = "http://127.0.0.1:3000/mcp";

function legacyStream() {
  const live = liveStream();
  live.push(sseEvent({ event: "endpoint", data: "/messages?sessionId=old" }));
  return live;
}

async function started(server: FakeServer, options: FallbackHttpOptions = {}) {
  const transport = new FallbackHttpTransport(ENDPOINT, { fetchImpl: server.fetch, ...options });
  const seen = recorder();
  await transport.start(seen.receiver);
  return { transport, ...seen };
}

describe("FallbackHttpTransport", () => {
  it("stays on Streamable HTTP when the server takes the first POST", async () => {
    const server = new FakeServer().on("POST", () => jsonAnswer(initializeResult(1), { "mcp-session-id": "new" }), accepted);
    const { transport, messages } = await started(server);
    expect(transport.selected).toBeUndefined();
    await transport.send(initializeRequest(1));
    expect(transport.selected).toBeInstanceOf(StreamableHttpTransport);
    expect(transport.sessionId).toBe("new");
    expect(messages).toEqual([initializeResult(1)]);
    transport.setProtocolVersion("2025-03-26");
    await transport.send(notification("notifications/initialized"));
    expect(server.sent("POST")[1]?.headers["mcp-protocol-version"]).toBe("2025-03-26");
    expect(server.sent("GET")).toHaveLength(1);
  });

  it.each([400, 404, 405])(
    "falls back to HTTP+SSE when the first POST is answered %i, and sends the message again there",
    async (status) => {
      const live = legacyStream();
      const server = new FakeServer()
        .on("POST", () => new Response(null, { status }), accepted, accepted)
        .on("GET", () => sseAnswer(live.stream));
      const { transport, messages } = await started(server);
      await transport.send(initializeRequest(1));
      expect(transport.selected).toBeInstanceOf(HttpSseTransport);
      expect(transport.sessionId).toBe("old");
      expect(server.sent("POST").map((post) => [post.url, post.body])).toEqual([
        [ENDPOINT, initializeRequest(1)],
        ["http://127.0.0.1:3000/messages?sessionId=old", initializeRequest(1)],
      ]);
      live.push(sseEvent({ event: "message", data: initializeResult(1) }));
      await vi.waitFor(() => expect(messages).toEqual([initializeResult(1)]));
      await transport.send(notification("notifications/initialized"));
      expect(server.sent("POST")[2]?.url).toBe("http://127.0.0.1:3000/messages?sessionId=old");
      await transport.close();
      expect(live.cancelled).toBe(true);
    },
  );

  it("looks for the legacy stream at sseUrl when given", async () => {
    const server = new FakeServer()
      .on("POST", () => new Response(null, { status: 404 }), accepted)
      .on("GET", () => sseAnswer(legacyStream().stream));
    const { transport } = await started(server, { sseUrl: "http://127.0.0.1:3000/sse" });
    await transport.send(initializeRequest(1));
    expect(server.sent("GET")[0]?.url).toBe("http://127.0.0.1:3000/sse");
  });

  it("does not fall back on other failures, nor when told not to", async () => {
    const server = new FakeServer().on("POST", () => new Response("boom", { status: 500 }));
    const { transport } = await started(server);
    await expect(transport.send(initializeRequest(1))).rejects.toMatchObject({ data: { status: 500 } });
    expect(transport.selected).toBeInstanceOf(StreamableHttpTransport);
    const refused = new FakeServer().on("POST", () => new Response(null, { status: 405 }));
    const second = await started(refused, { fallback: false });
    await expect(second.transport.send(initializeRequest(1))).rejects.toMatchObject({ data: { status: 405 } });
    const down = await started(new FakeServer(), { fetchImpl: () => Promise.reject(new Error("ECONNREFUSED")) });
    await expect(down.transport.send(initializeRequest(1))).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR });
    expect(refused.sent("GET")).toEqual([]);
  });

  it("keeps Streamable HTTP once it answered, even if the rest of that exchange fails", async () => {
    const server = new FakeServer().on(
      "POST",
      () => sseAnswer(sseEvent({ data: initializeResult(1) }) + sseEvent({ data: result(1) })),
      () => new Response(null, { status: 400 }),
    );
    const { transport, messages } = await started(server);
    await transport.send(initializeRequest(1));
    expect(messages).toHaveLength(2);
    await expect(transport.send(request(2, "ping"))).rejects.toMatchObject({ data: { status: 400 } });
    expect(server.sent("GET")).toEqual([]);
  });

  it("says both failed when HTTP+SSE fails too", async () => {
    const server = new FakeServer()
      .on("POST", () => new Response(null, { status: 405 }))
      .on("GET", () => new Response("nothing here", { status: 404 }));
    const { transport, closes } = await started(server);
    await expect(transport.send(initializeRequest(1))).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message:
        `The server refused Streamable HTTP (HTTP 405 from POST ${ENDPOINT}), ` +
        `and HTTP+SSE failed too: HTTP 404 from GET ${ENDPOINT}: nothing here`,
      data: { streamableHttp: { status: 405 }, httpSse: { status: 404 } },
    });
    expect(closes).toEqual([]);
    await expect(transport.send(request(2, "ping"))).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
  });

  it("holds messages sent while the first exchange decides, then routes them to the transport chosen", async () => {
    const live = legacyStream();
    let refuse!: () => void;
    const server = new FakeServer()
      .on(
        "POST",
        () => new Promise<Response>((resolve) => (refuse = () => resolve(new Response(null, { status: 405 })))),
        accepted,
        accepted,
      )
      .on("GET", () => sseAnswer(live.stream));
    const { transport } = await started(server);
    const first = transport.send(initializeRequest(1));
    const second = transport.send(notification("notifications/cancelled", { requestId: 1 }));
    await vi.waitFor(() => expect(server.sent("POST")).toHaveLength(1));
    refuse();
    await Promise.all([first, second]);
    expect(server.sent("POST").map((post) => post.url)).toEqual([
      ENDPOINT,
      "http://127.0.0.1:3000/messages?sessionId=old",
      "http://127.0.0.1:3000/messages?sessionId=old",
    ]);
  });

  it("stops falling back when closed meanwhile", async () => {
    let refuse!: () => void;
    const server = new FakeServer().on(
      "POST",
      () => new Promise<Response>((resolve) => (refuse = () => resolve(new Response(null, { status: 405 })))),
    );
    const { transport, closes } = await started(server);
    const sent = transport.send(initializeRequest(1));
    await vi.waitFor(() => expect(server.sent("POST")).toHaveLength(1));
    const closing = transport.close();
    refuse();
    await expect(sent).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    await closing;
    await transport.close();
    expect(closes).toEqual([undefined]);
    expect(server.sent("GET")).toEqual([]);
  });

  it("forwards what the transport in use reports, and nothing from the one it replaced", async () => {
    const live = legacyStream();
    const server = new FakeServer().on("POST", () => new Response(null, { status: 405 }), accepted).on("GET", () => sseAnswer(live.stream));
    const { transport, malformed, closes } = await started(server);
    await transport.send(initializeRequest(1));
    live.push(sseEvent({ data: "{bad" }));
    await vi.waitFor(() => expect(malformed).toHaveLength(1));
    live.fail(new Error("gone"));
    await vi.waitFor(() => expect(closes).toHaveLength(1));
    expect(closes[0]?.message).toContain("HTTP+SSE cannot resume a session");
    await transport.close();
    expect(closes).toHaveLength(1);
  });

  it("forwards a malformed frame from Streamable HTTP", async () => {
    const server = new FakeServer().on("POST", () => sseAnswer(sseEvent({ data: "{bad" }) + sseEvent({ data: result(1) })));
    const { transport, malformed } = await started(server);
    await transport.send(request(1, "ping"));
    expect(malformed).toHaveLength(1);
  });

  it("refuses to start twice", async () => {
    const { transport } = await started(new FakeServer());
    await expect(transport.start(recorder().receiver)).rejects.toMatchObject({ code: MCP_CODES.ALREADY_CONNECTED });
  });
});

describe("connectHttp", () => {
  it("connects an MCPClient over Streamable HTTP and returns that transport", async () => {
    const server = new FakeServer().on(
      "POST",
      ({ body }) => jsonAnswer(initializeResult((body as { id: number }).id, "2025-06-18"), { "mcp-session-id": "s" }),
      accepted,
    );
    const client = new MCPClient({ name: "c", version: "1" }, { telemetry: null, era: "session" });
    const transport = await connectHttp(client, ENDPOINT, { fetchImpl: server.fetch, openGetStream: false });
    expect(transport).toBeInstanceOf(StreamableHttpTransport);
    expect(client.protocolVersion).toBe("2025-06-18");
    expect(server.sent("POST")[1]?.headers).toMatchObject({ "mcp-session-id": "s", "mcp-protocol-version": "2025-06-18" });
    await client.close();
    expect(server.sent("DELETE")).toHaveLength(1);
  });

  it("connects an MCPClient to an HTTP+SSE server through the fallback", async () => {
    const live = legacyStream();
    const server = new FakeServer()
      .on(
        "POST",
        () => new Response(null, { status: 405 }),
        ({ body }) => {
          live.push(sseEvent({ event: "message", data: initializeResult((body as { id: number }).id, "2024-11-05") }));
          return accepted();
        },
        accepted,
      )
      .on("GET", () => sseAnswer(live.stream));
    const client = new MCPClient({ name: "c", version: "1" }, { telemetry: null, era: "session" });
    const transport = await connectHttp(client, ENDPOINT, { fetchImpl: server.fetch, connect: { timeoutMs: 2000 } });
    expect(transport).toBeInstanceOf(HttpSseTransport);
    expect(client.protocolVersion).toBe("2024-11-05");
    await client.close();
    expect(live.cancelled).toBe(true);
  });
});

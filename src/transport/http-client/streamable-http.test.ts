import { afterEach, describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { StreamableHttpTransport, type StreamableHttpTransportOptions } from "./streamable-http.js";
import {
  FakeServer,
  accepted,
  initializeRequest,
  initializeResult,
  jsonAnswer,
  notification,
  recorder,
  request,
  result,
  sseAnswer,
  sseEvent,
  streamOf,
} from "./http-client.test-helpers.js";

const ENDPOINT = "http://127.0.0.1:3000/mcp";

async function started(server: FakeServer, options: StreamableHttpTransportOptions = {}) {
  const transport = new StreamableHttpTransport(ENDPOINT, { fetchImpl: server.fetch, ...options });
  const seen = recorder();
  await transport.start(seen.receiver);
  return { transport, ...seen };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("StreamableHttpTransport: POSTing messages", () => {
  it("POSTs each message as JSON accepting JSON and SSE, and delivers a JSON answer before send resolves", async () => {
    const server = new FakeServer().on("POST", () => jsonAnswer(initializeResult(1)));
    const { transport, messages } = await started(server);
    await transport.send(initializeRequest(1));
    expect(messages).toEqual([initializeResult(1)]);
    const [post] = server.sent("POST");
    expect(post).toMatchObject({
      url: ENDPOINT,
      body: initializeRequest(1),
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
    });
    expect(post?.headers).not.toHaveProperty("mcp-session-id");
    expect(post?.headers).not.toHaveProperty("mcp-protocol-version");
    expect(transport.sessionId).toBeUndefined();
  });

  it("resolves a notification or a response on 202 without reading a body", async () => {
    const server = new FakeServer().on(
      "POST",
      accepted,
      () => new Response("ignored", { status: 202 }),
      () => new Response(null, { status: 200 }),
    );
    const { transport, messages } = await started(server);
    await transport.send(notification("notifications/progress", { progressToken: 1, progress: 1 }));
    await transport.send(result(7, {}));
    await transport.send(notification("notifications/roots/list_changed"));
    expect(messages).toEqual([]);
    expect(server.sent("POST")).toHaveLength(3);
  });

  it("resolves a request answered 202: its response may come on the GET stream", async () => {
    const { transport } = await started(new FakeServer().on("POST", accepted));
    await expect(transport.send(request(2, "ping"))).resolves.toBeUndefined();
  });

  it("remembers the session id of the initialize answer and sends it, with the negotiated version, on every later request", async () => {
    const server = new FakeServer().on(
      "POST",
      () => jsonAnswer(initializeResult(1, "2025-06-18"), { "mcp-session-id": "session-1" }),
      accepted,
      () => jsonAnswer(result(2), { "mcp-session-id": "another" }),
      accepted,
    );
    const { transport } = await started(server);
    await transport.send(initializeRequest(1));
    expect(transport.sessionId).toBe("session-1");
    expect(transport.protocolVersion).toBe("2025-06-18");
    await transport.send(notification("notifications/initialized"));
    await transport.send(request(2, "ping"));
    await vi.waitFor(() => expect(server.sent("GET")).toHaveLength(1));
    expect(transport.sessionId).toBe("session-1");
    for (const later of server.requests.slice(1))
      expect(later.headers).toMatchObject({ "mcp-session-id": "session-1", "mcp-protocol-version": "2025-06-18" });
    await transport.send(notification("notifications/cancelled", { requestId: 99 }));
    expect(server.sent("POST")[3]?.headers["mcp-session-id"]).toBe("session-1");
  });

  it("takes the version the client sets over the one it saw in the initialize answer", async () => {
    const server = new FakeServer().on("POST", () => jsonAnswer(initializeResult(1, "2025-03-26")), accepted);
    const { transport } = await started(server, { protocolVersion: "2025-11-25" });
    transport.setProtocolVersion("2025-06-18");
    await transport.send(initializeRequest(1));
    expect(transport.protocolVersion).toBe("2025-06-18");
    await transport.send(notification("notifications/initialized"));
    expect(server.sent("POST").map((post) => post.headers["mcp-protocol-version"])).toEqual(["2025-06-18", "2025-06-18"]);
  });

  it("announces a version given in the options from the first request on", async () => {
    const server = new FakeServer().on(
      "POST",
      () => jsonAnswer(result(1)),
      () => jsonAnswer(result(2)),
    );
    const { transport } = await started(server, { protocolVersion: "2025-11-25" });
    await transport.send(request(1, "ping"));
    await transport.send(request(2, "ping"));
    expect(transport.protocolVersion).toBe("2025-11-25");
    expect(server.sent("POST").map((post) => post.headers["mcp-protocol-version"])).toEqual(["2025-11-25", "2025-11-25"]);
  });

  it("adds custom headers, from an object or a function called per request, under its own", async () => {
    const server = new FakeServer().on("POST", accepted, accepted);
    let token = 0;
    const { transport } = await started(server, { headers: () => ({ authorization: `Bearer t${++token}`, accept: "text/plain" }) });
    await transport.send(notification("a"));
    await transport.send(notification("b"));
    expect(server.sent("POST").map((post) => [post.headers.authorization, post.headers.accept])).toEqual([
      ["Bearer t1", "application/json, text/event-stream"],
      ["Bearer t2", "application/json, text/event-stream"],
    ]);
    const fixed = new FakeServer().on("POST", accepted);
    const second = await started(fixed, { headers: [["x-api-key", "k"]] });
    await second.transport.send(notification("a"));
    expect(fixed.sent("POST")[0]?.headers["x-api-key"]).toBe("k");
  });

  it("rejects with MCP.TRANSPORT_ERROR when the headers function fails", async () => {
    const { transport } = await started(new FakeServer(), { headers: () => Promise.reject(new Error("vault locked")) });
    await expect(transport.send(notification("a"))).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: "The headers option failed: vault locked",
    });
  });

  it("rejects with MCP.TRANSPORT_ERROR when the headers option holds a header no request can carry", async () => {
    const { transport } = await started(new FakeServer(), { headers: { "bad name": "x" } });
    await expect(transport.send(notification("a"))).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: expect.stringMatching(/^The headers option failed: .*bad name/),
    });
  });

  it("uses globalThis.fetch at the time of each request when none is injected", async () => {
    const transport = new StreamableHttpTransport(new URL(ENDPOINT));
    await transport.start(recorder().receiver);
    const server = new FakeServer().on("POST", accepted);
    vi.stubGlobal("fetch", server.fetch);
    await transport.send(notification("a"));
    expect(server.requests).toHaveLength(1);
  });
});

describe("StreamableHttpTransport: what the server answers", () => {
  it("maps an HTTP error to MCP.TRANSPORT_ERROR with status, statusText and the body's message", async () => {
    const body = { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Bad Request: Mcp-Session-Id header is required" } };
    const server = new FakeServer().on("POST", () => new Response(JSON.stringify(body), { status: 400, statusText: "Bad Request" }));
    const { transport, closes } = await started(server);
    const error = await transport.send(request(1, "ping")).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MCPError);
    expect(error).toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: `HTTP 400 Bad Request from POST ${ENDPOINT}: Bad Request: Mcp-Session-Id header is required`,
      data: { status: 400, statusText: "Bad Request", method: "POST", url: ENDPOINT, body: JSON.stringify(body) },
    });
    expect(closes).toEqual([]);
  });

  it("maps 401 and 403 to MCP.UNAUTHORIZED carrying the WWW-Authenticate challenge", async () => {
    const challenge = 'Bearer resource_metadata="http://127.0.0.1:3000/.well-known/oauth-protected-resource"';
    const server = new FakeServer().on(
      "POST",
      () => new Response("login first", { status: 401, headers: { "www-authenticate": challenge } }),
      () => new Response(null, { status: 403 }),
    );
    const { transport } = await started(server);
    await expect(transport.send(request(1, "ping"))).rejects.toMatchObject({
      code: MCP_CODES.UNAUTHORIZED,
      message: `HTTP 401 from POST ${ENDPOINT}: login first`,
      data: { status: 401, wwwAuthenticate: challenge },
    });
    const forbidden = await transport.send(request(2, "ping")).catch((thrown: unknown) => thrown as MCPError);
    expect(forbidden).toMatchObject({
      code: MCP_CODES.UNAUTHORIZED,
      message: `HTTP 403 from POST ${ENDPOINT}`,
      data: { status: 403, body: "" },
    });
    expect(forbidden?.data).not.toHaveProperty("wwwAuthenticate");
  });

  it("keeps only an excerpt of a long error body, and what arrived of one that broke off", async () => {
    const server = new FakeServer().on(
      "POST",
      () => new Response(streamOf(["x".repeat(1500), "y".repeat(1500), "z".repeat(1500)]), { status: 500 }),
      () => new Response(streamOf(["partial "], new Error("reset")), { status: 502 }),
    );
    const { transport } = await started(server);
    const long = (await transport.send(request(1, "ping")).catch((thrown: unknown) => thrown)) as MCPError;
    expect((long.data as { body: string }).body).toBe("x".repeat(1500) + "y".repeat(548));
    await expect(transport.send(request(2, "ping"))).rejects.toMatchObject({ data: { status: 502, body: "partial " } });
  });

  it("maps a network failure to MCP.TRANSPORT_ERROR with the cause", async () => {
    const refused = new TypeError("fetch failed");
    const { transport } = await started(new FakeServer(), { fetchImpl: () => Promise.reject(refused) });
    await expect(transport.send(request(1, "ping"))).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: `POST ${ENDPOINT} failed: fetch failed`,
      cause: refused,
    });
  });

  it("passes on the MCPError a fetch wrapper rejects with (an authorization that failed), as it is", async () => {
    const refused = new MCPError(MCP_CODES.UNAUTHORIZED, "The protected resource metadata names another resource", {
      data: { reason: "resource-mismatch" },
    });
    const { transport } = await started(new FakeServer(), { fetchImpl: () => Promise.reject(refused) });
    await expect(transport.send(request(1, "ping"))).rejects.toBe(refused);
  });

  it("refuses an answer to a request that is neither JSON nor SSE", async () => {
    const server = new FakeServer().on(
      "POST",
      () => new Response("<html>", { headers: { "content-type": "text/html; charset=utf-8" } }),
      () => new Response(null, { status: 200 }),
    );
    const { transport } = await started(server);
    await expect(transport.send(request(1, "ping"))).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: `POST ${ENDPOINT} was answered with content type "text/html" where application/json or text/event-stream was expected`,
      data: { status: 200 },
    });
    await expect(transport.send(request(2, "ping"))).rejects.toMatchObject({ data: { contentType: "" } });
  });

  it("reports a JSON answer that does not parse to onMalformed and rejects the request", async () => {
    const server = new FakeServer().on("POST", () => new Response("{not json", { headers: { "content-type": "application/json" } }));
    const { transport, malformed, messages } = await started(server);
    await expect(transport.send(request(1, "ping"))).rejects.toMatchObject({
      code: MCP_CODES.PROTOCOL_INVALID,
      message: `The server answered POST ${ENDPOINT} without a response to request 1`,
    });
    expect(malformed.map((error) => error.code)).toEqual([MCP_CODES.PROTOCOL_INVALID]);
    expect(messages).toEqual([]);
  });

  it("rejects a JSON answer that lacks the response, or is too long, or breaks off", async () => {
    const server = new FakeServer().on(
      "POST",
      () => jsonAnswer(notification("notifications/message", { level: "info", data: "x" })),
      () => jsonAnswer(result(2, { padding: "x".repeat(200) })),
      () => new Response(streamOf(['{"jsonrpc":'], new Error("reset")), { headers: { "content-type": "application/json" } }),
    );
    const { transport, messages } = await started(server, { maxMessageBytes: 100 });
    await expect(transport.send(request(1, "ping"))).rejects.toMatchObject({
      code: MCP_CODES.PROTOCOL_INVALID,
      data: { body: expect.stringContaining("notifications/message") },
    });
    expect(messages).toHaveLength(1);
    await expect(transport.send(request(2, "ping"))).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: "The JSON answer to request 2 was cut off or longer than 100 bytes",
    });
    await expect(transport.send(request(3, "ping"))).rejects.toMatchObject({
      message: "The JSON answer to request 3 was cut off or longer than 100 bytes",
    });
  });

  it("keeps the first 2048 characters of a JSON answer that lacks the response", async () => {
    const chatter = notification("notifications/message", { level: "info", data: "x".repeat(3000) });
    const server = new FakeServer().on("POST", () => jsonAnswer(chatter));
    const { transport, messages } = await started(server);
    await expect(transport.send(request(1, "ping"))).rejects.toMatchObject({
      code: MCP_CODES.PROTOCOL_INVALID,
      data: { body: JSON.stringify(chatter).slice(0, 2048) },
    });
    expect(messages).toEqual([chatter]);
  });

  it("delivers a JSON batch answering a batch, and names every request still unanswered", async () => {
    const server = new FakeServer().on(
      "POST",
      () => jsonAnswer([result(1), result("b")]),
      () => jsonAnswer([result(3)]),
    );
    const { transport, messages } = await started(server);
    await transport.send([request(1, "ping"), request("b", "ping"), notification("n")]);
    expect(messages).toEqual([[result(1), result("b")]]);
    await expect(transport.send([request(3, "ping"), request(4, "ping"), request(5, "ping")])).rejects.toMatchObject({
      message: expect.stringMatching(/without a response to requests 4, 5$/),
    });
  });
});

describe("StreamableHttpTransport: lifecycle errors", () => {
  it("refuses to start twice, to start once closed, and to send before start or after close", async () => {
    const server = new FakeServer();
    const transport = new StreamableHttpTransport(ENDPOINT, { fetchImpl: server.fetch });
    await expect(transport.send(request(1, "ping"))).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: "Cannot send: call start() first",
    });
    await transport.start(recorder().receiver);
    await expect(transport.start(recorder().receiver)).rejects.toMatchObject({
      code: MCP_CODES.ALREADY_CONNECTED,
      message: "This Streamable HTTP transport is already started",
    });
    await transport.close();
    expect(transport.closed).toBe(true);
    const closed = { code: MCP_CODES.TRANSPORT_CLOSED, message: "The Streamable HTTP transport is closed" };
    const refused = (await transport.send(request(1, "ping")).catch((thrown: unknown) => thrown)) as MCPError;
    expect(refused).toMatchObject(closed);
    expect(refused.cause).toBeUndefined();
    expect(server.requests).toEqual([]);
    const closedFirst = new StreamableHttpTransport(ENDPOINT);
    await closedFirst.close();
    await expect(closedFirst.start(recorder().receiver)).rejects.toMatchObject(closed);
  });

  it("refuses a message with no JSON form", async () => {
    const { transport } = await started(new FakeServer());
    await expect(transport.send({ big: 1n })).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: expect.stringContaining("not serialisable"),
    });
    await expect(transport.send(undefined)).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: "Cannot send: the message has no JSON form",
    });
  });

  it("delivers an SSE answer of a request whose body is missing as a content-type error", async () => {
    const server = new FakeServer().on("POST", () => new Response(null, { status: 200, headers: { "content-type": "text/event-stream" } }));
    const { transport } = await started(server);
    await expect(transport.send(request(1, "ping"))).rejects.toMatchObject({ data: { contentType: "text/event-stream" } });
  });

  it("reads an SSE answer and resolves once its stream is over", async () => {
    const server = new FakeServer().on("POST", () => sseAnswer(sseEvent({ data: result(1) })));
    const { transport, messages } = await started(server);
    await transport.send(request(1, "ping"));
    expect(messages).toEqual([result(1)]);
  });
});

describe("StreamableHttpTransport: odd but valid traffic", () => {
  it("quotes a non-JSON-RPC error body as it is", async () => {
    const server = new FakeServer().on("POST", () => new Response(' {"detail":"x"} ', { status: 500 }));
    const { transport } = await started(server);
    await expect(transport.send(request(1, "ping"))).rejects.toMatchObject({ message: `HTTP 500 from POST ${ENDPOINT}: {"detail":"x"}` });
  });

  it("POSTs a cancel that names no usable request like any notification", async () => {
    const server = new FakeServer().on("POST", accepted, accepted);
    const { transport } = await started(server);
    await transport.send(notification("notifications/cancelled"));
    await transport.send(notification("notifications/cancelled", { requestId: null }));
    expect(server.sent("POST")).toHaveLength(2);
  });

  it("learns the version only from the response to its own initialize, and only a string", async () => {
    const server = new FakeServer().on(
      "POST",
      () => jsonAnswer([result(9, { protocolVersion: "2024-11-05" }), result(1, { protocolVersion: 20250618 })]),
      () => jsonAnswer(initializeResult(2, "2025-03-26")),
    );
    const { transport } = await started(server);
    await transport.send(initializeRequest(1));
    expect(transport.protocolVersion).toBeUndefined();
    await transport.send(initializeRequest(2));
    expect(transport.protocolVersion).toBe("2025-03-26");
  });
});

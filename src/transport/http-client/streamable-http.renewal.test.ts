import { describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import type { MCPError } from "../../error-codes/mcp-error.js";
import { isSessionExpired } from "./http-error.js";
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
  result,
  sseAnswer,
  sseEvent,
  type Answer,
} from "./http-client.test-helpers.js";

const lost = () => new Response(null, { status: 404 });
const newSession =
  (sessionId: string, version = "2025-06-18"): Answer =>
  ({ body }) =>
    jsonAnswer(initializeResult((body as { id: number }).id, version), { "mcp-session-id": sessionId });

/** A server that opens session "s-1", then gives these answers to the POSTs that follow. */
function serverThen(...answers: Answer[]): FakeServer {
  return new FakeServer().on("POST", newSession("s-1"), ...answers);
}

describe("StreamableHttpTransport: renewing a lost session (option renewSession)", () => {
  it("initializes again with the client's own initialize, then sends the request again in the new session", async () => {
    const server = serverThen(lost, newSession("s-2"), accepted, () => jsonAnswer(result(2, { tools: [] })));
    const { transport, messages, renewed, closes } = await renewingOn(server);
    await transport.send(request(2, "tools/list"));
    expect(messages).toEqual([result(2, { tools: [] })]);
    expect(transport.sessionId).toBe("s-2");
    expect(renewed).toEqual([["s-2", "s-1"]]);
    expect(closes).toEqual([]);
    const posts = server.sent("POST").slice(1);
    expect(posts.map((post) => [post.headers["mcp-session-id"], (post.body as { method?: string }).method])).toEqual([
      ["s-1", "tools/list"],
      [undefined, "initialize"],
      ["s-2", "notifications/initialized"],
      ["s-2", "tools/list"],
    ]);
    expect(posts[1]?.body).toEqual(initializeRequest(1));
  });

  it("takes the new initialize answered as an SSE stream, reading it only up to the answer", async () => {
    const rest = liveStream();
    rest.push(
      sseEvent({ id: "p", data: "" }) +
        sseEvent({ data: notification("notifications/message", { level: "info", data: "hi" }) }) +
        sseEvent({ data: initializeResult(1) }),
    );
    const server = serverThen(
      lost,
      () => sseAnswer(rest.stream, { "mcp-session-id": "s-2" }),
      accepted,
      () => jsonAnswer(result(2)),
    );
    const { transport, messages } = await renewingOn(server);
    await transport.send(request(2, "ping"));
    expect(messages).toEqual([result(2)]);
    expect(rest.cancelled).toBe(true);
  });

  it("renews once for every request that met the same loss, and holds requests made meanwhile", async () => {
    let release!: () => void;
    const server = serverThen(
      lost,
      lost,
      (seen) => new Promise<Response>((resolve) => (release = () => resolve(newSession("s-2")(seen)))),
      accepted,
      () => jsonAnswer(result(2)),
      () => jsonAnswer(result(3)),
      () => jsonAnswer(result(4)),
    );
    const { transport, messages, renewed } = await renewingOn(server);
    const both = Promise.all([transport.send(request(2, "ping")), transport.send(request(3, "ping"))]);
    await vi.waitFor(() => expect(server.sent("POST")).toHaveLength(4));
    const meanwhile = transport.send(request(4, "ping"));
    release();
    await both;
    await meanwhile;
    expect(messages).toEqual(expect.arrayContaining([result(2), result(3), result(4)]));
    expect(renewed).toEqual([["s-2", "s-1"]]);
    expect(server.sent("POST").filter((post) => (post.body as { method?: string }).method === "initialize")).toHaveLength(2);
    expect(server.sent("POST").at(-1)?.headers["mcp-session-id"]).toBe("s-2");
  });

  it("fails the requests held meanwhile when the renewal fails", async () => {
    let refuse!: () => void;
    const server = serverThen(
      lost,
      () => new Promise<Response>((resolve) => (refuse = () => resolve(new Response(null, { status: 503 })))),
      () => jsonAnswer(result(3)),
    );
    const { transport } = await renewingOn(server);
    const first = transport.send(request(2, "ping"));
    await vi.waitFor(() => expect(server.sent("POST")).toHaveLength(3));
    const meanwhile = transport.send(request(3, "ping"));
    refuse();
    const failure = await first.catch((thrown: unknown) => thrown);
    expect(failure).toMatchObject({
      data: { sessionExpired: true },
      message: expect.stringContaining("starting a new one failed: HTTP 503"),
    });
    await expect(meanwhile).rejects.toBe(failure);
    expect(server.sent("POST")).toHaveLength(3);
  });

  it("skips an oversized event in the SSE answer to the new initialize", async () => {
    const server = serverThen(
      lost,
      () => sseAnswer(sseEvent({ data: "x".repeat(500) }) + sseEvent({ data: initializeResult(1) }), { "mcp-session-id": "s-2" }),
      accepted,
      () => jsonAnswer(result(2)),
    );
    const { transport, messages } = await renewingOn(server, { maxMessageBytes: 400 });
    await transport.send(request(2, "ping"));
    expect(messages).toEqual([result(2)]);
  });

  it("renews from the GET stream too, and opens it again in the new session", async () => {
    const server = serverThen(accepted, newSession("s-2"), accepted).on("GET", lost, () =>
      sseAnswer(sseEvent({ data: notification("n") })),
    );
    const { transport, messages, renewed } = await renewingOn(server, { openGetStream: true, reconnection: { maxAttempts: 0 } });
    await transport.send(notification("notifications/initialized"));
    await vi.waitFor(() => expect(messages).toEqual([notification("n")]));
    expect(renewed).toEqual([["s-2", "s-1"]]);
    expect(server.sent("GET").map((get) => get.headers["mcp-session-id"])).toEqual(["s-1", "s-2"]);
  });

  it.each([
    ["the new initialize is refused", [() => new Response("full", { status: 503 })], `HTTP 503 from POST http://127.0.0.1:3000/mcp: full`],
    [
      "the answer has no version",
      [() => jsonAnswer({ jsonrpc: "2.0", id: 1, error: { code: -32600, message: "no" } })],
      "The server's answer to initialize for a new session has no protocol version",
    ],
    ["the answer is not JSON", [() => new Response("{", { headers: { "content-type": "application/json" } })], "has no protocol version"],
    ["the SSE answer ends without one", [() => sseAnswer(sseEvent({ data: notification("n") }))], "has no protocol version"],
    [
      "the answer has another content type",
      [() => new Response("?", { headers: { "content-type": "text/plain" } })],
      'POST http://127.0.0.1:3000/mcp was answered with content type "text/plain" where application/json or text/event-stream was expected',
    ],
    [
      "the version changed",
      [newSession("s-2", "2025-03-26")],
      "The new session speaks protocol version 2025-03-26, the lost one 2025-06-18",
    ],
    ["initialized is refused", [newSession("s-2"), () => new Response(null, { status: 400 })], "HTTP 400 from POST"],
  ])("closes with the session error when %s", async (_case, renewal, why) => {
    const server = serverThen(lost, ...renewal);
    const { transport, closes } = await renewingOn(server);
    const error = (await transport.send(request(2, "ping")).catch((thrown: unknown) => thrown)) as MCPError;
    expect(error.message).toMatch(
      new RegExp(
        "^The server no longer knows session s-1 \\(HTTP 404 to POST http://127\\.0\\.0\\.1:3000/mcp\\): " +
          "the session has ended; starting a new one failed: ",
      ),
    );
    expect(error.message).toContain(why);
    expect(isSessionExpired(error)).toBe(true);
    expect(closes).toEqual([error]);
  });

  it("says which versions differ when the new session speaks another", async () => {
    const server = serverThen(lost, newSession("s-2", "2025-03-26"));
    const { transport } = await renewingOn(server);
    const error = (await transport.send(request(2, "ping")).catch((thrown: unknown) => thrown)) as MCPError;
    expect(error.cause).toMatchObject({ code: MCP_CODES.PROTOCOL_VERSION_MISMATCH, data: { lost: "2025-06-18", answered: "2025-03-26" } });
  });

  it("takes whatever version the new session speaks when the lost one's was never known", async () => {
    const unversioned = new FakeServer().on(
      "POST",
      () => jsonAnswer(result(1, { capabilities: {}, serverInfo: { name: "s", version: "1" } }), { "mcp-session-id": "s-1" }),
      lost,
      newSession("s-2"),
      accepted,
      () => jsonAnswer(result(2)),
    );
    const { transport, messages, renewed } = await renewingOn(unversioned);
    expect(transport.protocolVersion).toBeUndefined();
    await transport.send(request(2, "ping"));
    expect(messages).toEqual([result(2)]);
    expect(renewed).toEqual([["s-2", "s-1"]]);
  });

  it("renews without an onSessionRenewed to tell", async () => {
    const server = serverThen(lost, newSession("s-2"), accepted, () => jsonAnswer(result(2)));
    const transport = new StreamableHttpTransport("http://127.0.0.1:3000/mcp", {
      fetchImpl: server.fetch,
      openGetStream: false,
      renewSession: true,
    });
    const seen = recorder();
    await transport.start(seen.receiver);
    await transport.send(initializeRequest(1));
    await transport.send(request(2, "ping"));
    expect(seen.messages).toEqual([initializeResult(1), result(2)]);
    expect(transport.sessionId).toBe("s-2");
  });

  it("closes when the new session is lost at once too", async () => {
    const server = serverThen(lost, newSession("s-2"), accepted, lost);
    const { transport, closes } = await renewingOn(server);
    await expect(transport.send(request(2, "ping"))).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      message: expect.stringMatching(/^The server no longer knows session s-2 .*connect again to start a new one$/),
    });
    expect(closes).toHaveLength(1);
  });

  it("names the lost session when a new one without an id is lost too", async () => {
    const server = serverThen(lost, ({ body }) => jsonAnswer(initializeResult((body as { id: number }).id)), accepted, lost);
    const { transport } = await renewingOn(server);
    await expect(transport.send(request(2, "ping"))).rejects.toMatchObject({ data: { sessionId: "s-1", sessionExpired: true } });
  });

  it("cannot renew a session it never initialized itself", async () => {
    const server = new FakeServer().on("POST", () => jsonAnswer(result(1), { "mcp-session-id": "given" }), lost);
    const transport = new StreamableHttpTransport("http://127.0.0.1:3000/mcp", { fetchImpl: server.fetch, renewSession: true });
    await transport.start(recorder().receiver);
    await transport.send(request(1, "ping"));
    await expect(transport.send(request(2, "ping"))).rejects.toMatchObject({
      message: expect.stringContaining("connect again to start a new one"),
    });
  });
});

/** A transport that went through initialize (session "s-1", version 2025-06-18) on `server`, renewing lost sessions. */
async function renewingOn(server: FakeServer, options: StreamableHttpTransportOptions = {}) {
  const renewed: Array<[string | undefined, string]> = [];
  const transport = new StreamableHttpTransport("http://127.0.0.1:3000/mcp", {
    fetchImpl: server.fetch,
    openGetStream: false,
    renewSession: true,
    onSessionRenewed: (sessionId, lostId) => renewed.push([sessionId, lostId]),
    ...options,
  });
  const seen = recorder();
  await transport.start(seen.receiver);
  await transport.send(initializeRequest(1));
  seen.messages.length = 0;
  return { transport, renewed, ...seen };
}

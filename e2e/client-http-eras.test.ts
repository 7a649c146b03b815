// Our MCPClient finds the era over HTTP too. Against our dual-era server (serveHttp on 127.0.0.1) it
// probes with a stateless-era POST and speaks that era: each POST carries the revision's headers
// (MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-* from the tool's x-mcp-header annotations),
// no session is opened, and a -32020 sends the client to list the tools again and call once more.
// Against session-era servers (ours restricted to it, the SDK's) the probe's refusal falls back to
// initialize, and connectHttp keeps to Streamable HTTP (only initialize's refusal means HTTP+SSE).
import { afterEach, describe, expect, it } from "vitest";
import {
  connectHttp,
  FallbackHttpTransport,
  MCP_CODES,
  MCPClient,
  MCPServer,
  StreamableHttpTransport,
  streamableHttpHandler,
  type MCPClientOptions,
} from "../src/index.js";
import { serveHttp } from "../src/node/index.js";
import { dualEraServer } from "./fixtures/dual-era-server.mjs";
import { startStreamableServer } from "./support/sdk-http-servers.js";
import { FakeServer, jsonAnswer } from "../src/transport/http-client/http-client.test-helpers.js";
import type { FetchLike } from "../src/transport/http-client/http-options.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

interface Posted {
  readonly method: unknown;
  readonly headers: Record<string, string>;
}

/** Our server on 127.0.0.1, and a fetch that records each POST's JSON-RPC method and headers. */
async function served(server: MCPServer): Promise<{ url: URL; posted: Posted[]; fetchImpl: FetchLike }> {
  const handler = streamableHttpHandler(server);
  const http = await serveHttp(handler, { port: 0, host: "127.0.0.1" });
  cleanups.push(async () => {
    await handler.close();
    await http.close();
  });
  const posted: Posted[] = [];
  const fetchImpl: FetchLike = (url, init) => {
    if (init.method === "POST") {
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => (headers[name] = value));
      posted.push({ method: (JSON.parse(init.body as string) as { method?: unknown }).method, headers });
    }
    return fetch(url, init);
  };
  return { url: new URL("/mcp", http.url), posted, fetchImpl };
}

function client(options: MCPClientOptions = {}): MCPClient {
  const made = new MCPClient(
    { name: "http-eras", version: "1.0.0" },
    {
      telemetry: null,
      roots: [{ uri: "file:///work" }],
      sampling: () => ({ role: "assistant", content: { type: "text", text: "42" }, model: "m" }),
      elicitation: { form: (params) => ({ action: "accept", content: params.message === "Your name?" ? { name: "Ada" } : { ok: true } }) },
      ...options,
    },
  );
  cleanups.push(() => made.close());
  return made;
}

describe("MCPClient over Streamable HTTP finds the era", () => {
  it("speaks the stateless era with our dual-era server: the revision's headers per POST, no session, input rounds, progress", async () => {
    const { url, posted, fetchImpl } = await served(dualEraServer(MCPServer));
    const ours = client();
    const transport = new StreamableHttpTransport(url, { fetchImpl });
    await expect(ours.connect(transport)).resolves.toEqual({ era: "stateless", protocolVersion: "2026-07-28" });
    expect(transport.sessionId).toBeUndefined();
    const progress: number[] = [];
    expect(
      (await ours.callTool("count", { to: 2 }, { onProgress: ({ progress: done }) => progress.push(done) })).structuredContent,
    ).toEqual({ counted: 2 });
    expect(progress).toEqual([1, 2]);
    expect((await ours.callTool("interview", {})).structuredContent).toEqual({ era: "stateless", name: "Ada", answer: "42", sent: true });
    expect((await ours.readResource("memo://note")).contents[0]).toMatchObject({ text: "remember" });
    await expect(ours.readResource("memo://none")).rejects.toMatchObject({ code: MCP_CODES.NOT_FOUND });
    expect(posted[0]).toMatchObject({
      method: "server/discover",
      headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" },
    });
    expect(posted.find((post) => post.method === "resources/read")?.headers).toMatchObject({
      "mcp-method": "resources/read",
      "mcp-name": "memo://note",
    });
    for (const post of posted) expect(post.headers).not.toHaveProperty("mcp-session-id");
  });

  it("lists the tools again and calls once more when the server finds its Mcp-Param headers missing (-32020)", async () => {
    const { url, posted, fetchImpl } = await served(dualEraServer(MCPServer));
    const ours = client();
    await ours.connect(new StreamableHttpTransport(url, { fetchImpl }));
    // Not listed yet: the client cannot know the tool mirrors `uri` into Mcp-Param-Resource-Uri.
    expect((await ours.callTool("touch", { uri: "memo://note" })).content).toEqual([{ type: "text", text: "touched memo://note" }]);
    expect(posted.map((post) => post.method)).toEqual(["server/discover", "tools/call", "tools/list", "tools/call"]);
    expect(posted[1]?.headers).not.toHaveProperty("mcp-param-resource-uri");
    expect(posted[3]?.headers).toMatchObject({ "mcp-param-resource-uri": "memo://note", "mcp-name": "touch" });
  });

  it("falls back to initialize with a session-era server, and connectHttp keeps to Streamable HTTP", async () => {
    const { url } = await served(new MCPServer({ name: "old", version: "1.0.0" }, { eras: ["session"] }));
    await expect(client().connect(new StreamableHttpTransport(url))).resolves.toEqual({ era: "session", protocolVersion: "2025-11-25" });

    const sdk = await startStreamableServer();
    cleanups.push(() => sdk.close());
    const viaFallback = client();
    const transport = await connectHttp(viaFallback, sdk.url);
    expect(transport).toBeInstanceOf(StreamableHttpTransport);
    expect(viaFallback.era).toBe("session");
    expect(viaFallback.protocolVersion).toBe("2025-11-25");

    const { url: dualUrl } = await served(dualEraServer(MCPServer));
    const both = client();
    const fallback = new FallbackHttpTransport(dualUrl);
    await expect(both.connect(fallback)).resolves.toEqual({ era: "stateless", protocolVersion: "2026-07-28" });
    expect(fallback.selected).toBeInstanceOf(StreamableHttpTransport);
    expect((await both.callTool("touch", { uri: "memo://note" })).content).toEqual([{ type: "text", text: "touched memo://note" }]);
  });
});

const discovered = (id: number) => ({ jsonrpc: "2.0", id, result: { supportedVersions: ["2026-07-28"], capabilities: { tools: {} } } });
const idOf = (body: unknown) => (body as { id: number }).id;
const refusal = (body: string) => () => new Response(body, { status: 400, headers: { "content-type": "application/json" } });
const withSessionId = (message: unknown, sessionId: string) => jsonAnswer(message, { "mcp-session-id": sessionId });

describe("MCPClient on the stateless era's HTTP wire", () => {
  it("takes 401 to the probe as an authorization failure, not an era", async () => {
    const server = new FakeServer().on(
      "POST",
      () => new Response("no", { status: 401, headers: { "www-authenticate": 'Bearer realm="mcp"' } }),
    );
    await expect(
      client().connect(new StreamableHttpTransport("http://127.0.0.1:1/mcp", { fetchImpl: server.fetch })),
    ).rejects.toMatchObject({ code: MCP_CODES.UNAUTHORIZED });
    expect(server.sent("POST")).toHaveLength(1);
  });

  it("opens no session on a stateless-era answer that carries an id: no later POST sends it, close sends no DELETE", async () => {
    const server = new FakeServer().on(
      "POST",
      ({ body }) => withSessionId(discovered(idOf(body)), "stateless-1"),
      ({ body }) => withSessionId({ jsonrpc: "2.0", id: idOf(body), result: { tools: [] } }, "stateless-1"),
    );
    const ours = client();
    const transport = new StreamableHttpTransport("http://127.0.0.1:1/mcp", { fetchImpl: server.fetch });
    await ours.connect(transport);
    await ours.listAllTools();
    await ours.close();
    expect(transport.sessionId).toBeUndefined();
    expect(server.sent("POST").map((post) => post.headers["mcp-session-id"])).toEqual([undefined, undefined]);
    expect(server.sent("DELETE")).toEqual([]);
  });

  it("keeps the session id initialize assigns when a session-era server refused the probe with an id of its own", async () => {
    const probeRefused = new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "no session" } }), {
      status: 400,
      headers: { "content-type": "application/json", "mcp-session-id": "probe-1" },
    });
    const initialized = { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } };
    const server = new FakeServer().on(
      "POST",
      () => probeRefused,
      ({ body }) => withSessionId({ jsonrpc: "2.0", id: idOf(body), result: initialized }, "session-1"),
      () => new Response(null, { status: 202 }),
    );
    const transport = new StreamableHttpTransport("http://127.0.0.1:1/mcp", { fetchImpl: server.fetch, openGetStream: false });
    await expect(client().connect(transport)).resolves.toEqual({ era: "session", protocolVersion: "2025-11-25" });
    expect(transport.sessionId).toBe("session-1");
    expect(server.sent("POST").map((post) => post.headers["mcp-session-id"])).toEqual([undefined, undefined, "session-1"]);
  });

  it("leaves out a tool with invalid x-mcp-header annotations, and reads a refused POST's body as the error when it is one", async () => {
    const tools = [
      { name: "fine", inputSchema: { type: "object", properties: { r: { type: "string", "x-mcp-header": "R" } } } },
      { name: "broken", inputSchema: { type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } } },
    ];
    const server = new FakeServer().on(
      "POST",
      ({ body }) => jsonAnswer(discovered(idOf(body))),
      ({ body }) => jsonAnswer({ jsonrpc: "2.0", id: idOf(body), result: { tools } }),
      ({ body }) =>
        new Response(JSON.stringify({ jsonrpc: "2.0", id: idOf(body), error: { code: -32602, message: "Invalid params: r" } }), {
          status: 400,
          headers: { "content-type": "application/json" },
        }),
      () =>
        new Response(JSON.stringify({ jsonrpc: "2.0", id: 999, error: { code: -32602, message: "someone else's" } }), {
          status: 400,
          headers: { "content-type": "application/json" },
        }),
      () => new Response("gateway says no", { status: 502, headers: { "content-type": "text/plain" } }),
    );
    const ours = client();
    const dropped: unknown[] = [];
    ours.on("toolDropped", (event) => dropped.push(event));
    await ours.connect(new StreamableHttpTransport("http://127.0.0.1:1/mcp", { fetchImpl: server.fetch }));
    expect((await ours.listAllTools()).map((tool) => tool.name)).toEqual(["fine"]);
    expect(dropped).toEqual([
      { name: "broken", reason: "x-mcp-header at /properties/n: the property's type must be string, integer or boolean" },
    ]);
    await expect(ours.callTool("fine", { r: "x" })).rejects.toMatchObject({
      code: MCP_CODES.INVALID_PARAMS,
      wireCode: -32602,
      message: "Invalid params: r",
    });
    expect(server.sent("POST")[2]?.headers).toMatchObject({ "mcp-param-r": "x" });
    await expect(ours.callTool("fine", { r: "y" })).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR, data: { status: 400 } });
    await expect(ours.callTool("fine", { r: "z" })).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR, data: { status: 502 } });
  });

  it("takes a refused POST's body as the HTTP error when it answers nothing: not a JSON object, no result or error, too long", async () => {
    // The probe is request 1; the pings are 2 to 5, each refused with one of these.
    const bodies = [
      "{not json",
      "[1]",
      JSON.stringify({ jsonrpc: "2.0", id: 4 }),
      JSON.stringify({ jsonrpc: "2.0", id: 5, error: { code: -32602, message: "x".repeat(600) } }),
    ];
    const server = new FakeServer().on("POST", ({ body }) => jsonAnswer(discovered(idOf(body))), ...bodies.map(refusal));
    const ours = client();
    await ours.connect(new StreamableHttpTransport("http://127.0.0.1:1/mcp", { fetchImpl: server.fetch, maxMessageBytes: 512 }));
    for (const body of bodies)
      await expect(ours.ping()).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR, data: { status: 400, body: body.slice(0, 512) } });
  });
});

import { afterEach, describe, expect, it, vi } from "vitest";

import { META_KEYS } from "../../constants/index.js";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import type { MCPServerOptions } from "../../server/mcp-server/mcp-server.types.js";
import { answerOf, messagesIn, modernMessage, modernRequest, postOf } from "../../server/stateless/stateless.test-helpers.js";
import { httpRequest, initializeMessage, messagesOf } from "./http-server.test-helpers.js";
import { streamableHttpHandler } from "./streamable-handler.js";

const info = { name: "dual", version: "1.2.3" };
const handlers: { close(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

function dualServer(options: MCPServerOptions = {}): MCPServer {
  const server = new MCPServer(info, options);
  server.tool("echo", { description: "echoes", inputSchema: { type: "object", properties: { text: { type: "string" } } } }, (args) => ({
    content: [{ type: "text", text: String(args["text"]) }],
  }));
  server.tool("slow", { description: "reports progress", inputSchema: { type: "object" } }, async (_args, ctx) => {
    await ctx.progress(1, 2, "half");
    await ctx.log("info", "working");
    return { content: [{ type: "text", text: "done" }] };
  });
  server.resource("readme", "test://readme", { mimeType: "text/plain" }, (uri) => ({ contents: [{ uri, text: "hello" }] }));
  server.prompt("greet", { description: "greets" }, () => ({ messages: [{ role: "user", content: { type: "text", text: "hi" } }] }));
  return server;
}

function handlerOf(server: MCPServer, options: Parameters<typeof streamableHttpHandler>[1] = {}) {
  const handler = streamableHttpHandler(server, options);
  handlers.push(handler);
  return handler;
}

describe("Streamable HTTP, 2026-07-28: one POST, one request, no session", () => {
  it("answers server/discover with versions, capabilities, the server in _meta and caching hints", async () => {
    const handler = handlerOf(dualServer({ instructions: "be nice" }));
    const response = await handler.fetch(modernRequest(1, "server/discover"));
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(await answerOf(response)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        resultType: "complete",
        supportedVersions: ["2026-07-28"],
        capabilities: expect.objectContaining({
          tools: { listChanged: true },
          prompts: { listChanged: true },
          resources: { subscribe: true, listChanged: true },
        }),
        instructions: "be nice",
        _meta: { [META_KEYS.serverInfo]: info },
        ttlMs: 0,
        cacheScope: "public",
      },
    });
    expect(handler.sessionCount).toBe(0);
  });

  it("calls a tool and marks the result complete", async () => {
    const handler = handlerOf(dualServer());
    const answer = await answerOf(await handler.fetch(modernRequest(2, "tools/call", { name: "echo", arguments: { text: "yo" } })));
    expect(answer).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { resultType: "complete", content: [{ type: "text", text: "yo" }], _meta: { [META_KEYS.serverInfo]: info } },
    });
  });

  it("refuses a request without the required _meta fields with 400 and -32602, echoing its id", async () => {
    const handler = handlerOf(dualServer());
    const bare = await handler.fetch(postOf({ jsonrpc: "2.0", id: 101, method: "server/discover", params: {} }));
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({ id: 101, error: { code: -32602 } });
    const noCapabilities = modernMessage(104, "server/discover");
    delete ((noCapabilities["params"] as Record<string, unknown>)["_meta"] as Record<string, unknown>)[META_KEYS.clientCapabilities];
    const refused = await handler.fetch(postOf(noCapabilities));
    expect([refused.status, await refused.json()]).toMatchObject([
      400,
      { id: 104, error: { code: -32602, message: expect.stringContaining("clientCapabilities") } },
    ]);
    const badLevel = await handler.fetch(modernRequest(105, "tools/list", {}, { logLevel: "loud" }));
    expect([badLevel.status, await badLevel.json()]).toMatchObject([
      400,
      { id: 105, error: { code: -32602, message: expect.stringContaining("logLevel") } },
    ]);
  });

  it("names its versions for an unsupported one (400, -32022), after checking the header agrees with _meta (400, -32020)", async () => {
    const handler = handlerOf(dualServer());
    const unsupported = await handler.fetch(modernRequest(301, "server/discover", {}, { version: "v999.0.0" }));
    expect([unsupported.status, await unsupported.json()]).toEqual([
      400,
      {
        jsonrpc: "2.0",
        id: 301,
        error: { code: -32022, message: expect.any(String), data: { supported: ["2026-07-28"], requested: "v999.0.0" } },
      },
    ]);
    const mismatch = await handler.fetch(
      modernRequest(302, "server/discover", {}, { version: "v999.0.0", headers: { "mcp-protocol-version": "2026-07-28" } }),
    );
    expect([mismatch.status, await mismatch.json()]).toMatchObject([400, { id: 302, error: { code: -32020 } }]);
  });

  it("answers the methods this revision removed with 404 and -32601", async () => {
    const handler = handlerOf(dualServer());
    for (const method of ["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "unknown/method"]) {
      const response = await handler.fetch(modernRequest(500, method));
      expect([method, response.status, await response.json()]).toMatchObject([method, 404, { id: 500, error: { code: -32601 } }]);
    }
  });

  it("checks Mcp-Method and Mcp-Name against the body (400, -32020)", async () => {
    const handler = handlerOf(dualServer());
    const wrongMethod = await handler.fetch(modernRequest(1, "tools/list", {}, { headers: { "mcp-method": "prompts/list" } }));
    const message = "Header mismatch: Mcp-Method header value 'prompts/list' does not match body value 'tools/list'";
    expect([wrongMethod.status, await wrongMethod.json()]).toEqual([400, { jsonrpc: "2.0", id: 1, error: { code: -32020, message } }]);
    const noName = await handler.fetch(modernRequest(2, "tools/call", { name: "echo", arguments: {} }, { headers: { "mcp-name": null } }));
    expect([noName.status, await noName.json()]).toMatchObject([400, { id: 2, error: { code: -32020 } }]);
  });

  it("says what does not match once, in the -32020 message", async () => {
    const handler = handlerOf(dualServer());
    const wrongMethod = await handler.fetch(modernRequest(1, "tools/list", {}, { headers: { "mcp-method": "prompts/list" } }));
    expect(await wrongMethod.json()).toMatchObject({
      error: { message: "Header mismatch: Mcp-Method header value 'prompts/list' does not match body value 'tools/list'" },
    });
    const noName = await handler.fetch(modernRequest(2, "tools/call", { name: "echo", arguments: {} }, { headers: { "mcp-name": null } }));
    expect(await noName.json()).toMatchObject({ error: { message: "Header mismatch: the Mcp-Name header is missing" } });
    const headless = await handler.fetch(modernRequest(3, "tools/list", {}, { headers: { "mcp-protocol-version": null } }));
    expect(await headless.json()).toMatchObject({
      error: { message: "Header mismatch: MCP-Protocol-Version is required and must equal params._meta's protocol version" },
    });
  });

  it("gives list results caching hints, narrowed by what the entries say", async () => {
    const server = dualServer({ cache: { lists: { ttlMs: 60_000, cacheScope: "public" } } });
    server.tool("private", { description: "per user", cache: { ttlMs: 5_000, cacheScope: "private" } }, () => ({ content: [] }));
    const handler = handlerOf(server);
    const tools = (await answerOf(await handler.fetch(modernRequest(1, "tools/list"))))["result"] as Record<string, unknown>;
    expect([tools["ttlMs"], tools["cacheScope"], (tools["tools"] as { name: string }[]).map((tool) => tool.name)]).toEqual([
      5_000,
      "private",
      ["echo", "slow", "private"],
    ]);
    expect((tools["tools"] as Record<string, unknown>[])[2]).not.toHaveProperty("cache");
    const prompts = (await answerOf(await handler.fetch(modernRequest(2, "prompts/list"))))["result"] as Record<string, unknown>;
    expect([prompts["ttlMs"], prompts["cacheScope"]]).toEqual([60_000, "public"]);
    const read = (await answerOf(await handler.fetch(modernRequest(3, "resources/read", { uri: "test://readme" }))))["result"] as Record<
      string,
      unknown
    >;
    expect([read["ttlMs"], read["cacheScope"], read["resultType"]]).toEqual([0, "private", "complete"]);
  });

  it("says a resource is not found with -32602 and data.uri (never -32002)", async () => {
    const handler = handlerOf(dualServer());
    const response = await handler.fetch(modernRequest(7, "resources/read", { uri: "test://nowhere" }));
    expect(await response.json()).toMatchObject({ id: 7, error: { code: -32602, data: { uri: "test://nowhere" } } });
  });

  it("streams progress, and log messages only at the level the request asked for, before the answer", async () => {
    const handler = handlerOf(dualServer());
    const quiet = await handler.fetch(
      modernRequest(1, "tools/call", { name: "slow", arguments: {}, _meta: {} }, { extra: { progressToken: "p1" } }),
    );
    expect(quiet.headers.get("content-type")).toBe("text/event-stream");
    expect((await messagesIn(quiet)).map((message) => message["method"] ?? "answer")).toEqual(["notifications/progress", "answer"]);
    const chatty = await handler.fetch(
      modernRequest(2, "tools/call", { name: "slow", arguments: {} }, { logLevel: "debug", extra: { progressToken: "p2" } }),
    );
    const messages = await messagesIn(chatty);
    expect(messages.map((message) => message["method"] ?? "answer")).toEqual(["notifications/progress", "notifications/message", "answer"]);
    expect(messages[0]).toMatchObject({ params: { progressToken: "p2", progress: 1, total: 2, message: "half" } });
    const silent = await handler.fetch(modernRequest(3, "tools/call", { name: "slow", arguments: {} }));
    expect(silent.headers.get("content-type")).toBe("application/json");
  });

  it("serves a 2025 session and 2026 requests on the same endpoint at once", async () => {
    const handler = handlerOf(dualServer());
    const opened = await handler.fetch(httpRequest({ body: initializeMessage("2025-06-18") }));
    const session = opened.headers.get("mcp-session-id") as string;
    expect(session).toMatch(/.+/);
    const modern = await answerOf(await handler.fetch(modernRequest(9, "tools/call", { name: "echo", arguments: { text: "new" } })));
    const old = await handler.fetch(
      httpRequest({
        body: { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: { text: "old" } } },
        session,
        version: "2025-06-18",
      }),
    );
    expect(modern).toMatchObject({ result: { content: [{ text: "new" }] } });
    expect(await messagesOf(old)).toEqual([{ jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "old" }] } }]);
    expect(handler.sessionCount).toBe(1);
  });

  it("takes one message per POST: a batch is refused, a notification accepted with 202", async () => {
    const handler = handlerOf(dualServer());
    const batch = await handler.fetch(
      postOf([modernMessage(1, "tools/list"), modernMessage(2, "prompts/list")] as unknown as Record<string, unknown>),
    );
    expect([batch.status, await batch.json()]).toMatchObject([400, { error: { code: -32600 } }]);
    const accepted = await handler.fetch(
      postOf({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, _meta: modernMessage(0, "x")["params"] } }),
    );
    expect(accepted.status).toBe(202);
  });

  it("answers a lone invalid message with -32600 and its usable id, an invalid batch with id null", async () => {
    const handler = handlerOf(dualServer());
    const wrongVersion = await handler.fetch(postOf({ ...modernMessage(7, "tools/list"), jsonrpc: "1.0" }));
    expect([wrongVersion.status, await wrongVersion.json()]).toEqual([
      400,
      { jsonrpc: "2.0", id: 7, error: { code: -32600, message: 'Invalid Request: the "jsonrpc" member must be exactly "2.0"' } },
    ]);
    const listParams = await handler.fetch(postOf({ ...modernMessage("p", "tools/list"), params: [1] }));
    expect(await listParams.json()).toMatchObject({ id: "p", error: { code: -32600 } });
    const fractional = await handler.fetch(postOf({ ...modernMessage(1.5, "tools/list") }));
    expect(await fractional.json()).toMatchObject({ id: null, error: { code: -32600 } });
    const batch = await handler.fetch(
      postOf([{ ...modernMessage(8, "tools/list"), jsonrpc: "1.0" }] as unknown as Record<string, unknown>),
    );
    expect(await batch.json()).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it("serves only the stateless era when asked: GET and DELETE get 405, initialize names the versions", async () => {
    const handler = handlerOf(dualServer({ eras: ["stateless"] }));
    expect((await handler.fetch(httpRequest({ method: "GET" }))).status).toBe(405);
    expect((await handler.fetch(httpRequest({ method: "DELETE" }))).status).toBe(405);
    const legacy = await handler.fetch(httpRequest({ body: initializeMessage("2025-11-25") }));
    expect(JSON.stringify(await messagesOf(legacy))).toContain("2026-07-28");
    expect((await answerOf(await handler.fetch(modernRequest(1, "tools/list"))))["result"]).toMatchObject({ resultType: "complete" });
  });

  it("gives a handler the request's scope, whichever era the request came in", async () => {
    const server = dualServer();
    server.tool("scope", { description: "tells its scope" }, (_args, ctx) => ({
      content: [
        {
          type: "text",
          text: JSON.stringify([
            ctx.era,
            ctx.protocolVersion,
            ctx.client.info?.name,
            ctx.client.capabilities,
            ctx.logLevel ?? null,
            ctx.principal,
            ctx.session === undefined,
            ctx.inbound?.headers?.["mcp-method"] ?? null,
          ]),
        },
      ],
    }));
    const handler = handlerOf(server, { authenticate: () => ({ authInfo: "bearer-of-x" }) });
    const modern = await answerOf(
      await handler.fetch(
        modernRequest(1, "tools/call", { name: "scope", arguments: {} }, { capabilities: { roots: {} }, logLevel: "warning" }),
      ),
    );
    expect(JSON.parse(((modern["result"] as { content: { text: string }[] }).content[0] as { text: string }).text)).toEqual([
      "stateless",
      "2026-07-28",
      "test-client",
      { roots: {} },
      "warning",
      "bearer-of-x",
      true,
      "tools/call",
    ]);
    const opened = await handler.fetch(httpRequest({ body: initializeMessage("2025-06-18", { sampling: {} }) }));
    const session = opened.headers.get("mcp-session-id") as string;
    await handler.fetch(httpRequest({ body: { jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "error" } }, session }));
    const old = await messagesOf(
      await handler.fetch(
        httpRequest({ body: { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "scope", arguments: {} } }, session }),
      ),
    );
    const oldResult = (old[0] as { result: { content: { text: string }[] } }).result;
    expect(JSON.parse((oldResult.content[0] as { text: string }).text)).toEqual([
      "session",
      "2025-06-18",
      "test-client",
      { sampling: {} },
      "error",
      "bearer-of-x",
      false,
      null,
    ]);
  });

  it("refuses what authorize refuses with 403 and -32001", async () => {
    const handler = handlerOf(dualServer({ authorize: ({ method }) => method !== "tools/call" }));
    expect((await handler.fetch(modernRequest(1, "tools/list"))).status).toBe(200);
    const refused = await handler.fetch(modernRequest(2, "tools/call", { name: "echo", arguments: {} }));
    expect([refused.status, await refused.json()]).toMatchObject([403, { id: 2, error: { code: -32001 } }]);
  });

  it("refuses a POSTed response, and a request without MCP-Protocol-Version (400)", async () => {
    const handler = handlerOf(dualServer());
    const response = await handler.fetch(
      postOf({ jsonrpc: "2.0", id: 1, result: { _meta: modernMessage(0, "x")["params"] } }, { headers: { "mcp-method": null } }),
    );
    expect([response.status, await response.json()]).toMatchObject([400, { error: { code: -32600 } }]);
    const headless = await handler.fetch(modernRequest(2, "tools/list", {}, { headers: { "mcp-protocol-version": null } }));
    expect([headless.status, await headless.json()]).toMatchObject([
      400,
      { id: 2, error: { code: -32020, message: expect.stringContaining("MCP-Protocol-Version is required") } },
    ]);
  });

  it("cancels the request when its client leaves before the answer: the handler's signal fires", async () => {
    const server = dualServer();
    let aborted!: (reason: unknown) => void;
    const heard = new Promise((resolve) => (aborted = resolve));
    let entered!: () => void;
    const started = new Promise<void>((resolve) => (entered = resolve));
    server.tool("wait", { description: "waits for its cancellation" }, (_args, ctx) => {
      ctx.signal.addEventListener("abort", () => aborted(ctx.signal.reason));
      entered();
      return new Promise(() => undefined);
    });
    const handler = handlerOf(server);
    const leaving = new AbortController();
    const answered = handler.fetch(modernRequest(1, "tools/call", { name: "wait", arguments: {} }, { signal: leaving.signal }));
    await started;
    leaving.abort();
    expect(await heard).toMatchObject({ code: "MCP.REQUEST_CANCELLED", message: "The client closed the response" });
    // Nobody reads it: the reply only lets the exchange end.
    expect((await answered).status).toBe(499);
  });

  it("shows a handler that looks only after its client left that the request is cancelled", async () => {
    const server = dualServer();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const started = new Promise<void>((resolve) => (entered = resolve));
    let seen: unknown;
    server.tool("late-look", { description: "looks at its signal late" }, async (_args, ctx) => {
      entered();
      await released;
      seen = [ctx.signal.aborted, (ctx.signal.reason as Error).message];
      return { content: [] };
    });
    const handler = handlerOf(server);
    const leaving = new AbortController();
    const answered = handler.fetch(modernRequest(1, "tools/call", { name: "late-look", arguments: {} }, { signal: leaving.signal }));
    await started;
    leaving.abort();
    expect((await answered).status).toBe(499);
    release();
    await vi.waitFor(() => expect(seen).toEqual([true, "The client closed the response"]));
  });
});

describe("Streamable HTTP, 2026-07-28: what cannot be sent as JSON", () => {
  it("refuses a log that has no JSON form to the handler, and answers the request", async () => {
    const server = dualServer();
    let refused: unknown;
    server.tool("chatty", { description: "logs a bigint", inputSchema: { type: "object" } }, async (_args, ctx) => {
      await ctx.log("info", "before");
      refused = await ctx.log("info", { count: 1n }).then(
        () => undefined,
        (error: unknown) => error,
      );
      return { content: [{ type: "text", text: "done" }] };
    });
    const response = await handlerOf(server).fetch(modernRequest(7, "tools/call", { name: "chatty", arguments: {} }, { logLevel: "info" }));
    const messages = await messagesIn(response);
    expect(refused).toMatchObject({ code: "MCP.TRANSPORT_ERROR", message: expect.stringContaining("not serialisable as JSON") });
    expect(messages.map((message) => (message as { method?: string }).method ?? "answer")).toEqual(["notifications/message", "answer"]);
    expect(messages.at(-1)).toMatchObject({ id: 7, result: { content: [{ type: "text", text: "done" }] } });
  });

  it("answers -32603 when the handler's result has no JSON form, and serves the next request", async () => {
    const server = dualServer();
    server.tool("counts", { description: "returns a bigint", inputSchema: { type: "object" } }, () => ({
      content: [{ type: "text", text: "n" }],
      _meta: { count: 1n },
    }));
    const handler = handlerOf(server);
    const response = await handler.fetch(modernRequest(8, "tools/call", { name: "counts", arguments: {} }));
    expect(response.status).toBe(200);
    expect(await answerOf(response)).toMatchObject({
      id: 8,
      error: { code: -32603, message: expect.stringContaining("not serialisable as JSON") },
    });
    const next = await handler.fetch(modernRequest(9, "tools/call", { name: "echo", arguments: { text: "still here" } }));
    expect(await answerOf(next)).toMatchObject({ id: 9, result: { content: [{ type: "text", text: "still here" }] } });
  });
});

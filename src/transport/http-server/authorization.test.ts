// The handlers' `authorization` option (an OAuth resource server, src/auth/server/) in process: its
// metadata before the door, its authenticate hook, the scopes of each POSTed request in both eras and
// every session mode, and a handler's demand for more scope.
import { afterEach, describe, expect, it } from "vitest";
import { insufficientScope } from "../../auth/server/insufficient-scope.js";
import { protectedResource } from "../../auth/server/protected-resource.js";
import { tokenOwner } from "../../auth/server/token-owner.js";
import type { TokenPrincipal, TokenVerifier } from "../../auth/server/resource-server.types.js";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import { modernRequest } from "../../server/stateless/stateless.test-helpers.js";
import type { HttpHandler, StreamableHttpOptions } from "./http-server.types.js";
import { SseReader, errorOf, httpRequest, initializeMessage, messagesOf, notification, rpc } from "./http-server.test-helpers.js";
import { sseHttpHandler, streamableHttpHandler } from "./index.js";

const METADATA = "http://127.0.0.1/.well-known/oauth-protected-resource/mcp";

const handlers: HttpHandler[] = [];
afterEach(async () => {
  for (const handler of handlers.splice(0)) await handler.close();
});

const PRINCIPALS: Record<string, readonly string[]> = { reader: ["mcp"], writer: ["mcp", "files:write"], stranger: [] };

const verifier: TokenVerifier = (token) => {
  const scopes = PRINCIPALS[token];
  return Promise.resolve(
    scopes
      ? { subject: token, clientId: "app", issuer: "https://auth.example", scopes, expiresAt: undefined, claims: {} }
      : { refused: "unknown token" },
  );
};

const resource = () =>
  protectedResource({
    resource: "http://127.0.0.1/mcp",
    authorizationServers: ["https://auth.example"],
    verifier,
    requiredScopes: ["mcp"],
  });

/** A server whose tools need scopes: one statically, one when asked to write (mid-call). */
function scopedServer(seen: unknown[] = []): MCPServer {
  const server = new MCPServer({ name: "scoped", version: "1.0.0" });
  server.tool("write", { requiredScopes: ["files:write"] }, (_args, ctx) => {
    seen.push(ctx.principal);
    return { content: [{ type: "text", text: "written" }] };
  });
  server.tool(
    "maybe",
    { inputSchema: { type: "object", properties: { write: { type: "boolean" }, progress: { type: "boolean" } } } },
    async (args, ctx) => {
      if (args["progress"] === true) await ctx.progress(1, 2);
      if (args["write"] === true && !(ctx.principal as TokenPrincipal).scopes.includes("files:write"))
        throw insufficientScope(ctx, ["files:write"], "Writing needs files:write");
      return { content: [{ type: "text", text: "done" }] };
    },
  );
  server.prompt("secret", { requiredScopes: ["prompts:secret"] }, () => ({ messages: [] }));
  server.tool("interview", {}, async (_args, ctx) => {
    const answer = await ctx.elicitInput(
      { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
      { key: "name" },
    );
    return { content: [{ type: "text", text: `hello ${String(answer.content?.["name"])}` }] };
  });
  return server;
}

function serve(server: MCPServer, options: StreamableHttpOptions = {}): HttpHandler {
  const handler = streamableHttpHandler(server, { authorization: resource(), path: "/mcp", ...options });
  handlers.push(handler);
  return handler;
}

const as = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

async function open(handler: HttpHandler, token: string): Promise<string> {
  const response = await handler.fetch(httpRequest({ body: initializeMessage("2025-06-18"), headers: as(token) }));
  const session = response.headers.get("mcp-session-id") as string;
  await messagesOf(response);
  await handler.fetch(httpRequest({ body: notification("notifications/initialized"), session, headers: as(token) }));
  return session;
}

describe("authorization: metadata and authentication", () => {
  it("serves its metadata before the door (a path other than the endpoint's), to any origin", async () => {
    const handler = serve(scopedServer());
    const response = await handler.fetch(new Request(METADATA, { headers: { origin: "https://elsewhere.example" } }));
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toMatchObject({
      resource: "http://127.0.0.1/mcp",
      authorization_servers: ["https://auth.example"],
      bearer_methods_supported: ["header"],
    });
    expect((await handler.fetch(new Request("http://127.0.0.1/other"))).status).toBe(404);
  });

  it("answers 401 with its challenge, CORS headers exposing it to an allowed origin", async () => {
    const origin = "http://localhost:5173";
    const response = await serve(scopedServer()).fetch(httpRequest({ body: initializeMessage(), headers: { origin } }));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(`Bearer scope="mcp", resource_metadata="${METADATA}"`);
    expect(response.headers.get("access-control-allow-origin")).toBe(origin);
    expect(response.headers.get("access-control-expose-headers")).toContain("www-authenticate");
    expect(await errorOf(response)).toEqual({ code: -32001, message: "Unauthorized: a bearer token is required" });
  });

  it("refuses a token in the query string with 400, and a token lacking the endpoint's scopes with 403", async () => {
    const handler = serve(scopedServer());
    const query = await handler.fetch(
      httpRequest({ url: "http://127.0.0.1/mcp?access_token=reader", body: initializeMessage(), headers: as("reader") }),
    );
    expect(query.status).toBe(400);
    expect(await errorOf(query)).toMatchObject({ code: -32001, message: expect.stringContaining("query string") });
    const stranger = await handler.fetch(httpRequest({ body: initializeMessage(), headers: as("stranger") }));
    expect(stranger.status).toBe(403);
    expect(stranger.headers.get("www-authenticate")).toContain(
      'error="insufficient_scope", error_description="this request needs the scopes mcp", scope="mcp"',
    );
  });

  it("uses its own hook rather than an authenticate given beside it", async () => {
    const handler = serve(scopedServer(), { authenticate: () => ({ authInfo: "anyone" }) });
    expect((await handler.fetch(httpRequest({ body: initializeMessage() }))).status).toBe(401);
  });

  it("hands handlers the verified principal, and binds sessions to it with sessionOwner: tokenOwner", async () => {
    const seen: unknown[] = [];
    const handler = serve(scopedServer(seen), { sessionOwner: tokenOwner });
    const session = await open(handler, "writer");
    await messagesOf(await handler.fetch(httpRequest({ body: rpc(1, "tools/call", { name: "write" }), session, headers: as("writer") })));
    expect(seen).toEqual([
      {
        subject: "writer",
        clientId: "app",
        issuer: "https://auth.example",
        scopes: ["mcp", "files:write"],
        expiresAt: undefined,
        claims: {},
      },
    ]);
    // Another principal's valid token does not reach this session.
    expect((await handler.fetch(httpRequest({ body: rpc(2, "ping"), session, headers: as("reader") }))).status).toBe(404);
  });
});

describe("authorization: the scopes a request needs (session era)", () => {
  it.each([
    ["SSE answers", {}],
    ["JSON answers", { enableJsonResponse: true }],
  ])("403 names every scope a tool call needs, before anything is served (%s)", async (_mode, options) => {
    const seen: unknown[] = [];
    const handler = serve(scopedServer(seen), options);
    const session = await open(handler, "reader");
    const refused = await handler.fetch(httpRequest({ body: rpc(7, "tools/call", { name: "write" }), session, headers: as("reader") }));
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toBe(
      'Bearer error="insufficient_scope", error_description="this request needs the scopes mcp files:write", ' +
        `scope="mcp files:write", resource_metadata="${METADATA}"`,
    );
    expect(await errorOf(refused)).toEqual({ code: -32001, message: "Forbidden: this request needs the scopes mcp files:write" });
    expect(seen).toEqual([]);
  });

  it("checks each request of a batch, and lets notifications through", async () => {
    const handler = serve(scopedServer());
    const session = await open(handler, "reader");
    const batch = await handler.fetch(
      httpRequest({ body: [rpc(1, "tools/list"), rpc(2, "prompts/get", { name: "secret" })], session, headers: as("reader") }),
    );
    expect(batch.status).toBe(403);
    expect(batch.headers.get("www-authenticate")).toContain('scope="mcp prompts:secret"');
    expect(
      (
        await handler.fetch(
          httpRequest({ body: notification("notifications/cancelled", { requestId: 9 }), session, headers: as("reader") }),
        )
      ).status,
    ).toBe(202);
  });

  it("checks in stateless mode and in the legacy HTTP+SSE transport too", async () => {
    const stateless = serve(scopedServer(), { sessions: "stateless" });
    expect(
      (await stateless.fetch(httpRequest({ body: rpc(1, "tools/call", { name: "write" }), version: "2025-06-18", headers: as("reader") })))
        .status,
    ).toBe(403);
    expect(
      (await stateless.fetch(httpRequest({ body: rpc(1, "tools/call", { name: "write" }), version: "2025-06-18", headers: as("writer") })))
        .status,
    ).toBe(200);
    const legacy = sseHttpHandler(scopedServer(), { authorization: resource() });
    handlers.push(legacy);
    const stream = await legacy.fetch(new Request("http://127.0.0.1/sse", { headers: { accept: "text/event-stream", ...as("reader") } }));
    const reader = new SseReader(stream.body);
    const endpoint = (await reader.next())?.data as string;
    const post = (body: unknown, token: string) =>
      legacy.fetch(
        new Request(new URL(endpoint, "http://127.0.0.1"), {
          method: "POST",
          headers: { "content-type": "application/json", ...as(token) },
          body: JSON.stringify(body),
        }),
      );
    expect((await post(rpc(1, "tools/call", { name: "write" }), "reader")).status).toBe(403);
    expect((await legacy.fetch(new Request(METADATA))).status).toBe(200);
    await reader.cancel();
  });
});

describe("authorization: a handler's demand for more scope", () => {
  it("is the same 403 when the JSON answer has not started (session era, JSON answers)", async () => {
    const handler = serve(scopedServer(), { enableJsonResponse: true });
    const session = await open(handler, "reader");
    const response = await handler.fetch(
      httpRequest({ body: rpc(3, "tools/call", { name: "maybe", arguments: { write: true } }), session, headers: as("reader") }),
    );
    expect(response.status).toBe(403);
    expect(response.headers.get("mcp-session-id")).toBe(session);
    expect(response.headers.get("www-authenticate")).toBe(
      'Bearer error="insufficient_scope", error_description="Writing needs files:write", ' +
        `scope="mcp files:write", resource_metadata="${METADATA}"`,
    );
    expect(await response.json()).toMatchObject({
      id: 3,
      error: {
        code: -32001,
        message: "Writing needs files:write",
        data: { error: "insufficient_scope", scope: "mcp files:write", resource_metadata: METADATA },
      },
    });
  });

  it("is a JSON-RPC error with the challenge in its data once an SSE answer started (session era)", async () => {
    const handler = serve(scopedServer());
    const session = await open(handler, "reader");
    const response = await handler.fetch(
      httpRequest({ body: rpc(4, "tools/call", { name: "maybe", arguments: { write: true } }), session, headers: as("reader") }),
    );
    expect(response.status).toBe(200);
    const [answer] = await messagesOf(response);
    expect(answer).toMatchObject({
      id: 4,
      error: {
        code: -32001,
        data: {
          error: "insufficient_scope",
          scope: "mcp files:write",
          resource_metadata: METADATA,
          wwwAuthenticate: expect.stringContaining('scope="mcp files:write"'),
        },
      },
    });
  });
});

/** A 2026 call of the tool that asks for a name, with the answer and the state of the round before when there was one. */
const ask = (handler: HttpHandler, token: string, requestState?: unknown) =>
  handler.fetch(
    modernRequest(
      1,
      "tools/call",
      {
        name: "interview",
        arguments: {},
        ...(requestState === undefined ? {} : { requestState, inputResponses: { name: { action: "accept", content: { name: "Ada" } } } }),
      },
      { headers: as(token), capabilities: { elicitation: {} } },
    ),
  );
const stateOf = async (response: Response) => ((await response.json()) as { result: { requestState: string } }).result.requestState;

const call = (id: number, name: string, args: Record<string, unknown>, token: string) =>
  modernRequest(id, "tools/call", { name, arguments: args }, { headers: as(token) });

describe("authorization: the stateless era (2026-07-28)", () => {
  it("refuses a call its token lacks the scope for with 403, the request's id in the body", async () => {
    const handler = serve(scopedServer());
    const refused = await handler.fetch(call(5, "write", {}, "reader"));
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toContain('scope="mcp files:write"');
    expect(await refused.json()).toMatchObject({ id: 5, error: { code: -32001 } });
    const served = await handler.fetch(call(6, "write", {}, "writer"));
    expect(served.status).toBe(200);
  });

  it("answers a mid-call demand with 403 when nothing was sent yet, and in the stream once it was", async () => {
    const handler = serve(scopedServer());
    const refused = await handler.fetch(call(7, "maybe", { write: true }, "reader"));
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toContain('error_description="Writing needs files:write"');
    const streamed = await handler.fetch(
      modernRequest(
        8,
        "tools/call",
        { name: "maybe", arguments: { write: true, progress: true } },
        { headers: as("reader"), extra: { progressToken: "p" } },
      ),
    );
    expect(streamed.status).toBe(200);
    const messages = await messagesOf(streamed);
    expect(messages[0]).toMatchObject({ method: "notifications/progress" });
    expect(messages.at(-1)).toMatchObject({ id: 8, error: { code: -32001, data: { resource_metadata: METADATA } } });
  });

  it("binds a requestState to the principal (by default all of it; with tokenOwner, across the tokens of one principal)", async () => {
    const strict = serve(scopedServer());
    const state = await stateOf(await ask(strict, "reader"));
    expect(await (await ask(strict, "writer", state)).json()).toMatchObject({
      error: { message: expect.stringContaining("requestState rejected (other-principal)") },
    });
    expect(await (await ask(strict, "reader", state)).json()).toMatchObject({ result: { content: [{ text: "hello Ada" }] } });
    // With tokenOwner, a principal's other token (a refreshed one: other scopes) carries the round on.
    const server = new MCPServer({ name: "bound", version: "1.0.0" }, { principalOf: (inbound) => tokenOwner(inbound?.authInfo) });
    server.tool("interview", {}, async (_args, ctx) => ({
      content: [
        {
          type: "text",
          text: (await ctx.elicitInput({ message: "Name?", requestedSchema: { type: "object", properties: {} } }, { key: "name" })).action,
        },
      ],
    }));
    const handler = streamableHttpHandler(server, {
      authorization: protectedResource({
        resource: "http://127.0.0.1/mcp",
        authorizationServers: ["https://auth.example"],
        verifier: (token) =>
          verifier(token === "reader-refreshed" ? "writer" : token, { resource: "", audiences: [] }).then((found) =>
            "refused" in found ? found : { ...found, subject: "reader" },
          ),
      }),
    });
    handlers.push(handler);
    const bound = await stateOf(await ask(handler, "reader"));
    expect(await (await ask(handler, "reader-refreshed", bound)).json()).toMatchObject({ result: { content: [{ text: "accept" }] } });
  });

  it("lists every tool to every caller, whatever scopes they need", async () => {
    const listed = await serve(scopedServer()).fetch(modernRequest(9, "tools/list", {}, { headers: as("reader") }));
    expect(listed.status).toBe(200);
    const [answer] = (await messagesOf(listed)) as [{ result: { tools: Array<Record<string, unknown>> } }];
    const tools = answer.result.tools;
    expect(tools.map((tool) => tool["name"])).toEqual(["write", "maybe", "interview"]);
    // What a registration needs is the server's business: it is not on the wire.
    expect(tools[0]).not.toHaveProperty("requiredScopes");
  });
});

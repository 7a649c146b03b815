// Our MCPServer as an OAuth 2.1 resource server: `streamableHttpHandler` with `authorization`
// (protectedResource + introspectionVerifier) served on 127.0.0.1, against an introspection endpoint
// of a fake authorization server, also on 127.0.0.1. Raw HTTP for the wire (metadata, challenges,
// both eras), our MCPClient for a whole connection; nothing of a token or the resource server's
// secret may show in a log, an event, a span, an error or a reply.
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  EventBus,
  MCPClient,
  MCPServer,
  StreamableHttpTransport,
  insufficientScope,
  introspectionVerifier,
  protectedResource,
  streamableHttpHandler,
  tokenOwner,
  type HttpExchange,
  type MCPEventMap,
  type StreamableHttpHandler,
  type TokenPrincipal,
} from "../src/index.js";
import { serveHttp } from "../src/node/index.js";
import { Telemetry } from "../src/telemetry/telemetry.js";
import { modernRequest } from "../src/server/stateless/stateless.test-helpers.js";

const SECRET = "rs-cl1ent-s3cret";
const TOKENS: Record<string, { scope: string; sub: string; aud?: string; exp?: number }> = {
  "tok-reader-0a1b2c": { scope: "mcp", sub: "reader" },
  "tok-writer-3d4e5f": { scope: "mcp files:write", sub: "writer" },
  "tok-elsewhere-6a7b": { scope: "mcp files:write", sub: "writer", aud: "https://other.example/mcp" },
  "tok-expired-8c9d": { scope: "mcp", sub: "reader", exp: 1 },
};
const EVERY_SECRET = [SECRET, ...Object.keys(TOKENS), "tok-unknown-zz99"];

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

/** The fake authorization server's introspection endpoint: client_secret_basic required, answers by token. */
async function authorizationServer(resource: () => string): Promise<{ url: string; introspected: string[] }> {
  const introspected: string[] = [];
  const http = await serveHttp(
    async (request) => {
      if (request.headers.get("authorization") !== `Basic ${btoa(`rs:${SECRET}`)}`) return new Response("{}", { status: 401 });
      const form = new URLSearchParams(await request.text());
      const token = form.get("token") as string;
      introspected.push(token);
      const known = TOKENS[token];
      const answer = known
        ? {
            active: true,
            client_id: "app",
            iss: "https://as.example",
            sub: known.sub,
            scope: known.scope,
            aud: known.aud ?? resource(),
            exp: known.exp ?? Math.floor(Date.now() / 1000) + 600,
          }
        : { active: false };
      return Response.json(answer);
    },
    { port: 0 },
  );
  cleanups.push(() => http.close());
  return { url: new URL("/introspect", http.url).href, introspected };
}

interface Observed {
  readonly mcp: URL;
  readonly origin: string;
  readonly introspected: string[];
  readonly spans: InMemorySpanExporter;
  readonly events: unknown[];
  readonly seen: TokenPrincipal[];
  /** What handlers could log of their request: `JSON.stringify(ctx.inbound)`. */
  readonly inbound: string[];
  readonly verifierErrors: unknown[];
}

/** Tools whose scopes differ: who am I, a write that needs files:write, one that asks for it mid-call. */
function scopedServer(observed: Pick<Observed, "spans" | "events" | "seen" | "inbound">): MCPServer {
  const events = new EventBus<MCPEventMap>();
  for (const type of ["connection:opened", "connection:closed", "request:received", "request:completed", "notification:emitted"] as const)
    events.on(type, (payload) => observed.events.push(payload));
  const telemetry = new Telemetry({
    tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(observed.spans)] }),
    propagator: new W3CTraceContextPropagator(),
  });
  const server = new MCPServer(
    { name: "protected", version: "1.0.0" },
    { events, telemetry, principalOf: (inbound) => tokenOwner(inbound?.authInfo) },
  );
  server.tool("whoami", {}, (_args, ctx) => {
    const principal = ctx.principal as TokenPrincipal;
    observed.seen.push(principal);
    observed.inbound.push(JSON.stringify(ctx.inbound));
    return { content: [{ type: "text", text: `${principal.subject} with ${principal.scopes.join(" ")}` }] };
  });
  server.tool("write", { requiredScopes: ["files:write"] }, () => ({ content: [{ type: "text", text: "written" }] }));
  server.tool("publish", {}, (_args, ctx) => {
    if (!(ctx.principal as TokenPrincipal).scopes.includes("files:write"))
      throw insufficientScope(ctx, ["files:write"], "Publishing needs files:write");
    return { content: [{ type: "text", text: "published" }] };
  });
  return server;
}

async function protectedEndpoint(): Promise<Observed> {
  const observed = {
    spans: new InMemorySpanExporter(),
    events: [] as unknown[],
    seen: [] as TokenPrincipal[],
    inbound: [] as string[],
    verifierErrors: [] as unknown[],
  };
  let handler: StreamableHttpHandler | undefined;
  let mcp = "";
  const as = await authorizationServer(() => mcp);
  // The handler is made once the port (and so the resource's URL) is known; its `handle` serves Node's exchanges.
  const forward = {
    handle: (exchange: HttpExchange) => (handler as StreamableHttpHandler).handle(exchange),
    fetch: (request: Request) => (handler as StreamableHttpHandler).fetch(request),
  };
  const http = await serveHttp(forward, { port: 0 });
  mcp = new URL("/mcp", http.url).href;
  const verifier = introspectionVerifier({ endpoint: as.url, client: { id: "rs", secret: SECRET } });
  const resource = protectedResource({
    resource: mcp,
    authorizationServers: ["https://as.example"],
    verifier,
    scopesSupported: ["mcp"],
    requiredScopes: ["mcp"],
    resourceName: "Protected MCP",
    rootMetadata: true,
    onVerifierError: (error) => observed.verifierErrors.push(error),
  });
  handler = streamableHttpHandler(scopedServer(observed), { path: "/mcp", authorization: resource, sessionOwner: tokenOwner });
  cleanups.push(async () => {
    await handler?.close();
    await http.close();
  });
  return { ...observed, mcp: new URL(mcp), origin: new URL(mcp).origin, introspected: as.introspected };
}

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const rpc = (id: number, method: string, params: Record<string, unknown> = {}) => JSON.stringify({ jsonrpc: "2.0", id, method, params });
const initialize = (id = 0) =>
  rpc(id, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } });

async function post(url: URL | string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: "POST", headers: { ...JSON_HEADERS, ...headers }, body });
}

/** The JSON-RPC messages of a reply, JSON or SSE. */
async function messages(response: Response): Promise<Array<Record<string, unknown>>> {
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) return [JSON.parse(text) as Record<string, unknown>];
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line.length > 6)
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

async function openSession(mcp: URL, token: string): Promise<string> {
  const response = await post(mcp, initialize(), bearer(token));
  expect(response.status).toBe(200);
  await response.text();
  const session = response.headers.get("mcp-session-id") as string;
  await (
    await post(mcp, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), {
      ...bearer(token),
      "mcp-session-id": session,
    })
  ).text();
  return session;
}

/** A 2026-07-28 POST as a client of that revision sends it, to the served endpoint. */
function modern(mcp: URL, id: number, method: string, params: Record<string, unknown>, token: string): Request {
  const built = modernRequest(id, method, params, { headers: bearer(token) });
  const init: RequestInit & { duplex: "half" } = { method: "POST", headers: built.headers, body: built.body, duplex: "half" };
  return new Request(mcp, init);
}

describe("our server as an OAuth resource server over Streamable HTTP", () => {
  it("publishes its protected resource metadata at the path-inserted URL and at the root, with CORS", async () => {
    const { mcp, origin } = await protectedEndpoint();
    const document = await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`, {
      headers: { origin: "https://inspector.example" },
    });
    expect(document.status).toBe(200);
    expect(document.headers.get("access-control-allow-origin")).toBe("*");
    expect(await document.json()).toEqual({
      resource: mcp.href,
      authorization_servers: ["https://as.example"],
      scopes_supported: ["mcp"],
      bearer_methods_supported: ["header"],
      resource_name: "Protected MCP",
    });
    const root = await fetch(`${origin}/.well-known/oauth-protected-resource`);
    expect(await root.json()).toMatchObject({ resource: origin });
    const preflight = await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`, {
      method: "OPTIONS",
      headers: {
        origin: "https://inspector.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "mcp-protocol-version",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toBe("mcp-protocol-version");
  });

  it("challenges: no token 401 without an error code, a bad or foreign token 401 invalid_token, a token in the query 400", async () => {
    const { mcp, origin } = await protectedEndpoint();
    const metadata = `${origin}/.well-known/oauth-protected-resource/mcp`;
    const anonymous = await post(mcp, initialize(), { origin: "http://localhost:6274" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe(`Bearer scope="mcp", resource_metadata="${metadata}"`);
    expect(anonymous.headers.get("access-control-expose-headers")).toContain("www-authenticate");
    for (const token of ["tok-unknown-zz99", "tok-elsewhere-6a7b", "tok-expired-8c9d"]) {
      const refused = await post(mcp, initialize(), bearer(token));
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toMatch(
        /^Bearer error="invalid_token", error_description="[^"]+", scope="mcp", resource_metadata=/,
      );
    }
    const query = await post(`${mcp.href}?access_token=tok-writer-3d4e5f`, initialize());
    expect(query.status).toBe(400);
    expect(query.headers.get("www-authenticate")).toContain('error="invalid_request"');
    // A token in the body is no token: the request is anonymous.
    expect(
      (await post(mcp, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { access_token: "tok-writer-3d4e5f" } })))
        .status,
    ).toBe(401);
  });

  it("session era: the principal reaches the handler; a tool's scope, a mid-call demand are refused with insufficient_scope", async () => {
    const { mcp, origin, seen, inbound } = await protectedEndpoint();
    const session = await openSession(mcp, "tok-reader-0a1b2c");
    const headers = { ...bearer("tok-reader-0a1b2c"), "mcp-session-id": session };
    const [whoami] = await messages(await post(mcp, rpc(1, "tools/call", { name: "whoami" }), headers));
    expect(whoami).toMatchObject({ result: { content: [{ text: "reader with mcp" }] } });
    expect(seen[0]).toMatchObject({ subject: "reader", clientId: "app", issuer: "https://as.example", scopes: ["mcp"] });
    expect(seen[0]).not.toHaveProperty("token");
    // The token was the resource server's to verify: handlers do not get it, not even in the headers.
    expect(JSON.parse(inbound[0] as string)).toMatchObject({ authInfo: { subject: "reader" }, headers: { "mcp-session-id": session } });
    expect(inbound[0]).not.toContain("authorization");
    const refused = await post(mcp, rpc(2, "tools/call", { name: "write" }), headers);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toBe(
      'Bearer error="insufficient_scope", error_description="this request needs the scopes mcp files:write", ' +
        `scope="mcp files:write", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    // Over SSE the answer had started: the demand is a JSON-RPC error carrying the challenge.
    const [published] = await messages(await post(mcp, rpc(3, "tools/call", { name: "publish" }), headers));
    expect(published).toMatchObject({
      id: 3,
      error: {
        code: -32001,
        message: "Publishing needs files:write",
        data: {
          error: "insufficient_scope",
          scope: "mcp files:write",
          wwwAuthenticate: expect.stringContaining('scope="mcp files:write"'),
        },
      },
    });
    // A writer's token does not reach the reader's session.
    expect(
      (await post(mcp, rpc(4, "tools/call", { name: "whoami" }), { ...bearer("tok-writer-3d4e5f"), "mcp-session-id": session })).status,
    ).toBe(404);
  });

  it("stateless era (2026-07-28): the same decisions from the same request, 403 for a demand made before the answer started", async () => {
    const { mcp } = await protectedEndpoint();
    const write = await fetch(modern(mcp, 1, "tools/call", { name: "write", arguments: {} }, "tok-reader-0a1b2c"));
    expect(write.status).toBe(403);
    expect(write.headers.get("www-authenticate")).toContain('scope="mcp files:write"');
    expect(await write.json()).toMatchObject({ id: 1, error: { code: -32001 } });
    const publish = await fetch(modern(mcp, 2, "tools/call", { name: "publish", arguments: {} }, "tok-reader-0a1b2c"));
    expect(publish.status).toBe(403);
    expect(publish.headers.get("www-authenticate")).toContain('error_description="Publishing needs files:write"');
    const written = await fetch(modern(mcp, 3, "tools/call", { name: "write", arguments: {} }, "tok-writer-3d4e5f"));
    expect(written.status).toBe(200);
    expect(await written.json()).toMatchObject({ id: 3, result: { content: [{ text: "written" }] } });
    const listed = await fetch(modern(mcp, 4, "tools/list", {}, "tok-reader-0a1b2c"));
    expect(((await listed.json()) as { result: { tools: Array<{ name: string }> } }).result.tools.map((tool) => tool.name)).toEqual([
      "whoami",
      "write",
      "publish",
    ]);
  });

  it("serves our MCPClient that sends its bearer token, in whichever era it finds", async () => {
    const { mcp, introspected } = await protectedEndpoint();
    const client = new MCPClient({ name: "with-token", version: "1.0.0" }, { telemetry: null });
    cleanups.push(() => client.close());
    await client.connect(new StreamableHttpTransport(mcp, { headers: bearer("tok-writer-3d4e5f") }));
    expect((await client.callTool("whoami", {})).content).toEqual([{ type: "text", text: "writer with mcp files:write" }]);
    expect((await client.callTool("write", {})).content).toEqual([{ type: "text", text: "written" }]);
    // One introspection for the whole connection: the verified token is remembered (by its hash).
    expect(introspected).toEqual(["tok-writer-3d4e5f"]);
  });

  it("says nothing of a token or of its secret in logs, events, spans, errors or replies", async () => {
    const logged: string[] = [];
    for (const method of ["log", "info", "warn", "error", "debug"] as const)
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    const observed = await protectedEndpoint();
    const { mcp, origin } = observed;
    const replies: string[] = [];
    const keep = async (response: Response) => {
      replies.push(JSON.stringify([...response.headers]), await response.text());
    };
    await keep(await post(mcp, initialize(), bearer("tok-unknown-zz99")));
    await keep(await post(`${mcp.href}?access_token=tok-reader-0a1b2c`, initialize()));
    await keep(await post(mcp, initialize(), bearer("tok-elsewhere-6a7b")));
    await keep(await post(mcp, initialize(), bearer("tok-expired-8c9d")));
    const session = await openSession(mcp, "tok-reader-0a1b2c");
    for (const name of ["whoami", "write", "publish"])
      await keep(await post(mcp, rpc(9, "tools/call", { name }), { ...bearer("tok-reader-0a1b2c"), "mcp-session-id": session }));
    for (const name of ["whoami", "write", "publish"])
      await keep(await fetch(modern(mcp, 10, "tools/call", { name, arguments: {} }, "tok-reader-0a1b2c")));
    await keep(await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`));
    // An authorization server that cannot be reached: 503, and the error told to onVerifierError.
    const unreachable = protectedResource({
      resource: mcp.href,
      authorizationServers: ["https://as.example"],
      verifier: introspectionVerifier({ endpoint: "http://127.0.0.1:9/introspect", client: { id: "rs", secret: SECRET }, timeoutMs: 2000 }),
      onVerifierError: (error) => observed.verifierErrors.push(error),
    });
    const down = streamableHttpHandler(scopedServer(observed), { authorization: unreachable });
    cleanups.push(() => down.close());
    const failed = await down.fetch(
      new Request(mcp, { method: "POST", headers: { ...JSON_HEADERS, ...bearer("tok-writer-3d4e5f") }, body: initialize() }),
    );
    expect(failed.status).toBe(503);
    await keep(failed);
    expect(observed.verifierErrors).toHaveLength(1);
    const everything = [
      ...logged,
      ...replies,
      ...observed.inbound,
      JSON.stringify(observed.events),
      JSON.stringify(
        observed.spans
          .getFinishedSpans()
          .map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status })),
      ),
      ...observed.verifierErrors.map((error) => `${String(error)} ${String((error as Error).cause)} ${JSON.stringify(error)}`),
    ].join("\n");
    expect(observed.spans.getFinishedSpans().length).toBeGreaterThan(0);
    expect(observed.events.length).toBeGreaterThan(0);
    for (const secret of EVERY_SECRET) expect(everything).not.toContain(secret);
  });
});

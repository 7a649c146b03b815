import { afterEach, describe, expect, it } from "vitest";
import type { AuthorizeRequest } from "../../server/mcp-server/mcp-server.types.js";
import type { AuthenticationResult, StreamableHttpHandler, StreamableHttpOptions } from "./http-server.types.js";
import {
  SseReader,
  errorOf,
  httpRequest,
  initializeMessage,
  messagesOf,
  notification,
  openSession,
  rpc,
  testServer,
} from "./http-server.test-helpers.js";
import { streamableHttpHandler } from "./index.js";

const handlers: StreamableHttpHandler[] = [];
afterEach(async () => {
  for (const handler of handlers.splice(0)) await handler.close();
});

function handlerOf(options: StreamableHttpOptions = {}, authorized: AuthorizeRequest[] = []): StreamableHttpHandler {
  const server = testServer(undefined, {
    authorize: (request) => {
      authorized.push(request);
      return true;
    },
  });
  const handler = streamableHttpHandler(server, options);
  handlers.push(handler);
  return handler;
}

describe("DNS rebinding: Host and Origin", () => {
  it.each(["localhost", "localhost:3000", "127.0.0.1:8080", "[::1]:9000", "LOCALHOST"])(
    "serves the loopback Host %s by default",
    async (host) => {
      expect((await handlerOf().fetch(httpRequest({ body: initializeMessage(), headers: { host } }))).status).toBe(200);
    },
  );

  it.each(["evil.example.com", "evil.example.com:3000", "127.0.0.1.evil.example.com"])("403 for the Host %s by default", async (host) => {
    const response = await handlerOf().fetch(httpRequest({ body: initializeMessage(), headers: { host } }));
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await errorOf(response)).toMatchObject({ code: -32000, message: expect.stringContaining("allowedHosts") });
  });

  it("uses the URL's host when the request has no Host header", async () => {
    const request = httpRequest({ url: "http://evil.example.com/mcp", body: initializeMessage() });
    expect((await handlerOf().fetch(request)).status).toBe(403);
  });

  it("serves configured hosts, by name or by name and port, or any with '*'", async () => {
    const handler = handlerOf({ allowedHosts: ["api.example.com", "Other.example.com:8443"] });
    expect((await handler.fetch(httpRequest({ body: initializeMessage(), headers: { host: "api.example.com:443" } }))).status).toBe(200);
    expect((await handler.fetch(httpRequest({ body: initializeMessage(), headers: { host: "other.example.com:8443" } }))).status).toBe(200);
    expect((await handler.fetch(httpRequest({ body: initializeMessage(), headers: { host: "other.example.com:9999" } }))).status).toBe(403);
    expect((await handler.fetch(httpRequest({ body: initializeMessage(), headers: { host: "localhost" } }))).status).toBe(403);
    expect(
      (await handlerOf({ allowedHosts: "*" }).fetch(httpRequest({ body: initializeMessage(), headers: { host: "anything.example" } })))
        .status,
    ).toBe(200);
  });

  it("matches a configured host whole: example.co is not a prefix of example.com", async () => {
    const handler = handlerOf({ allowedHosts: ["example.co"] });
    expect((await handler.fetch(httpRequest({ body: initializeMessage(), headers: { host: "example.co:8080" } }))).status).toBe(200);
    for (const host of ["example.com", "example.com:8080", "example.c"]) {
      const refused = await handler.fetch(httpRequest({ body: initializeMessage(), headers: { host } }));
      expect(await errorOf(refused)).toEqual({ code: -32000, message: `Forbidden: Host "${host}" is not allowed (allowedHosts)` });
    }
  });

  it("takes a Host with a port and no name, or an unclosed IPv6 bracket, whole: not for the empty name", async () => {
    const handler = handlerOf({ allowedHosts: [""] });
    expect((await handler.fetch(httpRequest({ body: initializeMessage(), headers: { host: "" } }))).status).toBe(200);
    expect((await handler.fetch(httpRequest({ body: initializeMessage(), headers: { host: ":8080" } }))).status).toBe(403);
    expect((await handler.fetch(httpRequest({ body: initializeMessage(), headers: { host: "[::1" } }))).status).toBe(403);
  });

  it.each([
    "http://evil.example.com",
    "null",
    "file://localhost",
    "ftp://localhost",
    "ws://127.0.0.1",
    "http://localhost.evil.example.com",
  ])("403 for the Origin %s by default", async (origin) => {
    const response = await handlerOf().fetch(httpRequest({ body: initializeMessage(), headers: { origin } }));
    expect(response.status).toBe(403);
    expect(await errorOf(response)).toEqual({ code: -32000, message: `Forbidden: Origin "${origin}" is not allowed (allowedOrigins)` });
  });

  it("serves loopback origins by default, configured ones when listed, any with '*'", async () => {
    expect((await handlerOf().fetch(httpRequest({ body: initializeMessage(), headers: { origin: "http://localhost:5173" } }))).status).toBe(
      200,
    );
    expect((await handlerOf().fetch(httpRequest({ body: initializeMessage(), headers: { origin: "https://[::1]" } }))).status).toBe(200);
    const listed = handlerOf({ allowedOrigins: ["https://App.example.com"] });
    expect((await listed.fetch(httpRequest({ body: initializeMessage(), headers: { origin: "https://app.example.com" } }))).status).toBe(
      200,
    );
    expect((await listed.fetch(httpRequest({ body: initializeMessage(), headers: { origin: "http://localhost:5173" } }))).status).toBe(403);
    expect(
      (
        await handlerOf({ allowedOrigins: "*" }).fetch(
          httpRequest({ body: initializeMessage(), headers: { origin: "https://anywhere.example" } }),
        )
      ).status,
    ).toBe(200);
  });
});

describe("CORS", () => {
  it("answers a preflight from an allowed origin", async () => {
    const request = httpRequest({
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:5173",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, mcp-session-id",
      },
    });
    const response = await handlerOf().fetch(request);
    expect(response.status).toBe(204);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "access-control-allow-origin": "http://localhost:5173",
      "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
      "access-control-allow-headers": "content-type, mcp-session-id",
      "access-control-max-age": "86400",
      vary: "origin",
    });
  });

  it("lists the MCP headers when the preflight names none, and answers OPTIONS without Origin with Allow only", async () => {
    const preflight = await handlerOf().fetch(httpRequest({ method: "OPTIONS", headers: { origin: "http://127.0.0.1:3000" } }));
    expect(preflight.headers.get("access-control-allow-headers")).toContain("mcp-protocol-version");
    const plain = await handlerOf().fetch(httpRequest({ method: "OPTIONS" }));
    expect(plain.status).toBe(204);
    expect(Object.fromEntries(plain.headers)).toEqual({ allow: "GET, POST, DELETE, OPTIONS" });
  });

  it("exposes Mcp-Session-Id to browser clients on every answer, errors included", async () => {
    const handler = handlerOf();
    const origin = "http://localhost:5173";
    const response = await handler.fetch(httpRequest({ body: initializeMessage(), headers: { origin } }));
    expect(response.headers.get("access-control-allow-origin")).toBe(origin);
    expect(response.headers.get("access-control-expose-headers")).toContain("mcp-session-id");
    await messagesOf(response);
    const refused = await handler.fetch(httpRequest({ body: rpc(1, "ping"), headers: { origin } }));
    expect(refused.status).toBe(400);
    expect(refused.headers.get("access-control-allow-origin")).toBe(origin);
  });
});

function bearer(request: Request): AuthenticationResult {
  const authorization = request.headers.get("authorization");
  if (authorization === null)
    return { refuse: 401, wwwAuthenticate: 'Bearer resource_metadata="https://example.com/.well-known/oauth-protected-resource"' };
  if (authorization === "Bearer reader")
    return { refuse: 403, wwwAuthenticate: 'Bearer error="insufficient_scope", scope="mcp:write"', message: "needs mcp:write" };
  return { authInfo: { token: authorization.slice(7), subject: authorization.slice(7) } };
}

describe("authenticate", () => {
  it("refuses with 401 and the challenge, or 403 and the scope it lacks", async () => {
    const handler = handlerOf({ authenticate: bearer });
    const anonymous = await handler.fetch(httpRequest({ body: initializeMessage() }));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toContain("resource_metadata");
    expect(await errorOf(anonymous)).toEqual({ code: -32001, message: "Unauthorized" });
    const reader = await handler.fetch(httpRequest({ body: initializeMessage(), headers: { authorization: "Bearer reader" } }));
    expect(reader.status).toBe(403);
    expect(reader.headers.get("www-authenticate")).toContain("insufficient_scope");
    expect(await errorOf(reader)).toEqual({ code: -32001, message: "needs mcp:write" });
  });

  it("defaults the 401 challenge to Bearer and gives 403 none", async () => {
    const handler = handlerOf({ authenticate: (request) => (request.headers.has("x-known") ? { refuse: 403 } : { refuse: 401 }) });
    const unknown = await handler.fetch(httpRequest({ body: initializeMessage() }));
    expect(unknown.headers.get("www-authenticate")).toBe("Bearer");
    const known = await handler.fetch(httpRequest({ body: initializeMessage(), headers: { "x-known": "1" } }));
    expect(known.headers.get("www-authenticate")).toBeNull();
    expect(await errorOf(known)).toMatchObject({ message: "Forbidden" });
  });

  it("answers 500 when authenticate itself throws", async () => {
    const response = await handlerOf({ authenticate: () => Promise.reject(new Error("key server down")) }).fetch(
      httpRequest({ body: initializeMessage() }),
    );
    expect(response.status).toBe(500);
    expect(await errorOf(response)).toMatchObject({ code: -32603, message: expect.stringContaining("key server down") });
  });

  it("hands authInfo and the lower-cased headers to authorize and to handlers", async () => {
    const authorized: AuthorizeRequest[] = [];
    const handler = handlerOf({ authenticate: bearer }, authorized);
    const headers = { authorization: "Bearer alice", "X-Trace": "t-1" };
    const response = await handler.fetch(httpRequest({ body: initializeMessage(), headers }));
    await messagesOf(response);
    expect(authorized[0]?.inbound).toMatchObject({
      authInfo: { subject: "alice" },
      headers: { authorization: "Bearer alice", "x-trace": "t-1" },
    });
  });

  it("cannot be bypassed by batching, by notifications, by opening or resuming a stream, or by DELETE", async () => {
    const handler = handlerOf({ authenticate: bearer });
    const alice = { authorization: "Bearer alice" };
    const initialized = await handler.fetch(httpRequest({ body: initializeMessage("2025-03-26"), headers: alice }));
    const session = initialized.headers.get("mcp-session-id") as string;
    await messagesOf(initialized);
    const attempts = [
      httpRequest({ body: [rpc(1, "ping"), rpc(2, "tools/list")], session }),
      httpRequest({ body: notification("notifications/initialized"), session }),
      httpRequest({ body: { jsonrpc: "2.0", id: 1, result: {} }, session }),
      httpRequest({ method: "GET", session }),
      httpRequest({ method: "GET", session, headers: { "last-event-id": "0_0" } }),
      httpRequest({ method: "DELETE", session }),
    ];
    for (const attempt of attempts) expect((await handler.fetch(attempt)).status).toBe(401);
    expect(handler.sessionCount).toBe(1);
  });
});

describe("sessionOwner", () => {
  it("keeps a session to the principal that opened it: anyone else gets 404, even with the id", async () => {
    const handler = handlerOf({
      authenticate: (request) => ({ authInfo: { subject: request.headers.get("x-user") } }),
      sessionOwner: (authInfo) => (authInfo as { subject: string }).subject,
    });
    const response = await handler.fetch(httpRequest({ body: initializeMessage(), headers: { "x-user": "alice" } }));
    const session = response.headers.get("mcp-session-id") as string;
    await messagesOf(response);
    const stolen = await handler.fetch(httpRequest({ body: rpc(1, "tools/list"), session, headers: { "x-user": "mallory" } }));
    expect(stolen.status).toBe(404);
    expect((await handler.fetch(httpRequest({ method: "GET", session, headers: { "x-user": "mallory" } }))).status).toBe(404);
    expect((await handler.fetch(httpRequest({ method: "DELETE", session, headers: { "x-user": "mallory" } }))).status).toBe(404);
    const own = await handler.fetch(httpRequest({ body: rpc(1, "tools/list"), session, headers: { "x-user": "alice" } }));
    expect(await messagesOf(own)).toMatchObject([{ id: 1, result: { tools: expect.any(Array) } }]);
  });
});

describe("session isolation", () => {
  it("keeps two clients of one server apart: progress, notifications, subscriptions and Last-Event-ID", async () => {
    const server = testServer();
    const handler = streamableHttpHandler(server);
    handlers.push(handler);
    const alice = await openSession(handler);
    const bob = await openSession(handler);
    const aliceStream = new SseReader((await handler.fetch(httpRequest({ method: "GET", session: alice }))).body);
    const bobStream = new SseReader((await handler.fetch(httpRequest({ method: "GET", session: bob }))).body);
    const alicePriming = await aliceStream.next();
    const bobPriming = await bobStream.next();
    await messagesOf(
      await handler.fetch(httpRequest({ body: rpc(1, "resources/subscribe", { uri: "file:///readme.md" }), session: alice })),
    );
    const aliceCall = await handler.fetch(
      httpRequest({
        body: rpc(2, "tools/call", { name: "steps", arguments: { count: 2 }, _meta: { progressToken: "mine" } }),
        session: alice,
      }),
    );
    const aliceEvents = await new SseReader(aliceCall.body).allEvents();
    await server.markResourceUpdated("file:///readme.md");
    expect(await aliceStream.nextMessage()).toMatchObject({
      method: "notifications/resources/updated",
      params: { uri: "file:///readme.md" },
    });
    // Bob's stream saw nothing of Alice's: the next thing on it is what is sent to Bob himself.
    await [...server.sessions].find((session) => session.id === bob)?.log("info", "for bob");
    expect(await bobStream.nextMessage()).toMatchObject({ params: { data: "for bob" } });
    // Alice's event ids mean nothing in Bob's session: nothing of hers is replayed to him.
    const aliceIds = [alicePriming, ...aliceEvents].map((event) => event?.id as string);
    expect(aliceIds).toHaveLength(5);
    const ownStatuses: number[] = [];
    for (const id of aliceIds) {
      const replay = await handler.fetch(httpRequest({ method: "GET", session: bob, headers: { "last-event-id": id } }));
      expect(replay.status).toBe(400);
      const own = await handler.fetch(httpRequest({ method: "GET", session: alice, headers: { "last-event-id": id } }));
      ownStatuses.push(own.status);
      await own.body?.cancel();
    }
    // In her own session each id resumes (the answered call's last event: nothing left, 204).
    expect(ownStatuses).toEqual([200, 200, 200, 200, 204]);
    expect(bobPriming?.id).not.toBe(alicePriming?.id);
    await aliceStream.cancel();
    await bobStream.cancel();
  });
});

import * as fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import type { StreamableHttpHandler, StreamableHttpOptions } from "./http-server.types.js";
import {
  Gate,
  SseReader,
  URL_BASE,
  httpRequest,
  initializeMessage,
  messagesOf,
  notification,
  openSession,
  rpc,
  testServer,
} from "./http-server.test-helpers.js";
import { sseHttpHandler, streamableHttpHandler } from "./index.js";

/** Runs per property: small in `npm test`, `FUZZ_RUNS=<n>` for a longer campaign. */
const runs = (normal: number): number => Number(process.env["FUZZ_RUNS"]) || normal;
const SEED = 0x5eed_0005;

const handlers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const handler of handlers.splice(0)) await handler.close();
});

function handlerOf(options: StreamableHttpOptions = {}, gate?: Gate): StreamableHttpHandler {
  const handler = streamableHttpHandler(testServer(gate), options);
  handlers.push(handler);
  return handler;
}

/** The statuses http-server.md documents; anything else (500 above all) is a failure to handle input. */
const DOCUMENTED = [200, 202, 204, 400, 403, 404, 405, 406, 409, 413, 415];

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 24 });
const anyJson = fc.jsonValue({ maxDepth: 3 });
const message = fc.oneof(
  fc.constantFrom(
    rpc(1, "ping"),
    rpc("a", "tools/list"),
    rpc(2, "tools/call", { name: "echo", arguments: { text: "x" } }),
    notification("notifications/initialized"),
    initializeMessage(),
    { jsonrpc: "2.0", id: 9, result: {} },
  ),
  fc.record(
    {
      jsonrpc: fc.constantFrom("2.0", "1.0"),
      id: fc.oneof(fc.integer(), fc.string({ maxLength: 3 }), fc.constant(null)),
      method: fc.oneof(fc.constantFrom("ping", "tools/call", "initialize", "notifications/cancelled"), printable),
      params: anyJson,
    },
    { requiredKeys: ["jsonrpc"] },
  ),
  anyJson,
);
const body = fc.oneof(
  message.map((value) => JSON.stringify(value)),
  fc.array(message, { maxLength: 4 }).map((values) => JSON.stringify(values)),
  printable,
  fc.uint8Array({ maxLength: 40 }).map((bytes) => new TextDecoder().decode(bytes)),
  fc.constant(""),
);

interface Shape {
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  session: "valid" | "random" | "none" | "ended";
}

const shape: fc.Arbitrary<Shape> = fc.record({
  method: fc.constantFrom("POST", "POST", "POST", "GET", "DELETE", "PUT", "OPTIONS", "PATCH"),
  headers: fc.record(
    {
      accept: fc.oneof(
        fc.constantFrom("application/json, text/event-stream", "text/event-stream", "application/json", "*/*", ""),
        printable,
      ),
      "content-type": fc.oneof(fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", ""), printable),
      "mcp-protocol-version": fc.oneof(fc.constantFrom("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "1999-01-01"), printable),
      "last-event-id": fc.oneof(fc.constantFrom("0_0", "x_1", "_"), printable),
      origin: fc.constantFrom("http://localhost:1234", "http://evil.example.com", "null"),
      host: fc.constantFrom("127.0.0.1", "localhost:80", "evil.example.com"),
      "access-control-request-method": fc.constantFrom("POST", "GET"),
    },
    { requiredKeys: [] },
  ),
  body: fc.option(body, { nil: undefined }),
  session: fc.constantFrom("valid", "random", "none", "ended"),
});

describe("Streamable HTTP handler under fuzzing: headers and bodies", () => {
  it("answers any request with a documented status and a JSON-RPC error body, never throws or 500s, and keeps serving", async () => {
    const handler = handlerOf({ maxBodyBytes: 4096 });
    let valid = await openSession(handler);
    const ended = await openSession(handler);
    await handler.fetch(httpRequest({ method: "DELETE", session: ended }));
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(shape, async ({ method, headers, body: text, session }) => {
        const all: Record<string, string> = { ...headers };
        if (session === "valid") all["mcp-session-id"] = valid;
        if (session === "ended") all["mcp-session-id"] = ended;
        if (session === "random") all["mcp-session-id"] = "f".repeat(64);
        const hasBody = text !== undefined && method !== "GET" && method !== "OPTIONS";
        const response = await handler.fetch(new Request(URL_BASE, { method, headers: all, ...(hasBody ? { body: text } : {}) }));
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(DOCUMENTED).toContain(response.status);
        const refused = response.status >= 400;
        const contentType = response.headers.get("content-type");
        // Every refusal is a JSON-RPC error body; a whole-request refusal carries id null, a single
        // invalid message echoes its own id.
        const error = refused
          ? ((await response.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string } })
          : undefined;
        expect(refused ? contentType : "application/json").toBe("application/json");
        expect(error ?? { jsonrpc: "2.0", id: null, error: { code: 0, message: "" } }).toMatchObject({
          jsonrpc: "2.0",
          error: { code: expect.any(Number), message: expect.any(String) },
        });
        expect([null, "number", "string"]).toContain(error?.id === null || error === undefined ? null : typeof error.id);
        // A GET stream stays open: take what is there and leave. A POST stream ends by itself.
        if (!refused && contentType === "text/event-stream" && method === "GET") await response.body?.cancel();
        else if (!refused && contentType === "text/event-stream") await new SseReader(response.body).rest();
        else if (!refused) await response.text();
        // A DELETE of the live session is legitimate: it is dead from then on, and a new one is opened.
        const deleted = method === "DELETE" && session === "valid" && response.status === 204;
        const before = valid;
        if (deleted) valid = await openSession(handler);
        expect((await handler.fetch(httpRequest({ body: rpc(1, "ping"), session: before }))).status).toBe(deleted ? 404 : 200);
        // Whatever came before, the session still answers.
        const ping = await handler.fetch(httpRequest({ body: rpc("alive", "ping"), session: valid }));
        expect(await messagesOf(ping)).toEqual([{ jsonrpc: "2.0", id: "alive", result: {} }]);
      }),
      { numRuns: runs(300), seed: SEED },
    );
    // The ended session stayed ended, and no session was opened by anything but a clean initialize.
    expect((await handler.fetch(httpRequest({ body: rpc(1, "ping"), session: ended }))).status).toBe(404);
    expect(statuses.size).toBeGreaterThan(5);
  });

  it("refuses a body over maxBodyBytes with 413, whatever it holds, and serves the next one", async () => {
    const handler = handlerOf({ maxBodyBytes: 256 });
    const session = await openSession(handler);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 257, max: 4096 }), fc.constantFrom("json", "garbage"), async (size, kind) => {
        const text =
          kind === "json"
            ? JSON.stringify(rpc(1, "tools/call", { name: "echo", arguments: { text: "x".repeat(size) } }))
            : "\u0001".repeat(size);
        const response = await handler.fetch(httpRequest({ body: text, session }));
        expect(response.status).toBe(413);
        await response.text();
        expect(await messagesOf(await handler.fetch(httpRequest({ body: rpc(2, "ping"), session })))).toEqual([
          { jsonrpc: "2.0", id: 2, result: {} },
        ]);
      }),
      { numRuns: runs(40), seed: SEED + 1 },
    );
  });
});

describe("legacy HTTP+SSE handler under fuzzing: headers and bodies", () => {
  it("answers any POST, GET or other method with a documented status, never 500; the session keeps answering on its stream", async () => {
    const handler = sseHttpHandler(testServer());
    handlers.push(handler);
    const opened = await handler.fetch(new Request("http://127.0.0.1/sse", { headers: { accept: "text/event-stream" } }));
    const stream = new SseReader(opened.body);
    const endpoint = (await stream.next())?.data as string;
    const post = (target: string, text: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
      handler.fetch(new Request(new URL(target, "http://127.0.0.1"), { method: "POST", headers, body: text }));
    await post(endpoint, JSON.stringify(initializeMessage("2024-11-05")));
    expect(await stream.nextMessage()).toMatchObject({ id: 0, result: { protocolVersion: "2024-11-05" } });
    await post(endpoint, JSON.stringify(notification("notifications/initialized")));
    let alive = 0;
    await fc.assert(
      fc.asyncProperty(shape, async ({ method, headers, body: text, session }) => {
        const target = session === "valid" ? endpoint : session === "none" ? "/sse" : `/sse?sessionId=${"e".repeat(64)}`;
        const hasBody = text !== undefined && method !== "GET" && method !== "OPTIONS";
        const response = await handler.fetch(
          new Request(new URL(target, "http://127.0.0.1"), { method, headers, ...(hasBody ? { body: text } : {}) }),
        );
        expect([...DOCUMENTED, 503]).toContain(response.status);
        const refused = response.status >= 400;
        expect(refused ? response.headers.get("content-type") : "application/json").toBe("application/json");
        const error = refused ? ((await response.json()) as { error?: { code?: unknown } }) : { error: { code: 0 } };
        expect(typeof error.error?.code).toBe("number");
        // A GET opens another session's stream: leave it at once.
        if (!refused) await response.body?.cancel();
        // The live session still answers on its own stream (answers to fuzzed requests are skipped).
        alive++;
        expect((await post(endpoint, JSON.stringify(rpc(`alive-${alive}`, "ping")))).status).toBe(202);
        let answer: Record<string, unknown> | undefined;
        for (let read = 0; read < 10 && answer?.["id"] !== `alive-${alive}`; read++) answer = await stream.nextMessage();
        expect(answer).toEqual({ jsonrpc: "2.0", id: `alive-${alive}`, result: {} });
      }),
      // One stream is read throughout, and the test reader stops at 1000 events: at most 600 runs.
      { numRuns: Math.min(runs(100), 600), seed: SEED + 2 },
    );
    await stream.cancel();
  });
});

describe("Streamable HTTP security: ended sessions and other sessions' requests", () => {
  it("a session id is dead after DELETE for every method, Last-Event-ID included", async () => {
    const handler = handlerOf();
    const session = await openSession(handler);
    const call = await handler.fetch(httpRequest({ body: rpc(1, "tools/call", { name: "echo", arguments: { text: "before" } }), session }));
    const events = await new SseReader(call.body).allEvents();
    const lastId = events.find((event) => event.data !== undefined)?.id as string;
    expect(lastId).toMatch(/_/);
    expect((await handler.fetch(httpRequest({ method: "DELETE", session }))).status).toBe(204);
    const after = [
      httpRequest({ body: rpc(2, "ping"), session }),
      httpRequest({ body: notification("notifications/initialized"), session }),
      httpRequest({ body: [rpc(3, "ping")], session, version: "2025-03-26" }),
      httpRequest({ method: "GET", session }),
      httpRequest({ method: "GET", session, headers: { "last-event-id": lastId } }),
      httpRequest({ method: "DELETE", session }),
    ];
    for (const request of after) expect((await handler.fetch(request)).status).toBe(404);
    expect(handler.sessionCount).toBe(0);
  });

  it("a session id is dead after it expired, Last-Event-ID included", async () => {
    const handler = handlerOf({ sessionIdleTimeoutMs: 20 });
    const session = await openSession(handler);
    const call = await handler.fetch(httpRequest({ body: rpc(1, "tools/call", { name: "echo", arguments: { text: "x" } }), session }));
    const lastId = (await new SseReader(call.body).allEvents()).find((event) => event.data !== undefined)?.id as string;
    // Bounded wait for the expiry: at most 100 × 10 ms.
    for (let turn = 0; turn < 100 && handler.sessionCount > 0; turn++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(handler.sessionCount).toBe(0);
    expect((await handler.fetch(httpRequest({ body: rpc(2, "ping"), session }))).status).toBe(404);
    expect((await handler.fetch(httpRequest({ method: "GET", session, headers: { "last-event-id": lastId } }))).status).toBe(404);
  });

  it("a client cannot cancel, answer or resume another session's request by its id", async () => {
    const gate = new Gate();
    const handler = handlerOf({}, gate);
    const alice = await openSession(handler, "2025-11-25", { sampling: {} });
    const bob = await openSession(handler, "2025-11-25", { sampling: {} });
    const aliceCall = await handler.fetch(
      httpRequest({ body: rpc(7, "tools/call", { name: "wait", arguments: {}, _meta: { progressToken: "p" } }), session: alice }),
    );
    const aliceStream = new SseReader(aliceCall.body);
    const priming = await aliceStream.next();
    const progress = await aliceStream.nextMessage();
    expect(progress).toMatchObject({ method: "notifications/progress" });
    // Bob names Alice's request id in a cancel, answers with it, and resumes with her event id.
    expect(
      (
        await handler.fetch(
          httpRequest({ body: notification("notifications/cancelled", { requestId: 7, reason: "mine now" }), session: bob }),
        )
      ).status,
    ).toBe(202);
    expect((await handler.fetch(httpRequest({ body: { jsonrpc: "2.0", id: 7, result: {} }, session: bob }))).status).toBe(202);
    expect(
      (await handler.fetch(httpRequest({ method: "GET", session: bob, headers: { "last-event-id": priming?.id as string } }))).status,
    ).toBe(400);
    // Alice's request is untouched: it finishes on her stream with its answer.
    gate.open();
    expect(await aliceStream.rest()).toMatchObject([{ id: 7, result: { content: [{ text: `waited in ${alice}` }] } }]);
  });
});

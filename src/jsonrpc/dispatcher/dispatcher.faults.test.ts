import { describe, expect, it } from "vitest";
import * as z from "zod";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import { StdioTransport } from "../../transport/stdio/stdio.js";
import { ChunkSource, RecordingWritable } from "../../transport/stdio/stdio.test-helpers.js";
import type { MCPError } from "../../error-codes/mcp-error.js";
import { connectedPair, scriptedDispatcher, settle } from "./dispatcher.test-helpers.js";

/** The session's dispatcher is private API: read its pending counts for the leak checks. */
const pendingOf = (session: object) =>
  (session as { dispatcher: { pendingCount: { outgoing: number; incoming: number } } }).dispatcher.pendingCount;

/** Waits, bounded, until `done()` holds: at most `turns` macrotasks. */
async function until(done: () => boolean, turns = 500): Promise<void> {
  for (let turn = 0; turn < turns && !done(); turn++) await new Promise((resolve) => setTimeout(resolve, 0));
}

describe("dispatcher: adversarial peers", () => {
  it("a second answer to an already-answered id is reported, not delivered, and changes nothing", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client" });
    const errors: MCPError[] = [];
    const reported = await scriptedDispatcher({ side: "client", onProtocolError: (error) => errors.push(error) });
    const first = reported.dispatcher.request("ping");
    await reported.peer.waitForSent(1);
    const id = (reported.peer.sent[0] as { id: number }).id;
    reported.peer.deliver({ jsonrpc: "2.0", id, result: { n: 1 } });
    await expect(first).resolves.toEqual({ n: 1 });
    reported.peer.deliver({ jsonrpc: "2.0", id, result: { n: 2 } });
    reported.peer.deliver({ jsonrpc: "2.0", id, error: { code: -32603, message: "late" } });
    expect(errors.map((error) => error.message)).toEqual([
      `Received a response for unknown request id ${id}`,
      `Received an error for unknown request id ${id}: late`,
    ]);
    // The next request gets a fresh id and its own answer.
    const second = reported.dispatcher.request("ping");
    await reported.peer.waitForSent(2);
    const next = (reported.peer.sent[1] as { id: number }).id;
    expect(next).not.toBe(id);
    reported.peer.deliver({ jsonrpc: "2.0", id: next, result: { n: 3 } });
    await expect(second).resolves.toEqual({ n: 3 });
    expect(reported.dispatcher.pendingCount).toEqual({ outgoing: 0, incoming: 0 });
    await dispatcher.close();
    expect(peer.sent).toEqual([]);
  });

  it("progress for a finished request reaches nobody", async () => {
    const { dispatcher, peer } = await scriptedDispatcher({ side: "client" });
    const seen: unknown[] = [];
    const call = dispatcher.request("tools/call", { name: "x" }, { onProgress: (update) => seen.push(update) });
    await peer.waitForSent(1);
    const sent = peer.sent[0] as { id: number; params: Record<string, { progressToken: string | number }> };
    const token = sent.params["_meta"]?.progressToken;
    peer.deliver({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: 1 } });
    peer.deliver({ jsonrpc: "2.0", id: sent.id, result: { content: [] } });
    await expect(call).resolves.toEqual({ content: [] });
    for (let i = 2; i < 50; i++)
      peer.deliver({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: i } });
    await settle();
    expect(seen).toEqual([{ progressToken: token, progress: 1 }]);
    expect(dispatcher.pendingCount.outgoing).toBe(0);
  });

  it("a flood of 20 000 notifications is delivered in order and requests among it are each answered once", async () => {
    const { dispatcher, peer } = await scriptedDispatcher();
    const received: number[] = [];
    dispatcher.setNotificationHandler("flood", (params) => void received.push((params as { n: number }).n));
    dispatcher.setRequestHandler("echo", async (params) => ({ echoed: params }));
    for (let n = 0; n < 20_000; n++) {
      peer.deliver({ jsonrpc: "2.0", method: "flood", params: { n } });
      if (n % 1000 === 0) peer.deliver({ jsonrpc: "2.0", id: n, method: "echo", params: { n } });
    }
    await peer.waitForSent(20);
    await settle();
    expect(received).toEqual(Array.from({ length: 20_000 }, (_, n) => n));
    expect((peer.sent as Array<{ id: number }>).map((answer) => answer.id).toSorted((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, n) => n * 1000),
    );
    expect(dispatcher.pendingCount).toEqual({ outgoing: 0, incoming: 0 });
  });

  it("answers -32603 for every kind of non-Error a handler throws, and keeps serving", async () => {
    const { client, server } = await connectedPair();
    const thrown: unknown[] = ["a string", 42, null, undefined, { code: "weird" }, Symbol("s"), [1, 2], Object.create(null)];
    thrown.forEach((value, index) =>
      server.setRequestHandler(`throw/${index}`, async () => {
        throw value;
      }),
    );
    server.setRequestHandler("ok", async () => ({ ok: true }));
    for (const [index] of thrown.entries()) await expect(client.request(`throw/${index}`)).rejects.toMatchObject({ wireCode: -32603 });
    await expect(client.request("ok")).resolves.toEqual({ ok: true });
    expect(server.pendingCount).toEqual({ outgoing: 0, incoming: 0 });
  });

  it("a handler that never returns is freed on both sides by the caller's timeout", async () => {
    const { client, server } = await connectedPair();
    let aborted = false;
    server.setRequestHandler("hang", (_params, ctx) => {
      ctx.signal.addEventListener("abort", () => (aborted = true));
      return new Promise(() => undefined);
    });
    await expect(client.request("hang", undefined, { timeoutMs: 10 })).rejects.toMatchObject({ code: "MCP.TIMEOUT" });
    await until(() => aborted);
    expect(aborted).toBe(true);
    expect(client.pendingCount).toEqual({ outgoing: 0, incoming: 0 });
    expect(server.pendingCount).toEqual({ outgoing: 0, incoming: 0 });
  });
});

async function stdioServer() {
  const server = new MCPServer({ name: "deep", version: "1" });
  server.tool("echo", { inputSchema: z.object({ value: z.unknown() }) }, ({ value }) => ({
    content: [{ type: "text", text: typeof value }],
  }));
  server.tool(
    "schema",
    { inputSchema: { type: "object", properties: { value: { type: "array", items: { $ref: "#/properties/value" } } } } },
    () => ({ content: [] }),
  );
  const source = new ChunkSource();
  const sink = new RecordingWritable();
  const session = await server.start(new StdioTransport({ readable: source, writable: sink }));
  const send = (message: string) => source.push(`${message}\n`);
  send(
    JSON.stringify({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    }),
  );
  send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  await until(() => sink.messages().length >= 1);
  return { server, session, source, sink, send };
}

describe("MCPServer over stdio: deeply nested JSON", () => {
  it.each([1_000, 100_000])("answers each request nested %i deep exactly once and keeps serving", async (depth) => {
    const { session, sink, send } = await stdioServer();
    const nested = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    send(nested); // a batch of batches: -32600
    send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"value":${nested}}}}`);
    send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"schema","arguments":{"value":${nested}}}}`);
    send(`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"_meta":{"deep":${nested}}}}`);
    send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`);
    await until(() => sink.messages().some((message) => (message as { id?: unknown }).id === "after"));
    const answers = sink.messages().slice(1).flat() as Array<{ id: unknown; result?: unknown; error?: { code: number } }>;
    for (const id of [1, 2, 3, "after"]) expect(answers.filter((answer) => answer.id === id)).toHaveLength(1);
    expect(answers.find((answer) => answer.id === "after")).toEqual({ jsonrpc: "2.0", id: "after", result: {} });
    // The bare nested arrays: a batch whose one element is not a message, answered -32600 with id null.
    expect(answers.filter((answer) => answer.id === null).map((answer) => answer.error?.code)).toEqual([-32600]);
    expect(pendingOf(session)).toEqual({ outgoing: 0, incoming: 0 });
  });
});

import { describe, expect, it, vi } from "vitest";

import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import { MCPServer } from "../mcp-server/mcp-server.js";
import type { MCPServerOptions } from "../mcp-server/mcp-server.types.js";
import { modernMessage } from "./stateless.test-helpers.js";

type Message = Record<string, unknown>;

/** A connection as stdio carries it: one stream of JSON-RPC messages each way, no headers. */
async function connection(options: MCPServerOptions = {}) {
  const server = new MCPServer({ name: "stdio", version: "1" }, options);
  let release: (() => void) | undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  server.tool("echo", { description: "echoes" }, (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }] }));
  server.tool("hold", { description: "waits to be released or cancelled" }, async (_args, ctx) => {
    await ctx.progress(1);
    await Promise.race([
      held,
      new Promise((_resolve, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason as Error))),
    ]);
    return { content: [] };
  });
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  const received: Message[] = [];
  await clientEnd.start({
    onMessage: (message) => received.push(message as Message),
    onMalformed: () => undefined,
    onClose: () => undefined,
  });
  await server.start(serverEnd);
  const answerTo = async (id: unknown): Promise<Message> => {
    await vi.waitFor(() => expect(received.some((message) => message["id"] === id && !("method" in message))).toBe(true));
    return received.find((message) => message["id"] === id && !("method" in message)) as Message;
  };
  const send = (message: Message) => clientEnd.send(message);
  return { server, received, send, answerTo, release: () => release?.() };
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: "init",
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } },
};

describe("stdio (one connection): the era pinned per connection", () => {
  it("serves 2026-07-28 requests without initialize, each with the result encoded for the revision", async () => {
    const peer = await connection();
    await peer.send(modernMessage(1, "tools/call", { name: "echo", arguments: { a: 1 } }));
    expect(await peer.answerTo(1)).toMatchObject({ result: { resultType: "complete", content: [{ text: '{"a":1}' }] } });
    await peer.send(modernMessage(2, "ping"));
    expect(await peer.answerTo(2)).toMatchObject({ error: { code: -32601 } });
  });

  it("answers a method of the stateless era sent without its _meta as a session would: -32601", async () => {
    const peer = await connection();
    await peer.send({ jsonrpc: "2.0", id: 9, method: "server/discover", params: {} });
    expect(await peer.answerTo(9)).toMatchObject({ error: { code: -32601 } });
  });

  it("answers discover without pinning: initialize still opens a session after it", async () => {
    const peer = await connection();
    await peer.send(modernMessage(1, "server/discover"));
    expect(await peer.answerTo(1)).toMatchObject({ result: { supportedVersions: ["2026-07-28"] } });
    await peer.send(INITIALIZE);
    expect(await peer.answerTo("init")).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
    await peer.send(modernMessage(3, "tools/call", { name: "echo", arguments: {} }));
    // Pinned to the session era: the request is served as a session request (no resultType).
    expect(await peer.answerTo(3)).toEqual({ jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "{}" }] } });
  });

  it("after a 2026-07-28 request, refuses initialize and names the versions it speaks", async () => {
    const peer = await connection();
    await peer.send(modernMessage(1, "tools/list"));
    await peer.answerTo(1);
    await peer.send(INITIALIZE);
    expect(await peer.answerTo("init")).toMatchObject({
      error: { code: -32022, data: { supported: ["2026-07-28"], requested: "2025-11-25" } },
    });
  });

  it("cancels a request on notifications/cancelled: its handler is aborted and nothing more is sent for it", async () => {
    const peer = await connection();
    await peer.send(modernMessage(5, "tools/call", { name: "hold", arguments: {} }, { extra: { progressToken: "t" } }));
    await vi.waitFor(() => expect(peer.received.some((message) => message["method"] === "notifications/progress")).toBe(true));
    await peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } });
    await peer.send(modernMessage(6, "tools/list"));
    await peer.answerTo(6);
    expect(peer.received.filter((message) => message["id"] === 5)).toEqual([]);
  });

  it("a server of the stateless era only refuses initialize, naming its versions", async () => {
    const peer = await connection({ eras: ["stateless"] });
    await peer.send(INITIALIZE);
    expect(await peer.answerTo("init")).toMatchObject({ error: { code: -32022, message: expect.stringContaining("2026-07-28") } });
  });

  it("a server of the session era only serves a 2026 request as a session request: refused before initialize", async () => {
    const peer = await connection({ eras: ["session"] });
    await peer.send(modernMessage(1, "tools/list"));
    expect(await peer.answerTo(1)).toMatchObject({ error: { code: -32600 } });
  });
});

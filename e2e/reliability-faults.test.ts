// Faults over real HTTP on 127.0.0.1: the connection dropped under a call in progress, and the server
// restarted under a connected client. Nothing is lost that the protocol can keep; what cannot be kept
// fails at once with a reason, never by hanging.
import { afterEach, describe, expect, it } from "vitest";
import { MCPClient, MCPServer, StreamableHttpTransport, isSessionExpired, streamableHttpHandler } from "../src/index.js";
import { serveHttp, type ServedHttp } from "../src/node/index.js";
import { tcpProxy } from "./support/tcp-proxy.js";

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const closable of open.splice(0).toReversed()) await closable.close();
});

/** A server whose `wait` tool holds until the test lets it go, saying where it was entered. */
function gatedServer() {
  const server = new MCPServer({ name: "faults", version: "1" });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const started = new Promise<void>((resolve) => (entered = resolve));
  server.tool("wait", {}, async (_args, ctx) => {
    await ctx.progress(0, 1, "holding");
    entered();
    await released;
    return { content: [{ type: "text", text: "done" }] };
  });
  server.tool("echo", {}, () => ({ content: [{ type: "text", text: "echo" }] }));
  return { server, release, started };
}

async function listen(handler: { fetch(request: Request): Promise<Response> }): Promise<ServedHttp> {
  const http = await serveHttp(handler, { port: 0 });
  open.push(http);
  return http;
}

const portOf = (served: ServedHttp): number => Number(new URL(served.url).port);

const fastReconnect = { initialDelayMs: 10, growFactor: 1, maxDelayMs: 10, maxAttempts: 50 };

describe("faults over HTTP", () => {
  it("a connection dropped mid-stream is resumed with Last-Event-ID and the call completes", async () => {
    const { server, release, started } = gatedServer();
    const handler = streamableHttpHandler(server);
    open.push(handler);
    const relay = await tcpProxy(portOf(await listen(handler)));
    open.push(relay);
    const client = new MCPClient({ name: "c", version: "1" }, { era: "session" });
    open.push(client);
    await client.connect(new StreamableHttpTransport(new URL("/mcp", relay.url), { reconnection: fastReconnect }));
    // Once the client has the progress event, its POST stream has an event id to resume from.
    let progressed!: () => void;
    const progressSeen = new Promise<void>((resolve) => (progressed = resolve));
    const call = client.callTool("wait", {}, { onProgress: () => progressed() });
    await started;
    await progressSeen;
    // Every open connection drops (the POST stream of the call and the GET stream); the same
    // handler, with the session and its events, is still there to come back to.
    await relay.dropAll();
    release();
    await expect(call).resolves.toEqual({ content: [{ type: "text", text: "done" }] });
    await expect(client.callTool("echo", {})).resolves.toEqual({ content: [{ type: "text", text: "echo" }] });
    expect(handler.sessionCount).toBe(1);
  });

  it("a server restarted under a connected client: the next call fails at once as session expired, or renews in place", async () => {
    const before = gatedServer();
    const oldHandler = streamableHttpHandler(before.server);
    const relay = await tcpProxy(portOf(await listen(oldHandler)));
    open.push(relay);
    const plain = new MCPClient({ name: "plain", version: "1" }, { era: "session" });
    const renewing = new MCPClient({ name: "renewing", version: "1" }, { era: "session" });
    open.push(plain, renewing);
    const renewed: string[] = [];
    await plain.connect(new StreamableHttpTransport(new URL("/mcp", relay.url), { reconnection: fastReconnect }));
    await renewing.connect(
      new StreamableHttpTransport(new URL("/mcp", relay.url), {
        reconnection: fastReconnect,
        renewSession: true,
        onSessionRenewed: (newId) => void renewed.push(String(newId)),
      }),
    );
    // The process restarts: the old handler and its sessions are gone, a new one answers at the same address.
    const after = gatedServer();
    const newHandler = streamableHttpHandler(after.server);
    open.push(newHandler);
    relay.retarget(portOf(await listen(newHandler)));
    await oldHandler.close();
    await relay.dropAll();
    const lost = await plain.callTool("echo", {}).then(
      () => undefined,
      (error: unknown) => error,
    );
    // The call fails at once: the transport closed, naming the lost session as the cause.
    expect(lost).toMatchObject({ code: "MCP.TRANSPORT_CLOSED" });
    expect(isSessionExpired((lost as { cause?: unknown }).cause)).toBe(true);
    await expect(renewing.callTool("echo", {})).resolves.toEqual({ content: [{ type: "text", text: "echo" }] });
    expect(renewed).toHaveLength(1);
    expect(newHandler.sessionCount).toBe(1);
  });
});

// MCPClient's handshake against the official SDK server: each revision, the capabilities it derives,
// a server that answers a revision we do not speak, and misuse of connect().
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, it } from "vitest";
import { MCPClient } from "../src/client/mcp-client/index.js";
import { CLIENT_INFO, connectToRaw, connectToSdk, rawServer, settle } from "../src/client/mcp-client/mcp-client.test-helpers.js";
import {
  EventBus,
  InMemoryTransport,
  MCP_CODES,
  PROTOCOL_VERSIONS,
  type MCPEventMap,
  type ProtocolVersion,
  type Transport,
} from "../src/index.js";
import { sdkPair } from "./support/sdk-bridge.js";

function sdkServer(): McpServer {
  const server = new McpServer(
    { name: "sdk-server", version: "2.0.0", title: "SDK" },
    { instructions: "Use the tools wisely", capabilities: { logging: {} } },
  );
  server.registerTool("noop", { description: "does nothing" }, () => ({ content: [] }));
  return server;
}

const everyHandler = {
  roots: [{ uri: "file:///work", name: "work" }],
  sampling: {
    createMessage: () => ({ role: "assistant" as const, content: { type: "text" as const, text: "hi" }, model: "m" }),
    tools: true,
    context: true,
  },
  elicitation: { form: () => ({ action: "cancel" as const }), url: () => ({ action: "decline" as const }), applyDefaults: true },
  capabilities: { experimental: { "x-feature": { on: true } } },
};

/** What each revision's initialize declares when every handler is given. */
const DECLARED: Record<ProtocolVersion, object> = {
  "2024-11-05": { roots: { listChanged: true }, sampling: {}, experimental: { "x-feature": { on: true } } },
  "2025-03-26": { roots: { listChanged: true }, sampling: {}, experimental: { "x-feature": { on: true } } },
  "2025-06-18": { roots: { listChanged: true }, sampling: {}, elicitation: {}, experimental: { "x-feature": { on: true } } },
  "2025-11-25": {
    roots: { listChanged: true },
    sampling: { tools: {}, context: {} },
    elicitation: { form: { applyDefaults: true }, url: {} },
    experimental: { "x-feature": { on: true } },
  },
};

describe("MCPClient handshake with the SDK's McpServer", () => {
  it.each(PROTOCOL_VERSIONS)("negotiates %s and exposes what the server said", async (version) => {
    const server = sdkServer();
    const client = await connectToSdk(server, { ...everyHandler, protocolVersion: version });
    expect(client.connected).toBe(true);
    expect(client.protocolVersion).toBe(version);
    expect(client.serverInfo).toMatchObject({ name: "sdk-server", version: "2.0.0", title: "SDK" });
    expect(client.serverCapabilities).toMatchObject({ tools: { listChanged: true }, logging: {} });
    expect(client.instructions).toBe("Use the tools wisely");
    expect(client.capabilities).toEqual(DECLARED[version]);
    expect(server.server.getClientVersion()).toEqual(CLIENT_INFO);
    expect(server.server.getClientCapabilities()).toMatchObject(DECLARED[version]);
    await expect(client.ping()).resolves.toBeUndefined();
    await expect(server.server.ping()).resolves.toEqual({});
    await client.close();
    expect(client.connected).toBe(false);
  });

  it("offers the newest revision by default and declares nothing it has no handler for", async () => {
    const server = sdkServer();
    const client = await connectToSdk(server);
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.capabilities).toEqual({});
    await client.close();
  });

  it("declares only the elicitation modes it has handlers for, and plain sampling", async () => {
    const formOnly = await connectToSdk(sdkServer(), {
      elicitation: { form: () => ({ action: "cancel" }) },
      sampling: () => ({ role: "assistant", content: { type: "text", text: "" }, model: "m" }),
    });
    expect(formOnly.capabilities).toEqual({ elicitation: { form: {} }, sampling: {} });
    const urlOnly = await connectToSdk(sdkServer(), { elicitation: { url: () => ({ action: "cancel" }) } });
    expect(urlOnly.capabilities).toEqual({ elicitation: { url: {} } });
    const urlOnlyOld = await connectToSdk(sdkServer(), {
      elicitation: { url: () => ({ action: "cancel" }) },
      protocolVersion: "2025-06-18",
    });
    expect(urlOnlyOld.capabilities).toEqual({});
    const none = await connectToSdk(sdkServer(), { elicitation: {} });
    expect(none.capabilities).toEqual({});
    await Promise.all([formOnly.close(), urlOnly.close(), urlOnlyOld.close(), none.close()]);
  });

  it("closes the transport and names both versions when the server answers one it does not speak", async () => {
    const server = await rawServer({}, () => "1999-01-01");
    const client = new MCPClient(CLIENT_INFO, { telemetry: null });
    const failure = client.connect(server.clientEnd);
    await expect(failure).rejects.toMatchObject({
      code: MCP_CODES.PROTOCOL_VERSION_MISMATCH,
      message:
        'The server answered protocol version "1999-01-01" to this client\'s "2025-11-25"; ' +
        "this client speaks 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25",
      data: { offered: "2025-11-25", answered: "1999-01-01", supported: PROTOCOL_VERSIONS },
    });
    await settle();
    expect(server.dispatcher.closed).toBe(true);
    expect(client.connected).toBe(false);
    expect(client.protocolVersion).toBeUndefined();
  });

  it("after a failed connect, calls reject MCP.TRANSPORT_CLOSED", async () => {
    const refused = new MCPClient(CLIENT_INFO, { telemetry: null });
    await expect(refused.connect((await rawServer({ ping: () => ({}) }, () => "1999-01-01")).clientEnd)).rejects.toMatchObject({
      code: MCP_CODES.PROTOCOL_VERSION_MISMATCH,
    });
    const unstarted = new MCPClient(CLIENT_INFO, { telemetry: null });
    const broken: Transport = {
      start: () => Promise.reject(new Error("no wire")),
      send: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
    await expect(unstarted.connect(broken)).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR });
    for (const client of [refused, unstarted]) {
      expect(client.connected).toBe(false);
      await expect(client.ping()).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
      await expect(client.listAllTools()).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
      await expect(client.callTool("noop")).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    }
  });

  it("accepts an older revision the server prefers, and speaks it from then on", async () => {
    const server = await rawServer({ ping: () => ({}) }, () => "2024-11-05");
    const client = new MCPClient(CLIENT_INFO, { telemetry: null });
    await client.connect(server.clientEnd);
    expect(client.protocolVersion).toBe("2024-11-05");
    expect(server.initializeParams).toEqual([{ protocolVersion: "2025-11-25", capabilities: {}, clientInfo: CLIENT_INFO }]);
    await client.ping();
    await client.close();
  });

  it("tells an events bus about its connection and the requests it answers as the client side", async () => {
    const events = new EventBus<MCPEventMap>();
    const seen: unknown[] = [];
    events.on("connection:opened", (event) => seen.push(event));
    events.on("notification:emitted", ({ side, method }) => seen.push({ side, method }));
    events.on("request:received", ({ side, method }) => seen.push({ side, method }));
    const { client, server } = await connectToRaw({}, { events });
    await expect(server.dispatcher.request("ping")).resolves.toEqual({});
    expect(seen).toEqual([
      { side: "client", dispatcherId: expect.stringMatching(/^client-\d+$/) },
      { side: "client", method: "notifications/initialized" },
      { side: "client", method: "ping" },
    ]);
    await client.close();
  });

  it("refuses a second connect, and calls before the handshake", async () => {
    const client = new MCPClient(CLIENT_INFO, { telemetry: null });
    expect([client.serverInfo, client.serverCapabilities, client.instructions, client.protocolVersion]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    await expect(client.listAllTools()).rejects.toMatchObject({
      code: MCP_CODES.NOT_INITIALIZED,
      message: expect.stringContaining("tools/list"),
    });
    const { ours, sdk } = sdkPair();
    await sdkServer().connect(sdk);
    const connecting = client.connect(ours);
    await expect(client.ping()).rejects.toMatchObject({ code: MCP_CODES.NOT_INITIALIZED });
    await connecting;
    const again = {
      code: MCP_CODES.ALREADY_CONNECTED,
      message: "connect() was already called on this client; use a new MCPClient for another connection",
    };
    await expect(client.connect(ours)).rejects.toMatchObject(again);
    await client.close();
    await expect(client.connect(InMemoryTransport.pair()[0])).rejects.toMatchObject(again);
    await expect(client.ping()).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
  });

  it("gives up on a server that never answers initialize, after timeoutMs or on abort", async () => {
    const silent = await rawServer({}, () => "2025-11-25");
    silent.dispatcher.removeRequestHandler("initialize");
    silent.dispatcher.setRequestHandler("initialize", () => new Promise(() => {}));
    const timedOut = new MCPClient(CLIENT_INFO, { telemetry: null });
    await expect(timedOut.connect(silent.clientEnd, { timeoutMs: 20 })).rejects.toMatchObject({ code: MCP_CODES.TIMEOUT });
    await settle();
    expect(silent.dispatcher.closed).toBe(true);

    const another = await rawServer({}, () => "2025-11-25");
    another.dispatcher.removeRequestHandler("initialize");
    another.dispatcher.setRequestHandler("initialize", () => new Promise(() => {}));
    const aborted = new MCPClient(CLIENT_INFO, { telemetry: null });
    const controller = new AbortController();
    const connecting = aborted.connect(another.clientEnd, { signal: controller.signal });
    controller.abort();
    await expect(connecting).rejects.toMatchObject({ code: MCP_CODES.REQUEST_CANCELLED });
  });

  it("reports a transport that cannot start, and a protocolVersion it does not speak", async () => {
    const broken: Transport = {
      start: () => Promise.reject(new Error("no wire")),
      send: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
    const client = new MCPClient(CLIENT_INFO, { telemetry: null });
    await expect(client.connect(broken)).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR, message: "no wire" });
    expect(() => new MCPClient(CLIENT_INFO, { protocolVersion: "2027-01-01" as ProtocolVersion })).toThrow(
      expect.objectContaining({
        code: MCP_CODES.PROTOCOL_VERSION_MISMATCH,
        message: 'protocolVersion "2027-01-01" is not one this client speaks (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28)',
      }),
    );
    expect(() => new MCPClient(CLIENT_INFO, { protocolVersion: "2026-07-28", era: "session" })).toThrow(
      expect.objectContaining({
        code: MCP_CODES.PROTOCOL_VERSION_MISMATCH,
        message: 'protocolVersion "2026-07-28" is of the stateless era, not the session era asked for',
      }),
    );
  });
});

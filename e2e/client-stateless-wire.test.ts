// What our MCPClient puts on the wire in the stateless era, and how it reads what comes back, against
// a scripted server (a raw JSON-RPC end of an in-memory pair): the revision's _meta on every request,
// the requestState of a round echoed byte for byte (and no requestState when none came), a new id for
// each retry, no state of one call in a parallel one, a result without resultType taken as complete;
// and the probe's rules: a -32022 naming a version this client speaks is tried once more, any other
// answer (or none in time) falls back to initialize.
import { afterEach, describe, expect, it } from "vitest";
import { InMemoryTransport, MCP_CODES, MCPClient, type MCPClientOptions } from "../src/index.js";

type Message = { readonly id?: number | string; readonly method?: string; readonly params?: Record<string, unknown> };
type Answer = { readonly result: unknown } | { readonly error: { code: number; message: string; data?: unknown } } | "silence";

const CLIENT_INFO = { name: "wire", version: "1.0.0" };
const DISCOVERED = {
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: {} },
  _meta: { "io.modelcontextprotocol/serverInfo": { name: "scripted", version: "1.0.0" } },
};

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

/** A client over an in-memory pair whose other end answers each request with `answer(message)`; `requests` records what came. */
async function scripted(
  answer: (message: Message) => Answer,
  options: MCPClientOptions = {},
): Promise<{ client: MCPClient; requests: Message[]; connected: Promise<unknown> }> {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  const requests: Message[] = [];
  await serverEnd.start({
    onMessage: (message) => {
      const request = message as Message;
      requests.push(request);
      if (request.id === undefined) return;
      const reply = answer(request);
      if (reply !== "silence") void serverEnd.send({ jsonrpc: "2.0", id: request.id, ...reply });
    },
    onMalformed: () => undefined,
    onClose: () => undefined,
  });
  const client = new MCPClient(CLIENT_INFO, {
    telemetry: null,
    elicitation: { form: () => ({ action: "accept", content: { ok: true } }) },
    ...options,
  });
  cleanups.push(() => client.close());
  return { client, requests, connected: client.connect(clientEnd) };
}

const ask = {
  confirm: {
    method: "elicitation/create",
    params: { message: "Sure?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } },
  },
};

describe("MCPClient on the stateless era's wire", () => {
  it("sends the revision's _meta on every request, echoes requestState byte for byte under a new id, none when none came", async () => {
    const state = '{"nonce": "n-1",  "spaced":true}';
    const { client, requests, connected } = await scripted((message) => {
      if (message.method === "server/discover") return { result: DISCOVERED };
      if (message.method === "tools/list") return { result: { tools: [] } };
      const name = message.params?.["name"];
      const retry = message.params?.["inputResponses"] !== undefined;
      if (name === "stateful" && !retry) return { result: { resultType: "input_required", inputRequests: ask, requestState: state } };
      if (name === "stateless" && !retry) return { result: { resultType: "input_required", inputRequests: ask } };
      if (name === "polled" && message.params?.["requestState"] === undefined)
        return { result: { resultType: "input_required", requestState: "poll-1" } };
      return { result: { content: [{ type: "text", text: `${String(name)} done` }] } };
    });
    await expect(connected).resolves.toEqual({ era: "stateless", protocolVersion: "2026-07-28" });
    expect(requests[0]).toEqual({
      jsonrpc: "2.0",
      id: 1,
      method: "server/discover",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} }, extensions: { "io.modelcontextprotocol/tasks": {} } },
          "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
        },
      },
    });
    expect(client.serverInfo).toEqual({ name: "scripted", version: "1.0.0" });

    const [stateful, plain] = await Promise.all([
      client.callTool("stateful", { a: 1 }),
      client.callTool("plain", {}, { meta: { trace: "t" } }),
    ]);
    expect(stateful.content).toEqual([{ type: "text", text: "stateful done" }]);
    expect(plain.content).toEqual([{ type: "text", text: "plain done" }]);
    const calls = requests.filter((message) => message.method === "tools/call");
    const [first, other, retry] = calls;
    expect(first?.params).toMatchObject({ name: "stateful", arguments: { a: 1 } });
    expect(first?.params).not.toHaveProperty("requestState");
    expect(other?.params?.["_meta"]).toEqual({ ...(requests[0]?.params?.["_meta"] as object), trace: "t" });
    expect(other?.params).not.toHaveProperty("inputResponses");
    expect(other?.params).not.toHaveProperty("requestState");
    expect(retry?.id).not.toBe(first?.id);
    expect(retry?.params).toEqual({
      ...first?.params,
      inputResponses: { confirm: { action: "accept", content: { ok: true } } },
      requestState: state,
    });

    await client.callTool("polled", {});
    const polls = requests.filter((message) => message.params?.["name"] === "polled");
    expect(polls.map((message) => message.params?.["requestState"])).toEqual([undefined, "poll-1"]);
    expect(polls[1]?.params).not.toHaveProperty("inputResponses");

    await client.callTool("stateless", {});
    const [, again] = requests.filter((message) => message.params?.["name"] === "stateless");
    expect(again?.params?.["inputResponses"]).toEqual({ confirm: { action: "accept", content: { ok: true } } });
    expect(again?.params).not.toHaveProperty("requestState");
  });

  it("retries discover in the version a -32022 names, once", async () => {
    let refused = 0;
    const { requests, connected } = await scripted((message) => {
      if (message.method === "server/discover" && refused++ === 0) {
        return {
          error: {
            code: -32022,
            message: "Unsupported protocol version",
            data: { supported: ["2099-01-01", "2026-07-28"], requested: "2026-07-28" },
          },
        };
      }
      return { result: DISCOVERED };
    });
    await expect(connected).resolves.toEqual({ era: "stateless", protocolVersion: "2026-07-28" });
    expect(requests.map((message) => message.method)).toEqual(["server/discover", "server/discover"]);

    const { connected: stubborn } = await scripted(
      () => ({ error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"] } } }),
      { era: "stateless" },
    );
    await expect(stubborn).rejects.toMatchObject({ wireCode: -32022 });
    for (const data of [undefined, { supported: "2026-07-28" }]) {
      const refusal =
        data === undefined
          ? { code: -32022, message: "Unsupported protocol version" }
          : { code: -32022, message: "Unsupported protocol version", data };
      const { requests: asked, connected: turnedAway } = await scripted(() => ({ error: refusal }), { era: "stateless" });
      await expect(turnedAway).rejects.toMatchObject({ wireCode: -32022, message: "Unsupported protocol version" });
      expect(asked.map((message) => message.method)).toEqual(["server/discover"]);
    }
    // Pinned to the stateless era, the probe is not cut short by probeTimeoutMs: a slow answer is waited for.
    const [clientEnd, serverEnd] = InMemoryTransport.pair();
    await serverEnd.start({
      onMessage: (message) =>
        void setTimeout(() => void serverEnd.send({ jsonrpc: "2.0", id: (message as Message).id, result: DISCOVERED }), 50),
      onMalformed: () => undefined,
      onClose: () => undefined,
    });
    const patient = new MCPClient(CLIENT_INFO, { telemetry: null, era: "stateless", probeTimeoutMs: 5 });
    cleanups.push(() => patient.close());
    await expect(patient.connect(clientEnd)).resolves.toEqual({ era: "stateless", protocolVersion: "2026-07-28" });
  });

  it("falls back to initialize on any answer to the probe but a discover result, and on none in time", async () => {
    const initialized = { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "old", version: "1.0.0" } };
    const probes: Answer[] = [
      { error: { code: -32601, message: "Method not found" } },
      { error: { code: -32600, message: "Server not initialized" } },
      { error: { code: -32022, message: "no", data: { supported: ["2025-11-25"] } } },
      { error: { code: -32022, message: "no" } },
      { error: { code: -32600, message: "Bad request", data: { supported: ["2026-07-28"] } } },
      { result: { not: "a discover result" } },
      "silence",
    ];
    for (const probe of probes) {
      const { client, requests, connected } = await scripted(
        (message) => (message.method === "server/discover" ? probe : { result: initialized }),
        { probeTimeoutMs: 20 },
      );
      await expect(connected).resolves.toEqual({ era: "session", protocolVersion: "2025-11-25" });
      // A probe with no answer in time is cancelled before the handshake.
      const cancelled = probe === "silence" ? ["notifications/cancelled"] : [];
      expect(requests.map((message) => message.method)).toEqual([
        "server/discover",
        ...cancelled,
        "initialize",
        "notifications/initialized",
      ]);
      expect(requests.find((message) => message.method === "initialize")?.params).toEqual({
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: { form: {} } },
        clientInfo: CLIENT_INFO,
      });
      expect(client.serverInfo).toEqual({ name: "old", version: "1.0.0" });
    }
  });

  it("asks a slow server again when the probe timed out and initialize was refused; the refusal if the second probe fails", async () => {
    const refusal = { error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"] } } };
    // The first discover is answered too late (it is given up), the second at once.
    let discovers = 0;
    const { requests, connected } = await scripted(
      (message) => (message.method === "server/discover" ? (++discovers === 1 ? "silence" : { result: DISCOVERED }) : refusal),
      { probeTimeoutMs: 20 },
    );
    await expect(connected).resolves.toEqual({ era: "stateless", protocolVersion: "2026-07-28" });
    expect(requests.map((message) => message.method)).toEqual([
      "server/discover",
      "notifications/cancelled",
      "initialize",
      "server/discover",
    ]);
    const { connected: neither } = await scripted((message) => (message.method === "server/discover" ? "silence" : refusal), {
      probeTimeoutMs: 20,
      timeoutMs: 40,
    });
    await expect(neither).rejects.toMatchObject({ code: MCP_CODES.PROTOCOL_VERSION_MISMATCH, wireCode: -32022 });
    // A connection that fails during initialize is not probed again.
    const [clientEnd, serverEnd] = InMemoryTransport.pair();
    await serverEnd.start({
      onMessage: (message) => void ((message as Message).method === "initialize" && serverEnd.close()),
      onMalformed: () => undefined,
      onClose: () => undefined,
    });
    const gone = new MCPClient(CLIENT_INFO, { telemetry: null, probeTimeoutMs: 20 });
    cleanups.push(() => gone.close());
    await expect(gone.connect(clientEnd)).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
  });

  it("ends the connect when the caller gives up or the connection fails in the probe; refuses input it has no handler for", async () => {
    const controller = new AbortController();
    const waiting = await scripted(() => "silence", { probeTimeoutMs: 60_000 });
    const [clientEnd, serverEnd] = InMemoryTransport.pair();
    await serverEnd.start({
      onMessage: () => controller.abort(new Error("gave up")),
      onMalformed: () => undefined,
      onClose: () => undefined,
    });
    const client = new MCPClient(CLIENT_INFO, { telemetry: null });
    // Given up during the probe: no handshake is tried after it.
    await expect(client.connect(clientEnd, { signal: controller.signal })).rejects.toMatchObject({
      code: MCP_CODES.REQUEST_CANCELLED,
      message: "Request cancelled: gave up",
    });
    expect(client.connected).toBe(false);
    await waiting.client.close();
    await expect(waiting.connected).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });

    const { client: asked, connected: ready } = await scripted((message) =>
      message.method === "server/discover"
        ? { result: DISCOVERED }
        : { result: { resultType: "input_required", inputRequests: { where: { method: "roots/list" } } } },
    );
    await ready;
    await expect(asked.callTool("t", {})).rejects.toMatchObject({
      code: MCP_CODES.METHOD_NOT_FOUND,
      message: 'The server asked for roots/list (input "where"), which this client has no handler for',
    });
  });

  it("reads server info from the discover body too, tells no session of new roots, reads -32602 naming a URI as not found", async () => {
    const { client, requests, connected } = await scripted(
      (message) => {
        if (message.method === "server/discover")
          return { result: { supportedVersions: ["2026-07-28"], capabilities: {}, serverInfo: { name: "bodied", version: "2" } } };
        const uri = message.params?.["uri"];
        if (uri === "memo://gone") return { error: { code: -32602, message: "Resource not found", data: { uri } } };
        if (uri === "memo://bad") return { error: { code: -32602, message: "Invalid params", data: { uri: "memo://other" } } };
        if (uri === "memo://plain") return { error: { code: -32602, message: "Invalid params" } };
        return { error: { code: -32603, message: "Broken", data: { uri } } };
      },
      { roots: [{ uri: "file:///a" }] },
    );
    await connected;
    expect(client.serverInfo).toEqual({ name: "bodied", version: "2" });
    await client.setRoots([{ uri: "file:///b" }]);
    await client.rootsListChanged();
    expect(requests.map((message) => message.method)).toEqual(["server/discover"]);
    await expect(client.readResource("memo://gone")).rejects.toMatchObject({
      code: MCP_CODES.NOT_FOUND,
      wireCode: -32602,
      message: "Resource not found",
      data: { uri: "memo://gone" },
    });
    await expect(client.readResource("memo://bad")).rejects.toMatchObject({ code: MCP_CODES.INVALID_PARAMS, wireCode: -32602 });
    await expect(client.readResource("memo://broken")).rejects.toMatchObject({ code: MCP_CODES.INTERNAL_ERROR, wireCode: -32603 });
    await expect(client.readResource("memo://plain")).rejects.toMatchObject({ code: MCP_CODES.INVALID_PARAMS, wireCode: -32602 });
  });
});

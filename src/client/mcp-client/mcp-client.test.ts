// What no SDK server can make happen: a transport that breaks down under the client, or hands it a
// message in the caller's stack; what the client sends; and what a closed client still holds on to.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { Transport, TransportReceiver } from "../../transport/transport/transport.types.js";
import { MCPClient } from "./mcp-client.js";
import { CLIENT_INFO, connectToRaw, rawServer, until } from "./mcp-client.test-helpers.js";

/** Passes everything through to `inner`, recording what is sent; can report a breakdown as a real transport would. */
class ControlledTransport implements Transport {
  readonly sent: unknown[] = [];
  #receiver: TransportReceiver | undefined;

  constructor(private readonly inner: Transport) {}

  start(receiver: TransportReceiver): Promise<void> {
    this.#receiver = receiver;
    return this.inner.start(receiver);
  }

  send(message: unknown): Promise<void> {
    this.sent.push(message);
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  breakDown(error: MCPError): void {
    this.#receiver?.onClose(error);
  }

  /** Hands `message` to the client now, in this call. */
  deliver(message: unknown): void {
    this.#receiver?.onMessage(message);
  }

  paramsSent(method: string): unknown[] {
    return this.sent.flatMap((message) =>
      (message as { method?: string }).method === method ? [(message as { params?: unknown }).params] : [],
    );
  }
}

describe("MCPClient on a transport that breaks down", () => {
  it("rejects pending calls and tells close listeners why", async () => {
    let started = false;
    const hang = (): Promise<never> => {
      started = true;
      return new Promise(() => {});
    };
    const server = await rawServer({ "tools/call": hang });
    const transport = new ControlledTransport(server.clientEnd);
    const client = new MCPClient(CLIENT_INFO, { telemetry: null });
    await client.connect(transport);
    const closes: { error?: MCPError }[] = [];
    client.on("close", (event) => closes.push(event));
    const call = client.callTool("hang");
    await until(() => started);
    transport.breakDown(new MCPError(MCP_CODES.TRANSPORT_ERROR, "the server process exited"));
    await expect(call).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_CLOSED,
      message: expect.stringContaining("the server process exited"),
    });
    expect(closes).toMatchObject([{ error: { code: MCP_CODES.TRANSPORT_ERROR, message: "the server process exited" } }]);
    expect(client.connected).toBe(false);
  });
});

describe("MCPClient on a transport of its own", () => {
  it("sends no arguments or context it was not given", async () => {
    const server = await rawServer({
      "prompts/get": () => ({ messages: [] }),
      "completion/complete": () => ({ completion: { values: [] } }),
    });
    const transport = new ControlledTransport(server.clientEnd);
    const client = new MCPClient(CLIENT_INFO, { telemetry: null });
    await client.connect(transport);
    const ref = { type: "ref/prompt" as const, name: "greet" };
    await client.getPrompt("greet");
    await client.getPrompt("greet", { who: "Ada" });
    await client.complete(ref, { name: "who", value: "A" });
    await client.complete(ref, { name: "who", value: "A" }, { arguments: { style: "formal" } });
    expect(transport.paramsSent("prompts/get")).toStrictEqual([{ name: "greet" }, { name: "greet", arguments: { who: "Ada" } }]);
    expect(transport.paramsSent("completion/complete")).toStrictEqual([
      { ref, argument: { name: "who", value: "A" } },
      { ref, argument: { name: "who", value: "A" }, context: { arguments: { style: "formal" } } },
    ]);
    await client.close();
  });

  it("drops a protocol error without onError, and keeps working", async () => {
    const server = await rawServer({ ping: () => ({}) });
    const transport = new ControlledTransport(server.clientEnd);
    const client = new MCPClient(CLIENT_INFO, { telemetry: null });
    await client.connect(transport);
    expect(() => transport.deliver({ jsonrpc: "2.0", method: "notifications/message", params: { level: "loud" } })).not.toThrow();
    await expect(client.ping()).resolves.toBeUndefined();
    await client.close();
  });
});

describe("MCPClient after close", () => {
  it("lets go of its listeners, listings and known tools while the client object is still held", async () => {
    setFlagsFromString("--expose-gc");
    const collectGarbage = runInNewContext("gc") as () => void;
    // The listing, the known tools and the listener are reachable from the client until close.
    const { client } = await connectToRaw(
      { "tools/list": () => ({ tools: [{ name: "kept", inputSchema: { type: "object" } }] }) },
      { cache: true },
    );
    const listenerState = new WeakRef(registerListenerWithState(client));
    const listedTool = new WeakRef(await firstListedTool(client));
    await client.close();
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    expect(listenerState.deref()).toBeUndefined();
    expect(listedTool.deref()).toBeUndefined();
    await expect(client.listAllTools()).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
  });
});

function registerListenerWithState(client: MCPClient): object {
  const state = { messages: [] as unknown[] };
  client.on("log", (message) => state.messages.push(message));
  return state;
}

async function firstListedTool(client: MCPClient): Promise<object> {
  const [tool] = await client.listAllTools();
  return tool as object;
}

describe("MCPClient before its connect settles", () => {
  it("hears a change the server tells of during the handshake, before the era's subscriptions exist", async () => {
    const server = await rawServer();
    const heard: unknown[] = [];
    server.dispatcher.removeRequestHandler("initialize");
    server.dispatcher.setRequestHandler("initialize", async () => {
      await server.dispatcher.notify("notifications/tools/list_changed", {});
      return {
        protocolVersion: "2025-11-25",
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: "raw", version: "0.0.1" },
      };
    });
    const client = new MCPClient(CLIENT_INFO, { telemetry: null, era: "session" });
    client.on("toolsListChanged", (params) => heard.push(params));
    await client.connect(server.clientEnd);
    await until(() => heard.length === 1);
    expect(heard).toEqual([{}]);
    await client.close();
  });
});

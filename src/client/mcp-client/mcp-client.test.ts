// What no SDK server can make happen: a transport that breaks down under the client; and what a
// closed client still holds on to.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { Transport, TransportReceiver } from "../../transport/transport/transport.types.js";
import { MCPClient } from "./mcp-client.js";
import { CLIENT_INFO, connectToRaw, rawServer, until } from "./mcp-client.test-helpers.js";

/** Passes everything through to `inner`, and can report a breakdown as a real transport would. */
class BreakableTransport implements Transport {
  #receiver: TransportReceiver | undefined;

  constructor(private readonly inner: Transport) {}

  start(receiver: TransportReceiver): Promise<void> {
    this.#receiver = receiver;
    return this.inner.start(receiver);
  }

  send(message: unknown): Promise<void> {
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  breakDown(error: MCPError): void {
    this.#receiver?.onClose(error);
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
    const transport = new BreakableTransport(server.clientEnd);
    const client = new MCPClient(CLIENT_INFO, { telemetry: null });
    await client.connect(transport);
    const closes: { error?: MCPError }[] = [];
    client.on("close", (event) => closes.push(event));
    const call = client.callTool("hang");
    await until(() => started);
    transport.breakDown(new MCPError(MCP_CODES.TRANSPORT_ERROR, "the server process exited"));
    await expect(call).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED, message: expect.stringContaining("the server process exited") });
    expect(closes).toMatchObject([{ error: { code: MCP_CODES.TRANSPORT_ERROR, message: "the server process exited" } }]);
    expect(client.connected).toBe(false);
  });
});

describe("MCPClient after close", () => {
  it("lets go of its listeners, listings and known tools while the client object is still held", async () => {
    setFlagsFromString("--expose-gc");
    const collectGarbage = runInNewContext("gc") as () => void;
    // The listing, the known tools and the listener are reachable from the client until close.
    const { client } = await connectToRaw({ "tools/list": () => ({ tools: [{ name: "kept", inputSchema: { type: "object" } }] }) }, { cache: true });
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

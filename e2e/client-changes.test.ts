// One host code path hears a server's changes in either era: `client.on("toolsListChanged")`,
// `subscribeResource` + `on("resourceUpdated")` and the list cache. In the session era they are the
// server's notifications and resources/subscribe; in the stateless era (2026-07-28) the client keeps
// one subscriptions/listen stream whose filter follows what is watched, re-opens it when it breaks or
// the server ends it, and tells the host what it may have missed meanwhile.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  InMemoryTransport,
  MCPClient,
  type TransportReceiver,
  MCPServer,
  MCP_CODES,
  StreamableHttpTransport,
  streamableHttpHandler,
  type HttpHandler,
  type MCPClientOptions,
  type MCPError,
  type Transport,
} from "../src/index.js";
import { serveHttp, spawnStdioServer } from "../src/node/index.js";
import { dualEraServer } from "./fixtures/dual-era-server.mjs";

const serverScript = fileURLToPath(new URL("./fixtures/dual-era-server.mjs", import.meta.url));
const CLIENT_INFO = { name: "changes", version: "1.0.0" };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

function newClient(options: MCPClientOptions = {}): { client: MCPClient; errors: MCPError[] } {
  const errors: MCPError[] = [];
  const client = new MCPClient(CLIENT_INFO, {
    telemetry: null,
    listenRetryDelayMs: 20,
    onError: (error) => errors.push(error),
    ...options,
  });
  cleanups.push(() => client.close());
  return { client, errors };
}

async function inMemory(server: MCPServer): Promise<Transport> {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  await server.start(serverEnd);
  cleanups.push(() => server.close());
  return clientEnd;
}

/** Our HTTP server on 127.0.0.1 whose MCPServer can be swapped for a new one (a restart behind one address). */
async function restartableHttp(): Promise<{ url: URL; server: () => MCPServer; restart: () => Promise<void> }> {
  let server = dualEraServer(MCPServer);
  let handler: HttpHandler = streamableHttpHandler(server);
  const front: HttpHandler = {
    fetch: (request) => handler.fetch(request),
    handle: (exchange) => handler.handle(exchange),
    close: () => handler.close(),
    get sessionCount() {
      return handler.sessionCount;
    },
  };
  const http = await serveHttp(front, { port: 0, host: "127.0.0.1" });
  cleanups.push(async () => {
    await http.close();
    await handler.close();
  });
  return {
    url: new URL("/mcp", http.url),
    server: () => server,
    // The old server shuts down (its listen streams end with their result); a new one answers at the address.
    restart: async () => {
      const [oldServer, oldHandler] = [server, handler];
      server = dualEraServer(MCPServer);
      handler = streamableHttpHandler(server);
      await oldServer.close();
      await oldHandler.close();
    },
  };
}

type Flavour = "in-memory stateless" | "in-memory session" | "stdio stateless" | "http stateless" | "http session";

async function connected(
  flavour: Flavour,
  options: MCPClientOptions = {},
): Promise<{ client: MCPClient; errors: MCPError[]; touch: (uri: string) => Promise<unknown>; addTool: () => Promise<unknown> }> {
  const era = flavour.endsWith("session") ? "session" : "auto";
  const { client, errors } = newClient({ era, ...options });
  let transport: Transport;
  if (flavour.startsWith("in-memory")) transport = await inMemory(dualEraServer(MCPServer));
  else if (flavour.startsWith("stdio")) transport = await spawnStdioServer({ command: process.execPath, args: [serverScript] });
  else transport = new StreamableHttpTransport((await restartableHttp()).url);
  await expect(client.connect(transport)).resolves.toMatchObject({ era: era === "auto" ? "stateless" : "session" });
  return { client, errors, touch: (uri) => client.callTool("touch", { uri }), addTool: () => client.callTool("add-tool") };
}

describe.each<Flavour>(["in-memory stateless", "in-memory session", "stdio stateless", "http stateless", "http session"])(
  "change notifications, %s",
  (flavour) => {
    it("tells the host's listeners of list changes and of updates to resources it subscribed to; stops after unsubscribe", async () => {
      const { client, touch, addTool } = await connected(flavour);
      const heard: string[] = [];
      client.on("toolsListChanged", () => heard.push("tools"));
      client.on("resourceUpdated", ({ uri }) => heard.push(`updated ${uri}`));
      await client.subscribeResource("memo://note");
      await client.subscribeResource("memo://items/1");
      await addTool();
      await vi.waitFor(() => expect(heard).toContain("tools"));
      await touch("memo://note");
      await touch("memo://elsewhere");
      await touch("memo://items/1");
      await vi.waitFor(() => expect(heard).toContain("updated memo://items/1"));
      expect(heard).toEqual(["tools", "updated memo://note", "updated memo://items/1"]);
      await client.unsubscribeResource("memo://note");
      await touch("memo://note");
      await touch("memo://items/1");
      await vi.waitFor(() => expect(heard.filter((entry) => entry === "updated memo://items/1")).toHaveLength(2));
      expect(heard.filter((entry) => entry === "updated memo://note")).toHaveLength(1);
      expect((await client.listAllTools()).map((tool) => tool.name)).toContain("late");
    });

    it("keeps the cached tool list fresh: re-lists after a change and says so", async () => {
      const { client, addTool } = await connected(flavour, { cache: { tools: true } });
      expect((await client.listAllTools()).map((tool) => tool.name)).not.toContain("late");
      const refreshed = new Promise<string[]>((resolve) => client.on("toolsRefreshed", (tools) => resolve(tools.map((tool) => tool.name))));
      await addTool();
      expect(await refreshed).toContain("late");
      expect((await client.listAllTools()).map((tool) => tool.name)).toContain("late");
    });
  },
);

describe("the stateless era's listen stream", () => {
  it("re-opens the stream after the server restarts behind the same address, and tells the host what it may have missed", async () => {
    const http = await restartableHttp();
    const { client, errors } = newClient();
    await client.connect(new StreamableHttpTransport(http.url));
    const heard: string[] = [];
    client.on("toolsListChanged", () => heard.push("tools"));
    client.on("resourceUpdated", ({ uri }) => heard.push(`updated ${uri}`));
    await client.subscribeResource("memo://note");
    await http.restart();
    // The new server knows nothing of the client: what the stream honoured is delivered as changed.
    await vi.waitFor(() => expect(heard).toEqual(["tools", "updated memo://note"]));
    await http.server().markResourceUpdated("memo://note");
    await vi.waitFor(() => expect(heard).toEqual(["tools", "updated memo://note", "updated memo://note"]));
    // The server ended the stream with a result: nothing to report.
    expect(errors).toEqual([]);
  });

  it("re-opens a broken stream (connection cut, no answer), reports it once, and tells the host what it may have missed", async () => {
    const http = await restartableHttp();
    const cuts: Array<() => void> = [];
    // Cuts the body of each listen POST's answer when told to, as a dropped connection would.
    const fetchImpl = async (url: URL | string, init: RequestInit): Promise<Response> => {
      const response = await fetch(url, init);
      if (typeof init.body !== "string" || !init.body.includes('"subscriptions/listen"') || !response.body) return response;
      const reader = response.body.getReader();
      let cut!: (error: Error) => void;
      const broken = new Promise<never>((_resolve, reject) => (cut = reject));
      cuts.push(() => cut(new TypeError("terminated")));
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const chunk = await Promise.race([reader.read(), broken]).catch((error: unknown) => {
            reader.cancel().catch(() => undefined);
            throw error;
          });
          if (chunk.done) controller.close();
          else controller.enqueue(chunk.value);
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const { client, errors } = newClient();
    await client.connect(new StreamableHttpTransport(http.url, { fetchImpl }));
    const heard: string[] = [];
    client.on("promptsListChanged", () => heard.push("prompts"));
    await vi.waitFor(() => expect(cuts).toHaveLength(1));
    await client.subscribeResource("memo://note");
    expect(cuts).toHaveLength(2);
    cuts[1]?.();
    await vi.waitFor(() => expect(heard).toEqual(["prompts"]));
    expect(cuts).toHaveLength(3);
    expect(errors.map((error) => [error.code, error.message])).toEqual([
      [MCP_CODES.TRANSPORT_ERROR, expect.stringMatching(/^The subscriptions\/listen stream ended \(.*\); re-opening it$/)],
    ]);
    const updates: string[] = [];
    client.on("resourceUpdated", ({ uri }) => updates.push(uri));
    await http.server().markResourceUpdated("memo://note");
    await vi.waitFor(() => expect(updates).toEqual(["memo://note"]));
  });

  it("counts only the notifications of the stream it keeps: one tagged with another subscription id, or none, is not heard", async () => {
    const inner = await inMemory(dualEraServer(MCPServer));
    let receiver: TransportReceiver | undefined;
    const tapped: Transport = {
      carriesStatelessEra: true,
      start: (given) => {
        receiver = given;
        return inner.start(given);
      },
      send: (message) => inner.send(message),
      close: () => inner.close(),
    };
    const { client } = newClient();
    await client.connect(tapped);
    const heard: unknown[] = [];
    client.on("toolsListChanged", (params) => heard.push(params));
    await client.subscribeResource("memo://note");
    receiver?.onMessage({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": 999 } },
    });
    receiver?.onMessage({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    await client.callTool("add-tool");
    await vi.waitFor(() => expect(heard).toHaveLength(1));
    expect(heard).toEqual([{ _meta: { "io.modelcontextprotocol/subscriptionId": expect.any(Number) } }]);
  });

  it("refuses a subscription the server does not take (a server without resources), and keeps the rest working", async () => {
    const server = new MCPServer({ name: "tools only", version: "1.0.0" });
    server.tool("add", { description: "adds a tool" }, () => {
      server.tool("late", { description: "late" }, () => ({ content: [] }));
      return { content: [] };
    });
    const { client } = newClient();
    await client.connect(await inMemory(server));
    const heard: string[] = [];
    client.on("toolsListChanged", () => heard.push("tools"));
    await expect(client.subscribeResource("memo://note")).rejects.toMatchObject({
      code: MCP_CODES.METHOD_NOT_FOUND,
      message: "The server did not take the subscription to memo://note: its acknowledgement of subscriptions/listen left it out",
    });
    await client.callTool("add");
    await vi.waitFor(() => expect(heard).toEqual(["tools"]));
  });

  it("rejects subscribe before connect and after close as any call would", async () => {
    const { client } = newClient();
    await expect(client.subscribeResource("memo://note")).rejects.toMatchObject({ code: MCP_CODES.NOT_INITIALIZED });
    await client.connect(await inMemory(dualEraServer(MCPServer)));
    await client.close();
    await expect(client.subscribeResource("memo://note")).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
    await expect(client.unsubscribeResource("memo://note")).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_CLOSED });
  });
});

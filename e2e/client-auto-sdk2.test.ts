// Our MCPClient in its default, automatic era mode ↔ the official SDK 2.x server
// (@modelcontextprotocol/server 2.4) serving fixtures/sdk2-era-server.mjs, over both its serving
// entries: createMcpHandler (Streamable HTTP, on 127.0.0.1 through our serveHttp) and serveStdio (a
// child process). Each entry in its 2026-only mode (legacy: "reject") and its dual-era mode (the
// default): auto probes with server/discover and speaks 2026-07-28 with both; told to speak the
// session era, our client gets 2025-11-25 from the dual-era entries and a refusal from the 2026-only
// ones. The walk is support/era-surface.ts's: tools with progress, input_required rounds answered by
// our elicitation, sampling and roots handlers, resources, prompts, completion, and change
// notifications (subscriptions/listen in the stateless era).
import { fileURLToPath } from "node:url";
import { createMcpHandler, type McpHttpHandler, type ServerNotifier } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCP_CODES, StreamableHttpTransport, type ConnectResult, type MCPClient } from "../src/index.js";
import { sdk2EraServers } from "./fixtures/sdk2-era-server.mjs";
import { spawnNodeChild } from "./support/children.js";
import { servedRecording } from "./support/served.js";
import { SURFACE_TOOLS, surfaceClient, walkChanges, walkResourcesAndPrompts, walkTools, type Asked } from "./support/era-surface.js";

const serverScript = fileURLToPath(new URL("./fixtures/sdk2-era-server.mjs", import.meta.url));
const SERVER_INFO = { name: "sdk2-era-server", version: "2.0.0" };
const STATELESS = { era: "stateless", protocolVersion: "2026-07-28" };
const SESSION = { era: "session", protocolVersion: "2025-11-25" };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});
const defer = (cleanup: () => Promise<void>) => void cleanups.push(cleanup);

type Mode = "2026-only" | "dual-era";
type Entry = "createMcpHandler" | "serveStdio";

/** createMcpHandler on 127.0.0.1, its change events on its own listen bus; notes each exchange as "METHOD Mcp-Method status". */
async function servedHandler(mode: Mode, exchanges: string[]): Promise<URL> {
  // The factory is made before the handler whose notifier it publishes on: it reaches it when a tool runs.
  const notify: ServerNotifier = {
    toolsChanged: () => handler.notify.toolsChanged(),
    promptsChanged: () => handler.notify.promptsChanged(),
    resourcesChanged: () => handler.notify.resourcesChanged(),
    resourceUpdated: (uri) => handler.notify.resourceUpdated(uri),
  };
  const handler: McpHttpHandler = createMcpHandler(sdk2EraServers(notify), { legacy: mode === "2026-only" ? "reject" : "stateless" });
  return servedRecording(
    handler,
    (request, response) => exchanges.push(`${request.method} ${request.headers.get("mcp-method") ?? "-"} ${response.status}`),
    defer,
  );
}

interface Connected {
  readonly client: MCPClient;
  readonly asked: Asked;
  readonly chosen: ConnectResult;
  readonly exchanges: string[];
}

async function connect(entry: Entry, mode: Mode, era?: "session"): Promise<Connected> {
  const { client, asked } = surfaceClient(era ? { era } : {});
  const exchanges: string[] = [];
  const transport =
    entry === "createMcpHandler"
      ? new StreamableHttpTransport(await servedHandler(mode, exchanges))
      : await spawnNodeChild(mode === "2026-only" ? [serverScript, "--modern-only"] : [serverScript], defer);
  defer(() => client.close());
  return { client, asked, chosen: await client.connect(transport), exchanges };
}

const FLAVOURS: Array<[Entry, Mode]> = [
  ["createMcpHandler", "2026-only"],
  ["serveStdio", "2026-only"],
  ["createMcpHandler", "dual-era"],
  ["serveStdio", "dual-era"],
];

describe.each(FLAVOURS)("our client (auto) ↔ the SDK 2.x server through %s, %s", (entry, mode) => {
  it("speaks the stateless era (2026-07-28): tools with progress, input_required rounds, resources, prompts and completion", async () => {
    const { client, asked, chosen, exchanges } = await connect(entry, mode);
    expect(chosen).toEqual(STATELESS);
    expect([client.era, client.protocolVersion]).toEqual(["stateless", "2026-07-28"]);
    expect(client.serverInfo).toEqual(SERVER_INFO);
    expect(client.instructions).toBe("an SDK 2.x server of both eras");
    expect(client.serverCapabilities).toMatchObject({
      tools: { listChanged: true },
      resources: { listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });
    await walkTools(client, asked, "stateless");
    await walkResourcesAndPrompts(client, asked);
    // Over HTTP: the probe first, then one POST per request, never an initialize nor a session's GET.
    expect(exchanges.slice(0, 1)).toEqual(entry === "createMcpHandler" ? ["POST server/discover 200"] : []);
    expect(exchanges.filter((exchange) => !exchange.startsWith("POST ") || exchange.includes("initialize"))).toEqual([]);
  });

  it("hears list changes and resource updates in the stateless era (subscriptions/listen)", async () => {
    const { client, chosen } = await connect(entry, mode);
    expect(chosen).toEqual(STATELESS);
    await walkChanges(client);
  });
});

describe("our client told to speak the session era ↔ the SDK 2.x server", () => {
  it("is refused by the 2026-only entries: initialize is answered -32022, naming 2026-07-28", async () => {
    const { client: overHttp } = surfaceClient({ era: "session" });
    defer(() => overHttp.close());
    // Over HTTP the refusal comes as a 400 whose body is the JSON-RPC error; the session era takes the status.
    await expect(overHttp.connect(new StreamableHttpTransport(await servedHandler("2026-only", [])))).rejects.toMatchObject({
      code: MCP_CODES.TRANSPORT_ERROR,
      data: { status: 400, body: expect.stringContaining('"code":-32022') },
    });
    const { client: overStdio } = surfaceClient({ era: "session" });
    const transport = await spawnNodeChild([serverScript, "--modern-only"], defer);
    defer(() => overStdio.close());
    await expect(overStdio.connect(transport)).rejects.toMatchObject({
      code: MCP_CODES.PROTOCOL_VERSION_MISMATCH,
      wireCode: -32022,
      message: "Unsupported protocol version: 2025-11-25",
      data: { supported: ["2026-07-28"] },
    });
    expect([overHttp.connected, overStdio.connected]).toEqual([false, false]);
  });

  it("gets 2025-11-25 from serveStdio's dual-era entry (the session era): all, input by real requests, change notifications", async () => {
    const { client, asked, chosen } = await connect("serveStdio", "dual-era", "session");
    expect(chosen).toEqual(SESSION);
    expect(client.serverInfo).toEqual(SERVER_INFO);
    await walkTools(client, asked, "session");
    await walkResourcesAndPrompts(client, asked);
    await walkChanges(client);
  });

  it("gets 2025-11-25 statelessly from createMcpHandler's dual-era entry: tools, progress, resources, prompts; no input", async () => {
    const { client, asked, chosen, exchanges } = await connect("createMcpHandler", "dual-era", "session");
    expect(chosen).toEqual(SESSION);
    expect(client.serverInfo).toEqual(SERVER_INFO);
    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(SURFACE_TOOLS);
    const progress: number[] = [];
    expect(
      (await client.callTool("count", { to: 2 }, { onProgress: ({ progress: step }) => void progress.push(step) })).structuredContent,
    ).toEqual({ counted: 2 });
    expect(progress).toEqual([1, 2]);
    expect((await client.readResource("memo://items/7")).contents).toEqual([{ uri: "memo://items/7", text: "item 7" }]);
    expect(await client.listAllResourceTemplates()).toEqual([{ name: "item", uriTemplate: "memo://items/{id}", mimeType: "text/plain" }]);
    expect((await client.getPrompt("greet", { name: "Ada" })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Hello, Ada!" } },
    ]);
    expect((await client.complete({ type: "ref/prompt", name: "greet" }, { name: "name", value: "A" })).completion.values).toEqual([
      "Ada",
      "Alan",
    ]);
    // A fresh instance per 2025 request has no client capabilities and cannot send requests: the SDK's shim refuses the interview without
    // asking.
    const interview = await client.callTool("interview", {});
    expect(interview).toMatchObject({
      isError: true,
      content: [{ type: "text", text: expect.stringContaining("per-request legacy serving cannot receive server-to-client requests") }],
    });
    expect(asked.inputs).toEqual([]);
    // initialize and initialized, each served on its own; the session's GET stream is refused (405).
    expect(exchanges.slice(0, 2)).toEqual(["POST - 200", "POST - 202"]);
    await vi.waitFor(() => expect(exchanges).toContain("GET - 405"));
  });
});

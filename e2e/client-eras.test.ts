// Our MCPClient finds the era by itself: against our dual-era MCPServer (in memory, and in a child
// process over stdio) `"auto"` probes with server/discover and speaks the stateless era (2026-07-28);
// against a session-only server it falls back to initialize. In the stateless era every request
// carries the revision's _meta, and input_required rounds are answered by the handlers the host
// registered (or by the call's own onInputRequired), with progress and cancellation across rounds.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { InMemoryTransport, MCP_CODES, MCPClient, MCPServer, type MCPClientOptions, type Transport } from "../src/index.js";
import { spawnStdioServer } from "../src/node/index.js";
import { dualEraServer } from "./fixtures/dual-era-server.mjs";

const serverScript = fileURLToPath(new URL("./fixtures/dual-era-server.mjs", import.meta.url));
const sdk2ServerScript = fileURLToPath(new URL("./fixtures/sdk2-server.mjs", import.meta.url));
const sdk1ServerScript = fileURLToPath(new URL("../bench/servers/sdk1-stdio.mjs", import.meta.url));
const CLIENT_INFO = { name: "eras", version: "1.0.0" };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

interface Asked {
  readonly inputs: string[];
}

/** A client whose handlers answer the fixture's interview: a name, a model's answer, the roots, a confirmation. */
function hostClient(options: MCPClientOptions = {}): { client: MCPClient; asked: Asked } {
  const asked: Asked = { inputs: [] };
  const client = new MCPClient(CLIENT_INFO, {
    telemetry: null,
    roots: [{ uri: "file:///work", name: "work" }],
    sampling: (params) => {
      asked.inputs.push(`sampling ${params.messages.length}`);
      return { role: "assistant", content: { type: "text", text: "42" }, model: "test-model" };
    },
    elicitation: {
      form: (params) => {
        asked.inputs.push(`elicitation ${params.message}`);
        return params.message === "Your name?"
          ? { action: "accept", content: { name: "Ada" } }
          : { action: "accept", content: { ok: true } };
      },
    },
    ...options,
  });
  cleanups.push(() => client.close());
  return { client, asked };
}

async function inMemory(server: MCPServer): Promise<Transport> {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  await server.start(serverEnd);
  cleanups.push(() => server.close());
  return clientEnd;
}

describe("MCPClient finds the era", () => {
  it('speaks the stateless era with a server that answers server/discover ("auto", in memory)', async () => {
    const { client } = hostClient();
    expect(client.era).toBeUndefined();
    await expect(client.connect(await inMemory(dualEraServer(MCPServer)))).resolves.toEqual({
      era: "stateless",
      protocolVersion: "2026-07-28",
    });
    expect(client.era).toBe("stateless");
    expect(client.protocolVersion).toBe("2026-07-28");
    expect(client.serverInfo).toEqual({ name: "dual-era", version: "1.0.0" });
    expect(client.instructions).toBe("both eras");
    expect(client.serverCapabilities?.tools).toBeDefined();
    expect(client.capabilities).toEqual({
      roots: { listChanged: true },
      sampling: {},
      elicitation: { form: {} },
      extensions: { "io.modelcontextprotocol/tasks": {} },
    });
    const result = await client.callTool("count", { to: 2 });
    expect(result.structuredContent).toEqual({ counted: 2 });
    expect((result as { resultType?: unknown }).resultType).toBe("complete");
    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(["count", "interview", "add-tool", "touch"]);
    await client.ping();
  });

  it("falls back to initialize with a server that serves only the session era, and can be told to speak it", async () => {
    const sessionOnly = new MCPServer({ name: "old", version: "1.0.0" }, { eras: ["session"] });
    const { client } = hostClient();
    await expect(client.connect(await inMemory(sessionOnly))).resolves.toEqual({ era: "session", protocolVersion: "2025-11-25" });
    expect(client.era).toBe("session");
    expect(client.serverInfo).toEqual({ name: "old", version: "1.0.0" });

    const { client: pinned } = hostClient({ era: "session" });
    await expect(pinned.connect(await inMemory(dualEraServer(MCPServer)))).resolves.toEqual({
      era: "session",
      protocolVersion: "2025-11-25",
    });
    const { client: older } = hostClient({ protocolVersion: "2025-06-18", era: "session" });
    await expect(older.connect(await inMemory(dualEraServer(MCPServer)))).resolves.toEqual({
      era: "session",
      protocolVersion: "2025-06-18",
    });
  });

  it("refuses the stateless era where it cannot be had: a session-only server, a transport that does not carry it", async () => {
    const { client } = hostClient({ era: "stateless" });
    await expect(
      client.connect(await inMemory(new MCPServer({ name: "old", version: "1.0.0" }, { eras: ["session"] }))),
    ).rejects.toMatchObject({ code: MCP_CODES.METHOD_NOT_FOUND });
    expect(client.connected).toBe(false);

    const [clientEnd] = InMemoryTransport.pair();
    const sessionOnlyWire: Transport = {
      start: (receiver) => clientEnd.start(receiver),
      send: (message) => clientEnd.send(message),
      close: () => clientEnd.close(),
    };
    const { client: pinned } = hostClient({ protocolVersion: "2026-07-28" });
    await expect(pinned.connect(sessionOnlyWire)).rejects.toMatchObject({
      code: MCP_CODES.PROTOCOL_VERSION_MISMATCH,
      message: "This client was asked to speak only the stateless era, but this transport does not carry the stateless era (2026-07-28)",
    });
  });
});

describe("MCPClient in the stateless era", () => {
  it("declares the revision's capabilities, and gives each handler the input's key and the call's signal", async () => {
    const controller = new AbortController();
    const contexts: unknown[] = [];
    const { client } = hostClient({
      sampling: {
        tools: true,
        createMessage: (_params, context) => {
          contexts.push({ key: context.requestId, ours: context.signal === controller.signal, meta: context.meta });
          return { role: "assistant", content: { type: "text", text: "42" }, model: "m" };
        },
      },
      elicitation: {
        url: () => ({ action: "decline" }),
        form: (params, context) => {
          contexts.push({ key: context.requestId, aborted: context.signal.aborted });
          return params.message === "Your name?"
            ? { action: "accept", content: { name: "Ada" } }
            : { action: "accept", content: { ok: true } };
        },
      },
    });
    await client.connect(await inMemory(dualEraServer(MCPServer)));
    expect(client.capabilities).toEqual({
      roots: { listChanged: true },
      sampling: { tools: {} },
      elicitation: { form: {}, url: {} },
      extensions: { "io.modelcontextprotocol/tasks": {} },
    });
    await client.callTool("interview", {}, { signal: controller.signal });
    expect(contexts).toEqual([
      { key: "name", aborted: false },
      { key: "model", ours: true, meta: undefined },
      { key: "confirm", aborted: false },
    ]);
    contexts.length = 0;
    await client.callTool("interview", {});
    expect(contexts).toContainEqual({ key: "model", ours: false, meta: undefined });
  });

  it("answers input_required rounds with the host's handlers: three inputs in one round, a fourth in the next", async () => {
    const { client, asked } = hostClient();
    await client.connect(await inMemory(dualEraServer(MCPServer)));
    const result = await client.callTool("interview", {});
    expect(result.structuredContent).toEqual({ era: "stateless", name: "Ada", answer: "42", sent: true });
    expect(asked.inputs).toEqual(["elicitation Your name?", "sampling 1", "elicitation Send to Ada?"]);
    const prompt = await client.getPrompt("tour");
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Tour file:///work" });
  });

  it("lets a call answer its rounds itself, and bounds the rounds", async () => {
    const { client, asked } = hostClient({ maxInputRounds: 1 });
    await client.connect(await inMemory(dualEraServer(MCPServer)));
    const rounds: string[][] = [];
    const answers: Record<string, unknown> = {
      name: { action: "accept", content: { name: "Grace" } },
      model: { role: "assistant", content: { type: "text", text: "7" }, model: "m" },
      roots: { roots: [] },
      confirm: { action: "decline" },
    };
    const onInputRequired = ({ inputRequests, round }: { inputRequests: Record<string, unknown>; round: number }) => {
      rounds.push([String(round), ...Object.keys(inputRequests)]);
      return Object.fromEntries(Object.keys(inputRequests).map((key) => [key, answers[key]]));
    };
    await expect(client.callTool("interview", {}, { onInputRequired })).rejects.toMatchObject({
      code: MCP_CODES.INPUT_ROUNDS_EXCEEDED,
      message: "tools/call asked for input more than 1 times (maxInputRounds)",
      data: { resultType: "input_required", inputRequests: { confirm: { method: "elicitation/create" } } },
    });
    expect(rounds).toEqual([["1", "name", "model", "roots"]]);

    const { client: patient } = hostClient();
    await patient.connect(await inMemory(dualEraServer(MCPServer)));
    rounds.length = 0;
    const result = await patient.callTool("interview", {}, { onInputRequired });
    expect(result.structuredContent).toEqual({ era: "stateless", name: "Grace", answer: "7", sent: false });
    expect(rounds).toEqual([
      ["1", "name", "model", "roots"],
      ["2", "confirm"],
    ]);
    expect(asked.inputs).toEqual([]);
  });

  it("stops the rounds when the call is cancelled while the user is asked", async () => {
    const controller = new AbortController();
    const { client } = hostClient({
      elicitation: {
        form: () => {
          controller.abort(new Error("the user closed the form"));
          return { action: "cancel" };
        },
      },
    });
    await client.connect(await inMemory(dualEraServer(MCPServer)));
    await expect(client.callTool("interview", {}, { signal: controller.signal })).rejects.toThrow("the user closed the form");
    // The connection goes on.
    expect((await client.callTool("count", { to: 1 })).structuredContent).toEqual({ counted: 1 });
  });

  it("hears progress, and log messages at the level set (carried in each request's _meta)", async () => {
    const server = new MCPServer({ name: "chatty", version: "1.0.0" });
    server.tool("work", {}, async (_args, ctx) => {
      await ctx.progress(1, 2);
      await ctx.log("info", "working");
      await ctx.log("debug", "details");
      return { content: [{ type: "text", text: "done" }] };
    });
    const { client } = hostClient();
    await client.connect(await inMemory(server));
    const logs: unknown[] = [];
    client.on("log", (message) => logs.push(message.data));
    const progress: number[] = [];
    await client.callTool("work", {}, { onProgress: ({ progress: done }) => progress.push(done) });
    expect(progress).toEqual([1]);
    expect(logs).toEqual([]);
    await client.setLoggingLevel("info");
    await client.callTool("work", {});
    expect(logs).toEqual(["working"]);
  });

  it("speaks the stateless era with our server in a child process over stdio", async () => {
    const { client, asked } = hostClient();
    const transport = await spawnStdioServer({ command: process.execPath, args: [serverScript] });
    await expect(client.connect(transport)).resolves.toEqual({ era: "stateless", protocolVersion: "2026-07-28" });
    const progress: number[] = [];
    const counted = await client.callTool("count", { to: 3 }, { onProgress: ({ progress: done }) => progress.push(done) });
    expect(counted.structuredContent).toEqual({ counted: 3 });
    expect(progress).toEqual([1, 2, 3]);
    expect((await client.callTool("interview", {})).structuredContent).toEqual({ era: "stateless", name: "Ada", answer: "42", sent: true });
    expect(asked.inputs).toHaveLength(3);
    expect((await client.readResource("memo://items/12")).contents).toEqual([{ uri: "memo://items/12", text: "item 12" }]);
    expect((await client.complete({ type: "ref/prompt", name: "greet" }, { name: "name", value: "A" })).completion.values).toEqual([
      "Ada",
      "Alan",
    ]);
  });
});

describe("MCPClient finds the era of the official SDKs' servers over stdio", () => {
  it("speaks the stateless era with SDK 2.x's serveStdio: tools, progress, input_required, resources, prompts, completion", async () => {
    const { client, asked } = hostClient({
      elicitation: {
        form: (params) => (asked.inputs.push(`elicitation ${params.message}`), { action: "accept", content: { name: "Ada" } }),
      },
    });
    await expect(client.connect(await spawnStdioServer({ command: process.execPath, args: [sdk2ServerScript] }))).resolves.toEqual({
      era: "stateless",
      protocolVersion: "2026-07-28",
    });
    expect(client.serverInfo).toEqual({ name: "sdk2-server", version: "2.0.0" });
    const progress: number[] = [];
    const counted = await client.callTool("count", { to: 2 }, { onProgress: ({ progress: done }) => progress.push(done) });
    expect(counted.structuredContent).toEqual({ counted: 2 });
    expect(progress).toEqual([1, 2]);
    // The SDK's own 2026 way to ask: an input_required round, answered by our elicitation handler.
    expect((await client.callTool("ask-user-later")).content).toEqual([{ type: "text", text: 'shim: {"name":"Ada"}' }]);
    expect(asked.inputs).toEqual(["elicitation Name, please"]);
    expect((await client.readResource("memo://items/7")).contents).toEqual([{ uri: "memo://items/7", text: "item 7" }]);
    expect((await client.getPrompt("greet", { name: "Ada" })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Hello, Ada!" } },
    ]);
    expect((await client.complete({ type: "ref/prompt", name: "greet" }, { name: "name", value: "A" })).completion.values).toEqual([
      "Ada",
      "Alan",
    ]);
  });

  it("falls back to initialize with SDK 1.x's stdio server", async () => {
    const { client } = hostClient();
    await expect(client.connect(await spawnStdioServer({ command: process.execPath, args: [sdk1ServerScript] }))).resolves.toEqual({
      era: "session",
      protocolVersion: "2025-11-25",
    });
    expect((await client.callTool("echo", { text: "hi" })).content).toEqual([{ type: "text", text: "hi" }]);
  });
});

// Our MCPClient in its default, automatic era mode ↔ the official reference server
// (@modelcontextprotocol/server-everything 2026.8.31) over stdio, the one transport it serves on a
// chosen address (its HTTP entries listen on every interface, on a fixed or unreported port). It is
// an SDK 1.x McpServer: auto's server/discover probe gets no discover result, and the client falls
// back to initialize, in the session era. stdio-interop.test.ts walks its tools with a client that
// declares sampling and roots; this one declares elicitation too and walks what that adds: the
// server's elicitation and roots requests, roots changes, resource templates, prompt arguments and
// their completion, its list changes and its resource updates.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCPClient, type ElicitRequestFormParams } from "../src/index.js";
import { spawnNodeChild } from "./support/children.js";
import { EVERYTHING_DOCS, EVERYTHING_TOOLS, everythingDocs, everythingServer } from "./support/everything.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});
const defer = (cleanup: () => Promise<void>) => void cleanups.push(cleanup);

interface Heard {
  readonly logs: unknown[];
  readonly elicited: ElicitRequestFormParams[];
  readonly sampled: unknown[];
  readonly updates: string[];
  rootsAsked: number;
  toolsChanged: number;
}

const WORK = { uri: "file:///work", name: "work" };
const MORE = { uri: "file:///more", name: "more" };
/** Its tools for a client that declares elicitation too: one more of those that depend on the client. */
const TOOLS = [
  ...EVERYTHING_TOOLS.slice(0, EVERYTHING_TOOLS.indexOf("get-roots-list") + 1),
  "trigger-elicitation-request",
  ...EVERYTHING_TOOLS.slice(EVERYTHING_TOOLS.indexOf("get-roots-list") + 1),
];

/**
 * Our client, auto, declaring sampling, form elicitation (the schema's defaults applied) and roots
 * (a function: `roots` is what it answers), its listeners set before it connects.
 */
function everythingClient(): { client: MCPClient; heard: Heard; roots: Array<typeof WORK> } {
  const heard: Heard = { logs: [], elicited: [], sampled: [], updates: [], rootsAsked: 0, toolsChanged: 0 };
  const roots = [WORK];
  const client = new MCPClient(
    { name: "auto-everything", version: "1.0.0" },
    {
      telemetry: null,
      sampling: (params) => (
        heard.sampled.push(params),
        { role: "assistant", content: { type: "text", text: "sampled answer" }, model: "interop" }
      ),
      elicitation: {
        applyDefaults: true,
        form: (params) => (heard.elicited.push(params), { action: "accept", content: { name: "Ada Lovelace", check: true } }),
      },
      roots: () => (heard.rootsAsked++, [...roots]),
    },
  );
  client.on("log", (message) => void heard.logs.push(message.data));
  client.on("toolsListChanged", () => void heard.toolsChanged++);
  client.on("resourceUpdated", ({ uri }) => void heard.updates.push(uri));
  defer(() => client.close());
  return { client, heard, roots };
}

async function connected(): Promise<{ client: MCPClient; heard: Heard; roots: Array<typeof WORK> }> {
  const made = everythingClient();
  await expect(made.client.connect(await spawnNodeChild([everythingServer, "stdio"], defer))).resolves.toEqual({
    era: "session",
    protocolVersion: "2025-11-25",
  });
  return made;
}

const rootsText = (roots: Array<typeof WORK>) =>
  `Current MCP Roots (${roots.length} total):\n\n` +
  roots.map((root, index) => `${index + 1}. ${root.name}\n   URI: ${root.uri}`).join("\n\n") +
  "\n\nNote: This server demonstrates the roots protocol capability but doesn't actually access files. " +
  "The roots are provided by the MCP client and can be used by servers that need file system access.";

describe("our client (auto) ↔ server-everything over stdio", () => {
  it("falls back to the session era, hears its tools change, and answers its elicitation, sampling and roots requests", async () => {
    const { client, heard, roots } = await connected();
    expect(client.era).toBe("session");
    expect(client.serverInfo).toEqual({ name: "mcp-servers/everything", title: "Everything Reference Server", version: "2.0.0" });
    expect(client.instructions).toBe(readFileSync(join(everythingDocs, "instructions.md"), "utf8"));
    // Once initialized it registers the four tools that depend on what the client declared, each announced with list_changed.
    await vi.waitFor(() => expect(heard.toolsChanged).toBe(4));
    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(TOOLS);
    const progress: number[] = [];
    await expect(
      client.callTool(
        "trigger-long-running-operation",
        { duration: 0.2, steps: 2 },
        { onProgress: ({ progress: step }) => void progress.push(step) },
      ),
    ).resolves.toEqual({
      content: [{ type: "text", text: "Long running operation completed. Duration: 0.2 seconds, Steps: 2." }],
    });
    expect(progress).toEqual([1, 2]);

    // Elicitation: our handler accepted two fields; the client filled in the schema's defaults before answering.
    const elicited = await client.callTool("trigger-elicitation-request");
    expect(elicited.content.slice(0, 2)).toEqual([
      { type: "text", text: "✅ User provided the requested information!" },
      {
        type: "text",
        text: "User inputs:\n- Name: Ada Lovelace\n- Agreed to terms: true\n- Favorite Integer: 42\n- Favorite Number: 3.14",
      },
    ]);
    expect(elicited.content[2]).toMatchObject({ text: expect.stringContaining('"firstLine": "It was a dark and stormy night."') });
    expect(heard.elicited.map((params) => [params.message, params.requestedSchema.required])).toEqual([
      ["Please provide inputs for the following fields:", ["name"]],
    ]);

    const answer = { model: "interop", role: "assistant", content: { type: "text", text: "sampled answer" } };
    await expect(client.callTool("trigger-sampling-request", { prompt: "say something", maxTokens: 10 })).resolves.toEqual({
      content: [{ type: "text", text: `LLM sampling result: \n${JSON.stringify(answer, null, 2)}` }],
    });
    expect(heard.sampled).toHaveLength(1);

    // Roots: asked once initialized, and again when the client says they changed.
    await vi.waitFor(() => expect(heard.logs).toEqual(["Roots updated: 1 root(s) received from client"]));
    expect(await client.callTool("get-roots-list")).toEqual({ content: [{ type: "text", text: rootsText([WORK]) }] });
    roots.push(MORE);
    await client.rootsListChanged();
    await vi.waitFor(() =>
      expect(heard.logs).toEqual(["Roots updated: 1 root(s) received from client", "Roots updated: 2 root(s) received from client"]),
    );
    expect(await client.callTool("get-roots-list")).toEqual({ content: [{ type: "text", text: rootsText([WORK, MORE]) }] });
    expect(heard.rootsAsked).toBe(2);
  });

  it("walks resources, templates and prompts, completes prompt and template arguments, hears a subscribed resource's updates", async () => {
    const { client, heard } = await connected();
    expect((await client.listAllResources()).map((resource) => resource.uri)).toEqual(
      EVERYTHING_DOCS.map((name) => `demo://resource/static/document/${name}`),
    );
    const architecture = "demo://resource/static/document/architecture.md";
    await expect(client.readResource(architecture)).resolves.toEqual({
      contents: [{ uri: architecture, mimeType: "text/markdown", text: readFileSync(join(everythingDocs, "architecture.md"), "utf8") }],
    });
    expect((await client.listAllResourceTemplates()).map((template) => template.uriTemplate)).toEqual([
      "demo://resource/dynamic/text/{resourceId}",
      "demo://resource/dynamic/blob/{resourceId}",
    ]);
    expect((await client.readResource("demo://resource/dynamic/text/3")).contents).toEqual([
      {
        uri: "demo://resource/dynamic/text/3",
        mimeType: "text/plain",
        text: expect.stringMatching(/^Resource 3: This is a plaintext resource created at /),
      },
    ]);
    const text = { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" } as const;
    expect((await client.complete(text, { name: "resourceId", value: "5" })).completion.values).toEqual(["5"]);

    expect((await client.listAllPrompts()).map((prompt) => prompt.name)).toEqual([
      "simple-prompt",
      "args-prompt",
      "completable-prompt",
      "resource-prompt",
    ]);
    expect((await client.getPrompt("args-prompt", { city: "Oslo", state: "Viken" })).messages).toEqual([
      { role: "user", content: { type: "text", text: "What's weather in Oslo, Viken?" } },
    ]);
    const team = { type: "ref/prompt", name: "completable-prompt" } as const;
    expect((await client.complete(team, { name: "department", value: "S" })).completion.values).toEqual(["Sales", "Support"]);
    expect(
      (await client.complete(team, { name: "name", value: "" }, { arguments: { department: "Engineering" } })).completion.values,
    ).toEqual(["Alice", "Bob", "Charlie"]);
    expect((await client.getPrompt("completable-prompt", { department: "Sales", name: "Eve" })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Please promote Eve to the head of the Sales team." } },
    ]);
    expect((await client.getPrompt("resource-prompt", { resourceType: "Text", resourceId: "2" })).messages[1]).toMatchObject({
      content: { type: "resource", resource: { uri: "demo://resource/dynamic/text/2", mimeType: "text/plain" } },
    });

    // It sends an update of each subscribed resource at once when its simulated updates start (then every 5 s).
    await client.subscribeResource(architecture);
    await vi.waitFor(() => expect(heard.logs).toContain(`Received Subscribe Resource request for URI: ${architecture} `));
    expect((await client.callTool("toggle-subscriber-updates")).content).toEqual([
      {
        type: "text",
        text:
          "Started simulated resource updated notifications for session undefined at a 5 second pace. " +
          "Client will receive updates for any resources the it is subscribed to.",
      },
    ]);
    await vi.waitFor(() => expect(heard.updates).toContain(architecture));
    expect(new Set(heard.updates)).toEqual(new Set([architecture]));
    expect((await client.callTool("toggle-subscriber-updates")).content).toEqual([
      { type: "text", text: "Stopped simulated resource updates for session undefined" },
    ]);
  });
});

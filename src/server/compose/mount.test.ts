// mount() through a real parent MCPServer and our MCPClient in memory, in both eras: two children
// under two prefixes (lists, calls, gets, reads and completions routed to the child's handlers, its
// handlers' progress and log reaching the client), tool transforms, live sync with list_changed,
// resource updates, and unmount.
import { describe, expect, it } from "vitest";
import type { CallToolResult } from "../../schemas/schemas.js";
import { MCPServer } from "../mcp-server/mcp-server.js";
import { mount } from "./mount.js";
import { ERAS, clientOf, names, nextEvent, notesServer, weatherServer, type Seen } from "./mount.test-helpers.js";

const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;

async function composed(era: (typeof ERAS)[number]) {
  const seen: Seen = { args: [], syncAsks: [] };
  const parent = new MCPServer({ name: "parent", version: "1.0.0" }, { telemetry: null });
  parent.tool("own", {}, () => ({ content: [{ type: "text", text: "own" }] }));
  const weather = weatherServer(seen);
  const notes = notesServer();
  const w = await mount(parent, "w", weather, {
    tools: {
      forecast: { name: "weather", description: "Forecast (mounted)", fixed: { units: "metric" }, defaults: { days: 1 } },
      bare: { hidden: true },
      echo: {
        wrap: async (call, args, ctx) => ({ ...(await call({ ...args, word: `${String(args["word"])}!` })), _meta: { wrapped: ctx.era } }),
      },
    },
  });
  const n = await mount(parent, "n", notes, { separator: "." });
  const client = await clientOf(parent, era);
  // Heard from now on: the stateless era's listen stream is acknowledged once a subscription is.
  for (const event of ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const) client.on(event, () => undefined);
  await client.subscribeResource("file://w//README.md");
  return { parent, weather, notes, w, n, client, seen };
}

describe.each(ERAS)("mount, %s era", (era) => {
  it("lists both children's entries under their prefixes, after the parent's own", async () => {
    const { client, seen } = await composed(era);
    expect(names((await client.listTools()).tools)).toEqual(["own", "w_weather", "w_echo", "w_secret", "w_broken", "n.add", "n.forecast"]);
    expect(names((await client.listPrompts()).prompts)).toEqual(["w_review", "n.today"]);
    const resources = (await client.listResources()).resources.map((resource) => resource.uri);
    expect(resources).toEqual(["file://w//README.md", "memo://n/today", "library://w/books/1", "other://w/loose"]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { name: "w_book", uriTemplate: "library://w/books/{id}" },
      { name: "w_shelf", uriTemplate: "library://w/shelves/{shelf}", description: "A shelf" },
    ]);
    // The child's template list ran at sync outside any request: every ask of the client was refused.
    expect(seen.syncAsks.length).toBeGreaterThan(0);
    expect(new Set(seen.syncAsks)).toEqual(new Set(["MCP.METHOD_NOT_FOUND"]));
    await client.close();
  });

  it("routes calls to the child's handlers, whose progress and log reach the client", async () => {
    const { client, seen } = await composed(era);
    await client.setLoggingLevel("debug");
    const logged = nextEvent(client, "log");
    const progress: unknown[] = [];
    const result = await client.callTool("w_weather", { city: "Oslo" }, { onProgress: (update) => progress.push(update.progress) });
    expect(result.structuredContent).toEqual({ celsius: 21 });
    expect(textOf(result)).toBe('{"celsius":21}');
    expect(seen.args).toEqual([{ city: "Oslo", days: 1, units: "metric" }]);
    expect(progress).toEqual([1]);
    expect((await logged).data).toEqual({ city: "Oslo" });
    expect(textOf(await client.callTool("n.forecast"))).toBe("notes have no weather");
    expect(textOf(await client.callTool("n.add", { note: "milk" }))).toBe("added milk");
    await client.close();
  });

  it("applies the tool transforms: rename, description, fixed, defaults, hidden, wrap", async () => {
    const { client, seen, parent } = await composed(era);
    const tools = (await client.listTools()).tools;
    const weather = tools.find((tool) => tool.name === "w_weather");
    expect(weather?.description).toBe("Forecast (mounted)");
    expect(weather?.inputSchema).toEqual({
      type: "object",
      properties: { city: { type: "string" }, days: { type: "number", default: 1 } },
      required: ["city"],
    });
    expect(weather?.outputSchema).toEqual({ type: "object", properties: { celsius: { type: "number" } }, required: ["celsius"] });
    await client.callTool("w_weather", { city: "Rome", days: 3, units: "imperial" });
    expect(seen.args).toEqual([{ city: "Rome", days: 3, units: "metric" }]);
    const echoed = await client.callTool("w_echo", { word: "hi" });
    expect(JSON.parse(textOf(echoed))).toEqual({ args: { word: "hi!" }, era });
    expect(echoed).toMatchObject({ _meta: { wrapped: era } });
    await expect(client.callTool("w_bare")).rejects.toThrow(/Unknown tool: w_bare/);
    expect(parent.registrationOf("tools/call", { name: "w_secret" })?.config).toMatchObject({
      requiredScopes: ["weather:admin"],
      cache: { ttlMs: 5, cacheScope: "private" },
    });
    await client.close();
  });

  it("checks arguments as the revision says, and the child still checks its output", async () => {
    const { client } = await composed(era);
    // The child's own check names the child's tool.
    await expect(client.callTool("w_broken")).rejects.toThrow(
      /Tool broken returned structuredContent that does not match its output schema/,
    );
    const refused = await client.callTool("w_weather", { city: 3 });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/Invalid arguments for tool w_weather/);
    await client.close();
  });

  it("routes prompts, reads and completions, the contents naming the parent's URIs", async () => {
    const { client } = await composed(era);
    expect((await client.getPrompt("w_review", { language: "go" })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Review go" } },
    ]);
    expect((await client.listPrompts()).prompts.find((prompt) => prompt.name === "n.today")?.arguments).toEqual([
      { name: "day", description: "Which day" },
    ]);
    expect((await client.getPrompt("n.today")).messages[0]?.content).toEqual({ type: "text", text: "today's notes" });
    expect((await client.readResource("file://w//README.md")).contents).toEqual([{ uri: "file://w//README.md", text: "# Weather" }]);
    expect((await client.readResource("library://w/shelves/top")).contents).toEqual([{ uri: "library://w/shelves/top", text: "shelf" }]);
    expect((await client.readResource("memo://n/today")).contents).toEqual([{ uri: "memo://n/today", text: "memo" }]);
    expect((await client.readResource("library://w/books/7")).contents).toEqual([
      { uri: "library://w/books/7", text: "book 7" },
      { uri: "urn:isbn:1", text: "its number" },
    ]);
    await expect(client.readResource("library://books/7")).rejects.toMatchObject({ code: "MCP.NOT_FOUND" });
    expect((await client.complete({ type: "ref/prompt", name: "w_review" }, { name: "language", value: "t" })).completion.values).toEqual([
      "ts",
    ]);
    expect(
      (await client.complete({ type: "ref/resource", uri: "library://w/books/{id}" }, { name: "id", value: "1" })).completion.values,
    ).toEqual(["1", "12"]);
    expect((await client.complete({ type: "ref/prompt", name: "n.today" }, { name: "day", value: "" })).completion.values).toEqual([]);
    await client.close();
  });

  it("follows the child's changes, and the client hears list_changed", async () => {
    const { client, weather, w } = await composed(era);
    let changed = nextEvent(client, "toolsListChanged");
    const later = weather.tool("later", { description: "Added later" }, () => ({ content: [{ type: "text", text: "late" }] }));
    await changed;
    expect(names((await client.listTools()).tools)).toContain("w_later");
    expect(textOf(await client.callTool("w_later"))).toBe("late");
    changed = nextEvent(client, "toolsListChanged");
    later.update({ description: "Updated" });
    await changed;
    expect((await client.listTools()).tools.find((tool) => tool.name === "w_later")?.description).toBe("Updated");
    later.disable();
    await w.synced();
    expect(names((await client.listTools()).tools)).not.toContain("w_later");
    later.enable();
    await w.synced();
    expect(names((await client.listTools()).tools)).toContain("w_later");
    const prompts = nextEvent(client, "promptsListChanged");
    weather.prompt("fresh", {}, () => ({ messages: [] }));
    await prompts;
    expect(names((await client.listPrompts()).prompts)).toContain("w_fresh");
    changed = nextEvent(client, "toolsListChanged");
    later.remove();
    await changed;
    expect(names((await client.listTools()).tools)).not.toContain("w_later");
    await client.close();
  });

  it("tells subscribers of the parent's URI when the child's resource changes", async () => {
    const { client, weather } = await composed(era);
    const updated = nextEvent(client, "resourceUpdated");
    const heard: string[] = [];
    client.on("resourceUpdated", ({ uri }) => heard.push(uri));
    // The child's tasks are its own: their changes stay with it.
    await weather.changes.publish({ kind: "task", taskId: "t-1" });
    await weather.markResourceUpdated("file:///README.md");
    expect(await updated).toMatchObject({ uri: "file://w//README.md" });
    expect(heard).toEqual(["file://w//README.md"]);
    await client.close();
  });

  it("removes everything it put in the parent on unmount, and stops following the child", async () => {
    const { client, weather, w } = await composed(era);
    const changed = nextEvent(client, "toolsListChanged");
    w.unmount();
    await changed;
    expect(names((await client.listTools()).tools)).toEqual(["own", "n.add", "n.forecast"]);
    expect(names((await client.listPrompts()).prompts)).toEqual(["n.today"]);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(["memo://n/today"]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    weather.tool("after", {}, () => ({ content: [] }));
    await w.synced();
    expect(names((await client.listTools()).tools)).not.toContain("w_after");
    await client.close();
  });
});

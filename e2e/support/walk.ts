// The design's whole walk — initialize → tools/list → tools/call with progress and abort →
// resources list/read/subscribe → mark-updated → notification observed → prompts list/get →
// completion → sampling → roots → logging/setLevel → disconnect — for any transport.
import { expect, vi } from "vitest";
import * as z from "zod";
import { MCPClient, MCPServer, type MCPClientOptions, type ProtocolVersion, type ServerSession, type Transport } from "../../src/index.js";

export function walkServer(): { server: MCPServer; started: AbortSignal[] } {
  const server = new MCPServer({ name: "walk-server", version: "1.0.0" }, { instructions: "walk" });
  const started: AbortSignal[] = [];
  server.tool("add", { inputSchema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }, ctx) => {
    await ctx.progress(1, 2, "adding");
    await ctx.progress(2, 2, "done");
    return { content: [{ type: "text", text: String(a + b) }] };
  });
  server.tool("wait", {}, (_args, ctx) => {
    started.push(ctx.signal);
    return new Promise(() => undefined);
  });
  server.tool("ask-model", {}, async (_args, ctx) => {
    const answer = await ctx.createMessage({ messages: [{ role: "user", content: { type: "text", text: "2+2?" } }], maxTokens: 5 });
    const content = Array.isArray(answer.content) ? answer.content[0] : answer.content;
    return { content: [{ type: "text", text: `model said ${content?.type === "text" ? content.text : "?"}` }] };
  });
  server.tool("roots", {}, async (_args, ctx) => {
    const { roots } = await ctx.listRoots();
    return { content: [{ type: "text", text: roots.map((root) => root.uri).join(",") }] };
  });
  server.resource("note", "memo://note", { mimeType: "text/plain" }, (uri) => ({ contents: [{ uri, text: "remember" }] }));
  server.resourceTemplate(
    "item",
    "memo://items/{id}",
    { complete: { id: (value) => ["1", "2", "12"].filter((id) => id.startsWith(value)) } },
    (uri, { id }) => ({ contents: [{ uri, text: `item ${String(id)}` }] }),
  );
  server.prompt(
    "greet",
    { arguments: { name: { required: true, complete: (value) => ["Ada", "Alan"].filter((n) => n.startsWith(value)) } } },
    ({ name }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Hello ${name}` } }],
    }),
  );
  return { server, started };
}

export function walkClient(version: ProtocolVersion, extra: MCPClientOptions = {}): MCPClient {
  return new MCPClient(
    { name: "walk-client", version: "1.0.0" },
    {
      protocolVersion: version,
      telemetry: null,
      sampling: () => ({ role: "assistant", content: { type: "text", text: "4" }, model: "test" }),
      roots: [{ uri: "file:///project", name: "project" }],
      ...extra,
    },
  );
}

/** Walks the surface once `client` is connected to `server` (through whatever transport). */
export async function walk(
  client: MCPClient,
  server: MCPServer,
  started: AbortSignal[],
  version: ProtocolVersion,
  { progressBeforeResult = true } = {},
): Promise<void> {
  const logs: unknown[] = [];
  const updates: string[] = [];
  const lateProgress: Progress[] = [];
  client.on("log", (message) => logs.push(message.data));
  client.on("resourceUpdated", ({ uri }) => updates.push(uri));
  client.on("progress", (update) => lateProgress.push(progressOf(update)));
  expect(client.protocolVersion).toBe(version);
  expect([...server.sessions].map((session) => session.protocolVersion)).toContain(version);
  expect(client.instructions).toBe("walk");

  expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(["add", "wait", "ask-model", "roots"]);
  // With JSON answers, what a tool sends before its answer travels on the GET stream: wait until it is open.
  if (!progressBeforeResult) {
    const [session] = server.sessions;
    await vi.waitFor(() => (session as ServerSession).listRoots());
  }
  const progress: Progress[] = [];
  await expect(
    client.callTool("add", { a: 2, b: 3 }, { onProgress: (update) => progress.push(progressOf(update)) }),
  ).resolves.toMatchObject({ content: [{ type: "text", text: "5" }] });
  // 2024-11-05 has no progress message: the server leaves it out.
  const withMessage = version !== "2024-11-05";
  const sent: Progress[] = [
    { progress: 1, total: 2, message: withMessage ? "adding" : undefined },
    { progress: 2, total: 2, message: withMessage ? "done" : undefined },
  ];
  if (progressBeforeResult) expect({ progress, lateProgress }).toEqual({ progress: sent, lateProgress: [] });
  // On the GET stream, both may land after the answer: the client then hears them as progress of no call of its own, in order.
  else await vi.waitFor(() => expect([...progress, ...lateProgress]).toEqual(sent));
  const controller = new AbortController();
  const waiting = client.callTool("wait", {}, { signal: controller.signal });
  await vi.waitFor(() => expect(started).toHaveLength(1));
  controller.abort();
  await expect(waiting).rejects.toMatchObject({ code: "MCP.REQUEST_CANCELLED" });
  await vi.waitFor(() => expect(started[0]?.aborted).toBe(true));

  expect((await client.listAllResources()).map((resource) => resource.uri)).toEqual(["memo://note"]);
  await expect(client.readResource("memo://items/7")).resolves.toMatchObject({ contents: [{ text: "item 7" }] });
  await client.subscribeResource("memo://note");
  await server.markResourceUpdated("memo://note");
  await vi.waitFor(() => expect(updates).toEqual(["memo://note"]));

  expect((await client.listAllPrompts()).map((prompt) => prompt.name)).toEqual(["greet"]);
  await expect(client.getPrompt("greet", { name: "Ada" })).resolves.toMatchObject({ messages: [{ content: { text: "Hello Ada" } }] });
  await expect(client.complete({ type: "ref/prompt", name: "greet" }, { name: "name", value: "A" })).resolves.toMatchObject({
    completion: { values: ["Ada", "Alan"] },
  });
  await expect(client.complete({ type: "ref/resource", uri: "memo://items/{id}" }, { name: "id", value: "1" })).resolves.toMatchObject({
    completion: { values: ["1", "12"] },
  });

  await expect(client.callTool("ask-model")).resolves.toMatchObject({ content: [{ text: "model said 4" }] });
  await expect(client.callTool("roots")).resolves.toMatchObject({ content: [{ text: "file:///project" }] });

  await client.setLoggingLevel("warning");
  await server.log("info", "hidden");
  await server.log("error", "shown");
  await vi.waitFor(() => expect(logs).toEqual(["shown"]));
}

interface Progress {
  readonly progress: number;
  readonly total?: number | undefined;
  readonly message?: string | undefined;
}

function progressOf({ progress, total, message }: Progress): Progress {
  return { progress, total, message };
}

export type { Transport };

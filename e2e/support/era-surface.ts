// The one surface every peer of the client-auto-* interop tests serves, whatever its SDK and era
// (our dual-era-server.mjs, and the SDK 1.x and 2.x fixtures written after it): the tools count
// (progress, structured output), interview (three inputs, then a fourth: elicitation, sampling,
// roots), add-tool and touch (change notifications); the note and the item template; the prompts
// greet (completable) and tour (asks the roots). Our client drives it the same way in either era:
// the server's requests in the session era and the input_required rounds in the stateless era reach
// the same handlers, and list changes and resource updates the same listeners.
import { expect, vi } from "vitest";
import { MCPClient, type CallToolResult, type MCPClientOptions } from "../../src/index.js";

export const SURFACE_TOOLS = ["count", "interview", "add-tool", "touch"];

export interface Asked {
  /** The inputs the host's handlers gave, in order: "elicitation Your name?", "sampling 6 x 7?", "roots", … */
  readonly inputs: string[];
}

/** Our client in the default (automatic) era, with handlers that answer the interview: Ada, 42, file:///work, yes. */
export function surfaceClient(options: MCPClientOptions = {}): { client: MCPClient; asked: Asked } {
  const asked: Asked = { inputs: [] };
  const client = new MCPClient(
    { name: "auto-interop", version: "1.0.0" },
    {
      telemetry: null,
      roots: () => (asked.inputs.push("roots"), [{ uri: "file:///work", name: "work" }]),
      sampling: (params) => {
        const first = params.messages[0]?.content;
        asked.inputs.push(`sampling ${first !== undefined && "text" in first ? String(first.text) : "?"}`);
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
    },
  );
  return { client, asked };
}

/** What the interview asks, in order, in either era. */
export const INTERVIEW_INPUTS = ["elicitation Your name?", "sampling 6 x 7?", "roots", "elicitation Send to Ada?"];

/** The interview's answer, in the era spoken. */
export function interviewed(era: "session" | "stateless"): Pick<CallToolResult, "content" | "structuredContent"> {
  return {
    content: [{ type: "text", text: `${era}: Ada asked test-model, got 42, in file:///work; sent: true` }],
    structuredContent: { era, name: "Ada", answer: "42", sent: true },
  };
}

/** Tools with progress and structured output; a tool that needs four inputs from the host. */
export async function walkTools(client: MCPClient, asked: Asked, era: "session" | "stateless"): Promise<void> {
  expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(SURFACE_TOOLS);
  const progress: unknown[] = [];
  const counted = await client.callTool(
    "count",
    { to: 2 },
    { onProgress: ({ progress: step, total, message }) => void progress.push({ step, total, message }) },
  );
  expect([counted.content, counted.structuredContent]).toEqual([[{ type: "text", text: "counted to 2" }], { counted: 2 }]);
  expect(progress).toEqual([
    { step: 1, total: 2, message: "step 1" },
    { step: 2, total: 2, message: "step 2" },
  ]);
  asked.inputs.length = 0;
  const result = await client.callTool("interview", {});
  expect({ content: result.content, structuredContent: result.structuredContent }).toEqual(interviewed(era));
  expect(asked.inputs).toEqual(INTERVIEW_INPUTS);
}

/** Resources (list, read, templates), prompts (one that asks the roots), completion of a prompt's and a template's arguments. */
export async function walkResourcesAndPrompts(client: MCPClient, asked: Asked): Promise<void> {
  expect(await client.listAllResources()).toEqual([{ uri: "memo://note", name: "note", mimeType: "text/plain" }]);
  expect(await client.listAllResourceTemplates()).toEqual([{ name: "item", uriTemplate: "memo://items/{id}", mimeType: "text/plain" }]);
  expect((await client.readResource("memo://note")).contents).toEqual([{ uri: "memo://note", mimeType: "text/plain", text: "remember" }]);
  expect((await client.readResource("memo://items/7")).contents).toEqual([{ uri: "memo://items/7", text: "item 7" }]);

  expect((await client.listAllPrompts()).map((prompt) => [prompt.name, prompt.arguments?.map((argument) => argument.name) ?? []])).toEqual([
    ["greet", ["name"]],
    ["tour", []],
  ]);
  expect((await client.getPrompt("greet", { name: "Ada" })).messages).toEqual([
    { role: "user", content: { type: "text", text: "Hello, Ada!" } },
  ]);
  asked.inputs.length = 0;
  expect((await client.getPrompt("tour")).messages).toEqual([{ role: "user", content: { type: "text", text: "Tour file:///work" } }]);
  expect(asked.inputs).toEqual(["roots"]);

  expect((await client.complete({ type: "ref/prompt", name: "greet" }, { name: "name", value: "A" })).completion).toMatchObject({
    values: ["Ada", "Alan"],
  });
  expect((await client.complete({ type: "ref/resource", uri: "memo://items/{id}" }, { name: "id", value: "1" })).completion).toMatchObject({
    values: ["1", "12"],
  });
}

/**
 * Change notifications through the client's ordinary API: a tool registered late is heard as
 * toolsListChanged (and listed), a touched resource as resourceUpdated, only while subscribed
 * (an untouched subscription, a touched uri never subscribed, and one unsubscribed tell them apart).
 * The listeners are registered before the subscriptions, so whatever the client opens for them
 * (a subscriptions/listen stream in the stateless era) is there when the server changes.
 */
export async function walkChanges(client: MCPClient): Promise<void> {
  const heard = { toolsChanged: 0, updates: [] as string[] };
  client.on("toolsListChanged", () => void heard.toolsChanged++);
  client.on("resourceUpdated", ({ uri }) => void heard.updates.push(uri));
  await client.subscribeResource("memo://note");
  await client.subscribeResource("memo://items/7");

  expect((await client.callTool("add-tool")).content).toEqual([]);
  await vi.waitFor(() => expect(heard.toolsChanged).toBe(1));
  expect((await client.listAllTools()).map((tool) => tool.name)).toEqual([...SURFACE_TOOLS, "late"]);
  expect((await client.callTool("late")).content).toEqual([{ type: "text", text: "late" }]);

  expect((await client.callTool("touch", { uri: "memo://elsewhere" })).content).toEqual([
    { type: "text", text: "touched memo://elsewhere" },
  ]);
  await client.callTool("touch", { uri: "memo://note" });
  await vi.waitFor(() => expect(heard.updates).toEqual(["memo://note"]));
  await client.unsubscribeResource("memo://note");
  await client.callTool("touch", { uri: "memo://note" });
  await client.callTool("touch", { uri: "memo://items/7" });
  await vi.waitFor(() => expect(heard.updates).toEqual(["memo://note", "memo://items/7"]));
}

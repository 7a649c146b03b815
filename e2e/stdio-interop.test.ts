// Real child processes over stdio: our client ↔ our example server, our client ↔ the official
// reference server (@modelcontextprotocol/server-everything), and the official SDK's stdio client ↔
// our example server.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCPClient, MCP_CODES } from "../src/index.js";
import { spawnStdioServer, type ChildProcessTransport } from "../src/node/index.js";

const exampleServer = fileURLToPath(new URL("../examples/weather-server.mjs", import.meta.url));
const everythingServer = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function ourClientOn(script: string, args: string[] = [], options: ConstructorParameters<typeof MCPClient>[1] = {}): Promise<{ client: MCPClient; transport: ChildProcessTransport }> {
  const transport = await spawnStdioServer({ command: process.execPath, args: [script, ...args] });
  const client = new MCPClient({ name: "interop-client", version: "1.0.0" }, { telemetry: null, ...options });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport };
}

describe("our client ↔ our example server, over a child process", () => {
  it("lists and calls tools with progress and structured output, reads resources, gets prompts, completes, logs", async () => {
    const { client } = await ourClientOn(exampleServer);
    const logs: unknown[] = [];
    client.on("log", (message) => logs.push(message.data));
    expect(client.serverInfo?.name).toBe("weather-example");
    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(["forecast", "to_fahrenheit"]);
    const progress: string[] = [];
    const forecast = await client.callTool("forecast", { city: "Oslo", days: 2 }, { onProgress: (update) => progress.push(`${update.progress}/${update.total}`) });
    expect(forecast.structuredContent).toEqual({ city: "Oslo", days: [{ day: 1, celsius: 4 }, { day: 2, celsius: 6 }] });
    expect(progress).toEqual(["1/2", "2/2"]);
    await vi.waitFor(() => expect(logs).toEqual([{ tool: "forecast", city: "Oslo", days: 2 }]));
    expect(await client.callTool("forecast", { city: "Nowhere" })).toMatchObject({ isError: true });
    await expect(client.readResource("weather://cities/lima/today")).resolves.toMatchObject({ contents: [{ text: '{"city":"lima","celsius":18}' }] });
    await expect(client.readResource("weather://nowhere")).rejects.toMatchObject({ code: MCP_CODES.NOT_FOUND });
    await expect(client.getPrompt("plan-trip", { city: "Lagos" })).resolves.toMatchObject({ description: "A 3-day trip to Lagos" });
    await expect(client.complete({ type: "ref/prompt", name: "plan-trip" }, { name: "city", value: "lo" })).resolves.toMatchObject({ completion: { values: ["london"] } });
  });

  it("rejects every pending call at once with the exit information when the server is killed mid-call", async () => {
    const { client, transport } = await ourClientOn(exampleServer);
    // Stopped first, so the calls are certainly still pending when the kill lands (a write is taken at once).
    process.kill(transport.pid as number, "SIGSTOP");
    const pending = [client.ping(), client.callTool("forecast", { city: "Lyon", days: 7 })].map((call) => call.catch((error: unknown) => error));
    process.kill(transport.pid as number, "SIGKILL");
    // A request still being written fails on the broken pipe (TRANSPORT_ERROR), one already written when the
    // pipe closes (TRANSPORT_CLOSED); either way it says how the server died.
    for (const error of await Promise.all(pending)) expect(error).toMatchObject({ code: expect.stringMatching(/^MCP\.TRANSPORT_(CLOSED|ERROR)$/), message: expect.stringContaining("killed by SIGKILL") });
  });
});

describe("our client ↔ @modelcontextprotocol/server-everything (stdio)", () => {
  it("lists and calls its tools, reads its resources, gets its prompts, and receives its notifications", async () => {
    const logs: unknown[] = [];
    const { client } = await ourClientOn(everythingServer, ["stdio"], {
      sampling: () => ({ role: "assistant", content: { type: "text", text: "sampled answer" }, model: "interop" }),
      roots: [{ uri: "file:///interop", name: "interop" }],
    });
    client.on("log", (message) => logs.push(message));
    const tools = (await client.listAllTools()).map((tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(["echo", "get-sum", "get-tiny-image", "get-structured-content", "trigger-long-running-operation", "trigger-sampling-request"]));
    await expect(client.callTool("echo", { message: "hi" })).resolves.toMatchObject({ content: [{ type: "text", text: "Echo: hi" }] });
    await expect(client.callTool("get-sum", { a: 2, b: 40 })).resolves.toMatchObject({ content: [{ type: "text", text: expect.stringContaining("42") }] });
    await expect(client.callTool("get-tiny-image")).resolves.toMatchObject({ content: expect.arrayContaining([expect.objectContaining({ type: "image", mimeType: "image/png" })]) });
    await expect(client.callTool("get-structured-content", { location: "New York" })).resolves.toMatchObject({ structuredContent: expect.objectContaining({ temperature: expect.any(Number) }) });
    const progress: number[] = [];
    await client.callTool("trigger-long-running-operation", { duration: 0.2, steps: 2 }, { onProgress: (update) => progress.push(update.progress) });
    expect(progress.length).toBeGreaterThan(0);
    await expect(client.callTool("trigger-sampling-request", { prompt: "say something", maxTokens: 10 })).resolves.toMatchObject({ content: [{ text: expect.stringContaining("sampled answer") }] });
    const resources = await client.listResources();
    expect(resources.resources.length).toBeGreaterThan(0);
    const first = resources.resources[0];
    await expect(client.readResource(first?.uri as string)).resolves.toMatchObject({ contents: [expect.objectContaining({ uri: first?.uri })] });
    expect((await client.listAllResourceTemplates()).length).toBeGreaterThan(0);
    const prompts = (await client.listAllPrompts()).map((prompt) => prompt.name);
    expect(prompts.length).toBeGreaterThan(0);
    await expect(client.getPrompt(prompts[0] as string)).resolves.toMatchObject({ messages: expect.any(Array) });
    await client.setLoggingLevel("debug");
    await client.callTool("toggle-simulated-logging");
    await vi.waitFor(() => expect(logs.length).toBeGreaterThan(0), { timeout: 15_000 });
  }, 30_000);
});

describe("the SDK's stdio client ↔ our example server", () => {
  it("drives every feature the server has", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [exampleServer], stderr: "pipe" });
    const client = new Client({ name: "sdk-stdio-client", version: "1.0.0" });
    await client.connect(transport);
    cleanups.push(() => client.close());
    // What reaches the SDK client on the wire, before its own dispatch.
    const received: Array<{ method?: string; params?: { progress?: number } }> = [];
    const dispatch = transport.onmessage;
    transport.onmessage = (message) => {
      received.push(message as (typeof received)[number]);
      dispatch?.(message);
    };
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params.data);
    });
    expect(client.getServerVersion()?.name).toBe("weather-example");
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["forecast", "to_fahrenheit"]);
    const progress: number[] = [];
    const forecast = await client.callTool({ name: "forecast", arguments: { city: "Lima", days: 2 } }, undefined, { onprogress: (update) => progress.push(update.progress) });
    expect(forecast.structuredContent).toMatchObject({ city: "Lima" });
    // Both updates precede the response on the wire; the SDK client dispatches notifications a tick
    // late and drops its progress handler when the response lands, so its callback may see fewer.
    expect(received.filter((message) => message.method === "notifications/progress").map((message) => message.params?.progress)).toEqual([1, 2]);
    expect(progress.every((value) => value === 1 || value === 2)).toBe(true);
    await expect(client.callTool({ name: "to_fahrenheit", arguments: { celsius: 0 } })).resolves.toMatchObject({ structuredContent: { fahrenheit: 32 } });
    expect((await client.listResourceTemplates()).resourceTemplates[0]?.uriTemplate).toBe("weather://cities/{city}/today");
    expect((await client.listResources()).resources).toHaveLength(5);
    await expect(client.readResource({ uri: "weather://cities/oslo/today" })).resolves.toMatchObject({ contents: [{ mimeType: "application/json" }] });
    await expect(client.getPrompt({ name: "plan-trip", arguments: { city: "Oslo", days: "2" } })).resolves.toMatchObject({ description: "A 2-day trip to Oslo" });
    await expect(client.complete({ ref: { type: "ref/resource", uri: "weather://cities/{city}/today" }, argument: { name: "city", value: "la" } })).resolves.toMatchObject({ completion: { values: ["lagos"] } });
    await client.setLoggingLevel("info");
    await client.callTool({ name: "forecast", arguments: { city: "Oslo", days: 1 } });
    await vi.waitFor(() => expect(logs).toContainEqual({ tool: "forecast", city: "Oslo", days: 1 }));
    const controller = new AbortController();
    const cancelled = client.callTool({ name: "forecast", arguments: { city: "Oslo", days: 7 } }, undefined, { signal: controller.signal });
    controller.abort();
    await expect(cancelled).rejects.toThrow(/abort/i);
    await expect(client.ping()).resolves.toEqual({});
  });
});

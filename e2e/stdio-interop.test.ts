// Real child processes over stdio: our client ↔ our example server, our client ↔ the official
// reference server (@modelcontextprotocol/server-everything), and the official SDK's stdio client ↔
// our example server.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCPClient, MCP_CODES } from "../src/index.js";
import { spawnStdioServer, type ChildProcessTransport } from "../src/node/index.js";
import { EVERYTHING_DOCS, EVERYTHING_TOOLS, everythingDocs, everythingServer } from "./support/everything.js";

const exampleServer = fileURLToPath(new URL("../examples/weather-server.mjs", import.meta.url));
/** The messages of its simulated logging, one per level (over stdio there is no session id to append). */
const SIMULATED_LOGS = [
  { level: "debug", data: "Debug-level message" },
  { level: "info", data: "Info-level message" },
  { level: "notice", data: "Notice-level message" },
  { level: "warning", data: "Warning-level message" },
  { level: "error", data: "Error-level message" },
  { level: "critical", data: "Critical-level message" },
  { level: "alert", data: "Alert level-message" },
  { level: "emergency", data: "Emergency-level message" },
];

/** The image its get-tiny-image tool returns, from the module that holds it. */
async function tinyImage(): Promise<string> {
  const tool = (await import(pathToFileURL(join(dirname(everythingServer), "tools", "get-tiny-image.js")).href)) as {
    MCP_TINY_IMAGE: string;
  };
  return tool.MCP_TINY_IMAGE;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function ourClientOn(
  script: string,
  args: string[] = [],
  options: ConstructorParameters<typeof MCPClient>[1] = {},
): Promise<{ client: MCPClient; transport: ChildProcessTransport }> {
  const transport = await spawnStdioServer({ command: process.execPath, args: [script, ...args] });
  const client = new MCPClient({ name: "interop-client", version: "1.0.0" }, { telemetry: null, ...options });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport };
}

describe("our client ↔ our example server, over a child process", () => {
  it("lists and calls tools with progress and structured output, reads resources, gets prompts, completes, logs", async () => {
    const { client } = await ourClientOn(exampleServer);
    expect(client.era).toBe("stateless");
    const logs: unknown[] = [];
    client.on("log", (message) => logs.push(message.data));
    // In the stateless era a request carries the level it wants log messages at; none without one.
    await client.setLoggingLevel("debug");
    expect(client.serverInfo?.name).toBe("weather-example");
    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(["forecast", "to_fahrenheit"]);
    const progress: string[] = [];
    const forecast = await client.callTool(
      "forecast",
      { city: "Oslo", days: 2 },
      { onProgress: (update) => progress.push(`${update.progress}/${update.total}`) },
    );
    expect(forecast.structuredContent).toEqual({
      city: "Oslo",
      days: [
        { day: 1, celsius: 4 },
        { day: 2, celsius: 6 },
      ],
    });
    expect(progress).toEqual(["1/2", "2/2"]);
    await vi.waitFor(() => expect(logs).toEqual([{ tool: "forecast", city: "Oslo", days: 2 }]));
    expect(await client.callTool("forecast", { city: "Nowhere" })).toMatchObject({ isError: true });
    await expect(client.readResource("weather://cities/lima/today")).resolves.toMatchObject({
      contents: [{ text: '{"city":"lima","celsius":18}' }],
    });
    await expect(client.readResource("weather://nowhere")).rejects.toMatchObject({ code: MCP_CODES.NOT_FOUND });
    await expect(client.getPrompt("plan-trip", { city: "Lagos" })).resolves.toMatchObject({ description: "A 3-day trip to Lagos" });
    await expect(client.complete({ type: "ref/prompt", name: "plan-trip" }, { name: "city", value: "lo" })).resolves.toMatchObject({
      completion: { values: ["london"] },
    });
  });

  it("rejects every pending call at once with the exit information when the server is killed mid-call", async () => {
    const { client, transport } = await ourClientOn(exampleServer);
    // Stopped first, so the calls are certainly still pending when the kill lands (a write is taken at once).
    process.kill(transport.pid as number, "SIGSTOP");
    const pending = [client.ping(), client.callTool("forecast", { city: "Lyon", days: 7 })].map((call) =>
      call.catch((error: unknown) => error),
    );
    process.kill(transport.pid as number, "SIGKILL");
    // A request still being written fails on the broken pipe (TRANSPORT_ERROR), one already written when the
    // pipe closes (TRANSPORT_CLOSED); either way it says how the server died.
    for (const error of await Promise.all(pending))
      expect(error).toMatchObject({
        code: expect.stringMatching(/^MCP\.TRANSPORT_(CLOSED|ERROR)$/),
        message: expect.stringContaining("killed by SIGKILL"),
      });
  });
});

describe("our client ↔ @modelcontextprotocol/server-everything (stdio)", () => {
  it("lists and calls its tools, reads its resources, gets its prompts, and receives its notifications", async () => {
    const logs: unknown[] = [];
    const sampled: unknown[] = [];
    const { client } = await ourClientOn(everythingServer, ["stdio"], {
      sampling: (params) => {
        sampled.push(params);
        return { role: "assistant", content: { type: "text", text: "sampled answer" }, model: "interop" };
      },
      roots: [{ uri: "file:///interop", name: "interop" }],
    });
    client.on("log", (message) => logs.push(message));
    expect(client.serverInfo).toEqual({ name: "mcp-servers/everything", title: "Everything Reference Server", version: "2.0.0" });
    // Its own tools, then those it adds once it knows the client can sample and has roots (no elicitation declared).
    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(EVERYTHING_TOOLS);
    await expect(client.callTool("echo", { message: "hi" })).resolves.toEqual({ content: [{ type: "text", text: "Echo: hi" }] });
    await expect(client.callTool("get-sum", { a: 2, b: 40 })).resolves.toEqual({
      content: [{ type: "text", text: "The sum of 2 and 40 is 42." }],
    });
    await expect(client.callTool("get-tiny-image")).resolves.toEqual({
      content: [
        { type: "text", text: "Here's the image you requested:" },
        { type: "image", data: await tinyImage(), mimeType: "image/png" },
        { type: "text", text: "The image above is the MCP logo." },
      ],
    });
    const weather = { temperature: 33, conditions: "Cloudy", humidity: 82 };
    await expect(client.callTool("get-structured-content", { location: "New York" })).resolves.toEqual({
      content: [{ type: "text", text: JSON.stringify(weather) }],
      structuredContent: weather,
    });
    const progress: unknown[] = [];
    await expect(
      client.callTool(
        "trigger-long-running-operation",
        { duration: 0.2, steps: 2 },
        { onProgress: ({ progress: done, total }) => progress.push({ done, total }) },
      ),
    ).resolves.toEqual({
      content: [{ type: "text", text: "Long running operation completed. Duration: 0.2 seconds, Steps: 2." }],
    });
    expect(progress).toEqual([
      { done: 1, total: 2 },
      { done: 2, total: 2 },
    ]);
    const answer = { model: "interop", role: "assistant", content: { type: "text", text: "sampled answer" } };
    await expect(client.callTool("trigger-sampling-request", { prompt: "say something", maxTokens: 10 })).resolves.toEqual({
      content: [{ type: "text", text: `LLM sampling result: \n${JSON.stringify(answer, null, 2)}` }],
    });
    expect(sampled).toEqual([
      {
        messages: [{ role: "user", content: { type: "text", text: "Resource trigger-sampling-request context: say something" } }],
        systemPrompt: "You are a helpful test server.",
        maxTokens: 10,
        temperature: 0.7,
      },
    ]);

    // One resource per file of its docs folder, and two templates.
    const resources = (await client.listAllResources()).map(({ uri, name, mimeType, description }) => ({
      uri,
      name,
      mimeType,
      description,
    }));
    expect(resources).toEqual(
      EVERYTHING_DOCS.map((name) => ({
        uri: `demo://resource/static/document/${name}`,
        name,
        mimeType: "text/markdown",
        description: `Static document file exposed from /docs: ${name}`,
      })),
    );
    const architecture = "demo://resource/static/document/architecture.md";
    await expect(client.readResource(architecture)).resolves.toEqual({
      contents: [{ uri: architecture, mimeType: "text/markdown", text: readFileSync(join(everythingDocs, "architecture.md"), "utf8") }],
    });
    expect((await client.listAllResourceTemplates()).map((template) => template.uriTemplate)).toEqual([
      "demo://resource/dynamic/text/{resourceId}",
      "demo://resource/dynamic/blob/{resourceId}",
    ]);
    expect((await client.listAllPrompts()).map((prompt) => prompt.name)).toEqual([
      "simple-prompt",
      "args-prompt",
      "completable-prompt",
      "resource-prompt",
    ]);
    await expect(client.getPrompt("simple-prompt")).resolves.toEqual({
      messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt without arguments." } }],
    });

    // Its logs: the roots it asked for once initialized, then simulated logging (a random level each time, all shown at "debug").
    await vi.waitFor(() =>
      expect(logs).toEqual([{ level: "info", logger: "everything-server", data: "Roots updated: 1 root(s) received from client" }]),
    );
    await client.setLoggingLevel("debug");
    await expect(client.callTool("toggle-simulated-logging")).resolves.toEqual({
      content: [
        {
          type: "text",
          text: [
            "Started simulated, random-leveled logging for session undefined at a 5 second pace.",
            "Client's selected logging level will be respected.",
            "If an interval elapses and the message to be sent is below the selected level, it will not be sent.",
            "Thus at higher chosen logging levels, messages should arrive further apart. ",
          ].join(" "),
        },
      ],
    });
    // It sends one at once, then one every 5 s.
    await vi.waitFor(() => expect(logs).toHaveLength(2));
    expect(SIMULATED_LOGS).toContainEqual(logs[1]);
    await expect(client.callTool("toggle-simulated-logging")).resolves.toEqual({
      content: [{ type: "text", text: "Stopped simulated logging for session undefined" }],
    });
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
    const forecast = await client.callTool({ name: "forecast", arguments: { city: "Lima", days: 2 } }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    });
    expect(forecast.structuredContent).toMatchObject({ city: "Lima" });
    // Both updates precede the response on the wire; the SDK client dispatches notifications a tick
    // late and drops its progress handler when the response lands, so its callback may see fewer.
    expect(received.filter((message) => message.method === "notifications/progress").map((message) => message.params?.progress)).toEqual([
      1, 2,
    ]);
    expect(progress.every((value) => value === 1 || value === 2)).toBe(true);
    await expect(client.callTool({ name: "to_fahrenheit", arguments: { celsius: 0 } })).resolves.toMatchObject({
      structuredContent: { fahrenheit: 32 },
    });
    expect((await client.listResourceTemplates()).resourceTemplates[0]?.uriTemplate).toBe("weather://cities/{city}/today");
    expect((await client.listResources()).resources).toHaveLength(5);
    await expect(client.readResource({ uri: "weather://cities/oslo/today" })).resolves.toMatchObject({
      contents: [{ mimeType: "application/json" }],
    });
    await expect(client.getPrompt({ name: "plan-trip", arguments: { city: "Oslo", days: "2" } })).resolves.toMatchObject({
      description: "A 2-day trip to Oslo",
    });
    await expect(
      client.complete({ ref: { type: "ref/resource", uri: "weather://cities/{city}/today" }, argument: { name: "city", value: "la" } }),
    ).resolves.toMatchObject({ completion: { values: ["lagos"] } });
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

// MCPClient calling the SDK server's tools: progress, cancellation, timeouts, structured output
// checked against the listed outputSchema, tool errors, and every kind of content.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { connectToRaw, connectToSdk, until } from "../src/client/mcp-client/mcp-client.test-helpers.js";
import { MCP_CODES, type ProgressUpdate } from "../src/index.js";

const weatherOutput = {
  type: "object",
  properties: { temperature: { type: "number" }, conditions: { type: "string" } },
  required: ["temperature"],
};

/** A low-level SDK server whose tools answer whatever the test says, with a count of tools/list calls. */
function handMadeToolServer(answers: Record<string, () => object>): {
  server: Server;
  listCalls: () => number;
  changeTools: () => Promise<void>;
} {
  const server = new Server({ name: "hand-made", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
  let listCalls = 0;
  server.setRequestHandler(ListToolsRequestSchema, () => {
    listCalls++;
    return {
      tools: [
        { name: "weather", inputSchema: { type: "object" }, outputSchema: weatherOutput },
        { name: "plain", inputSchema: { type: "object" } },
      ],
    };
  });
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const answer = answers[request.params.name];
    return answer ? answer() : { content: [], isError: true };
  });
  return { server, listCalls: () => listCalls, changeTools: () => server.sendToolListChanged() };
}

describe("MCPClient tools against the SDK's McpServer", () => {
  it("lists tools and calls one with arguments and progress", async () => {
    const server = new McpServer({ name: "tools", version: "1.0.0" });
    server.registerTool("add", { description: "adds", inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }, extra) => {
      const progressToken = extra["_meta"]?.progressToken;
      if (progressToken !== undefined) {
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken, progress: 1, total: 2, message: "half" },
        });
        await extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress: 2, total: 2 } });
      }
      return { content: [{ type: "text", text: String(a + b) }] };
    });
    const client = await connectToSdk(server);
    const tools = await client.listAllTools();
    expect(tools).toMatchObject([
      { name: "add", description: "adds", inputSchema: { type: "object", properties: { a: { type: "number" } } } },
    ]);
    const updates: ProgressUpdate[] = [];
    const result = await client.callTool("add", { a: 2, b: 3 }, { onProgress: (update) => updates.push(update) });
    expect(result).toEqual({ content: [{ type: "text", text: "5" }] });
    expect(updates).toMatchObject([
      { progress: 1, total: 2, message: "half" },
      { progress: 2, total: 2 },
    ]);
    await client.close();
  });

  it("cancels a call: the SDK handler sees its abort signal", async () => {
    const server = new McpServer({ name: "tools", version: "1.0.0" });
    let started = false;
    let abortedOnServer = false;
    server.registerTool("slow", {}, (extra) => {
      started = true;
      return new Promise((resolve) => {
        extra.signal.addEventListener("abort", () => {
          abortedOnServer = true;
          resolve({ content: [] });
        });
      });
    });
    const client = await connectToSdk(server);
    const controller = new AbortController();
    const call = client.callTool("slow", undefined, { signal: controller.signal });
    await until(() => started);
    controller.abort("changed my mind");
    await expect(call).rejects.toMatchObject({ code: MCP_CODES.REQUEST_CANCELLED });
    await until(() => abortedOnServer);
    await client.close();
  });

  it("times out a call (per call, or the client's default) and cancels it on the server", async () => {
    const server = new McpServer({ name: "tools", version: "1.0.0" });
    let aborts = 0;
    server.registerTool("forever", {}, (extra) => new Promise(() => extra.signal.addEventListener("abort", () => aborts++)));
    const client = await connectToSdk(server, { timeoutMs: 30 });
    await expect(client.callTool("forever", {}, { timeoutMs: 10 })).rejects.toMatchObject({ code: MCP_CODES.TIMEOUT });
    await expect(client.callTool("forever")).rejects.toMatchObject({ code: MCP_CODES.TIMEOUT });
    await until(() => aborts === 2);
    await client.close();
  });

  it("accepts structuredContent that matches the outputSchema", async () => {
    const server = new McpServer({ name: "tools", version: "1.0.0" });
    server.registerTool("weather", { outputSchema: { temperature: z.number(), conditions: z.string() } }, () => ({
      content: [{ type: "text", text: '{"temperature":21.5,"conditions":"sunny"}' }],
      structuredContent: { temperature: 21.5, conditions: "sunny" },
    }));
    const client = await connectToSdk(server);
    const result = await client.callTool("weather");
    expect(result.structuredContent).toEqual({ temperature: 21.5, conditions: "sunny" });
    await client.close();
  });

  it("passes a tool error through unchecked, even for a tool with an outputSchema", async () => {
    const server = new McpServer({ name: "tools", version: "1.0.0" });
    server.registerTool("weather", { outputSchema: { temperature: z.number() } }, () => {
      throw new Error("the weather station is down");
    });
    const client = await connectToSdk(server);
    await expect(client.callTool("weather")).resolves.toEqual({
      content: [{ type: "text", text: "the weather station is down" }],
      isError: true,
    });
    await client.close();
  });

  it("returns every content type a tool can produce", async () => {
    const server = new McpServer({ name: "tools", version: "1.0.0" });
    const content = [
      { type: "text" as const, text: "hello", annotations: { audience: ["user" as const], priority: 0.5 } },
      { type: "image" as const, data: "aW1hZ2U=", mimeType: "image/png" },
      { type: "audio" as const, data: "YXVkaW8=", mimeType: "audio/wav" },
      { type: "resource_link" as const, uri: "file:///readme.md", name: "readme", mimeType: "text/markdown" },
      { type: "resource" as const, resource: { uri: "file:///notes.txt", mimeType: "text/plain", text: "notes" } },
      { type: "resource" as const, resource: { uri: "file:///blob.bin", mimeType: "application/octet-stream", blob: "AAEC" } },
    ];
    server.registerTool("everything", {}, () => ({ content }));
    const client = await connectToSdk(server);
    await expect(client.callTool("everything")).resolves.toEqual({ content });
    await client.close();
  });
});

describe("MCPClient structured output against a hand-made SDK Server", () => {
  it("rejects structuredContent that breaks the outputSchema, keeping the result in data", async () => {
    const { server } = handMadeToolServer({ weather: () => ({ content: [], structuredContent: { temperature: "warm" } }) });
    const client = await connectToSdk(server);
    const failure = client.callTool("weather");
    await expect(failure).rejects.toMatchObject({
      code: MCP_CODES.PROTOCOL_INVALID,
      message:
        "The structuredContent of tool weather does not match its outputSchema: " +
        "structuredContent.temperature: expected number, received string",
      data: { structuredContent: { temperature: "warm" } },
    });
    await client.close();
  });

  it("rejects the result of a tool whose outputSchema cannot be compiled", async () => {
    const server = new Server({ name: "broken-schema", version: "1.0.0" }, { capabilities: { tools: {} } });
    const brokenSchema = { type: "object", properties: { when: { type: "string", pattern: "(" } } };
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: "clock", inputSchema: { type: "object" }, outputSchema: brokenSchema }],
    }));
    server.setRequestHandler(CallToolRequestSchema, () => ({ content: [], structuredContent: { when: "now" } }));
    const client = await connectToSdk(server);
    await expect(client.callTool("clock")).rejects.toMatchObject({
      code: MCP_CODES.PROTOCOL_INVALID,
      message: expect.stringMatching(/^The outputSchema of tool clock cannot be used: invalid JSON Schema/),
      data: { structuredContent: { when: "now" } },
      cause: { code: MCP_CODES.INVALID_PARAMS },
    });
    await client.close();
  });

  it("rejects a result without structuredContent from a tool with an outputSchema", async () => {
    const { server } = handMadeToolServer({ weather: () => ({ content: [{ type: "text", text: "21" }] }) });
    const client = await connectToSdk(server);
    await expect(client.callTool("weather")).rejects.toMatchObject({
      code: MCP_CODES.PROTOCOL_INVALID,
      message: "Tool weather declares an outputSchema but returned no structuredContent",
    });
    await client.close();
  });

  it("lists the tools once to learn an unknown tool's schema, until tools/list_changed", async () => {
    const hand = handMadeToolServer({
      weather: () => ({ content: [], structuredContent: { temperature: 3 } }),
      plain: () => ({ content: [], structuredContent: { anything: true } }),
      unlisted: () => ({ content: [{ type: "text", text: "hidden" }] }),
    });
    const client = await connectToSdk(hand.server);
    await client.callTool("weather");
    await client.callTool("plain");
    await client.callTool("unlisted");
    await client.callTool("unlisted");
    expect(hand.listCalls()).toBe(1);
    const changed: unknown[] = [];
    client.on("toolsListChanged", (params) => changed.push(params));
    await hand.changeTools();
    await until(() => changed.length === 1);
    await client.callTool("weather");
    expect(hand.listCalls()).toBe(2);
    await client.close();
  });

  it("keeps checking the tools it knows when another list changes", async () => {
    let listCalls = 0;
    const tools = [{ name: "weather", inputSchema: { type: "object" }, outputSchema: weatherOutput }];
    const answers = [{ temperature: 3 }, { temperature: "hot" }];
    const { client, server } = await connectToRaw({
      "tools/list": () => {
        listCalls++;
        return { tools };
      },
      "tools/call": () => ({ content: [], structuredContent: answers.shift() }),
    });
    await client.callTool("weather");
    const heard = new Promise((resolve) => client.on("resourcesListChanged", resolve));
    await server.dispatcher.notify("notifications/resources/list_changed");
    await heard;
    await expect(client.callTool("weather")).rejects.toMatchObject({
      code: MCP_CODES.PROTOCOL_INVALID,
      data: { structuredContent: { temperature: "hot" } },
    });
    expect(listCalls).toBe(1);
    await client.close();
  });

  it("learns schemas from tools it listed itself, without listing again", async () => {
    const hand = handMadeToolServer({ weather: () => ({ content: [], structuredContent: { temperature: "hot" } }) });
    const client = await connectToSdk(hand.server);
    const page = await client.listTools();
    expect(page.tools.map((tool) => tool.name)).toEqual(["weather", "plain"]);
    await expect(client.callTool("weather")).rejects.toMatchObject({ code: MCP_CODES.PROTOCOL_INVALID });
    await expect(client.callTool("weather")).rejects.toMatchObject({ code: MCP_CODES.PROTOCOL_INVALID });
    expect(hand.listCalls()).toBe(1);
    await client.close();
  });

  it("rejects a task answer the client never asked for", async () => {
    const task = { taskId: "t1", status: "working", createdAt: "2025-11-25T00:00:00Z", lastUpdatedAt: "2025-11-25T00:00:00Z", ttl: null };
    const { client } = await connectToRaw({ "tools/call": () => ({ task }) });
    await expect(client.callTool("anything")).rejects.toMatchObject({
      code: MCP_CODES.PROTOCOL_INVALID,
      message: "tools/call anything was answered with a task, which this client did not ask for",
      data: { task },
    });
    await client.close();
  });

  it("sends extra _meta with a call", async () => {
    let seenMeta: unknown;
    const { client } = await connectToRaw({
      "tools/call": (params) => {
        seenMeta = (params as Record<string, unknown>)["_meta"];
        return { content: [] };
      },
      "tools/list": () => ({ tools: [] }),
    });
    await client.callTool("anything", { x: 1 }, { meta: { "example.com/trace": "abc" } });
    expect(seenMeta).toEqual({ "example.com/trace": "abc" });
    await client.close();
  });
});

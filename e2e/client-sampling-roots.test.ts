// The SDK server asking MCPClient for sampling (with tools in 2025-11-25) and roots, and what a
// server gets when it asks for something the client did not declare.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CreateMessageResultSchema, ListRootsResultSchema, RootsListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { MCPClient } from "../src/client/mcp-client/index.js";
import { CLIENT_INFO, connectToRaw, connectToSdk, rawServer, until } from "../src/client/mcp-client/mcp-client.test-helpers.js";
import { MCP_CODES, type CreateMessageRequestParams, type CreateMessageResult, type Root } from "../src/index.js";
import { sdkPair } from "./support/sdk-bridge.js";

const question = { role: "user" as const, content: { type: "text" as const, text: "What is the weather in Paris?" } };
const weatherTool = {
  name: "get_weather",
  description: "weather by city",
  inputSchema: { type: "object" as const, properties: { city: { type: "string" } } },
};

function samplingServer(): McpServer {
  return new McpServer({ name: "sampler", version: "1.0.0" });
}

describe("MCPClient sampling for the SDK server", () => {
  it("answers sampling/createMessage with its handler, which sees the params and a signal", async () => {
    const server = samplingServer();
    const seen: CreateMessageRequestParams[] = [];
    const client = await connectToSdk(server, {
      sampling: (params, context) => {
        seen.push(params);
        expect(context.signal.aborted).toBe(false);
        expect(context.requestId).toBeDefined();
        return { role: "assistant", content: { type: "text", text: "Sunny" }, model: "test-model", stopReason: "endTurn" };
      },
    });
    const result = await server.server.createMessage({
      messages: [question],
      maxTokens: 100,
      systemPrompt: "Be brief",
      modelPreferences: { hints: [{ name: "claude" }], speedPriority: 1 },
    });
    expect(result).toEqual({ role: "assistant", content: { type: "text", text: "Sunny" }, model: "test-model", stopReason: "endTurn" });
    expect(seen).toEqual([
      {
        messages: [question],
        maxTokens: 100,
        systemPrompt: "Be brief",
        modelPreferences: { hints: [{ name: "claude" }], speedPriority: 1 },
      },
    ]);
    await client.close();
  });

  it("samples with tools in 2025-11-25: tool_use, then the tool_result round", async () => {
    const server = samplingServer();
    const createMessage = (params: CreateMessageRequestParams): CreateMessageResult => {
      const last = params.messages.at(-1);
      if (last?.role === "user" && [last.content].flat()[0]?.type === "tool_result") {
        return { role: "assistant", content: { type: "text", text: "It is sunny in Paris" }, model: "m", stopReason: "endTurn" };
      }
      expect(params.tools).toEqual([weatherTool]);
      return {
        role: "assistant",
        content: [{ type: "tool_use", id: "call-1", name: "get_weather", input: { city: "Paris" } }],
        model: "m",
        stopReason: "toolUse",
      };
    };
    const client = await connectToSdk(server, { sampling: { createMessage, tools: true } });
    expect(server.server.getClientCapabilities()?.sampling).toEqual({ tools: {} });
    const first = await server.server.createMessage({
      messages: [question],
      maxTokens: 100,
      tools: [weatherTool],
      toolChoice: { mode: "auto" },
    });
    expect(first).toMatchObject({ stopReason: "toolUse", content: [{ type: "tool_use", id: "call-1" }] });
    const second = await server.server.createMessage({
      messages: [
        question,
        { role: "assistant", content: [{ type: "tool_use", id: "call-1", name: "get_weather", input: { city: "Paris" } }] },
        { role: "user", content: [{ type: "tool_result", toolUseId: "call-1", content: [{ type: "text", text: "sunny, 24C" }] }] },
      ],
      maxTokens: 100,
      tools: [weatherTool],
    });
    expect(second).toMatchObject({ content: { type: "text", text: "It is sunny in Paris" } });
    const single = await server.server.createMessage({
      messages: [
        question,
        { role: "assistant", content: { type: "tool_use", id: "call-2", name: "get_weather", input: { city: "Paris" } } },
        { role: "user", content: { type: "tool_result", toolUseId: "call-2", content: [{ type: "text", text: "sunny, 25C" }] } },
      ],
      maxTokens: 100,
      tools: [weatherTool],
    });
    expect(single).toMatchObject({ content: { type: "text", text: "It is sunny in Paris" } });
    await client.close();
  });

  it("refuses tools it did not declare, and conversations that break the tool-use rules, with -32602", async () => {
    const server = samplingServer();
    let calls = 0;
    const createMessage = (): CreateMessageResult => {
      calls++;
      return { role: "assistant", content: { type: "text", text: "no" }, model: "m" };
    };
    const client = await connectToSdk(server, { sampling: createMessage });
    const ask = (params: Record<string, unknown>): Promise<unknown> =>
      server.server.request({ method: "sampling/createMessage", params }, CreateMessageResultSchema);
    await expect(ask({ messages: [question], maxTokens: 10, tools: [weatherTool] })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("did not declare sampling.tools"),
    });
    await expect(ask({ messages: [question], maxTokens: 10, toolChoice: { mode: "none" } })).rejects.toMatchObject({ code: -32602 });
    const toolUse = { role: "assistant", content: [{ type: "tool_use", id: "call-1", name: "get_weather", input: {} }] };
    await expect(ask({ messages: [question, toolUse], maxTokens: 10 })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("tool_use call-1 in messages[1]"),
    });
    const mixed = {
      role: "user",
      content: [
        { type: "tool_result", toolUseId: "call-1", content: [] },
        { type: "text", text: "and also" },
      ],
    };
    await expect(ask({ messages: [question, toolUse, mixed], maxTokens: 10 })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("messages[2] mixes tool_result"),
    });
    const wrongId = { role: "user", content: { type: "tool_result", toolUseId: "call-2", content: [] } };
    await expect(ask({ messages: [question, toolUse, wrongId], maxTokens: 10 })).rejects.toMatchObject({ code: -32602 });
    const singleToolUse = { role: "assistant", content: toolUse.content[0] };
    await expect(ask({ messages: [question, singleToolUse], maxTokens: 10 })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("tool_use call-1 in messages[1]"),
    });
    const saidFirst = { role: "assistant", content: [{ type: "text", text: "Let me look" }, toolUse.content[0]] };
    await expect(ask({ messages: [question, saidFirst], maxTokens: 10 })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("tool_use call-1 in messages[1]"),
    });
    const notAResult = { role: "user", content: [{ type: "text", text: "call-1 is done", toolUseId: "call-1" }] };
    await expect(ask({ messages: [question, toolUse, notAResult], maxTokens: 10 })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("tool_use call-1 in messages[1]"),
    });
    expect(calls).toBe(0);
    await client.close();
  });

  it("answers -32603 when its own handler returns something that is not a sampling result", async () => {
    const server = samplingServer();
    const client = await connectToSdk(server, { sampling: () => ({ role: "assistant", model: "m" }) as unknown as CreateMessageResult });
    await expect(server.server.createMessage({ messages: [question], maxTokens: 10 })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining("This client's answer to sampling/createMessage is invalid: content"),
    });
    await client.close();
  });

  it("answers method not found, at once, for capabilities it did not declare", async () => {
    const server = samplingServer();
    const client = await connectToSdk(server);
    await expect(
      server.server.request(
        { method: "sampling/createMessage", params: { messages: [question], maxTokens: 5 } },
        CreateMessageResultSchema,
      ),
    ).rejects.toMatchObject({ code: -32601 });
    await expect(server.server.listRoots()).rejects.toMatchObject({ code: -32601 });
    await expect(
      server.server.elicitInput({ mode: "form", message: "name?", requestedSchema: { type: "object", properties: {} } }),
    ).rejects.toThrow(/does not support form elicitation/);
    await expect(
      server.server.request(
        { method: "elicitation/create", params: { mode: "form", message: "name?", requestedSchema: { type: "object", properties: {} } } },
        ListRootsResultSchema,
      ),
    ).rejects.toMatchObject({ code: -32601 });
    await client.close();
  });
});

describe("MCPClient roots for the SDK server", () => {
  it("lists its roots and tells the server when setRoots changes them", async () => {
    const server = samplingServer();
    let changes = 0;
    server.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
      changes++;
    });
    const client = await connectToSdk(server, { roots: [{ uri: "file:///work", name: "work" }] });
    expect(server.server.getClientCapabilities()?.roots).toEqual({ listChanged: true });
    expect(await server.server.listRoots()).toEqual({ roots: [{ uri: "file:///work", name: "work" }] });
    await client.setRoots([{ uri: "file:///home" }, { uri: "file:///tmp", name: "scratch" }]);
    await until(() => changes === 1);
    expect(await server.server.listRoots()).toEqual({ roots: [{ uri: "file:///home" }, { uri: "file:///tmp", name: "scratch" }] });
    await client.close();
  });

  it("asks a roots function on every roots/list, and sends list_changed on rootsListChanged()", async () => {
    const server = samplingServer();
    let changes = 0;
    server.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
      changes++;
    });
    let current: Root[] = [{ uri: "file:///a" }];
    const client = await connectToSdk(server, { roots: async () => current });
    expect((await server.server.listRoots()).roots).toEqual([{ uri: "file:///a" }]);
    current = [{ uri: "file:///b" }];
    await client.rootsListChanged();
    await until(() => changes === 1);
    expect((await server.server.listRoots()).roots).toEqual([{ uri: "file:///b" }]);
    await client.close();
  });

  it("declares roots given with setRoots before connect, and refuses roots it did not declare", async () => {
    const early = new MCPClient(CLIENT_INFO, { telemetry: null });
    await early.setRoots([{ uri: "file:///early" }]);
    await expect(early.rootsListChanged()).rejects.toMatchObject({ code: MCP_CODES.NOT_INITIALIZED });
    const server = samplingServer();
    const { ours, sdk } = sdkPair();
    await server.connect(sdk);
    await early.connect(ours);
    expect(await server.server.listRoots()).toEqual({ roots: [{ uri: "file:///early" }] });
    await early.close();

    const notDeclared = {
      code: MCP_CODES.METHOD_NOT_FOUND,
      message: "This client did not declare roots: pass options.roots, or call setRoots() before connect()",
    };
    const { client } = await connectToRaw();
    await expect(client.setRoots([{ uri: "file:///late" }])).rejects.toMatchObject(notDeclared);
    await expect(client.rootsListChanged()).rejects.toMatchObject(notDeclared);
    await client.close();

    const refused = new MCPClient(CLIENT_INFO, { telemetry: null });
    await expect(refused.connect((await rawServer({}, () => "1999-01-01")).clientEnd)).rejects.toMatchObject({
      code: MCP_CODES.PROTOCOL_VERSION_MISMATCH,
    });
    await expect(refused.setRoots([{ uri: "file:///late" }])).rejects.toMatchObject(notDeclared);
  });
});

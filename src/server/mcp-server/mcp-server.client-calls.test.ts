import {
  CreateMessageRequestSchema,
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import type { HandlerContext } from "./mcp-server.types.js";
import { MCPServer } from "./mcp-server.js";
import { initializedRawClientOf, rawClientOf, sdkClientOf, settle } from "./mcp-server.test-helpers.js";

const info = { name: "calls-server", version: "1.0.0" };

/** How a session refuses a client call the client did not declare. */
function refused(capability: string) {
  return { code: MCP_CODES.METHOD_NOT_FOUND, message: `The client did not declare the ${capability} capability` };
}

/** A server whose one tool runs `body` with the full handler context, returning what it returns as text. */
function serverRunning(body: (context: HandlerContext) => Promise<unknown>, options = {}): MCPServer {
  const server = new MCPServer(info, options);
  server.tool("run", {}, async (_args, context: HandlerContext) => {
    const value = await body(context);
    return { content: [{ type: "text", text: JSON.stringify(value) }] };
  });
  return server;
}

describe("MCPServer → client: sampling", () => {
  it("asks the client's model from inside a tool, with tools when the client supports tool use", async () => {
    const server = serverRunning((context) =>
      context.createMessage({
        messages: [{ role: "user", content: { type: "text", text: "What is 2+2?" } }],
        maxTokens: 10,
        tools: [{ name: "calc", inputSchema: { type: "object" } }],
        toolChoice: { mode: "auto" },
      }),
    );
    const { client } = await sdkClientOf(server, { capabilities: { sampling: { tools: {} } } });
    const asked = vi.fn();
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      asked(request.params);
      return { role: "assistant", content: { type: "text", text: "4" }, model: "test-model", stopReason: "endTurn" };
    });
    const result = await client.callTool({ name: "run", arguments: {} });
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? "")).toEqual({
      role: "assistant",
      content: { type: "text", text: "4" },
      model: "test-model",
      stopReason: "endTurn",
    });
    expect(asked.mock.calls[0]?.[0]).toMatchObject({ maxTokens: 10, tools: [{ name: "calc" }] });
  });

  it("refuses sampling to a client that did not declare it, and tool use to one that declared only sampling", async () => {
    const plain = serverRunning((context) => context.createMessage({ messages: [], maxTokens: 1 }));
    const { client } = await sdkClientOf(plain);
    await expect(client.callTool({ name: "run", arguments: {} })).resolves.toMatchObject({
      isError: true,
      content: [{ text: "The client did not declare the sampling capability" }],
    });
    const withTools = serverRunning((context) => context.createMessage({ messages: [], maxTokens: 1, tools: [] }));
    const second = await sdkClientOf(withTools, { capabilities: { sampling: {} } });
    await expect(second.client.callTool({ name: "run", arguments: {} })).resolves.toMatchObject({
      content: [{ text: "The client did not declare the sampling.tools capability" }],
    });
    await expect(second.session.createMessage({ messages: [], maxTokens: 1, toolChoice: { mode: "none" } })).rejects.toMatchObject({
      message: "The client did not declare the sampling.tools capability",
    });
  });

  it("refuses tool use in sampling on a revision without it, though the client declared sampling.tools", async () => {
    const { session } = await initializedRawClientOf(new MCPServer(info), "2025-06-18", { sampling: { tools: {} } });
    await expect(session.createMessage({ messages: [], maxTokens: 1, tools: [] })).rejects.toMatchObject(refused("sampling.tools"));
  });

  it("sends sampling requests in the session's revision: one block per message, no audio before 2025-03-26", async () => {
    const { client, session } = await initializedRawClientOf(new MCPServer(info), "2024-11-05", { sampling: {} });
    const asked = vi.fn();
    client.setRequestHandler("sampling/createMessage", (params) => {
      asked(params);
      return { role: "assistant", content: { type: "text", text: "ok" }, model: "m" };
    });
    const audio = { type: "audio" as const, data: "AA==", mimeType: "audio/wav" };
    await session.createMessage({ messages: [{ role: "user", content: [{ type: "text", text: "hear this" }, audio] }], maxTokens: 1 });
    expect(asked).toHaveBeenCalledWith({
      messages: [
        { role: "user", content: { type: "text", text: "hear this" } },
        { role: "user", content: { type: "text", text: "Audio (audio/wav) left out: protocol revision 2024-11-05 cannot carry audio" } },
      ],
      maxTokens: 1,
    });
  });

  it("raises MCP.METHOD_NOT_FOUND when the session itself is asked", async () => {
    const server = new MCPServer(info);
    const { session } = await sdkClientOf(server);
    await expect(session.createMessage({ messages: [], maxTokens: 1 })).rejects.toMatchObject({ code: MCP_CODES.METHOD_NOT_FOUND });
    await expect(session.listRoots()).rejects.toMatchObject({
      code: MCP_CODES.METHOD_NOT_FOUND,
      message: "The client did not declare the roots capability",
    });
  });

  it("refuses every client call on a session not yet initialized, as for a client that declared nothing", async () => {
    const { session } = await rawClientOf(new MCPServer(info));
    await expect(session.createMessage({ messages: [], maxTokens: 1 })).rejects.toMatchObject(refused("sampling"));
    await expect(session.elicitInput({ message: "m", requestedSchema: { type: "object", properties: {} } })).rejects.toMatchObject(
      refused("elicitation.form"),
    );
    await expect(session.elicitInput({ mode: "url", elicitationId: "e", url: "https://example.com", message: "m" })).rejects.toMatchObject(
      refused("elicitation.url"),
    );
    await expect(session.listRoots()).rejects.toMatchObject(refused("roots"));
  });
});

describe("MCPServer → client: elicitation", () => {
  const requestedSchema = {
    type: "object" as const,
    properties: { name: { type: "string" as const }, age: { type: "integer" as const, minimum: 0 } },
    required: ["name"],
  };

  it("asks the SDK client for a form from inside a tool", async () => {
    const answer = { name: "Ada", age: 36 };
    const server = serverRunning((context) => context.elicitInput({ mode: "form", message: "Who are you?", requestedSchema }));
    const { client } = await sdkClientOf(server, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: answer }));
    await expect(client.callTool({ name: "run", arguments: {} })).resolves.toMatchObject({
      content: [{ text: JSON.stringify({ action: "accept", content: answer }) }],
    });
  });

  it("treats a bare `elicitation: {}` (older clients) as form mode, and an accept without content as empty", async () => {
    const server = new MCPServer(info);
    const { client, session } = await initializedRawClientOf(server, "2025-06-18", { elicitation: {} });
    client.setRequestHandler("elicitation/create", () => ({ action: "accept" }));
    await expect(
      session.elicitInput({ message: "Anything to add?", requestedSchema: { type: "object", properties: { note: { type: "string" } } } }),
    ).resolves.toEqual({ action: "accept" });
    await expect(session.elicitInput({ message: "Who?", requestedSchema })).rejects.toMatchObject({ code: MCP_CODES.INVALID_PARAMS });
  });

  it("sends 2025-06-18 a form in its own terms: no mode, titled options as enum and enumNames, no string defaults", async () => {
    const { client, session } = await initializedRawClientOf(new MCPServer(info), "2025-06-18", { elicitation: {} });
    const asked = vi.fn();
    client.setRequestHandler("elicitation/create", (params) => {
      asked(params);
      return { action: "decline" };
    });
    const properties = { color: { type: "string" as const, oneOf: [{ const: "r", title: "Red" }], default: "r" } };
    await expect(session.elicitInput({ mode: "form", message: "Pick", requestedSchema: { type: "object", properties } })).resolves.toEqual({
      action: "decline",
    });
    expect(asked).toHaveBeenCalledWith({
      message: "Pick",
      requestedSchema: { type: "object", properties: { color: { type: "string", enum: ["r"], enumNames: ["Red"] } } },
    });
  });

  it("does not send elicitation/create to a revision without it, though the client declared elicitation", async () => {
    const { session } = await initializedRawClientOf(new MCPServer(info), "2025-03-26", { elicitation: {} });
    await expect(session.elicitInput({ message: "Who?", requestedSchema })).rejects.toMatchObject({
      code: MCP_CODES.METHOD_NOT_FOUND,
      message: "elicitation/create does not exist in protocol revision 2025-03-26",
    });
  });

  it("tells only a 2025-11-25 session that a URL elicitation completed", async () => {
    const { client, session } = await initializedRawClientOf(new MCPServer(info), "2025-06-18");
    const heard: string[] = [];
    client.setNotificationHandler("notifications/elicitation/complete", () => void heard.push("complete"));
    client.setNotificationHandler("notifications/message", () => void heard.push("log"));
    await session.notifyElicitationComplete("e-1");
    await session.log("info", "after");
    // Notifications arrive in the order sent: once the log is heard, a completion sent before it would have been too.
    await vi.waitFor(() => expect(heard).toContain("log"));
    expect(heard).toEqual(["log"]);
  });

  it("refuses an answer that does not match the schema with MCP.INVALID_PARAMS", async () => {
    const server = new MCPServer(info);
    const { client, session } = await initializedRawClientOf(server, "2025-11-25", { elicitation: {} });
    client.setRequestHandler("elicitation/create", () => ({ action: "accept", content: { age: "old" } }));
    await expect(session.elicitInput({ message: "Who?", requestedSchema })).rejects.toMatchObject({
      code: MCP_CODES.INVALID_PARAMS,
      message: expect.stringContaining("name"),
      data: { action: "accept", content: { age: "old" } },
    });
    client.removeRequestHandler("elicitation/create");
    client.setRequestHandler("elicitation/create", () => ({ action: "decline" }));
    await expect(session.elicitInput({ message: "Who?", requestedSchema })).resolves.toEqual({ action: "decline" });
  });

  it("asks for a URL interaction when the client declared URL mode, and says when it completed", async () => {
    const server = new MCPServer(info);
    const { client, session } = await sdkClientOf(server, { capabilities: { elicitation: { url: {} } } });
    client.setRequestHandler(ElicitRequestSchema, (request) => ({ action: request.params.mode === "url" ? "accept" : "decline" }));
    const completed = vi.fn();
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => completed(notification.params.elicitationId));
    await expect(
      session.elicitInput({ mode: "url", elicitationId: "e-1", url: "https://example.com/connect", message: "Connect your account" }),
    ).resolves.toEqual({ action: "accept" });
    await session.notifyElicitationComplete("e-1");
    await settle();
    expect(completed).toHaveBeenCalledWith("e-1");
    // URL mode only: a form request is refused locally.
    await expect(session.elicitInput({ message: "x", requestedSchema })).rejects.toMatchObject({
      code: MCP_CODES.METHOD_NOT_FOUND,
      message: expect.stringContaining("elicitation.form"),
    });
  });

  it("refuses URL mode to a client without it, or on a revision without it", async () => {
    const server = new MCPServer(info);
    const { session } = await sdkClientOf(server, { capabilities: { elicitation: { form: {} } } });
    await expect(session.elicitInput({ mode: "url", elicitationId: "e", url: "https://example.com", message: "m" })).rejects.toMatchObject({
      code: MCP_CODES.METHOD_NOT_FOUND,
      message: expect.stringContaining("elicitation.url"),
    });
    const old = await initializedRawClientOf(server, "2025-06-18", { elicitation: { url: {} } });
    await expect(
      old.session.elicitInput({ mode: "url", elicitationId: "e", url: "https://example.com", message: "m" }),
    ).rejects.toMatchObject({ code: MCP_CODES.METHOD_NOT_FOUND });
    const none = await initializedRawClientOf(server, "2025-11-25");
    await expect(none.session.elicitInput({ message: "m", requestedSchema })).rejects.toMatchObject({ code: MCP_CODES.METHOD_NOT_FOUND });
    await expect(
      none.session.elicitInput({ mode: "url", elicitationId: "e", url: "https://example.com", message: "m" }),
    ).rejects.toMatchObject({
      code: MCP_CODES.METHOD_NOT_FOUND,
      message: "The client did not declare the elicitation.url capability",
    });
  });
});

describe("MCPServer → client: roots", () => {
  it("lists the client's roots and hears when they change", async () => {
    const onRootsListChanged = vi.fn();
    const server = serverRunning((context) => context.listRoots(), { onRootsListChanged });
    const { client, session } = await sdkClientOf(server, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
    await expect(client.callTool({ name: "run", arguments: {} })).resolves.toMatchObject({
      content: [{ text: JSON.stringify({ roots: [{ uri: "file:///work", name: "work" }] }) }],
    });
    await client.sendRootsListChanged();
    await settle();
    expect(onRootsListChanged).toHaveBeenCalledWith(session);
  });

  it("hears of changed roots without a hook to tell", async () => {
    const onProtocolError = vi.fn();
    const { client } = await initializedRawClientOf(new MCPServer(info, { onProtocolError }), "2025-11-25", {
      roots: { listChanged: true },
    });
    await client.notify("notifications/roots/list_changed");
    // Served in order: the notification was handled before this ping is answered.
    await client.request("ping");
    expect(onProtocolError).not.toHaveBeenCalled();
  });
});

import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import { MCPServer } from "./mcp-server.js";
import { initializedRawClientOf, rawClientOf, sdkClientOf, settle, tappedClientOf } from "./mcp-server.test-helpers.js";

const info = { name: "sessions-server", version: "1.0.0" };
const noContents = () => ({ contents: [] });

describe("MCPServer: one server, many sessions", () => {
  it("keeps log levels, subscriptions and cancellations of one session away from the other", async () => {
    const server = new MCPServer(info);
    server.resource("shared", "file:///shared", {}, (uri) => ({ contents: [{ uri, text: "x" }] }));
    const signals: AbortSignal[] = [];
    server.tool("wait", {}, (_args, context) => {
      signals.push(context.signal);
      return new Promise(() => undefined);
    });
    const first = await sdkClientOf(server);
    const second = await sdkClientOf(server);
    const logs = { first: vi.fn(), second: vi.fn() };
    const updates = { first: vi.fn(), second: vi.fn() };
    first.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.first(n.params.level));
    second.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.second(n.params.level));
    first.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updates.first(n.params.uri));
    second.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updates.second(n.params.uri));

    await first.client.setLoggingLevel("error");
    await second.client.subscribeResource({ uri: "file:///shared" });
    await server.log("warning", "disk at 80%");
    await server.markResourceUpdated("file:///shared");
    await settle();
    expect(first.session.logLevel).toBe("error");
    expect(second.session.logLevel).toBeUndefined();
    expect(logs.first).not.toHaveBeenCalled();
    expect(logs.second).toHaveBeenCalledWith("warning");
    expect(updates.first).not.toHaveBeenCalled();
    expect(updates.second).toHaveBeenCalledWith("file:///shared");

    const controller = new AbortController();
    const cancelled = first.client
      .callTool({ name: "wait", arguments: {} }, undefined, { signal: controller.signal })
      .catch(() => "cancelled");
    void second.client.callTool({ name: "wait", arguments: {} }).catch(() => undefined);
    await vi.waitFor(() => expect(signals).toHaveLength(2));
    controller.abort();
    await expect(cancelled).resolves.toBe("cancelled");
    await vi.waitFor(() => expect(signals.filter((signal) => signal.aborted)).toHaveLength(1));
    expect(signals.map((signal) => String(signal.aborted)).toSorted((a, b) => a.localeCompare(b))).toEqual(["false", "true"]);
    await server.close();
  });

  it("reports a session whose connection fails during a fan-out and still serves the others", async () => {
    const onProtocolError = vi.fn();
    const server = new MCPServer(info, { onProtocolError });
    const healthy = await sdkClientOf(server);
    const broken = await initializedRawClientOf(server, "2025-11-25");
    const heard = vi.fn();
    healthy.client.setNotificationHandler(LoggingMessageNotificationSchema, heard);
    const original = broken.session.log.bind(broken.session);
    broken.session.log = () => Promise.reject(new Error("socket reset"));
    await server.log("info", "hello");
    await settle();
    expect(heard).toHaveBeenCalledTimes(1);
    expect(onProtocolError).toHaveBeenCalledWith(
      expect.objectContaining({ code: MCP_CODES.TRANSPORT_ERROR, message: "socket reset" }),
      broken.session,
    );
    broken.session.log = original;
  });
});

describe("MCPServer: log messages", () => {
  it("sends none to a session before it is initialized", async () => {
    const server = new MCPServer(info);
    const { client, session } = await rawClientOf(server);
    const heard: unknown[] = [];
    client.setNotificationHandler("notifications/message", (params) => void heard.push(params));
    await session.log("error", "too early");
    await client.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } });
    await session.log("error", "in time");
    // The server answers ping after what it sent before it: a first message would be there by now.
    await client.request("ping");
    expect(heard).toEqual([{ level: "error", data: "in time" }]);
  });

  it("does nothing on a closed session", async () => {
    const server = new MCPServer(info);
    const { session } = await initializedRawClientOf(server, "2025-11-25");
    await session.close();
    await expect(session.log("emergency", "after close")).resolves.toBeUndefined();
  });

  it("has no logger member when none is named", async () => {
    const server = new MCPServer(info);
    const { client, session, sent } = await tappedClientOf(server, "2025-11-25");
    await session.log("info", "anonymous");
    await session.log("info", "named", "db");
    await client.request("ping");
    const messages = sent.filter((message) => (message as { method?: string }).method === "notifications/message");
    expect(messages).toStrictEqual([
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "anonymous" } },
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", logger: "db", data: "named" } },
    ]);
  });
});

describe("MCPServer: protocol errors", () => {
  it("reports what a session's dispatcher cannot answer, naming the session", async () => {
    const onProtocolError = vi.fn();
    const server = new MCPServer(info, { onProtocolError });
    const [clientEnd, serverEnd] = InMemoryTransport.pair();
    const session = await server.start(serverEnd);
    await clientEnd.start({ onMessage: () => undefined, onMalformed: () => undefined, onClose: () => undefined });
    await clientEnd.send({ jsonrpc: "2.0", id: 77, result: {} });
    await settle();
    expect(onProtocolError).toHaveBeenCalledWith(
      expect.objectContaining({ code: MCP_CODES.PROTOCOL_INVALID, message: "Received a response for unknown request id 77" }),
      session,
    );
  });

  it("answers a stateless-era method asked without the era's _meta, in a session, as a method its revision lacks", async () => {
    const { client } = await initializedRawClientOf(new MCPServer(info), "2025-11-25");
    await expect(client.request("server/discover")).rejects.toMatchObject({
      code: MCP_CODES.METHOD_NOT_FOUND,
      message: "Method not found: server/discover",
    });
  });
});

describe("MCPServer: list_changed", () => {
  it("notifies every session once per tick of changes, after registration, enable, disable, update and remove", async () => {
    const server = new MCPServer(info);
    const handle = server.tool("first", {}, () => ({ content: [] }));
    const one = await sdkClientOf(server);
    const two = await sdkClientOf(server);
    const heard = { one: vi.fn(), two: vi.fn() };
    one.client.setNotificationHandler(ToolListChangedNotificationSchema, heard.one);
    two.client.setNotificationHandler(ToolListChangedNotificationSchema, heard.two);
    server.tool("second", {}, () => ({ content: [] }));
    server.tool("third", {}, () => ({ content: [] }));
    handle.disable();
    await settle();
    expect(heard.one).toHaveBeenCalledTimes(1);
    expect(heard.two).toHaveBeenCalledTimes(1);
    expect((await one.client.listTools()).tools.map((tool) => tool.name)).toEqual(["second", "third"]);
    handle.disable();
    await settle();
    expect(heard.one).toHaveBeenCalledTimes(1);
    handle.enable();
    await settle();
    handle.update({ description: "now described" });
    await settle();
    expect((await one.client.listTools()).tools[0]).toEqual({
      name: "first",
      description: "now described",
      inputSchema: { type: "object", properties: {} },
    });
    expect(() => handle.update({ inputSchema: { type: "string" } })).toThrow(expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS }));
    expect((await one.client.listTools()).tools[0]?.inputSchema).toEqual({ type: "object", properties: {} });
    handle.update({ handler: () => ({ content: [{ type: "text", text: "new behaviour" }] }) });
    await expect(one.client.callTool({ name: "first", arguments: {} })).resolves.toMatchObject({ content: [{ text: "new behaviour" }] });
    handle.remove();
    handle.remove();
    handle.enable();
    await settle();
    expect(heard.one).toHaveBeenCalledTimes(5);
    expect(handle.enabled).toBe(true);
    expect(handle.name).toBe("first");
    expect((await two.client.listTools()).tools.map((tool) => tool.name)).toEqual(["second", "third"]);
  });

  it("tells each session of resource, template and prompt changes, each in its own list", async () => {
    const server = new MCPServer(info);
    server.resource("first", "x://first", {}, noContents);
    server.prompt("first", {}, () => ({ messages: [] }));
    const { client } = await initializedRawClientOf(server, "2025-11-25");
    const heard: string[] = [];
    for (const kind of ["tools", "resources", "prompts"])
      client.setNotificationHandler(`notifications/${kind}/list_changed`, () => void heard.push(kind));
    server.resourceTemplate("template", "x://t/{a}", {}, noContents);
    await vi.waitFor(() => expect(heard).toEqual(["resources"]));
    server.prompt("second", {}, () => ({ messages: [] }));
    await vi.waitFor(() => expect(heard).toEqual(["resources", "prompts"]));
    server.resource("second", "x://second", {}, noContents);
    await vi.waitFor(() => expect(heard).toEqual(["resources", "prompts", "resources"]));
  });

  it("tells a session nothing of lists it was not told it would hear about, and still tells it of the others", async () => {
    const onProtocolError = vi.fn();
    const server = new MCPServer(info, { onProtocolError });
    server.tool("first", {}, () => ({ content: [] }));
    const { client } = await initializedRawClientOf(server, "2025-11-25");
    const heard: string[] = [];
    for (const kind of ["tools", "prompts"])
      client.setNotificationHandler(`notifications/${kind}/list_changed`, () => void heard.push(kind));
    // One tick, so one flush: the prompts list (not declared to this session) comes first, then the tools list.
    server.prompt("late", {}, () => ({ messages: [] }));
    server.tool("second", {}, () => ({ content: [] }));
    await vi.waitFor(() => expect(heard).toEqual(["tools"]));
    expect(onProtocolError).not.toHaveBeenCalled();
  });
});

describe("MCPServer: pagination", () => {
  it("pages every list with opaque cursors, and refuses a forged one with -32602", async () => {
    const server = new MCPServer(info, { pageSize: 2 });
    for (const name of ["a", "b", "c", "d", "e"]) server.tool(name, {}, () => ({ content: [] }));
    const { client } = await sdkClientOf(server);
    const first = await client.listTools();
    expect(first.tools.map((tool) => tool.name)).toEqual(["a", "b"]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await client.listTools({ cursor: first.nextCursor as string });
    expect(second.tools.map((tool) => tool.name)).toEqual(["c", "d"]);
    const last = await client.listTools({ cursor: second.nextCursor as string });
    expect(last.tools.map((tool) => tool.name)).toEqual(["e"]);
    expect(last.nextCursor).toBeUndefined();
    await expect(client.listTools({ cursor: "not-a-cursor" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Invalid cursor"),
    });
    await expect(client.listTools({ cursor: "c1.zzzzzzzzz" })).rejects.toMatchObject({ code: -32602 });
    await expect(client.listTools({ cursor: "c1.zz" })).resolves.toEqual({ tools: [] });
  });

  it("puts no nextCursor member on a last page", async () => {
    const server = new MCPServer(info, { pageSize: 2 });
    for (const name of ["a", "b", "c"]) server.tool(name, {}, () => ({ content: [] }));
    const { client, sent } = await tappedClientOf(server, "2025-11-25");
    const first = (await client.request("tools/list")) as { nextCursor: string };
    await client.request("tools/list", { cursor: first.nextCursor });
    const answer = sent.at(-1) as { result: object };
    expect(answer.result).toStrictEqual({ tools: [{ name: "c", inputSchema: { type: "object", properties: {} } }] });
  });

  it("pages resources, templates and prompts the same way", async () => {
    const server = new MCPServer(info, { pageSize: 1 });
    server.resource("r1", "x://1", {}, () => ({ contents: [] }));
    server.resource("r2", "x://2", {}, () => ({ contents: [] }));
    server.resourceTemplate("t1", "x://t/{a}", {}, () => ({ contents: [] }));
    server.resourceTemplate("t2", "x://u/{a}", {}, () => ({ contents: [] }));
    server.prompt("p1", {}, () => ({ messages: [] }));
    server.prompt("p2", {}, () => ({ messages: [] }));
    const { client } = await sdkClientOf(server);
    const resources = await client.listResources();
    expect(resources.resources.map((r) => r.name)).toEqual(["r1"]);
    expect((await client.listResources({ cursor: resources.nextCursor as string })).resources.map((r) => r.name)).toEqual(["r2"]);
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.name)).toEqual(["t1"]);
    expect(templates.nextCursor).toBeDefined();
    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((p) => p.name)).toEqual(["p1"]);
    expect((await client.listPrompts({ cursor: prompts.nextCursor as string })).prompts.map((p) => p.name)).toEqual(["p2"]);
  });
});

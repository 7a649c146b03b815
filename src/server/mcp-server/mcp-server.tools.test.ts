import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError, MCPError } from "../../error-codes/mcp-error.js";
import type { ContentBlock } from "../../schemas/schemas.js";
import { MCPServer } from "./mcp-server.js";
import { urlElicitationRequired } from "./url-elicitation.js";
import { initializedRawClientOf, sdkClientOf, settle, tappedClientOf } from "./mcp-server.test-helpers.js";

const info = { name: "tools-server", version: "1.0.0" };

function weatherServer(): MCPServer {
  const server = new MCPServer(info);
  server.tool(
    "weather",
    {
      title: "Weather",
      description: "Current weather for a city",
      inputSchema: z.object({ city: z.string().describe("City name"), days: z.number().int().min(1).default(1) }),
      outputSchema: z.object({ city: z.string(), celsius: z.number() }),
      annotations: { readOnlyHint: true },
      icons: [{ src: "https://example.com/sun.png" }],
      _meta: { "example.com/tier": "free" },
    },
    ({ city }) => ({ content: [{ type: "text", text: `${city}: 21°C` }], structuredContent: { city, celsius: 21 } }),
  );
  return server;
}

describe("MCPServer: tools/list", () => {
  it("advertises a Zod input schema as JSON Schema 2020-12, with title, annotations, icons and _meta", async () => {
    const { client } = await sdkClientOf(weatherServer());
    const { tools } = await client.listTools();
    expect(tools).toEqual([
      {
        name: "weather",
        title: "Weather",
        description: "Current weather for a city",
        inputSchema: {
          type: "object",
          properties: {
            city: { type: "string", description: "City name" },
            days: { type: "integer", minimum: 1, default: 1, maximum: Number.MAX_SAFE_INTEGER },
          },
          required: ["city"],
        },
        outputSchema: {
          type: "object",
          properties: { city: { type: "string" }, celsius: { type: "number" } },
          required: ["city", "celsius"],
          additionalProperties: false,
        },
        annotations: { readOnlyHint: true },
        icons: [{ src: "https://example.com/sun.png" }],
        _meta: { "example.com/tier": "free" },
      },
    ]);
  });

  it("advertises a plain JSON Schema as given, and an empty object schema when none is given", async () => {
    const server = new MCPServer(info);
    const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
    server.tool("plain", { inputSchema: schema }, () => ({ content: [] }));
    server.tool("bare", {}, () => ({ content: [] }));
    const { client } = await sdkClientOf(server);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.inputSchema)).toEqual([schema, { type: "object", properties: {} }]);
  });

  it("refuses a schema that does not describe an object, and a duplicate name", () => {
    const server = new MCPServer(info);
    expect(() => server.tool("bad", { inputSchema: z.string() }, () => ({ content: [] }))).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: expect.stringContaining('tool "bad"') }),
    );
    expect(() => server.tool("bad", { outputSchema: { type: "array" } }, () => ({ content: [] }))).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS }),
    );
    server.tool("once", {}, () => ({ content: [] }));
    expect(() => server.tool("once", {}, () => ({ content: [] }))).toThrow(
      expect.objectContaining({ code: MCP_CODES.DUPLICATE_REGISTRATION }),
    );
  });
});

describe("MCPServer: tools/call", () => {
  it("calls the handler with typed, defaulted arguments and returns structured output the SDK client accepts", async () => {
    const { client } = await sdkClientOf(weatherServer());
    await expect(client.callTool({ name: "weather", arguments: { city: "Lyon" } })).resolves.toEqual({
      content: [{ type: "text", text: "Lyon: 21°C" }],
      structuredContent: { city: "Lyon", celsius: 21 },
    });
  });

  it("passes the parsed (defaulted) arguments to the handler", async () => {
    const server = new MCPServer(info);
    const handler = vi.fn((args: { n: number; tag: string }) => ({ content: [{ type: "text" as const, text: `${args.n}${args.tag}` }] }));
    server.tool("d", { inputSchema: z.object({ n: z.number(), tag: z.string().default("!") }) }, handler);
    const { client } = await sdkClientOf(server);
    await expect(client.callTool({ name: "d", arguments: { n: 3 } })).resolves.toMatchObject({ content: [{ text: "3!" }] });
    expect(handler.mock.calls[0]?.[0]).toEqual({ n: 3, tag: "!" });
  });

  it("returns every content type", async () => {
    const server = new MCPServer(info);
    const content: ContentBlock[] = [
      { type: "text", text: "hi", annotations: { audience: ["user"], priority: 0.5 } },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
      { type: "resource_link", uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain" },
      { type: "resource", resource: { uri: "file:///b.txt", text: "bee", mimeType: "text/plain" } },
      { type: "resource", resource: { uri: "file:///c.bin", blob: "AAE=", mimeType: "application/octet-stream" } },
    ];
    server.tool("all", {}, () => ({ content }));
    const { client } = await sdkClientOf(server);
    await expect(client.callTool({ name: "all", arguments: {} })).resolves.toEqual({ content });
  });

  it("answers an unknown or disabled tool with -32602", async () => {
    const server = new MCPServer(info);
    const handle = server.tool("off", {}, () => ({ content: [] }));
    handle.disable();
    const { client } = await sdkClientOf(server);
    await expect(client.callTool({ name: "missing", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Unknown tool: missing"),
    });
    await expect(client.callTool({ name: "off", arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it("reports invalid arguments as a tool error on 2025-11-25 (SEP-1303), so the model can correct them", async () => {
    const { client } = await sdkClientOf(weatherServer());
    const result = await client.callTool({ name: "weather", arguments: { city: 7 } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: "text", text: expect.stringMatching(/Invalid arguments for tool weather: city: expected string/) },
    ]);
  });

  it.each(["2024-11-05", "2025-03-26", "2025-06-18"] as const)(
    "reports invalid arguments as a -32602 protocol error on %s",
    async (version) => {
      const { client } = await initializedRawClientOf(weatherServer(), version);
      await expect(client.request("tools/call", { name: "weather", arguments: { city: 7 } })).rejects.toMatchObject({
        code: MCP_CODES.INVALID_PARAMS,
        message: expect.stringContaining("city"),
      });
    },
  );

  it("checks arguments against a plain JSON Schema too", async () => {
    const server = new MCPServer(info);
    server.tool("sum", { inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] } }, (args) => ({
      content: [{ type: "text", text: String(args["a"]) }],
    }));
    const { client } = await sdkClientOf(server);
    await expect(client.callTool({ name: "sum", arguments: { a: 2 } })).resolves.toMatchObject({ content: [{ text: "2" }] });
    await expect(client.callTool({ name: "sum", arguments: {} })).resolves.toMatchObject({ isError: true });
  });

  it.each([
    [
      "an Error",
      () => {
        throw new Error("disk full");
      },
      "disk full",
    ],
    [
      "a string",
      () => {
        throw "plain string";
      },
      "plain string",
    ],
    ["a rejected promise of an object", () => Promise.reject({ reason: "odd" }), '{"reason":"odd"}'],
  ])("turns a handler that throws %s into an isError result; the session goes on", async (_label, handler, text) => {
    const server = new MCPServer(info);
    server.tool("fail", {}, handler);
    server.tool("ok", {}, () => ({ content: [{ type: "text", text: "fine" }] }));
    const { client } = await sdkClientOf(server);
    await expect(client.callTool({ name: "fail", arguments: {} })).resolves.toEqual({ content: [{ type: "text", text }], isError: true });
    await expect(client.callTool({ name: "ok", arguments: {} })).resolves.toMatchObject({ content: [{ text: "fine" }] });
  });

  it("keeps a thrown JsonRpcError a protocol error, such as -32042 URL elicitation required", async () => {
    const server = new MCPServer(info);
    const elicitation = { mode: "url" as const, elicitationId: "e1", url: "https://example.com/auth", message: "Sign in" };
    server.tool("needs-auth", {}, () => {
      throw urlElicitationRequired([elicitation], "Authorize first");
    });
    server.tool("custom", {}, () => {
      throw new JsonRpcError(-32099, "custom refusal");
    });
    const { client } = await sdkClientOf(server);
    await expect(client.callTool({ name: "needs-auth", arguments: {} })).rejects.toMatchObject({
      code: -32042,
      data: { elicitations: [elicitation] },
    });
    await expect(client.callTool({ name: "custom", arguments: {} })).rejects.toMatchObject({ code: -32099 });
    expect(urlElicitationRequired([elicitation]).message).toBe("This request needs the user to complete an interaction first");
  });

  it("keeps a nested request the handler cancelled (MCP.REQUEST_CANCELLED) a protocol error, not a tool failure", async () => {
    const server = new MCPServer(info);
    const requestedSchema = { type: "object" as const, properties: {} };
    server.tool("gives-up", {}, async (_args, context) => {
      await context.elicitInput({ message: "Name?", requestedSchema }, { signal: AbortSignal.abort("the user left") });
      return { content: [] };
    });
    const { client } = await initializedRawClientOf(server, "2025-11-25", { elicitation: {} });
    await expect(client.request("tools/call", { name: "gives-up" })).rejects.toMatchObject({
      code: MCP_CODES.INTERNAL_ERROR,
      message: "Request elicitation/create was cancelled before it was sent",
    });
  });

  it("refuses structured output that does not match the output schema, or is missing, with -32603", async () => {
    const server = new MCPServer(info);
    let structured: unknown = { count: "three" };
    server.tool("count", { outputSchema: { type: "object", properties: { count: { type: "integer" } }, required: ["count"] } }, () =>
      structured === undefined ? { content: [] } : { content: [], structuredContent: structured as Record<string, unknown> },
    );
    const { client } = await initializedRawClientOf(server, "2025-11-25");
    await expect(client.request("tools/call", { name: "count" })).rejects.toMatchObject({
      code: MCP_CODES.INTERNAL_ERROR,
      message: expect.stringContaining("does not match its output schema"),
    });
    structured = undefined;
    await expect(client.request("tools/call", { name: "count" })).rejects.toMatchObject({
      code: MCP_CODES.INTERNAL_ERROR,
      message: expect.stringContaining("no structuredContent"),
    });
    structured = { count: 3 };
    await expect(client.request("tools/call", { name: "count" })).resolves.toEqual({
      content: [{ type: "text", text: '{"count":3}' }],
      structuredContent: { count: 3 },
    });
  });

  it("does not check the output of an isError result", async () => {
    const server = new MCPServer(info);
    server.tool("flaky", { outputSchema: { type: "object", required: ["x"] } }, () => ({
      content: [{ type: "text", text: "upstream down" }],
      isError: true,
    }));
    const { client } = await sdkClientOf(server);
    await expect(client.callTool({ name: "flaky", arguments: {} })).resolves.toEqual({
      content: [{ type: "text", text: "upstream down" }],
      isError: true,
    });
  });

  it("reports progress to the SDK client and aborts the handler when the client cancels", async () => {
    const server = new MCPServer(info);
    let signal: AbortSignal | undefined;
    server.tool("slow", {}, async (_args, context) => {
      signal = context.signal;
      await context.progress(1, 10, "started");
      return new Promise(() => undefined);
    });
    const { client } = await sdkClientOf(server);
    const controller = new AbortController();
    const progress = vi.fn();
    const call = client.callTool({ name: "slow", arguments: {} }, undefined, { signal: controller.signal, onprogress: progress });
    await vi.waitFor(() => expect(progress).toHaveBeenCalledWith({ progress: 1, total: 10, message: "started" }));
    controller.abort("changed my mind");
    await expect(call).rejects.toThrow(/changed my mind/);
    await vi.waitFor(() => expect(signal?.aborted).toBe(true));
    expect((signal?.reason as MCPError | undefined)?.code).toBe(MCP_CODES.REQUEST_CANCELLED);
  });

  it("sends a handler's log messages to its session", async () => {
    const server = new MCPServer(info);
    server.tool("chatty", {}, async (_args, context) => {
      await context.log("info", { step: 1 }, "chatty");
      await context.log("debug", "fine detail");
      return { content: [] };
    });
    const { client } = await sdkClientOf(server);
    const messages: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      messages.push(notification.params);
    });
    await client.setLoggingLevel("info");
    await client.callTool({ name: "chatty", arguments: {} });
    await settle();
    expect(messages).toEqual([{ level: "info", logger: "chatty", data: { step: 1 } }]);
  });

  it("gives the handler its request id, _meta and session", async () => {
    const server = new MCPServer(info);
    const seen = vi.fn();
    server.tool("who", {}, (_args, context) => {
      seen(context.requestId, context.meta, context.client.info?.name, context.inbound);
      return { content: [] };
    });
    const { client } = await sdkClientOf(server);
    await client.callTool({ name: "who", arguments: {}, _meta: { custom: 1 } });
    expect(seen).toHaveBeenCalledWith(expect.any(Number), { custom: 1 }, "sdk-client", undefined);
  });

  it("gives the handler what the transport knows of the request", async () => {
    const server = new MCPServer(info);
    const seen = vi.fn();
    server.tool("who", {}, (_args, context) => {
      seen(context.inbound);
      return { content: [] };
    });
    const inbound = { headers: { "x-caller": "tests" }, authInfo: { subject: "ada" } };
    const { client } = await tappedClientOf(server, "2025-11-25", inbound);
    await client.request("tools/call", { name: "who" });
    expect(seen).toHaveBeenCalledWith(inbound);
  });
});

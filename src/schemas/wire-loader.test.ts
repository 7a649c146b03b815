// Vitest gives each test file its own module graph: here the wire layer starts unloaded, as in a
// process that just imported the library, and the tests below run in order.
import * as zm from "zod/mini";
import * as z from "zod";
import { describe, expect, it } from "vitest";
import { LATEST_PROTOCOL_VERSION } from "../constants/index.js";
import { MCP_CODES } from "../error-codes/error-codes.js";
import { JsonRpcDispatcher } from "../jsonrpc/dispatcher/dispatcher.js";
import { MCPClient } from "../client/mcp-client/mcp-client.js";
import { MCPServer } from "../server/mcp-server/mcp-server.js";
import { InMemoryTransport } from "../transport/in-memory/in-memory.js";
import { Telemetry } from "../telemetry/telemetry.js";
import { loadedJsonSchemaConverter, wireLayer } from "./wire-loader.js";

describe("the wire layer before the first connection", () => {
  it("is not loaded: what needs it asks to connect first, what does not works", () => {
    expect(loadedJsonSchemaConverter()).toBeUndefined();
    expect(() => wireLayer()).toThrow(
      expect.objectContaining({ code: MCP_CODES.TRANSPORT_CLOSED, message: expect.stringContaining("first connect() or start()") }),
    );
    const dispatcher = new JsonRpcDispatcher({ side: "client", telemetry: null });
    expect(dispatcher.session.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(() => dispatcher.codec).toThrow(expect.objectContaining({ code: MCP_CODES.TRANSPORT_CLOSED }));
  });

  it("refuses a classic zod schema that is no object schema at registration all the same (it converts itself)", () => {
    const server = new MCPServer({ name: "s", version: "1" });
    expect(() => server.tool("bad", { inputSchema: z.string() as never }, () => ({ content: [] }))).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS }),
    );
    expect(() => wireLayer()).toThrow(expect.objectContaining({ code: MCP_CODES.TRANSPORT_CLOSED }));
  });

  it("lets a request made while connect loads the wire layer go out and be answered", async () => {
    const [clientEnd, serverEnd] = InMemoryTransport.pair();
    const client = new JsonRpcDispatcher({ side: "client", telemetry: new Telemetry() });
    const connecting = client.connect(clientEnd);
    let pending: Promise<unknown> | undefined;
    expect(() => (pending = client.request("ping"))).not.toThrow();
    await connecting;
    const server = new JsonRpcDispatcher({ side: "server", telemetry: null });
    server.setRequestHandler("ping", () => ({}));
    await server.connect(serverEnd);
    await expect(pending).resolves.toEqual({});
    await client.close();
  });

  it("refuses a zod/mini schema that is no object schema at registration, by its definition (the converter is not there yet)", () => {
    const server = new MCPServer({ name: "s", version: "1" });
    expect(() => server.tool("bad", { inputSchema: zm.string() as never }, () => ({ content: [] }))).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: expect.stringContaining('tool "bad"') }),
    );
    expect(() => server.tool("bad-output", { outputSchema: zm.array(zm.string()) as never }, () => ({ content: [] }))).toThrow(
      expect.objectContaining({ message: expect.stringContaining("output schema") }),
    );
    expect(loadedJsonSchemaConverter()).toBeUndefined();
  });

  it("serves JSON Schema and classic zod tools without ever loading zod's converter", async () => {
    const server = new MCPServer({ name: "s", version: "1" });
    server.tool("json", { inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } }, () => ({
      content: [],
    }));
    server.tool("classic", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }));
    const [clientEnd, serverEnd] = InMemoryTransport.pair();
    await server.start(serverEnd);
    const client = new MCPClient({ name: "c", version: "1" });
    await client.connect(clientEnd);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["json", "classic"]);
    await expect(client.callTool("classic", { text: "hi" })).resolves.toMatchObject({ content: [{ type: "text", text: "hi" }] });
    await expect(client.callTool("classic", { text: 5 })).resolves.toMatchObject({
      isError: true,
      content: [{ text: "Invalid arguments for tool classic: text: expected string, received number" }],
    });
    expect(loadedJsonSchemaConverter()).toBeUndefined();
    await client.close();
  });

  it("lists and calls a zod/mini tool registered after start once the converter it loads is there", async () => {
    const server = new MCPServer({ name: "s", version: "1" });
    const [clientEnd, serverEnd] = InMemoryTransport.pair();
    await server.start(serverEnd);
    const client = new MCPClient({ name: "c", version: "1" });
    await client.connect(clientEnd);
    server.tool("late", { inputSchema: zm.object({ n: zm.number() }) }, ({ n }) => ({ content: [{ type: "text", text: String(n) }] }));
    expect(loadedJsonSchemaConverter()).toBeUndefined();
    const calling = client.callTool("late", { n: 3 });
    const { tools } = await client.listTools();
    expect(tools).toEqual([{ name: "late", inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } }]);
    await expect(calling).resolves.toMatchObject({ content: [{ type: "text", text: "3" }] });
    expect(loadedJsonSchemaConverter()?.toJSONSchema).toBeTypeOf("function");
    await client.close();
  });
});

describe("the wire layer after a connection loaded it", () => {
  it("serves a zod/mini tool registered before start, and converts one registered after it at once", async () => {
    const server = new MCPServer({ name: "s", version: "1" });
    server.tool("early", { inputSchema: zm.object({ text: zm.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }));
    const [clientEnd, serverEnd] = InMemoryTransport.pair();
    await server.start(serverEnd);
    expect(wireLayer().codecFor(LATEST_PROTOCOL_VERSION).version).toBe(LATEST_PROTOCOL_VERSION);
    expect(loadedJsonSchemaConverter()?.toJSONSchema).toBeTypeOf("function");
    expect(() => server.tool("late", { inputSchema: zm.string() as never }, () => ({ content: [] }))).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS }),
    );
    server.tool("later", { inputSchema: zm.object({ n: zm.number() }) }, ({ n }) => ({ content: [{ type: "text", text: String(n) }] }));
    const client = new MCPClient({ name: "c", version: "1" });
    await client.connect(clientEnd);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => [tool.name, tool.inputSchema])).toEqual([
      ["early", { type: "object", properties: { text: { type: "string" } }, required: ["text"] }],
      ["later", { type: "object", properties: { n: { type: "number" } }, required: ["n"] }],
    ]);
    await expect(client.callTool("early", { text: "hi" })).resolves.toMatchObject({ content: [{ type: "text", text: "hi" }] });
    await client.close();
  });
});

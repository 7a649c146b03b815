// A file of its own, so that zod's JSON Schema converter starts unloaded (vitest gives each test file
// its own module graph), as in a process that just imported the library.
import * as zm from "zod/mini";
import { describe, expect, it } from "vitest";

import { MCP_CODES } from "../../error-codes/error-codes.js";
import { loadedJsonSchemaConverter } from "../../schemas/wire-loader.js";
import { MCPClient } from "../../client/mcp-client/mcp-client.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import { MCPServer } from "./mcp-server.js";

const notAnObject = (io: string) =>
  expect.objectContaining({
    code: MCP_CODES.INVALID_PARAMS,
    message: `The ${io} schema of tool "text" must describe an object (type "object")`,
  });

describe("a zod/mini tool registered before the first start", () => {
  it("refuses a zod schema that has no parse of its own (neither classic nor zod/mini), before and after the converter loads", () => {
    const server = new MCPServer({ name: "s", version: "1" });
    const bare = { _zod: zm.object({})["_zod"] } as unknown as zm.ZodMiniObject;
    expect(() => server.tool("bare", { inputSchema: bare }, () => ({ content: [] }))).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: expect.stringContaining("classic zod or zod/mini") }),
    );
    expect(loadedJsonSchemaConverter()).toBeUndefined();
  });

  it("refuses a zod/mini schema that is no object, naming which one, before the converter loads", () => {
    const server = new MCPServer({ name: "s", version: "1" });
    expect(() => server.tool("text", { inputSchema: zm.string() }, () => ({ content: [] }))).toThrow(notAnObject("input"));
    expect(() => server.tool("text", { outputSchema: zm.string() }, () => ({ content: [], isError: true }))).toThrow(notAnObject("output"));
    expect(loadedJsonSchemaConverter()).toBeUndefined();
  });

  it("makes start wait for the converter its registration began loading, then serves it", async () => {
    const server = new MCPServer({ name: "s", version: "1" });
    server.tool("mini", { inputSchema: zm.object({ text: zm.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }));
    expect(loadedJsonSchemaConverter()).toBeUndefined();
    const [clientEnd, serverEnd] = InMemoryTransport.pair();
    const starting = server.start(serverEnd);
    // Not served before the converter is there: no session yet.
    expect(server.sessions.size).toBe(0);
    await starting;
    expect(loadedJsonSchemaConverter()?.toJSONSchema).toBeTypeOf("function");
    // Nothing to wait for any more: a later start takes its session at once.
    const later = server.start(InMemoryTransport.pair()[1]);
    expect(server.sessions.size).toBe(2);
    await later;
    const client = new MCPClient({ name: "c", version: "1" });
    await client.connect(clientEnd);
    expect((await client.listTools()).tools).toEqual([
      { name: "mini", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
    ]);
    await expect(client.callTool("mini", { text: 1 })).resolves.toMatchObject({
      isError: true,
      content: [{ text: "Invalid arguments for tool mini: text: expected string, received number" }],
    });
    await client.close();
    await server.close();
  });

  it("refuses a parse-less zod schema after the converter loaded too", () => {
    const server = new MCPServer({ name: "s", version: "1" });
    const bare = { _zod: zm.object({})["_zod"] } as unknown as zm.ZodMiniObject;
    expect(() => server.tool("bare", { inputSchema: bare }, () => ({ content: [] }))).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: expect.stringContaining("classic zod or zod/mini") }),
    );
  });
});

// A file of its own, so that zod's JSON Schema converter starts unloaded (vitest gives each test file
// its own module graph): a zod/mini `argsSchema` makes the server load it, as a zod/mini tool schema does.
import * as zm from "zod/mini";
import { describe, expect, expectTypeOf, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { loadJsonSchemaConverter, loadedJsonSchemaConverter } from "../../schemas/wire-loader.js";
import { MCPServer } from "./mcp-server.js";
import { ourClientOf } from "./our-client.test-helpers.js";

const connected = (server: MCPServer, era: "session" | "stateless") => ourClientOf(server, era, { name: "c" });

describe("a zod/mini argsSchema", () => {
  it("is checked by its definition, then listed and checked once its converter has loaded; both eras' requests wait for it", async () => {
    const server = new MCPServer({ name: "s", version: "1" }, { telemetry: null });
    server.prompt("listed", { arguments: { topic: {} } }, () => ({ messages: [] }));
    const clients = [await connected(server, "session"), await connected(server, "stateless")];
    expect(() => server.prompt("text", { argsSchema: zm.string() }, () => ({ messages: [] }))).toThrow(
      expect.objectContaining({
        code: MCP_CODES.INVALID_PARAMS,
        message: 'The input schema of prompt "text" must describe an object (type "object")',
      }),
    );
    expect(loadedJsonSchemaConverter()).toBeUndefined();
    server.prompt("mini", { argsSchema: zm.object({ topic: zm.string(), depth: zm.optional(zm.string()) }) }, ({ topic, depth }) => {
      expectTypeOf(depth).toEqualTypeOf<string | undefined>();
      return { messages: [{ role: "user", content: { type: "text", text: `${topic} ${depth ?? "shallow"}` } }] };
    });
    expect(loadedJsonSchemaConverter()).toBeUndefined();
    // Asked before the converter is there: each request waits for it.
    const [lists, texts] = await Promise.all([
      Promise.all(clients.map((client) => client.listPrompts())),
      Promise.all(clients.map((client) => client.getPrompt("mini", { topic: "ai" }))),
    ]);
    for (const { prompts } of lists)
      expect(prompts[1]).toEqual({
        name: "mini",
        arguments: [
          { name: "topic", required: true },
          { name: "depth", required: false },
        ],
      });
    for (const result of texts) expect(result.messages[0]?.content).toEqual({ type: "text", text: "ai shallow" });
    expect(loadedJsonSchemaConverter()).toBeDefined();
    await expect(clients[0]?.getPrompt("mini", { topic: "ai", depth: "1" })).resolves.toMatchObject({
      messages: [{ content: { text: "ai 1" } }],
    });
    for (const client of clients) await client.close();
  });

  it("is refused at registration once the converter is loaded, when a property is no string", async () => {
    await loadJsonSchemaConverter();
    const server = new MCPServer({ name: "s", version: "1" });
    expect(() => server.prompt("count", { argsSchema: zm.object({ count: zm.number() }) }, () => ({ messages: [] }))).toThrow(
      expect.objectContaining({
        code: MCP_CODES.INVALID_PARAMS,
        message: 'The input schema of prompt "count" must describe strings, as prompt arguments are: "count" is not one',
      }),
    );
  });
});

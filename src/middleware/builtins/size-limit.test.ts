// sizeLimit on a real server, in both eras: results under the limit pass as they are, a tool's
// oversized result becomes a tool error the model reads, any other method's an internal error, and
// the size is of the UTF-8 JSON, not of the string's length.
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import { sizeLimit } from "./size-limit.js";
import { ERAS, clientAs, text, textOf } from "./server-builtins.test-helpers.js";

function sizedServer(maxBytes: number): MCPServer {
  const server = new MCPServer({ name: "sized", version: "1.0.0" }, { telemetry: null });
  server.tool("echo", { inputSchema: { type: "object", properties: { value: { type: "string" } } } }, (args) =>
    text(String(args["value"])),
  );
  server.resource("big", "file:///big", {}, (uri) => ({ contents: [{ uri, text: "x".repeat(400) }] }));
  return server.use(sizeLimit({ maxBytes }));
}

describe.each(ERAS)("sizeLimit, %s era", (era) => {
  it("passes results under the limit, and makes a tool's oversized result a tool error", async () => {
    const client = await clientAs(sizedServer(300), era);
    expect(textOf(await client.callTool("echo", { value: "small" }))).toBe("small");
    const over = await client.callTool("echo", { value: "y".repeat(300) });
    expect(over.isError).toBe(true);
    expect(textOf(over)).toMatch(/^The result of tool "echo" is \d+ bytes, over this server's limit of 300: ask for less\.$/);
    await client.close();
  });

  it("refuses another method's oversized result with MCP.INTERNAL_ERROR, its size in data", async () => {
    const client = await clientAs(sizedServer(300), era);
    await expect(client.readResource("file:///big")).rejects.toMatchObject({
      code: MCP_CODES.INTERNAL_ERROR,
      message: expect.stringContaining("The result of resources/read is"),
      data: { bytes: expect.any(Number), maxBytes: 300 },
    });
    await client.close();
  });

  it("counts UTF-8 bytes: 100 two-byte characters take a result over 200 bytes, though its JSON is 139 characters long", async () => {
    const client = await clientAs(sizedServer(200), era);
    expect(textOf(await client.callTool("echo", { value: "a".repeat(100) }))).toBe("a".repeat(100));
    const accented = await client.callTool("echo", { value: "é".repeat(100) });
    expect(accented.isError).toBe(true);
    expect(textOf(accented)).toContain("is 239 bytes");
    // A result of exactly the limit passes: 61 of the 100 characters two-byte ones make it 139 + 61 = 200 bytes.
    expect(textOf(await client.callTool("echo", { value: `${"a".repeat(39)}${"é".repeat(61)}` }))).toHaveLength(100);
    await client.close();
  });
});

describe("sizeLimit's options", () => {
  it("refuses a limit that is no positive whole number", () => {
    for (const maxBytes of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => sizeLimit({ maxBytes })).toThrow(
        expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: expect.stringContaining("sizeLimit: maxBytes") }),
      );
  });
});

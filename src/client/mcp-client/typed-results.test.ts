// A client told the type of a tool's structured output reads it typed (`callTool<S>`): the
// `@ts-expect-error` below fails the type check if the typing goes away. The type is the caller's
// word; what the server sends is still checked against the output schema it listed.
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import { MCPClient } from "./mcp-client.js";

const Weather = z.object({ celsius: z.number(), sky: z.enum(["clear", "cloudy"]) });

describe("typed structured output on the client", () => {
  it("gives structuredContent the type the caller names, and the listed schema still checks it", async () => {
    const server = new MCPServer({ name: "typed", version: "1.0.0" }, { telemetry: null });
    server.tool("forecast", { inputSchema: z.object({ city: z.string() }), outputSchema: Weather }, ({ city }) => ({ content: [{ type: "text", text: city }], structuredContent: { celsius: 21, sky: "clear" } }));
    const [clientEnd, serverEnd] = InMemoryTransport.pair();
    await server.start(serverEnd);
    const client = new MCPClient({ name: "typed-client", version: "1.0.0" }, { telemetry: null });
    await client.connect(clientEnd);
    const result = await client.callTool<z.output<typeof Weather>>("forecast", { city: "Oslo" });
    const sky: "clear" | "cloudy" | undefined = result.structuredContent?.sky;
    // @ts-expect-error: celsius is a number
    const wrong: string | undefined = result.structuredContent?.celsius;
    expect([result.structuredContent?.celsius, sky, wrong]).toEqual([21, "clear", 21]);
    // Untold, it is a plain object.
    const untyped = await client.callTool("forecast", { city: "Bergen" });
    expect(untyped.structuredContent).toEqual({ celsius: 21, sky: "clear" });
    await client.close();
  });
});

// A client told the types of a server's tools reads their structuredContent typed: from a tool map
// (`MCPClient<Tools>`, derived from the server's definitions with `ToolOutputs` or written by hand,
// or generated), or per call (`callTool<S>`). The `@ts-expect-error` lines fail the type check if the
// typing goes away. The types are the caller's word; what the server sends is still checked against
// the output schema it listed.
import { type } from "arktype";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import { MCPClient } from "./mcp-client.js";
import type { ToolCallResult, ToolOutputs, TypedToolCallResult } from "./mcp-client.types.js";

const Weather = z.object({ celsius: z.number(), sky: z.enum(["clear", "cloudy"]) });

// What a server module would export beside its handlers: its tools' definitions.
const definitions = {
  forecast: { inputSchema: z.object({ city: z.string() }), outputSchema: Weather },
  sum: { inputSchema: type({ a: "number", b: "number" }), outputSchema: type({ sum: "number" }) },
  echo: { outputSchema: { type: "object", properties: { text: { type: "string" } } } },
};

function weatherServer(): MCPServer {
  const server = new MCPServer({ name: "typed", version: "1.0.0" }, { telemetry: null });
  server.tool("forecast", definitions.forecast, ({ city }) => ({
    content: [{ type: "text", text: city }],
    structuredContent: { celsius: 21, sky: "clear" },
  }));
  server.tool("sum", definitions.sum, ({ a, b }) =>
    a + b > 100 ? { content: [{ type: "text", text: "too much" }], isError: true } : { content: [], structuredContent: { sum: a + b } },
  );
  server.tool("echo", definitions.echo, () => ({ content: [], structuredContent: { text: "hi" } }));
  server.tool("plain", {}, () => ({ content: [{ type: "text", text: "no structure" }] }));
  return server;
}

async function connected<Tools extends object>(client: MCPClient<Tools>): Promise<MCPClient<Tools>> {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  await weatherServer().start(serverEnd);
  await client.connect(clientEnd);
  return client;
}

const info = { name: "typed-client", version: "1.0.0" };

describe("typed structured output on the client", () => {
  it("types each tool a map derived from the server's definitions names; an error result is told apart by isError", async () => {
    const client = await connected(new MCPClient<ToolOutputs<typeof definitions>>(info, { telemetry: null }));
    const forecast = await client.callTool("forecast", { city: "Oslo" });
    expectTypeOf(forecast).toEqualTypeOf<TypedToolCallResult<{ celsius: number; sky: "clear" | "cloudy" }>>();
    // @ts-expect-error: an error result may lack structuredContent, so isError is looked at first
    expect(forecast.structuredContent.sky).toBe("clear");
    if (forecast.isError) throw new Error("the forecast failed");
    const sky: "clear" | "cloudy" = forecast.structuredContent.sky;
    // @ts-expect-error: celsius is a number
    const celsius: string = forecast.structuredContent.celsius;
    expect([sky, celsius]).toEqual(["clear", 21]);
    const sum = await client.callTool("sum", { a: 1, b: 2 });
    expectTypeOf(sum).toEqualTypeOf<TypedToolCallResult<{ sum: number }>>();
    expect(sum.isError ? undefined : sum.structuredContent.sum).toBe(3);
    const refused = await client.callTool("sum", { a: 100, b: 1 });
    expect(refused).toMatchObject({ isError: true, content: [{ type: "text", text: "too much" }] });
    // A plain JSON Schema types nothing: a plain object.
    const echo = await client.callTool("echo");
    expectTypeOf(echo).toEqualTypeOf<TypedToolCallResult<Record<string, unknown>>>();
    expect(echo.structuredContent).toEqual({ text: "hi" });
    await client.close();
  });

  it("types a hand-written or generated map (an interface too), and leaves a tool it does not name untyped", async () => {
    interface Generated {
      forecast: { celsius: number; sky: "clear" | "cloudy" };
    }
    const client = await connected(new MCPClient<Generated>(info, { telemetry: null }));
    const forecast = await client.callTool("forecast", { city: "Lyon" });
    expectTypeOf(forecast).toEqualTypeOf<TypedToolCallResult<{ celsius: number; sky: "clear" | "cloudy" }>>();
    expect(forecast.isError ? undefined : forecast.structuredContent.celsius).toBe(21);
    const plain = await client.callTool("plain");
    expectTypeOf(plain).toEqualTypeOf<ToolCallResult>();
    expect([plain.structuredContent, plain.content]).toEqual([undefined, [{ type: "text", text: "no structure" }]]);
    // A name only known as a string, and a type the caller names, win over the map.
    const named: string = "forecast";
    expectTypeOf(await client.callTool(named, { city: "Lyon" })).toEqualTypeOf<ToolCallResult>();
    const told = await client.callTool<{ sky: string }>("forecast", { city: "Lyon" });
    expectTypeOf(told).toEqualTypeOf<ToolCallResult<{ sky: string }>>();
    expect(told.structuredContent?.sky).toBe("clear");
    // A typed client is still an MCPClient for whatever takes one.
    const untyped: MCPClient = client;
    await untyped.close();
  });

  it("gives structuredContent the type the caller names per call, and the listed schema still checks it", async () => {
    const client = await connected(new MCPClient(info, { telemetry: null }));
    const result = await client.callTool<z.output<typeof Weather>>("forecast", { city: "Oslo" });
    const sky: "clear" | "cloudy" | undefined = result.structuredContent?.sky;
    // @ts-expect-error: celsius is a number
    const wrong: string | undefined = result.structuredContent?.celsius;
    expect([result.structuredContent?.celsius, sky, wrong]).toEqual([21, "clear", 21]);
    // Untold, it is a plain object.
    const untyped = await client.callTool("forecast", { city: "Bergen" });
    expectTypeOf(untyped).toEqualTypeOf<ToolCallResult>();
    expect(untyped.structuredContent).toEqual({ celsius: 21, sky: "clear" });
    await client.close();
  });
});

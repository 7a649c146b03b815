// A tool handler's result is checked against the tool's output schema by the compiler, in the one
// `server.tool(name, config, handler)` call. Each `@ts-expect-error` below fails `npm run
// typecheck` if that checking goes away; the tools are also served and called, so each test shows
// what really arrives, and that what the types refuse the run-time check refuses too (a handler
// cast past the types, or written in JavaScript).
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { MCPClient } from "../../client/mcp-client/mcp-client.js";
import type { CallToolResult } from "../../schemas/schemas.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import { MCPServer } from "./mcp-server.js";
import type { StructuredContentOf, ToolHandler, ToolResult } from "./mcp-server.types.js";

const City = z.object({ city: z.string() });
const Weather = z.object({
  sky: z.enum(["clear", "rain"]),
  celsius: z.number().optional(),
  place: z.object({ city: z.string(), country: z.string() }),
});
const ValibotWeather = toStandardJsonSchema(v.object({ sky: v.picklist(["clear", "rain"]), celsius: v.optional(v.number()) }));
const ArkWeather = type({ sky: "'clear' | 'rain'", "celsius?": "number" });
const JsonWeather = { type: "object", properties: { sky: { type: "string", enum: ["clear", "rain"] } }, required: ["sky"] };

async function clientOf(server: MCPServer): Promise<MCPClient> {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  await server.start(serverEnd);
  const client = new MCPClient({ name: "typed-output", version: "1.0.0" }, { telemetry: null });
  await client.connect(clientEnd);
  return client;
}

const newServer = () => new MCPServer({ name: "typed-output", version: "1.0.0" }, { telemetry: null });
const mismatch = (tool: string) => `Tool ${tool} returned structuredContent that does not match its output schema`;
const missing = (tool: string) => `Tool ${tool} has an output schema but returned no structuredContent`;

describe("typed tool results: zod", () => {
  it("takes an enum literal, an optional field and a nested object, from sync, async and block-bodied handlers", async () => {
    const server = newServer();
    server.tool("sync", { inputSchema: City, outputSchema: Weather }, ({ city }) => ({
      content: [],
      structuredContent: { sky: "clear", place: { city, country: "NO" } },
    }));
    server.tool("async", { inputSchema: City, outputSchema: Weather }, async ({ city }, ctx) => {
      await ctx.progress(1, 1);
      return {
        content: [{ type: "text", text: `${city}: rain` }],
        structuredContent: { sky: "rain", celsius: 4, place: { city, country: "NO" } },
      };
    });
    // No parameters: the handler is not context-sensitive, and is typed all the same.
    server.tool("bare", { outputSchema: Weather }, () => ({
      content: [],
      structuredContent: { sky: "clear", place: { city: "Lima", country: "PE" } },
    }));
    const client = await clientOf(server);
    expect((await client.callTool("sync", { city: "Oslo" })).structuredContent).toEqual({
      sky: "clear",
      place: { city: "Oslo", country: "NO" },
    });
    expect(await client.callTool("async", { city: "Bergen" })).toMatchObject({
      content: [{ type: "text", text: "Bergen: rain" }],
      structuredContent: { sky: "rain", celsius: 4, place: { city: "Bergen", country: "NO" } },
    });
    expect((await client.callTool("bare")).structuredContent).toEqual({ sky: "clear", place: { city: "Lima", country: "PE" } });
    await client.close();
  });

  it("lets an isError result leave structuredContent out, and a handler return either", async () => {
    const server = newServer();
    server.tool("refuse", { outputSchema: Weather }, () => ({ content: [{ type: "text", text: "no sky today" }], isError: true }));
    server.tool("either", { inputSchema: City, outputSchema: Weather }, async ({ city }) =>
      city === ""
        ? { content: [{ type: "text", text: "a city is needed" }], isError: true }
        : { content: [], structuredContent: { sky: "clear", place: { city, country: "FR" } } },
    );
    const client = await clientOf(server);
    const [refused, either] = [await client.callTool("refuse"), await client.callTool("either", { city: "" })];
    expect([refused, either]).toMatchObject([
      { content: [{ type: "text", text: "no sky today" }], isError: true },
      { content: [{ type: "text", text: "a city is needed" }], isError: true },
    ]);
    expect([refused.structuredContent, either.structuredContent]).toEqual([undefined, undefined]);
    expect((await client.callTool("either", { city: "Lyon" })).structuredContent).toEqual({
      sky: "clear",
      place: { city: "Lyon", country: "FR" },
    });
    await client.close();
  });

  it("refuses at compile time a wrong literal, optional or nested field, or no structuredContent; so does the run time", async () => {
    const server = newServer();
    // @ts-expect-error: "snow" is not one of the enum's values
    server.tool("literal", { inputSchema: City, outputSchema: Weather }, ({ city }) => ({
      content: [],
      structuredContent: { sky: "snow", place: { city, country: "NO" } },
    }));
    // @ts-expect-error: celsius is a number when given
    server.tool("optional", { outputSchema: Weather }, async () => ({
      content: [],
      structuredContent: { sky: "clear", celsius: "4", place: { city: "Oslo", country: "NO" } },
    }));
    // @ts-expect-error: the nested object lacks country
    server.tool("nested", { outputSchema: Weather }, () => ({ content: [], structuredContent: { sky: "clear", place: { city: "Oslo" } } }));
    // @ts-expect-error: a result that is not an error must carry structuredContent
    server.tool("missing", { inputSchema: City, outputSchema: Weather }, async ({ city }) => ({ content: [{ type: "text", text: city }] }));
    // @ts-expect-error: isError false is no error
    server.tool("not-error", { outputSchema: Weather }, () => ({ content: [], isError: false }));
    // @ts-expect-error: from a block body too (an async one is checked as a whole, so the error is here)
    server.tool("block", { outputSchema: Weather }, async () => {
      return { content: [], structuredContent: { sky: "hail", place: { city: "Oslo", country: "NO" } } };
    });
    const client = await clientOf(server);
    await expect(client.callTool("literal", { city: "Oslo" })).rejects.toThrow(mismatch("literal"));
    await expect(client.callTool("optional")).rejects.toThrow(mismatch("optional"));
    await expect(client.callTool("nested")).rejects.toThrow(mismatch("nested"));
    await expect(client.callTool("missing", { city: "Oslo" })).rejects.toThrow(missing("missing"));
    await expect(client.callTool("not-error")).rejects.toThrow(missing("not-error"));
    await expect(client.callTool("block")).rejects.toThrow(mismatch("block"));
    await client.close();
  });
});

describe("typed tool results: other Standard Schema validators", () => {
  it("types valibot's and arktype's output the same way, at compile time and at run time", async () => {
    const server = newServer();
    server.tool("valibot", { inputSchema: City, outputSchema: ValibotWeather }, ({ city }) => ({
      content: [{ type: "text", text: city }],
      structuredContent: { sky: "rain", celsius: 3 },
    }));
    server.tool("arktype", { outputSchema: ArkWeather }, async () => ({ content: [], structuredContent: { sky: "clear" } }));
    // @ts-expect-error: valibot's picklist has no "snow"
    server.tool("valibot-wrong", { outputSchema: ValibotWeather }, () => ({ content: [], structuredContent: { sky: "snow" } }));
    // @ts-expect-error: arktype's celsius is a number
    server.tool("arktype-wrong", { outputSchema: ArkWeather }, async () => ({
      content: [],
      structuredContent: { sky: "clear", celsius: "3" },
    }));
    const client = await clientOf(server);
    expect((await client.callTool("valibot", { city: "Oslo" })).structuredContent).toEqual({ sky: "rain", celsius: 3 });
    expect((await client.callTool("arktype")).structuredContent).toEqual({ sky: "clear" });
    await expect(client.callTool("valibot-wrong")).rejects.toThrow(mismatch("valibot-wrong"));
    await expect(client.callTool("arktype-wrong")).rejects.toThrow(mismatch("arktype-wrong"));
    await client.close();
  });
});

describe("untyped tool results", () => {
  it("leaves a plain JSON Schema output loose: anything compiles, the run-time check is all there is", async () => {
    const server = newServer();
    server.tool("json", { outputSchema: JsonWeather }, () => ({ content: [], structuredContent: { sky: "clear" } }));
    server.tool("json-wrong", { outputSchema: JsonWeather }, () => ({ content: [], structuredContent: { sky: 1 } }));
    server.tool("json-missing", { outputSchema: JsonWeather }, () => ({ content: [] }));
    server.tool("no-schema", {}, () => ({ content: [], structuredContent: { anything: true } }));
    const client = await clientOf(server);
    expect((await client.callTool("json")).structuredContent).toEqual({ sky: "clear" });
    await expect(client.callTool("json-wrong")).rejects.toThrow(mismatch("json-wrong"));
    await expect(client.callTool("json-missing")).rejects.toThrow(missing("json-missing"));
    expect((await client.callTool("no-schema")).structuredContent).toEqual({ anything: true });
    await client.close();
  });
});

const forecast: ToolHandler<typeof City, typeof Weather> = async ({ city }) => ({
  content: [],
  structuredContent: { sky: "clear", place: { city, country: "IT" } },
});
// @ts-expect-error: a handler written apart is checked too
const wrong: ToolHandler<typeof City, typeof Weather> = ({ city }) => ({
  content: [],
  structuredContent: { sky: "fog", place: { city, country: "IT" } },
});

describe("ToolHandler, ToolResult and StructuredContentOf", () => {
  it("type a handler written apart (and name each schema's result and structuredContent types); update() stays untyped", async () => {
    const server = newServer();
    const entry = server.tool("forecast", { inputSchema: City, outputSchema: Weather }, forecast);
    const client = await clientOf(server);
    expect((await client.callTool("forecast", { city: "Rome" })).structuredContent).toEqual({
      sky: "clear",
      place: { city: "Rome", country: "IT" },
    });
    // update() keeps the untyped configuration type: the new handler is the caller's word, checked at run time.
    entry.update({ handler: wrong });
    await expect(client.callTool("forecast", { city: "Rome" })).rejects.toThrow(mismatch("forecast"));
    await client.close();
    type Out = z.output<typeof Weather>;
    expectTypeOf<ToolResult<typeof Weather>>().toEqualTypeOf<
      CallToolResult & ({ readonly isError?: false | undefined; readonly structuredContent: Out } | { readonly isError: true })
    >();
    expectTypeOf<ToolResult<typeof JsonWeather>>().toEqualTypeOf<CallToolResult>();
    expectTypeOf<ToolResult>().toEqualTypeOf<CallToolResult>();
    expectTypeOf<StructuredContentOf<typeof Weather>>().toEqualTypeOf<Out>();
    expectTypeOf<StructuredContentOf<{ inputSchema: typeof City; outputSchema: typeof ArkWeather }>>().toEqualTypeOf<{
      sky: "clear" | "rain";
      celsius?: number;
    }>();
    expectTypeOf<StructuredContentOf<typeof ValibotWeather>>().toEqualTypeOf<{ sky: "clear" | "rain"; celsius?: number | undefined }>();
    expectTypeOf<StructuredContentOf<typeof JsonWeather>>().toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf<StructuredContentOf<{ inputSchema: typeof City }>>().toEqualTypeOf<Record<string, unknown>>();
  });
});

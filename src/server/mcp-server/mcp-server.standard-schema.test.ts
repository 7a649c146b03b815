// Standard Schema validators other than zod (valibot, arktype, a hand-written one) as tool schemas
// and elicitation schemas, through our MCPClient and a real MCPServer in memory, in both eras: the
// JSON Schema on the wire is the validator's own, arguments and results are checked by its
// `validate` (sync or async), a validator without a JSON Schema converter is refused by name.
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as z from "zod";
import * as zm from "zod/mini";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import type { MCPClientOptions } from "../../client/mcp-client/mcp-client.types.js";
import type { ElicitResult } from "../../schemas/schemas.js";
import { MCPServer } from "./mcp-server.js";
import type { StandardSchemaV1 } from "./mcp-server.types.js";
import { ourClientOf } from "./our-client.test-helpers.js";

const ERAS = ["session", "stateless"] as const;
const info = { name: "standard", version: "1.0.0" };

const Forecast = toStandardJsonSchema(
  v.object({ city: v.pipe(v.string(), v.minLength(2)), days: v.optional(v.pipe(v.number(), v.integer()), 1) }),
);
const Weather = toStandardJsonSchema(v.object({ celsius: v.number(), sky: v.picklist(["clear", "cloudy"]) }));
const Sum = type({ a: "number", b: "number" });

// valibot's async schemas validate through a Promise; its converter's types take only sync ones.

/** A validator of its own: async `validate`, JSON Schema through `toJsonSchema()` (no Standard JSON Schema). */
function asyncNames(): StandardSchemaV1<{ name: string }> & { toJsonSchema(): Record<string, unknown> } {
  return {
    "~standard": {
      version: 1,
      vendor: "hand-made",
      validate: (value) =>
        Promise.resolve(
          typeof (value as { name?: unknown }).name === "string"
            ? { value: value as { name: string } }
            : { issues: [{ message: "a name is needed" }] },
        ),
    },
    toJsonSchema: () => ({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { name: { type: "string" } },
    }),
  };
}

function standardServer(): MCPServer {
  const server = new MCPServer(info, { telemetry: null });
  // @ts-expect-error: the types refuse the wrong result ("Nowhere"); here it reaches the run-time check
  server.tool("forecast", { inputSchema: Forecast, outputSchema: Weather }, ({ city, days }) => {
    expectTypeOf(city).toEqualTypeOf<string>();
    expectTypeOf(days).toEqualTypeOf<number>();
    return { content: [], structuredContent: city === "Nowhere" ? { celsius: "warm" } : { celsius: 20 + days, sky: "clear" } };
  });
  server.tool("sum", { inputSchema: Sum, outputSchema: type({ sum: "number" }) }, ({ a, b }) => {
    expectTypeOf(a).toEqualTypeOf<number>();
    return { content: [], structuredContent: { sum: a + b } };
  });
  server.tool(
    "greet",
    {
      inputSchema: asyncNames(),
      outputSchema: toStandardJsonSchema(v.objectAsync({ text: v.string() }) as unknown as v.GenericSchema<{ text: string }>),
    },
    // @ts-expect-error: as above, for an async validator
    ({ name }) => {
      expectTypeOf(name).toEqualTypeOf<string>();
      return { content: [], structuredContent: name === "" ? { text: 0 } : { text: `hello ${name}` } };
    },
  );
  return server;
}

const refused = (text: string) => expect.objectContaining({ isError: true, content: [{ type: "text", text }] });

const connected = (server: MCPServer, era: "session" | "stateless", options: MCPClientOptions = {}) =>
  ourClientOf(server, era, { name: "standard-client", ...options });

describe.each(ERAS)("Standard Schema tools (%s era)", (era) => {
  it("lists each validator's own JSON Schema 2020-12 (input side and output side), without $schema", async () => {
    const client = await connected(standardServer(), era);
    const { tools } = await client.listTools();
    expect(tools.map(({ name, inputSchema, outputSchema }) => ({ name, inputSchema, outputSchema }))).toEqual([
      {
        name: "forecast",
        inputSchema: {
          type: "object",
          properties: { city: { type: "string", minLength: 2 }, days: { type: "integer", default: 1 } },
          required: ["city"],
        },
        outputSchema: {
          type: "object",
          properties: { celsius: { type: "number" }, sky: { type: "string", enum: ["clear", "cloudy"] } },
          required: ["celsius", "sky"],
        },
      },
      {
        name: "sum",
        inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
        outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
      },
      {
        name: "greet",
        inputSchema: { type: "object", properties: { name: { type: "string" } } },
        outputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      },
    ]);
    await client.close();
  });

  it("calls the handler with the validator's output (defaults applied) and checks its structured result", async () => {
    const client = await connected(standardServer(), era);
    await expect(client.callTool("forecast", { city: "Lyon" })).resolves.toMatchObject({
      structuredContent: { celsius: 21, sky: "clear" },
    });
    await expect(client.callTool("sum", { a: 1, b: 2 })).resolves.toMatchObject({ structuredContent: { sum: 3 } });
    await expect(client.callTool("greet", { name: "Ada" })).resolves.toMatchObject({ structuredContent: { text: "hello Ada" } });
    await client.close();
  });

  it("answers arguments the validator refuses with its issues, paths first (segment objects and plain keys alike)", async () => {
    const client = await connected(standardServer(), era);
    await expect(client.callTool("forecast", { city: "L", days: 1.5 })).resolves.toEqual(
      refused(
        "Invalid arguments for tool forecast: city: Invalid length: Expected >=2 but received 1; days: Invalid integer: Received 1.5",
      ),
    );
    await expect(client.callTool("sum", { a: 1, b: "2" })).resolves.toEqual(
      refused("Invalid arguments for tool sum: b: b must be a number (was a string)"),
    );
    await expect(client.callTool("greet", {})).resolves.toEqual(refused("Invalid arguments for tool greet: a name is needed"));
    await client.close();
  });

  it("refuses a structured result the output validator refuses (-32603), sync or async", async () => {
    const client = await connected(standardServer(), era);
    await expect(client.callTool("forecast", { city: "Nowhere" })).rejects.toThrow(
      "Tool forecast returned structuredContent that does not match its output schema: " +
        'celsius: Invalid type: Expected number but received "warm"; sky: Invalid key: Expected "sky" but received undefined',
    );
    await expect(client.callTool("greet", { name: "" })).rejects.toThrow(
      "Tool greet returned structuredContent that does not match its output schema: text: Invalid type: Expected string but received 0",
    );
    await client.close();
  });
});

describe("Standard Schema tools: registration", () => {
  it("refuses a validator that gives no JSON Schema, naming the tool, the vendor and the fix", () => {
    const server = new MCPServer(info);
    const bare: StandardSchemaV1<{ n: number }> = {
      "~standard": { version: 1, vendor: "bare", validate: (value) => ({ value: value as { n: number } }) },
    };
    expect(() => server.tool("bare", { inputSchema: bare }, () => ({ content: [] }))).toThrow(
      expect.objectContaining({
        code: MCP_CODES.INVALID_PARAMS,
        message:
          'The input schema of tool "bare" (bare) has no JSON Schema: ' +
          "wrap it in its Standard JSON Schema converter (valibot: toStandardJsonSchema)",
      }),
    );
    // valibot without its converter has `~standard` but no JSON Schema.
    expect(() => server.tool("raw", { outputSchema: v.object({ n: v.number() }) }, () => ({ content: [], isError: true }))).toThrow(
      expect.objectContaining({ message: expect.stringContaining('The output schema of tool "raw" (valibot) has no JSON Schema') }),
    );
  });

  it("refuses a validator whose converter cannot say it in JSON Schema, naming the tool and the converter's reason", () => {
    const server = new MCPServer({ name: "s", version: "1.0.0" });
    const checked = toStandardJsonSchema(
      v.object({
        name: v.pipe(
          v.string(),
          v.check((name) => name.length > 1),
        ),
      }),
    );
    expect(() => server.tool("checked", { inputSchema: checked }, () => ({ content: [] }))).toThrow(
      expect.objectContaining({
        code: MCP_CODES.INVALID_PARAMS,
        message:
          'The input schema of tool "checked" (valibot) cannot be given as JSON Schema: ' +
          'The "check" action cannot be converted to JSON Schema.',
      }),
    );
  });

  it("refuses a validator whose JSON Schema is no object schema", () => {
    const server = new MCPServer(info);
    expect(() => server.tool("text", { inputSchema: toStandardJsonSchema(v.string()) }, () => ({ content: [] }))).toThrow(
      expect.objectContaining({
        code: MCP_CODES.INVALID_PARAMS,
        message: 'The input schema of tool "text" must describe an object (type "object")',
      }),
    );
    expect(() => server.tool("list", { outputSchema: type("string[]") }, () => ({ content: [], isError: true }))).toThrow(
      expect.objectContaining({ message: 'The output schema of tool "list" must describe an object (type "object")' }),
    );
  });

  it("keeps zod schemas (which carry `~standard` too) on the zod path: their issues read as zod's, not as Standard messages", async () => {
    const server = new MCPServer(info);
    server.tool("zod", { inputSchema: z.object({ n: z.number() }) }, ({ n }) => ({ content: [{ type: "text", text: String(n) }] }));
    const client = await connected(server, "session");
    expect((await client.listTools()).tools[0]?.inputSchema).toEqual({
      type: "object",
      properties: { n: { type: "number" } },
      required: ["n"],
    });
    await expect(client.callTool("zod", { n: "1" })).resolves.toMatchObject({
      content: [{ text: "Invalid arguments for tool zod: n: expected number, received string" }],
    });
    await client.close();
  });
});

const Contact = toStandardJsonSchema(v.object({ name: v.string(), age: v.optional(v.number(), 30) }));

/** Accepts what the JSON Schema allows but refuses the name "nobody": what only the validator knows. */
const NotNobody: StandardSchemaV1<{ name: string }> = {
  "~standard": {
    version: 1,
    vendor: "hand-made",
    validate: (value) =>
      (value as { name: string }).name === "nobody"
        ? { issues: [{ message: "a real name, please", path: ["name"] }] }
        : { value: value as { name: string } },
    jsonSchema: {
      input: () => ({ type: "object", properties: { name: { type: "string" } }, required: ["name"] }),
      output: () => ({ type: "object", properties: { name: { type: "string" } }, required: ["name"] }),
    },
  },
};

function askingServer(): MCPServer {
  const server = new MCPServer(info, { telemetry: null });
  server.tool("contact", {}, async (_args, ctx) => {
    const answer = await ctx.elicitInput({ message: "Who?", requestedSchema: Contact });
    expectTypeOf(answer.content).toEqualTypeOf<{ name: string; age: number } | undefined>();
    return { content: [{ type: "text", text: JSON.stringify(answer) }] };
  });
  server.tool("strict", {}, async (_args, ctx) => {
    const answer = await ctx.elicitInput({ message: "Who, really?", requestedSchema: NotNobody });
    return { content: [{ type: "text", text: JSON.stringify(answer) }] };
  });
  server.tool("zod", {}, async (_args, ctx) => {
    const answer = await ctx.elicitInput({ message: "Sure?", requestedSchema: z.object({ sure: z.boolean() }) });
    expectTypeOf(answer.content).toEqualTypeOf<{ sure: boolean } | undefined>();
    return { content: [{ type: "text", text: JSON.stringify(answer) }] };
  });
  server.tool("note", {}, async (_args, ctx) => {
    const answer = await ctx.elicitInput({
      message: "A note?",
      requestedSchema: toStandardJsonSchema(v.object({ note: v.optional(v.string(), "none") })),
    });
    return { content: [{ type: "text", text: JSON.stringify(answer) }] };
  });
  server.tool("plain", {}, async (_args, ctx) => {
    const answer: ElicitResult = await ctx.elicitInput({
      message: "Ok?",
      requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
    });
    return { content: [{ type: "text", text: JSON.stringify(answer) }] };
  });
  server.tool("mini", {}, async (_args, ctx) => {
    await ctx.elicitInput({ message: "Sure?", requestedSchema: zm.object({ sure: zm.boolean() }) });
    return { content: [] };
  });
  server.tool("text", {}, async (_args, ctx) => {
    await ctx.elicitInput({ message: "Text?", requestedSchema: toStandardJsonSchema(v.string()) });
    return { content: [] };
  });
  return server;
}

describe.each(ERAS)("Standard Schema elicitation (%s era)", (era) => {
  it("asks with the validator's JSON Schema and gives the accepted answer as the validator's output", async () => {
    const asked: unknown[] = [];
    const answers: ElicitResult[] = [
      { action: "accept", content: { name: "Ada" } },
      { action: "decline" },
      { action: "accept", content: { ok: true } },
      { action: "accept", content: { sure: true } },
      { action: "accept" },
    ];
    const client = await connected(askingServer(), era, {
      elicitation: {
        form: (params) => {
          asked.push(params.requestedSchema);
          return answers.shift() as ElicitResult;
        },
      },
    });
    const text = async (name: string) => JSON.parse(((await client.callTool(name)).content[0] as { text: string }).text) as unknown;
    await expect(text("contact")).resolves.toEqual({ action: "accept", content: { name: "Ada", age: 30 } });
    await expect(text("contact")).resolves.toEqual({ action: "decline" });
    await expect(text("plain")).resolves.toEqual({ action: "accept", content: { ok: true } });
    await expect(text("zod")).resolves.toEqual({ action: "accept", content: { sure: true } });
    // Accepted with no content: the validator sees an empty form, as the JSON Schema check does.
    await expect(text("note")).resolves.toEqual({ action: "accept", content: { note: "none" } });
    expect(asked[3]).toEqual({ type: "object", properties: { sure: { type: "boolean" } }, required: ["sure"] });
    expect(asked[0]).toEqual({
      type: "object",
      properties: { name: { type: "string" }, age: { type: "number", default: 30 } },
      required: ["name"],
    });
    await client.close();
  });

  it("converts a validator to JSON Schema once, however often a handler asks with it", async () => {
    let conversions = 0;
    const counted: StandardSchemaV1<{ name: string }> = {
      "~standard": {
        ...NotNobody["~standard"],
        jsonSchema: { input: () => (conversions++, { type: "object", properties: { name: { type: "string" } } }), output: () => ({}) },
      },
    };
    const server = new MCPServer(info, { telemetry: null });
    server.tool("twice", {}, async (_args, ctx) => {
      const first = await ctx.elicitInput({ message: "Who?", requestedSchema: counted }, { key: "first" });
      const second = await ctx.elicitInput({ message: "Who else?", requestedSchema: counted }, { key: "second" });
      return { content: [{ type: "text", text: `${String(first.content?.name)} ${String(second.content?.name)}` }] };
    });
    const client = await connected(server, era, {
      elicitation: { form: (params) => ({ action: "accept", content: { name: params.message === "Who?" ? "Ada" : "Alan" } }) },
    });
    expect((await client.callTool("twice")).content).toEqual([{ type: "text", text: "Ada Alan" }]);
    expect((await client.callTool("twice")).content).toEqual([{ type: "text", text: "Ada Alan" }]);
    expect(conversions).toBe(1);
    await client.close();
  });

  it("refuses an answer the validator refuses, and a validator whose JSON Schema is no object schema", async () => {
    const client = await connected(askingServer(), era, {
      elicitation: { form: () => ({ action: "accept", content: { name: "nobody" } }) },
    });
    await expect(client.callTool("strict")).resolves.toMatchObject({
      isError: true,
      content: [
        { text: expect.stringContaining("The client's elicitation answer does not match the requested schema: name: a real name, please") },
      ],
    });
    // No zod/mini tool loaded zod's converter, and zod/mini has no Standard JSON Schema.
    await expect(client.callTool("mini")).resolves.toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining("The input schema of the elicitation (zod) has no JSON Schema") }],
    });
    await expect(client.callTool("text")).resolves.toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('The input schema of the elicitation must describe an object (type "object")') }],
    });
    await client.close();
  });
});

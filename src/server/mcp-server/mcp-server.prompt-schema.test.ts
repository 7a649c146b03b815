// Prompts whose arguments a schema gives (`argsSchema`: zod, valibot, arktype, a hand-made Standard
// Schema validator), through our MCPClient and a real MCPServer in memory, in both eras: the
// arguments listed from the schema's JSON Schema, `prompts/get` checked by the validator and its
// typed output handed to the handler, completers beside the schema, the refusals at registration,
// `update` and `mount`.
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import type { GetPromptResult } from "../../schemas/schemas.js";
import { mount } from "../compose/mount.js";
import { MCPServer } from "./mcp-server.js";
import type { StandardSchemaV1 } from "./mcp-server.types.js";
import { sdkClientOf } from "./mcp-server.test-helpers.js";
import { ourClientOf } from "./our-client.test-helpers.js";

const ERAS = ["session", "stateless"] as const;
const info = { name: "prompts", version: "1.0.0" };

const said = (text: string): GetPromptResult => ({ messages: [{ role: "user", content: { type: "text", text } }] });

const Review = z.object({
  language: z.enum(["go", "ts"]).describe("The language"),
  lines: z.string().regex(/^\d+$/).transform(Number).optional().meta({ title: "Lines", description: "How many lines" }),
});
const Trip = toStandardJsonSchema(
  v.object({
    city: v.pipe(v.string(), v.minLength(2), v.title("City"), v.description("Where to")),
    unit: v.optional(v.picklist(["C", "F"]), "C"),
  }),
);
const Batch = type({ count: "string.numeric.parse", "mode?": "'fast' | 'slow'" });

/** A validator of its own: async `validate`, JSON Schema through `toJsonSchema()`, a literal without `type`. */
function greeting(): StandardSchemaV1<{ name: string; tone: "warm" }> & { toJsonSchema(): Record<string, unknown> } {
  return {
    "~standard": {
      version: 1,
      vendor: "hand-made",
      validate: (value) =>
        Promise.resolve(
          (value as { name?: unknown }).name === "nobody"
            ? { issues: [{ message: "a real name, please", path: [{ key: "name" }] }] }
            : { value: { ...(value as { name: string }), tone: "warm" as const } },
        ),
    },
    toJsonSchema: () => ({ type: "object", properties: { name: { type: "string" }, tone: { const: "warm" } }, required: ["name"] }),
  };
}

function promptServer(): MCPServer {
  const server = new MCPServer(info, { telemetry: null });
  server.prompt(
    "review",
    {
      title: "Review",
      argsSchema: Review,
      complete: { language: (typed) => ["go", "ts"].filter((language) => language.startsWith(typed)) },
    },
    ({ language, lines }) => {
      expectTypeOf(language).toEqualTypeOf<"go" | "ts">();
      expectTypeOf(lines).toEqualTypeOf<number | undefined>();
      return said(`Review ${lines ?? "all"} lines of ${language}`);
    },
  );
  server.prompt(
    "trip",
    { argsSchema: Trip, complete: { city: (typed, { arguments: given }) => [`${typed}ville (${given["unit"] ?? "?"})`] } },
    ({ city, unit }) => {
      expectTypeOf(unit).toEqualTypeOf<"C" | "F">();
      return said(`${city} in °${unit}`);
    },
  );
  server.prompt("batch", { argsSchema: Batch }, ({ count, mode }) => {
    expectTypeOf(count).toEqualTypeOf<number>();
    expectTypeOf(mode).toEqualTypeOf<"fast" | "slow" | undefined>();
    return said(`${count + 1} ${mode ?? "any"}`);
  });
  server.prompt("greet", { argsSchema: greeting() }, ({ name, tone }) => said(`${tone} hello, ${name}`));
  return server;
}

const connected = (server: MCPServer, era: "session" | "stateless") => ourClientOf(server, era, { name: "prompt-client" });

const textOf = (result: GetPromptResult) => (result.messages[0] as { content: { text: string } }).content.text;
const ref = (name: string) => ({ type: "ref/prompt" as const, name });
const refusal = (prompt: string, property: string) =>
  expect.objectContaining({
    code: MCP_CODES.INVALID_PARAMS,
    message: `The input schema of prompt "${prompt}" must describe strings, as prompt arguments are: "${property}" is not one`,
  });
const invalid = (message: string) =>
  expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, wireCode: -32602, message: expect.stringContaining(message) });

describe.each(ERAS)("prompts with an argsSchema (%s era)", (era) => {
  it("lists the schema's properties as arguments: title and description from the JSON Schema, required from `required`", async () => {
    const client = await connected(promptServer(), era);
    expect((await client.listPrompts()).prompts).toEqual([
      {
        name: "review",
        title: "Review",
        arguments: [
          { name: "language", description: "The language", required: true },
          { name: "lines", title: "Lines", description: "How many lines", required: false },
        ],
      },
      {
        name: "trip",
        arguments: [
          { name: "city", title: "City", description: "Where to", required: true },
          { name: "unit", required: false },
        ],
      },
      {
        name: "batch",
        arguments: [
          { name: "count", required: true },
          { name: "mode", required: false },
        ],
      },
      {
        name: "greet",
        arguments: [
          { name: "name", required: true },
          { name: "tone", required: false },
        ],
      },
    ]);
    await client.close();
  });

  it("hands the handler the validator's output: transformed, parsed, defaulted", async () => {
    const client = await connected(promptServer(), era);
    expect(textOf(await client.getPrompt("review", { language: "go", lines: "12" }))).toBe("Review 12 lines of go");
    expect(textOf(await client.getPrompt("review", { language: "ts" }))).toBe("Review all lines of ts");
    expect(textOf(await client.getPrompt("trip", { city: "Lyon" }))).toBe("Lyon in °C");
    expect(textOf(await client.getPrompt("batch", { count: "41", mode: "slow" }))).toBe("42 slow");
    expect(textOf(await client.getPrompt("greet", { name: "Ada" }))).toBe("warm hello, Ada");
    await client.close();
  });

  it("refuses arguments the validator refuses with -32602, its issues named by path", async () => {
    const client = await connected(promptServer(), era);
    await expect(client.getPrompt("review", { language: "rust" })).rejects.toEqual(
      invalid('Invalid arguments for prompt review: language: expected "go" | "ts"'),
    );
    await expect(client.getPrompt("review", { language: "go", lines: "many" })).rejects.toEqual(
      invalid("Invalid arguments for prompt review: lines: expected regex format"),
    );
    await expect(client.getPrompt("trip", { city: "L", unit: "K" })).rejects.toEqual(
      invalid(
        "Invalid arguments for prompt trip: city: Invalid length: Expected >=2 but received 1; " +
          'unit: Invalid type: Expected ("C" | "F") but received "K"',
      ),
    );
    await expect(client.getPrompt("batch", { count: "x" })).rejects.toEqual(
      invalid("Invalid arguments for prompt batch: count: count must be a well-formed numeric string"),
    );
    await expect(client.getPrompt("greet", { name: "nobody" })).rejects.toEqual(
      invalid("Invalid arguments for prompt greet: name: a real name, please"),
    );
    await client.close();
  });

  it("names missing required arguments as for a listed prompt, before the validator runs", async () => {
    const client = await connected(promptServer(), era);
    await expect(client.getPrompt("trip", {})).rejects.toEqual(invalid("Missing required argument for prompt trip: city"));
    await expect(client.getPrompt("review")).rejects.toEqual(invalid("Missing required argument for prompt review: language"));
    await client.close();
  });

  it("completes a schema's arguments with the completers beside it, and nothing for the others", async () => {
    const client = await connected(promptServer(), era);
    expect((await client.complete(ref("review"), { name: "language", value: "t" })).completion).toEqual({
      values: ["ts"],
      total: 1,
      hasMore: false,
    });
    expect((await client.complete(ref("trip"), { name: "city", value: "Lyon" }, { arguments: { unit: "F" } })).completion.values).toEqual([
      "Lyonville (F)",
    ]);
    expect((await client.complete(ref("trip"), { name: "unit", value: "" })).completion.values).toEqual([]);
    expect((await client.complete(ref("batch"), { name: "count", value: "" })).completion.values).toEqual([]);
    await client.close();
  });
});

describe("prompts with an argsSchema: what the server declares and refuses", () => {
  it("serves the official SDK's client: listed arguments it accepts, its gets checked", async () => {
    const { client } = await sdkClientOf(promptServer());
    // Its schema of a prompt argument has no title (it strips what it does not know).
    expect((await client.listPrompts()).prompts[1]).toEqual({
      name: "trip",
      arguments: [
        { name: "city", description: "Where to", required: true },
        { name: "unit", required: false },
      ],
    });
    expect(textOf(await client.getPrompt({ name: "batch", arguments: { count: "9" } }))).toBe("10 any");
    await expect(client.getPrompt({ name: "batch", arguments: { count: "nine" } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Invalid arguments for prompt batch: count:"),
    });
    await client.close();
  });

  it("declares completions when the only completers are beside a schema", async () => {
    const server = new MCPServer(info, { telemetry: null });
    server.prompt("trip", { argsSchema: Trip, complete: { city: () => ["Lyon"] } }, ({ city }) => said(city));
    const client = await connected(server, "session");
    expect(client.serverCapabilities?.completions).toEqual({});
    await client.close();
    const bare = new MCPServer(info, { telemetry: null });
    bare.prompt("trip", { argsSchema: Trip }, ({ city }) => said(city));
    const other = await connected(bare, "session");
    expect(other.serverCapabilities?.completions).toBeUndefined();
    await other.close();
  });

  it("refuses a schema with a property that is no string, naming it: the wire carries strings only", () => {
    const server = new MCPServer(info);
    expect(() => server.prompt("count", { argsSchema: z.object({ topic: z.string(), count: z.number() }) }, () => said(""))).toThrow(
      refusal("count", "count"),
    );
    // zod's coercion takes any input: its input side is no string.
    expect(() => server.prompt("coerced", { argsSchema: z.object({ count: z.coerce.number() }) }, () => said(""))).toThrow(
      refusal("coerced", "count"),
    );
    expect(() => server.prompt("nullable", { argsSchema: z.object({ note: z.string().nullable() }) }, () => said(""))).toThrow(
      refusal("nullable", "note"),
    );
    expect(() => server.prompt("flag", { argsSchema: toStandardJsonSchema(v.object({ on: v.boolean() })) }, () => said(""))).toThrow(
      refusal("flag", "on"),
    );
    expect(() => server.prompt("level", { argsSchema: type({ level: "1 | 2" }) }, () => said(""))).toThrow(refusal("level", "level"));
    expect(() => server.prompt("anything", { argsSchema: z.object({ value: z.unknown() }) }, () => said(""))).toThrow(
      refusal("anything", "value"),
    );
    const mixed: StandardSchemaV1<{ pick: string | number }> = {
      "~standard": {
        version: 1,
        vendor: "hand-made",
        validate: (value) => ({ value: value as { pick: string } }),
        jsonSchema: { input: () => ({ type: "object", properties: { pick: { enum: ["a", 1] } } }), output: () => ({}) },
      },
    };
    expect(() => server.prompt("mixed", { argsSchema: mixed }, () => said(""))).toThrow(refusal("mixed", "pick"));
    expect(server.registrationOf("prompts/get", { name: "count" })).toBeUndefined();
  });

  it("refuses a validator that gives no JSON Schema, and one that is no object, naming the prompt", () => {
    const server = new MCPServer(info);
    const bare: StandardSchemaV1<{ topic: string }> = {
      "~standard": { version: 1, vendor: "bare", validate: (value) => ({ value: value as { topic: string } }) },
    };
    expect(() => server.prompt("bare", { argsSchema: bare }, () => said(""))).toThrow(
      expect.objectContaining({
        code: MCP_CODES.INVALID_PARAMS,
        message:
          'The input schema of prompt "bare" (bare) has no JSON Schema: ' +
          "wrap it in its Standard JSON Schema converter (valibot: toStandardJsonSchema)",
      }),
    );
    expect(() => server.prompt("raw", { argsSchema: v.object({ topic: v.string() }) }, () => said(""))).toThrow(
      expect.objectContaining({ message: expect.stringContaining('The input schema of prompt "raw" (valibot) has no JSON Schema') }),
    );
    expect(() => server.prompt("text", { argsSchema: type("string") }, () => said(""))).toThrow(
      expect.objectContaining({
        code: MCP_CODES.INVALID_PARAMS,
        message: 'The input schema of prompt "text" must describe an object (type "object")',
      }),
    );
  });

  it("types the configuration: no listed arguments beside a schema, completers only for its arguments", () => {
    const server = new MCPServer(info);
    expect(() =>
      // @ts-expect-error -- the schema gives the arguments
      server.prompt("both", { argsSchema: Trip, arguments: { city: { required: true } } }, ({ city }) => said(city)),
    ).not.toThrow();
    // @ts-expect-error -- `country` is none of the schema's arguments
    server.prompt("typo", { argsSchema: Trip, complete: { country: () => [] } }, ({ city }) => said(city));
    // @ts-expect-error -- completers beside a schema only; a listed argument carries its own
    server.prompt("listed", { arguments: { city: {} }, complete: { city: () => [] } }, ({ city }) => said(city ?? ""));
    expect(server.registrationOf("prompts/get", { name: "typo" })).toBeDefined();
  });

  it("gives no title or description to an argument whose property has none (what a layer sees too)", async () => {
    const server = new MCPServer(info, { telemetry: null });
    server.prompt("trip", { argsSchema: Trip }, ({ city }) => said(city));
    const seen: unknown[] = [];
    server.use("prompts/list", (next) => async (request, context) => {
      const result = await next(request, context);
      seen.push(...(result.prompts[0]?.arguments ?? []).map((argument) => Object.keys(argument)));
      return result;
    });
    const client = await connected(server, "session");
    await client.listPrompts();
    expect(seen).toEqual([
      ["name", "required", "title", "description"],
      ["name", "required"],
    ]);
    await client.close();
  });

  it("lists and checks by the schema when a prompt has listed arguments too", async () => {
    const server = new MCPServer(info, { telemetry: null });
    const both = { argsSchema: Trip, arguments: { other: { required: true } } };
    server.prompt("both", both as unknown as { argsSchema: typeof Trip }, ({ city }) => said(city));
    const client = await connected(server, "stateless");
    expect((await client.listPrompts()).prompts[0]?.arguments?.map((argument) => argument.name)).toEqual(["city", "unit"]);
    expect(textOf(await client.getPrompt("both", { city: "Oslo" }))).toBe("Oslo");
    await client.close();
  });
});

describe.each(ERAS)("prompts with an argsSchema: update and mount (%s era)", (era) => {
  it("follows update(): from listed arguments to a schema, to another schema; a refused update changes nothing", async () => {
    const server = new MCPServer(info, { telemetry: null });
    const handle = server.prompt("topic", { arguments: { topic: { required: true } } }, ({ topic }) => said(`about ${topic}`));
    const client = await connected(server, era);
    expect((await client.listPrompts()).prompts[0]?.arguments).toEqual([{ name: "topic", required: true }]);
    handle.update({ arguments: undefined, argsSchema: z.object({ topic: z.string().min(3) }) } as never);
    expect((await client.listPrompts()).prompts[0]?.arguments).toEqual([{ name: "topic", required: true }]);
    await expect(client.getPrompt("topic", { topic: "ai" })).rejects.toEqual(
      invalid("Invalid arguments for prompt topic: topic: length must be at least 3"),
    );
    handle.update({
      argsSchema: z.object({ subject: z.string().optional() }),
      handler: ({ subject }: { subject?: string }) => said(`on ${subject ?? "anything"}`),
    } as never);
    expect((await client.listPrompts()).prompts[0]?.arguments).toEqual([{ name: "subject", required: false }]);
    expect(textOf(await client.getPrompt("topic", {}))).toBe("on anything");
    expect(() => handle.update({ argsSchema: z.object({ n: z.number() }) } as never)).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: expect.stringContaining('"n" is not one') }),
    );
    expect((await client.listPrompts()).prompts[0]?.arguments).toEqual([{ name: "subject", required: false }]);
    await client.close();
  });

  it("is mounted like any prompt: listed, checked by the child's schema, completed by the child's completers", async () => {
    const parent = new MCPServer({ name: "parent", version: "1.0.0" }, { telemetry: null });
    await mount(parent, "p", promptServer());
    const client = await connected(parent, era);
    const listed = (await client.listPrompts()).prompts;
    expect(listed.map((prompt) => prompt.name)).toEqual(["p_review", "p_trip", "p_batch", "p_greet"]);
    expect(listed[1]?.arguments).toEqual([
      { name: "city", title: "City", description: "Where to", required: true },
      { name: "unit", required: false },
    ]);
    expect(textOf(await client.getPrompt("p_batch", { count: "1" }))).toBe("2 any");
    await expect(client.getPrompt("p_trip", { city: "L" })).rejects.toEqual(
      invalid("Invalid arguments for prompt trip: city: Invalid length"),
    );
    expect((await client.complete(ref("p_review"), { name: "language", value: "g" })).completion.values).toEqual(["go"]);
    await client.close();
  });
});

// Plain JSON Schemas a server is given for its tools and prompts, and the client's check of a tool's
// structuredContent: documents given by URI in the `jsonSchema.schemas` option resolve their `$ref`s,
// and a legal schema the validator cannot check (`$dynamicRef`, a document not given) fails neither a
// registration nor a call: its values pass unchecked and `schema:unchecked` tells of it, unless
// `jsonSchema.unsupported` is "refuse". Through our MCPClient and a real MCPServer in memory.
import { prepareObjectSchema } from "./schema-support.js";
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { EventBus, type MCPEventMap } from "../../events/events.js";
import type { JsonSchemaOptions } from "../../json-schema/json-schema.js";
import { MCPClient } from "../../client/mcp-client/mcp-client.js";
import { InMemoryTransport } from "../../transport/in-memory/in-memory.js";
import { MCPServer } from "./mcp-server.js";

type Unchecked = MCPEventMap["schema:unchecked"];

const DEFS = "https://schemas.example.org/defs.json";
const schemas = { [DEFS]: { $defs: { city: { type: "string", minLength: 2 }, celsius: { type: "number" } } } };

// A tree whose nodes any extension may narrow: legal 2020-12 that this validator cannot check.
const dynamicTree = {
  type: "object",
  $dynamicAnchor: "node",
  properties: { children: { type: "array", items: { $dynamicRef: "#node" } } },
};
const remoteWeather = {
  type: "object",
  properties: { city: { $ref: `${DEFS}#/$defs/city` }, celsius: { $ref: `${DEFS}#/$defs/celsius` } },
};

function listen(events: EventBus<MCPEventMap>): Unchecked[] {
  const heard: Unchecked[] = [];
  events.on("schema:unchecked", (payload) => heard.push(payload));
  return heard;
}

async function connect(server: MCPServer, options: { events?: EventBus<MCPEventMap>; jsonSchema?: JsonSchemaOptions } = {}) {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  await server.start(serverEnd);
  const client = new MCPClient({ name: "schema-client", version: "1.0.0" }, { telemetry: null, ...options });
  await client.connect(clientEnd);
  return client;
}

const text = (value: string) => [{ type: "text" as const, text: value }];

describe("MCPServer: a tool or prompt schema it cannot check", () => {
  it("registers it, tells schema:unchecked once, and runs every call with the arguments unchecked", async () => {
    const events = new EventBus<MCPEventMap>();
    const heard = listen(events);
    const server = new MCPServer({ name: "trees", version: "1.0.0" }, { telemetry: null, events });
    const seen: unknown[] = [];
    server.tool("tree", { inputSchema: dynamicTree, outputSchema: remoteWeather }, (args) => {
      seen.push(args);
      return { content: text("ok"), structuredContent: { city: 1 } };
    });
    expect(heard).toEqual([
      {
        side: "server",
        subject: 'the input schema of tool "tree"',
        reason: "unsupported JSON Schema at #/properties/children/items/$dynamicRef: is not supported (only $ref is)",
      },
      {
        side: "server",
        subject: 'the output schema of tool "tree"',
        reason:
          `unsupported JSON Schema at #/properties/city/$ref: cannot resolve "${DEFS}#/$defs/city": a remote reference: ` +
          `the document "${DEFS}" is not in the schemas option (nothing is fetched)`,
      },
    ]);
    const client = await connect(server);
    const { tools } = await client.listTools();
    expect(tools[0]?.inputSchema).toEqual(dynamicTree);
    await expect(client.callTool("tree", { children: ["not a node"] })).resolves.toMatchObject({ structuredContent: { city: 1 } });
    expect(seen).toEqual([{ children: ["not a node"] }]);
    expect(heard).toHaveLength(2);
    await client.close();
  });

  // Prompt schemas are typed as validators; plain JSON Schema from untyped code is served all the same.
  it("registers a prompt whose plain JSON argsSchema it cannot check, and serves it", async () => {
    const events = new EventBus<MCPEventMap>();
    const heard = listen(events);
    const server = new MCPServer({ name: "prompts", version: "1.0.0" }, { telemetry: null, events });
    const argsSchema = { type: "object", properties: { topic: { type: "string", $ref: "https://example.org/topic.json" } } };
    server.prompt("brief", { argsSchema: argsSchema as never }, (args: { topic?: unknown }) => ({
      messages: [{ role: "user", content: { type: "text", text: String(args.topic) } }],
    }));
    expect(heard.map(({ subject }) => subject)).toEqual(['the input schema of prompt "brief"']);
    const client = await connect(server);
    await expect(client.getPrompt("brief", { topic: "tides" })).resolves.toMatchObject({
      messages: [{ content: { text: "tides" } }],
    });
    await client.close();
  });

  it("tells again when update() gives a new schema it cannot check", () => {
    const events = new EventBus<MCPEventMap>();
    const heard = listen(events);
    const server = new MCPServer({ name: "updates", version: "1.0.0" }, { telemetry: null, events });
    const tool = server.tool("tree", { inputSchema: { type: "object" } }, () => ({ content: text("ok") }));
    expect(heard).toEqual([]);
    tool.update({ inputSchema: dynamicTree });
    expect(heard.map(({ subject }) => subject)).toEqual(['the input schema of tool "tree"']);
  });

  it('refuses the registration under jsonSchema.unsupported: "refuse"', () => {
    const server = new MCPServer({ name: "strict", version: "1.0.0" }, { telemetry: null, jsonSchema: { unsupported: "refuse" } });
    expect(() => server.tool("tree", { inputSchema: dynamicTree }, () => ({ content: text("ok") }))).toThrow(
      expect.objectContaining({
        code: MCP_CODES.INVALID_PARAMS,
        message: "unsupported JSON Schema at #/properties/children/items/$dynamicRef: is not supported (only $ref is)",
      }),
    );
  });

  it("still refuses a schema that is invalid, whatever the option", () => {
    const server = new MCPServer({ name: "invalid", version: "1.0.0" }, { telemetry: null });
    expect(() =>
      server.tool("bad", { inputSchema: { type: "object", properties: { a: { minLength: -1 } } } }, () => ({ content: text("") })),
    ).toThrow("invalid JSON Schema at #/properties/a/minLength: must be a non-negative integer");
  });
});

describe("MCPServer: documents given in jsonSchema.schemas", () => {
  it("checks arguments against the $refs they resolve, telling of nothing", async () => {
    const events = new EventBus<MCPEventMap>();
    const heard = listen(events);
    const server = new MCPServer({ name: "weather", version: "1.0.0" }, { telemetry: null, events, jsonSchema: { schemas } });
    server.tool("weather", { inputSchema: remoteWeather }, ({ city }) => ({ content: text(String(city)) }));
    const client = await connect(server);
    await expect(client.callTool("weather", { city: "Oslo" })).resolves.toMatchObject({ content: text("Oslo") });
    await expect(client.callTool("weather", { city: "O", celsius: "warm" })).resolves.toMatchObject({
      isError: true,
      content: text(
        "Invalid arguments for tool weather: city: must be at least 2 characters long; celsius: expected number, received string",
      ),
    });
    expect(heard).toEqual([]);
    await client.close();
  });

  it("applies each server's own options to a configuration object two servers register", async () => {
    const events = new EventBus<MCPEventMap>();
    const heard = listen(events);
    const toolConfig = { inputSchema: remoteWeather };
    const promptConfig = { argsSchema: { type: "object", properties: { city: { type: "string", $ref: `${DEFS}#/$defs/city` } } } as never };
    const serve = (name: string, jsonSchema: JsonSchemaOptions): MCPServer => {
      const server = new MCPServer({ name, version: "1.0.0" }, { telemetry: null, events, jsonSchema });
      server.tool("weather", toolConfig, ({ city }) => ({ content: text(String(city)) }));
      server.prompt("visit", promptConfig, (args: { city?: unknown }) => ({
        messages: [{ role: "user", content: { type: "text", text: String(args.city) } }],
      }));
      return server;
    };
    const given = await connect(serve("given", { schemas }));
    const unchecked = await connect(serve("unchecked", {}));
    // Only the server not given the document tells of it; the other checks against it.
    expect(heard.map(({ subject }) => subject)).toEqual(['the input schema of tool "weather"', 'the input schema of prompt "visit"']);
    await expect(given.callTool("weather", { city: "O" })).resolves.toMatchObject({ isError: true });
    await expect(given.getPrompt("visit", { city: "O" })).rejects.toMatchObject({ code: MCP_CODES.INVALID_PARAMS });
    await expect(unchecked.callTool("weather", { city: "O" })).resolves.toMatchObject({ content: text("O") });
    await expect(unchecked.getPrompt("visit", { city: "O" })).resolves.toMatchObject({ messages: [{ content: { text: "O" } }] });
    await Promise.all([given.close(), unchecked.close()]);
  });
});

function weatherServer(): MCPServer {
  // The server is not given the document, so it sends what its handler returns unchecked.
  const server = new MCPServer({ name: "weather", version: "1.0.0" }, { telemetry: null });
  server.tool("weather", { outputSchema: remoteWeather }, ({ city }) => ({
    content: text("report"),
    structuredContent: { city: typeof city === "string" ? city : "?", celsius: "warm" },
  }));
  return server;
}

describe("MCPClient: an outputSchema it cannot check", () => {
  it("passes the result unchecked and tells schema:unchecked once per schema", async () => {
    const events = new EventBus<MCPEventMap>();
    const heard = listen(events);
    const client = await connect(weatherServer(), { events });
    await expect(client.callTool("weather", { city: "Oslo" })).resolves.toMatchObject({ structuredContent: { celsius: "warm" } });
    await expect(client.callTool("weather", { city: "Rome" })).resolves.toMatchObject({ structuredContent: { city: "Rome" } });
    expect(heard).toEqual([expect.objectContaining({ side: "client", subject: 'the output schema of tool "weather"' })]);
    expect(heard[0]?.reason).toContain(`cannot resolve "${DEFS}#/$defs/city"`);
    await client.close();
  });

  it("checks the result against a document given in jsonSchema.schemas", async () => {
    const client = await connect(weatherServer(), { jsonSchema: { schemas } });
    await expect(client.callTool("weather", { city: "Oslo" })).rejects.toMatchObject({
      code: MCP_CODES.PROTOCOL_INVALID,
      message:
        "The structuredContent of tool weather does not match its outputSchema: " +
        "structuredContent.celsius: expected number, received string",
    });
    await client.close();
  });

  it('fails the call under jsonSchema.unsupported: "refuse"', async () => {
    const client = await connect(weatherServer(), { jsonSchema: { unsupported: "refuse" } });
    await expect(client.callTool("weather", { city: "Oslo" })).rejects.toMatchObject({
      code: MCP_CODES.PROTOCOL_INVALID,
      message: expect.stringContaining(
        "The outputSchema of tool weather cannot be used: unsupported JSON Schema at #/properties/city/$ref",
      ),
    });
    await client.close();
  });
});

describe("prepareObjectSchema without a server's settings", () => {
  it("serves a legal schema it cannot check, passing values unchecked and telling no one", async () => {
    const prepared = prepareObjectSchema(
      { type: "object", properties: { tree: { $dynamicRef: "#node" } } },
      "input",
      "a schema of its own",
    );
    expect(prepared.jsonSchema).toEqual({ type: "object", properties: { tree: { $dynamicRef: "#node" } } });
    expect(await prepared.check({ tree: 42 })).toMatchObject({ ok: true });
  });
});

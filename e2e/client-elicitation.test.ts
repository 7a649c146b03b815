// The SDK server eliciting through MCPClient: form mode with defaults filled in (SEP-1034), URL mode
// with its completion notification, the -32042 error, and modes or revisions the client did not declare.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ElicitResultSchema, UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { urlElicitationsRequired } from "../src/client/mcp-client/index.js";
import { connectToRaw, connectToSdk, until } from "../src/client/mcp-client/mcp-client.test-helpers.js";
import {
  JsonRpcError,
  MCP_CODES,
  MCPError,
  type ElicitationCompleteNotificationParams,
  type ExtraClientCapabilities,
  type ElicitRequestFormParams,
  type ElicitResult,
} from "../src/index.js";

const profileSchema = {
  type: "object" as const,
  properties: {
    name: { type: "string" as const, title: "Name" },
    email: { type: "string" as const, format: "email" as const, default: "ada@example.com" },
    age: { type: "integer" as const, minimum: 0, default: 36 },
    newsletter: { type: "boolean" as const, default: true },
    colour: { type: "string" as const, enum: ["red", "green"], default: "green" },
  },
  required: ["name", "email"],
};

function elicitingServer(): McpServer {
  return new McpServer({ name: "asker", version: "1.0.0" });
}

describe("MCPClient form elicitation for the SDK server", () => {
  it("fills the schema's defaults into an accepted answer when it declares applyDefaults", async () => {
    const server = elicitingServer();
    const seen: ElicitRequestFormParams[] = [];
    const form = (params: ElicitRequestFormParams): ElicitResult => {
      seen.push(params);
      return { action: "accept", content: { name: "Grace", age: 85 } };
    };
    const client = await connectToSdk(server, { elicitation: { form, applyDefaults: true } });
    expect(server.server.getClientCapabilities()?.elicitation).toEqual({ form: { applyDefaults: true } });
    const result = await server.server.elicitInput({ mode: "form", message: "Who are you?", requestedSchema: profileSchema });
    expect(result).toEqual({
      action: "accept",
      content: { name: "Grace", age: 85, email: "ada@example.com", newsletter: true, colour: "green" },
    });
    expect(seen).toMatchObject([{ mode: "form", message: "Who are you?", requestedSchema: profileSchema }]);
    await client.close();
  });

  it("fills defaults into an accept without content, and leaves decline and cancel alone", async () => {
    const server = elicitingServer();
    const answers: ElicitResult[] = [{ action: "accept" }, { action: "decline" }, { action: "cancel" }];
    const client = await connectToSdk(server, {
      elicitation: { form: () => answers.shift() ?? { action: "cancel" }, applyDefaults: true },
    });
    const schema = { type: "object" as const, properties: { colour: { type: "string" as const, default: "red" } } };
    expect(await server.server.elicitInput({ message: "Colour?", requestedSchema: schema })).toEqual({
      action: "accept",
      content: { colour: "red" },
    });
    expect(await server.server.elicitInput({ message: "Colour?", requestedSchema: schema })).toEqual({ action: "decline" });
    expect(await server.server.elicitInput({ message: "Colour?", requestedSchema: schema })).toEqual({ action: "cancel" });
    await client.close();
  });

  it("sends the answer as given without applyDefaults, and refuses one that breaks the schema", async () => {
    const server = elicitingServer();
    const answers: ElicitResult[] = [
      { action: "accept", content: { name: "Grace", email: "grace@example.com" } },
      { action: "accept" },
      { action: "accept", content: { name: "Grace" } },
    ];
    const client = await connectToSdk(server, { elicitation: { form: () => answers.shift() ?? { action: "cancel" } } });
    expect(server.server.getClientCapabilities()?.elicitation).toEqual({ form: {} });
    expect(await server.server.elicitInput({ message: "Who?", requestedSchema: profileSchema })).toEqual({
      action: "accept",
      content: { name: "Grace", email: "grace@example.com" },
    });
    expect(await server.server.elicitInput({ message: "Who?", requestedSchema: profileSchema })).toEqual({ action: "accept" });
    await expect(server.server.elicitInput({ message: "Who?", requestedSchema: profileSchema })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining(
        'The accepted answer does not match the requested schema: content: missing required property "email"',
      ),
    });
    await client.close();
  });

  it("refuses a requestedSchema it cannot use with -32602, before asking the user", async () => {
    const server = elicitingServer();
    let asked = 0;
    const form = (): ElicitResult => {
      asked++;
      return { action: "cancel" };
    };
    const client = await connectToSdk(server, { elicitation: { form } });
    const params = {
      mode: "form",
      message: "Code?",
      requestedSchema: { type: "object", properties: { code: { type: "string", pattern: "(" } } },
    };
    await expect(server.server.request({ method: "elicitation/create", params }, ElicitResultSchema)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("invalid JSON Schema"),
    });
    expect(asked).toBe(0);
    await client.close();
  });

  it("elicits with the 2025-06-18 capability shape", async () => {
    const server = elicitingServer();
    const client = await connectToSdk(server, {
      protocolVersion: "2025-06-18",
      elicitation: { form: () => ({ action: "accept", content: { name: "Lin", email: "lin@example.com" } }), applyDefaults: true },
    });
    expect(client.capabilities?.elicitation).toEqual({});
    // 2025-06-18 cannot declare applyDefaults, so none are applied.
    expect(await server.server.elicitInput({ message: "Who?", requestedSchema: profileSchema })).toEqual({
      action: "accept",
      content: { name: "Lin", email: "lin@example.com" },
    });
    await client.close();
  });
});

describe("MCPClient URL elicitation for the SDK server", () => {
  it("asks its url handler, and hears the completion of the elicitations it accepted, only those", async () => {
    const server = elicitingServer();
    const client = await connectToSdk(server, {
      elicitation: { url: (params) => ({ action: params.url.startsWith("https://") ? "accept" : "decline" }) },
    });
    const completed: ElicitationCompleteNotificationParams[] = [];
    client.on("elicitationComplete", (params) => completed.push(params));
    const accepted = await server.server.elicitInput({
      mode: "url",
      message: "Connect your account",
      url: "https://example.com/connect",
      elicitationId: "e-1",
    });
    expect(accepted).toEqual({ action: "accept" });
    const declined = await server.server.elicitInput({
      mode: "url",
      message: "Connect",
      url: "http://insecure.example.com",
      elicitationId: "e-2",
    });
    expect(declined).toEqual({ action: "decline" });
    await server.server.createElicitationCompletionNotifier("e-2")();
    await server.server.createElicitationCompletionNotifier("unknown")();
    await server.server.createElicitationCompletionNotifier("e-1")();
    await server.server.createElicitationCompletionNotifier("e-1")();
    await until(() => completed.length > 0);
    await client.ping();
    expect(completed).toEqual([{ elicitationId: "e-1" }]);
    await client.close();
  });

  it("surfaces a -32042 error's elicitations and hears their completion", async () => {
    const server = elicitingServer();
    const required = {
      mode: "url" as const,
      message: "Authorise access to your files",
      url: "https://example.com/authorise",
      elicitationId: "auth-1",
    };
    server.registerTool("files", {}, () => {
      throw new UrlElicitationRequiredError([required]);
    });
    const client = await connectToSdk(server, { elicitation: { url: () => ({ action: "accept" }) } });
    const completed: ElicitationCompleteNotificationParams[] = [];
    client.on("elicitationComplete", (params) => completed.push(params));
    const failure: unknown = await client.callTool("files").catch((error: unknown) => error);
    expect(failure).toMatchObject({ wireCode: -32042 });
    expect(urlElicitationsRequired(failure)).toEqual([required]);
    await server.server.createElicitationCompletionNotifier("auth-1")();
    await until(() => completed.length === 1);
    expect(completed).toEqual([{ elicitationId: "auth-1" }]);
    await client.close();
  });

  it("finds no elicitations in other errors, even with the data of a -32042", () => {
    const data = { elicitations: [{ mode: "url", message: "Authorise", url: "https://example.com/authorise", elicitationId: "auth-1" }] };
    expect(urlElicitationsRequired(new MCPError(MCP_CODES.INTERNAL_ERROR, "required", { data, wireCode: -32042 }))).toEqual(
      data.elicitations,
    );
    expect(urlElicitationsRequired(new Error("plain"))).toEqual([]);
    expect(urlElicitationsRequired(Object.assign(new Error("not an MCPError"), { wireCode: -32042, data }))).toEqual([]);
    expect(urlElicitationsRequired(new MCPError(MCP_CODES.INTERNAL_ERROR, "other"))).toEqual([]);
    expect(urlElicitationsRequired(new MCPError(MCP_CODES.INTERNAL_ERROR, "other", { data }))).toEqual([]);
    expect(urlElicitationsRequired(MCPError.fromWire(new JsonRpcError(-32042, "no data").toJSON()))).toEqual([]);
  });

  it("answers -32602 for a mode it did not declare", async () => {
    const server = elicitingServer();
    const formOnly = await connectToSdk(server, { elicitation: { form: () => ({ action: "cancel" }) } });
    const urlRequest = { mode: "url", message: "Open", url: "https://example.com", elicitationId: "x" };
    await expect(server.server.request({ method: "elicitation/create", params: urlRequest }, ElicitResultSchema)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("did not declare url-mode elicitation"),
    });
    await formOnly.close();

    const other = elicitingServer();
    const urlOnly = await connectToSdk(other, { elicitation: { url: () => ({ action: "cancel" }) } });
    const formRequest = { mode: "form", message: "Name?", requestedSchema: { type: "object", properties: {} } };
    await expect(other.server.request({ method: "elicitation/create", params: formRequest }, ElicitResultSchema)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("did not declare form-mode elicitation"),
    });
    await urlOnly.close();
  });

  it("answers -32601 for elicitation in a revision that has none, and checks a stray completion against the newest schema", async () => {
    const errors: MCPError[] = [];
    const { client, server } = await connectToRaw(
      {},
      { elicitation: { form: () => ({ action: "cancel" }) }, onError: (error) => errors.push(error) },
      () => "2025-03-26",
    );
    expect(client.protocolVersion).toBe("2025-03-26");
    expect(client.capabilities?.elicitation).toEqual({ form: {} });
    await expect(
      server.dispatcher.request("elicitation/create", { message: "Name?", requestedSchema: { type: "object", properties: {} } }),
    ).rejects.toMatchObject({
      code: MCP_CODES.METHOD_NOT_FOUND,
      message: "elicitation/create does not exist in protocol revision 2025-03-26",
    });
    await server.dispatcher.notify("notifications/elicitation/complete", { elicitationId: 42 });
    await until(() => errors.length === 1);
    expect(errors[0]).toMatchObject({
      code: MCP_CODES.INVALID_PARAMS,
      message: expect.stringContaining("notifications/elicitation/complete"),
    });
    await client.close();
  });
});

describe("MCPClient elicitation by what it declared", () => {
  const formRequest = {
    mode: "form",
    message: "Name?",
    requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } },
  };
  const urlRequest = { mode: "url", message: "Open", url: "https://example.com/open", elicitationId: "open-1" };
  const handlers = { form: () => ({ action: "accept" as const, content: { name: "Ada" } }), url: () => ({ action: "decline" as const }) };

  it("answers form-mode requests when it declared both modes", async () => {
    const server = elicitingServer();
    const client = await connectToSdk(server, { elicitation: handlers });
    expect(client.capabilities?.elicitation).toEqual({ form: {}, url: {} });
    expect(await server.server.elicitInput({ message: "Name?", requestedSchema: formRequest.requestedSchema })).toEqual({
      action: "accept",
      content: { name: "Ada" },
    });
    await client.close();
  });

  it("refuses URL mode after declaring the 2025-06-18 shape, though the server answered 2025-11-25", async () => {
    const { client, server } = await connectToRaw({}, { protocolVersion: "2025-06-18", elicitation: handlers }, () => "2025-11-25");
    expect([client.protocolVersion, client.capabilities?.elicitation]).toEqual(["2025-11-25", {}]);
    await expect(server.dispatcher.request("elicitation/create", urlRequest)).rejects.toMatchObject({
      code: MCP_CODES.INVALID_PARAMS,
      message: "This client did not declare url-mode elicitation",
    });
    expect(await server.dispatcher.request("elicitation/create", formRequest)).toEqual({ action: "accept", content: { name: "Ada" } });
    await client.close();
  });

  it("refuses form mode when a JavaScript caller's options.capabilities declared URL mode only, though it has a form handler", async () => {
    // Its type leaves elicitation out, but nothing stops an untyped caller: what is declared is still what is honoured.
    const capabilities = { elicitation: { url: {} } } as ExtraClientCapabilities;
    const { client, server } = await connectToRaw(
      {},
      { protocolVersion: "2025-03-26", capabilities, elicitation: handlers },
      () => "2025-11-25",
    );
    expect(client.capabilities?.elicitation).toEqual({ url: {} });
    await expect(server.dispatcher.request("elicitation/create", formRequest)).rejects.toMatchObject({
      code: MCP_CODES.INVALID_PARAMS,
      message: "This client did not declare form-mode elicitation",
    });
    expect(await server.dispatcher.request("elicitation/create", urlRequest)).toEqual({ action: "decline" });
    await client.close();
  });

  it("answers -32601 when it offered a revision without elicitation, though the server answered 2025-11-25", async () => {
    const { client, server } = await connectToRaw({}, { protocolVersion: "2025-03-26", elicitation: handlers }, () => "2025-11-25");
    expect([client.protocolVersion, client.capabilities]).toEqual(["2025-11-25", {}]);
    await expect(server.dispatcher.request("elicitation/create", formRequest)).rejects.toMatchObject({
      code: MCP_CODES.METHOD_NOT_FOUND,
      message: "Method not found: elicitation/create",
    });
    await client.close();
  });
});

import { describe, expect, it, vi } from "vitest";
import type { ProtocolVersion } from "../../constants/index.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPServer } from "./mcp-server.js";
import { initializedRawClientOf, rawClientOf, sdkClientOf, tappedClientOf } from "./mcp-server.test-helpers.js";

const info = {
  name: "test-server",
  version: "1.2.3",
  title: "Test Server",
  icons: [{ src: "https://example.com/icon.png", mimeType: "image/png" }],
};

const noContents = () => ({ contents: [] });
const refusal = (message: string) => expect.objectContaining({ code: MCP_CODES.DUPLICATE_REGISTRATION, message });

/** The capabilities `server` declares to a client of `version`. */
async function declaredBy(server: MCPServer, version: ProtocolVersion = "2025-11-25"): Promise<Record<string, unknown>> {
  const { client } = await rawClientOf(server);
  const result = (await client.request("initialize", {
    protocolVersion: version,
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  })) as { capabilities: Record<string, unknown> };
  return result.capabilities;
}

describe("MCPServer: initialize", () => {
  it("answers the SDK client with server info, instructions and capabilities derived from what is registered", async () => {
    const server = new MCPServer(info, { instructions: "Use the tools wisely." });
    server.tool("t", {}, () => ({ content: [] }));
    server.prompt("p", { arguments: { topic: { complete: () => ["a"] } } }, () => ({ messages: [] }));
    const { client, session } = await sdkClientOf(server);
    expect(client.getServerVersion()).toEqual(info);
    expect(client.getInstructions()).toBe("Use the tools wisely.");
    expect(client.getServerCapabilities()).toEqual({
      logging: {},
      tools: { listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });
    expect(session.protocolVersion).toBe("2025-11-25");
    expect(session.client?.info.name).toBe("sdk-client");
  });

  it("declares resources with subscribe when a resource or template is registered, and what the options add", async () => {
    const server = new MCPServer(info, { capabilities: { tools: {}, experimental: { x: {} } } });
    server.resourceTemplate("files", "file:///{path}", {}, () => ({ contents: [] }));
    const { client } = await sdkClientOf(server);
    expect(client.getServerCapabilities()).toEqual({
      logging: {},
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      experimental: { x: {} },
    });
  });

  it("has no instructions member in its answer when it has none to give", async () => {
    const { sent } = await tappedClientOf(new MCPServer(info), "2025-11-25");
    expect(sent).toStrictEqual([
      { jsonrpc: "2.0", id: expect.anything(), result: { protocolVersion: "2025-11-25", capabilities: { logging: {} }, serverInfo: info } },
    ]);
  });

  it("declares only logging when nothing is registered, and resources for a static resource alone", async () => {
    await expect(declaredBy(new MCPServer(info))).resolves.toEqual({ logging: {} });
    const server = new MCPServer(info);
    server.resource("r", "x://r", {}, () => ({ contents: [] }));
    await expect(declaredBy(server)).resolves.toEqual({ logging: {}, resources: { subscribe: true, listChanged: true } });
  });

  it("declares completions when any one prompt argument or template can complete, with what the options declare for them", async () => {
    const prompts = new MCPServer(info);
    prompts.prompt("p", { arguments: { plain: {}, completed: { complete: () => [] } } }, () => ({ messages: [] }));
    await expect(declaredBy(prompts)).resolves.toEqual({ logging: {}, prompts: { listChanged: true }, completions: {} });
    const templates = new MCPServer(info);
    templates.resourceTemplate("plain", "x://plain/{a}", {}, () => ({ contents: [] }));
    templates.resourceTemplate("completed", "x://completed/{a}", { complete: { a: () => [] } }, () => ({ contents: [] }));
    await expect(declaredBy(templates)).resolves.toEqual({
      logging: {},
      resources: { subscribe: true, listChanged: true },
      completions: {},
    });
    const declared = new MCPServer(info, { capabilities: { completions: { "example.com/fuzzy": true } } });
    declared.prompt("p", { arguments: { a: { complete: () => [] } } }, () => ({ messages: [] }));
    await expect(declaredBy(declared)).resolves.toMatchObject({ completions: { "example.com/fuzzy": true } });
  });

  it("names the kind and the key of a duplicate registration", () => {
    const server = new MCPServer(info);
    server.tool("t", {}, () => ({ content: [] }));
    server.resource("r", "x://r", {}, noContents);
    server.resourceTemplate("rt", "x://t/{a}", {}, noContents);
    server.prompt("p", {}, () => ({ messages: [] }));
    expect(() => server.tool("t", {}, () => ({ content: [] }))).toThrow(refusal('A tool named "t" is already registered'));
    expect(() => server.resource("other", "x://r", {}, noContents)).toThrow(refusal('A resource named "x://r" is already registered'));
    expect(() => server.resourceTemplate("rt", "x://u/{a}", {}, noContents)).toThrow(
      refusal('A resource template named "rt" is already registered'),
    );
    expect(() => server.prompt("p", {}, () => ({ messages: [] }))).toThrow(refusal('A prompt named "p" is already registered'));
  });

  it.each(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] as const)(
    "answers a client asking for %s with that revision",
    async (version) => {
      const server = new MCPServer(info);
      server.prompt("p", { arguments: { a: { complete: () => [] } } }, () => ({ messages: [] }));
      const { client, session } = await rawClientOf(server);
      const result = await client.request("initialize", {
        protocolVersion: version,
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      });
      expect(result).toMatchObject({ protocolVersion: version });
      expect(session.protocolVersion).toBe(version);
      // completions is a capability from 2025-03-26 on.
      expect("completions" in (result as { capabilities: object }).capabilities).toBe(version !== "2024-11-05");
    },
  );

  it.each([
    ["2024-11-05", ["experimental", "logging"], { name: "test-server", version: "1.2.3" }],
    ["2025-03-26", ["completions", "experimental", "logging"], { name: "test-server", version: "1.2.3" }],
    ["2025-06-18", ["completions", "experimental", "logging"], { name: "test-server", version: "1.2.3", title: "Test Server" }],
    ["2025-11-25", ["completions", "experimental", "logging", "tasks"], info],
  ] as const)(
    "declares to %s only the capabilities and server info that revision defines, also from options.capabilities",
    async (version, capabilities, serverInfo) => {
      const server = new MCPServer(info, { capabilities: { completions: {}, tasks: { list: {} }, experimental: { x: {} } } });
      const { client } = await rawClientOf(server);
      const result = (await client.request("initialize", {
        protocolVersion: version,
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      })) as { capabilities: object; serverInfo: object };
      expect(Object.keys(result.capabilities).toSorted()).toEqual(capabilities);
      expect(result.serverInfo).toEqual(serverInfo);
    },
  );

  it("answers a revision it does not speak with its newest", async () => {
    const { client } = await rawClientOf(new MCPServer(info));
    await expect(
      client.request("initialize", { protocolVersion: "1999-01-01", capabilities: {}, clientInfo: { name: "raw", version: "1" } }),
    ).resolves.toMatchObject({ protocolVersion: "2025-11-25" });
  });

  it("refuses requests before initialize with MCP.NOT_INITIALIZED (ping excepted) and a second initialize", async () => {
    const server = new MCPServer(info);
    server.tool("t", {}, () => ({ content: [] }));
    const { client, session } = await rawClientOf(server);
    await expect(client.request("ping")).resolves.toEqual({});
    const early = await client.request("tools/list").catch((error: unknown) => error);
    expect(early).toMatchObject({
      code: MCP_CODES.PROTOCOL_INVALID,
      wireCode: -32600,
      message: expect.stringContaining("not initialized"),
    });
    expect(session.client).toBeUndefined();
    await client.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } });
    await expect(client.request("tools/list")).resolves.toMatchObject({ tools: [{ name: "t" }] });
    await expect(
      client.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }),
    ).rejects.toMatchObject({ wireCode: -32600, message: expect.stringContaining("already initialized") });
  });

  it.each([
    ["logging/setLevel", { level: "debug" }],
    ["resources/subscribe", { uri: "x://r" }],
    ["resources/unsubscribe", { uri: "x://r" }],
  ])("refuses %s before initialize too", async (method, params) => {
    const { client, session } = await rawClientOf(new MCPServer(info));
    await expect(client.request(method, params)).rejects.toMatchObject({
      wireCode: -32600,
      message: `${method} before initialize: the session is not initialized`,
    });
    expect({ level: session.logLevel, subscriptions: [...session.subscriptions] }).toEqual({ level: undefined, subscriptions: [] });
  });
});

describe("MCPServer: authorize", () => {
  it("consults the hook before every request and refuses with MCP.UNAUTHORIZED (-32001)", async () => {
    const seen: string[] = [];
    const server = new MCPServer(info, {
      authorize: ({ method, params, session }) => {
        seen.push(`${method} ${session?.client ? "initialized" : "new"} ${JSON.stringify(params ?? null).slice(0, 20)}`);
        return method !== "tools/call";
      },
    });
    server.tool("secret", {}, () => ({ content: [{ type: "text", text: "leak" }] }));
    const { client } = await initializedRawClientOf(server, "2025-11-25");
    const refused = await client.request("tools/call", { name: "secret" }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: MCP_CODES.UNAUTHORIZED, wireCode: -32001, message: "Not authorized to call tools/call" });
    expect(seen[0]).toMatch(/^initialize new/);
    expect(seen.at(-1)).toMatch(/^tools\/call initialized/);
  });

  it("may decide asynchronously", async () => {
    const authorize = vi.fn(async () => false);
    const { client } = await rawClientOf(new MCPServer(info, { authorize }));
    await expect(client.request("ping")).rejects.toMatchObject({ code: MCP_CODES.UNAUTHORIZED });
    expect(authorize).toHaveBeenCalledWith(expect.objectContaining({ method: "ping", inbound: undefined }));
  });
});

describe("MCPServer: sessions and close", () => {
  it("tracks its sessions and forgets each as it closes", async () => {
    const server = new MCPServer(info);
    const first = await sdkClientOf(server);
    const second = await sdkClientOf(server);
    expect(server.sessions.size).toBe(2);
    expect(first.session.id).not.toBe(second.session.id);
    await first.client.close();
    await first.session.finished;
    expect(first.session.closed).toBe(true);
    expect([...server.sessions]).toEqual([second.session]);
    await server.close();
    expect(server.sessions.size).toBe(0);
  });

  it("does not keep a session whose transport fails to start", async () => {
    const server = new MCPServer(info);
    const broken = { start: () => Promise.reject(new Error("no stdin")), send: async () => undefined, close: async () => undefined };
    await expect(server.start(broken)).rejects.toMatchObject({ code: MCP_CODES.TRANSPORT_ERROR });
    expect(server.sessions.size).toBe(0);
  });
});

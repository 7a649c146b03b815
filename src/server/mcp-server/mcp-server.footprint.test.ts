// What a session holds and what it shares: capabilities built once per server and revision, tables
// of methods kept by their server (two servers in one process share nothing), state made on first use.
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { PROFILES } from "../../protocol/profiles.js";
import { MCPServer } from "./mcp-server.js";
import { initializedRawClientOf, rawClientOf, settle } from "./mcp-server.test-helpers.js";

const info = { name: "footprint-server", version: "1.0.0" };
const echo = ({ text }: { text: string }) => ({ content: [{ type: "text" as const, text }] });

describe("MCPServer: what its sessions share", () => {
  it("freezes copies of the capabilities it was given, never the caller's objects", () => {
    const experimental = { "acme/feature": { level: 1 } };
    const logging = {};
    const server = new MCPServer(info, { capabilities: { experimental, logging } });
    const declared = server.capabilitiesFor(PROFILES["2025-11-25"]);
    expect(declared.experimental).toEqual(experimental);
    expect(Object.isFrozen(declared.experimental)).toBe(true);
    expect(Object.isFrozen(experimental)).toBe(false);
    expect(Object.isFrozen(logging)).toBe(false);
    experimental["acme/feature"] = { level: 2 };
    expect(server.capabilitiesFor(PROFILES["2025-11-25"]).experimental).toEqual({ "acme/feature": { level: 1 } });
  });

  it("declares one frozen set of capabilities per revision, built again once a registration changes", async () => {
    const server = new MCPServer(info);
    const before = server.capabilitiesFor(PROFILES["2025-11-25"]);
    expect(server.capabilitiesFor(PROFILES["2025-11-25"])).toBe(before);
    expect(Object.isFrozen(before)).toBe(true);
    expect(Object.isFrozen(before.logging)).toBe(true);
    expect(before.tools).toBeUndefined();

    const tool = server.tool("echo", { inputSchema: z.object({ text: z.string() }) }, echo);
    const after = server.capabilitiesFor(PROFILES["2025-11-25"]);
    expect(after).not.toBe(before);
    expect(after.tools).toEqual({ listChanged: true });
    expect(() => {
      (after.tools as { listChanged?: boolean }).listChanged = false;
    }).toThrow(TypeError);

    // Each session is told what was registered when it initialized.
    const initialize = async () => {
      const { client } = await rawClientOf(server);
      const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } };
      return ((await client.request("initialize", params)) as { capabilities: { tools?: unknown } }).capabilities;
    };
    expect((await initialize()).tools).toEqual({ listChanged: true });
    tool.remove();
    await settle();
    expect((await initialize()).tools).toBeUndefined();
    expect(server.capabilitiesFor(PROFILES["2025-11-25"]).tools).toBeUndefined();
    await server.close();
  });

  it("answers each session from its own server's tables: two servers in one process share no state", async () => {
    const withTool = new MCPServer(info);
    withTool.tool("echo", { inputSchema: z.object({ text: z.string() }) }, echo);
    const bare = new MCPServer({ name: "bare", version: "1.0.0" });
    const one = await initializedRawClientOf(withTool, "2025-11-25");
    const other = await initializedRawClientOf(bare, "2025-11-25");

    await expect(one.client.request("tools/call", { name: "echo", arguments: { text: "hi" } })).resolves.toMatchObject({
      content: [{ type: "text", text: "hi" }],
    });
    await expect(other.client.request("tools/call", { name: "echo", arguments: { text: "hi" } })).rejects.toMatchObject({
      message: expect.stringContaining("echo") as string,
    });
    // A layer added to one server is not seen by the sessions of the other.
    const seen: string[] = [];
    bare.use((next) => (request, context) => {
      seen.push(request.method);
      return next(request, context);
    });
    await one.client.request("tools/list");
    await other.client.request("tools/list");
    expect(seen).toEqual(["tools/list"]);
    expect(withTool.capabilitiesFor(PROFILES["2025-11-25"]).tools).toBeDefined();
    expect(bare.capabilitiesFor(PROFILES["2025-11-25"]).tools).toBeUndefined();
    await Promise.all([withTool.close(), bare.close()]);
  });
});

describe("ServerSession: state made on first use", () => {
  it("has no subscriptions until the client subscribes, and forgets the last one it drops", async () => {
    const server = new MCPServer(info);
    server.resource("doc", "file:///doc", {}, (uri) => ({ contents: [{ uri, text: "x" }] }));
    const { client, session } = await initializedRawClientOf(server, "2025-11-25");
    expect([...session.subscriptions]).toEqual([]);
    await client.request("resources/unsubscribe", { uri: "file:///doc" });
    expect([...session.subscriptions]).toEqual([]);
    await client.request("resources/subscribe", { uri: "file:///doc" });
    expect([...session.subscriptions]).toEqual(["file:///doc"]);
    expect(session.state?.subscriptions).toEqual(["file:///doc"]);
    await client.request("resources/unsubscribe", { uri: "file:///doc" });
    expect([...session.subscriptions]).toEqual([]);
    await server.close();
  });

  it("resolves `finished` whether it is first read before or after the connection closed", async () => {
    const server = new MCPServer(info);
    const early = await rawClientOf(server);
    const waiting = early.session.finished;
    const late = await rawClientOf(server);
    await Promise.all([early.client.close(), late.client.close()]);
    await settle();
    await expect(waiting).resolves.toBeUndefined();
    expect(late.session.closed).toBe(true);
    await expect(late.session.finished).resolves.toBeUndefined();
    expect(late.session.finished).toBe(late.session.finished);
  });

  it("restores subscriptions only when the state has some, and keeps the revision in one place", async () => {
    const server = new MCPServer(info);
    const { session } = await rawClientOf(server);
    session.restore({
      protocolVersion: "2025-06-18",
      clientInfo: { name: "c", version: "1" },
      clientCapabilities: {},
      subscriptions: [],
    });
    expect([...session.subscriptions]).toEqual([]);
    expect(session.client?.protocolVersion).toBe("2025-06-18");
    expect(session.protocolVersion).toBe("2025-06-18");
    expect(session.state?.protocolVersion).toBe("2025-06-18");
    const { session: other } = await rawClientOf(server);
    other.restore({ protocolVersion: "2025-11-25", clientInfo: { name: "c", version: "1" }, clientCapabilities: {}, subscriptions: ["a"] });
    expect([...other.subscriptions]).toEqual(["a"]);
    expect(() => other.restore({ protocolVersion: "2025-11-25", clientInfo: {}, clientCapabilities: {}, subscriptions: [] })).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS }) as Error,
    );
    await server.close();
  });
});

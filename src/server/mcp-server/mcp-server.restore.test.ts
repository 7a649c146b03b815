// A session's state and its restoration on another instance: what `state` shows after initialize
// and each change, and `restore` going on with it as if initialize had been answered.
import { describe, expect, it } from "vitest";
import { MCPServer } from "./mcp-server.js";
import { initializedRawClientOf, rawClientOf } from "./mcp-server.test-helpers.js";

const info = { name: "restore-server", version: "1.0.0" };

function server(): MCPServer {
  const made = new MCPServer(info);
  made.resource("readme", "file:///readme.md", {}, (uri) => ({ contents: [{ uri, text: "# readme" }] }));
  made.tool("who", {}, (_args, ctx) => ({ content: [{ type: "text", text: String(ctx.client.info?.name) }] }));
  return made;
}

describe("ServerSession.state and restore", () => {
  it("shows nothing before initialize, then what the client negotiated and changed, and tells each change", async () => {
    const { client, session } = await rawClientOf(server());
    expect(session.state).toBeUndefined();
    let told = 0;
    session.onStateChange = () => void (told += 1);
    await client.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: { roots: {} },
      clientInfo: { name: "raw", version: "1" },
    });
    client.setProtocolVersion("2025-06-18");
    expect(session.state).toEqual({
      protocolVersion: "2025-06-18",
      clientInfo: { name: "raw", version: "1" },
      clientCapabilities: { roots: {} },
      subscriptions: [],
    });
    await client.request("logging/setLevel", { level: "warning" });
    await client.request("resources/subscribe", { uri: "file:///readme.md" });
    expect(session.state).toMatchObject({ logLevel: "warning", subscriptions: ["file:///readme.md"] });
    await client.request("resources/unsubscribe", { uri: "file:///readme.md" });
    expect(session.state?.subscriptions).toEqual([]);
    expect(told).toBe(4);
  });

  it("goes on with a restored session as if initialize had been answered with its state", async () => {
    const { client, session } = await rawClientOf(server());
    session.restore({
      protocolVersion: "2025-06-18",
      clientInfo: { name: "elsewhere", version: "2" },
      clientCapabilities: {},
      logLevel: "error",
      subscriptions: ["file:///readme.md"],
    });
    client.setProtocolVersion("2025-06-18");
    expect(session.client).toEqual({ protocolVersion: "2025-06-18", capabilities: {}, info: { name: "elsewhere", version: "2" } });
    expect(session.subscriptions.has("file:///readme.md")).toBe(true);
    expect(session.logLevel).toBe("error");
    expect(await client.request("tools/call", { name: "who", arguments: {} })).toMatchObject({ content: [{ text: "elsewhere" }] });
    // It was negotiated: a second initialize is refused as on any session.
    await expect(
      client.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }),
    ).rejects.toMatchObject({ message: "The session is already initialized" });
  });

  it("refuses to restore a session that negotiated already, or a revision it does not know", async () => {
    const { session } = await initializedRawClientOf(server(), "2025-06-18");
    const state = { protocolVersion: "2025-06-18", clientInfo: { name: "x", version: "1" }, clientCapabilities: {}, subscriptions: [] };
    expect(() => session.restore(state)).toThrow(expect.objectContaining({ code: "MCP.INVALID_PARAMS" }));
    const fresh = (await rawClientOf(server())).session;
    expect(() => fresh.restore({ ...state, protocolVersion: "1999-01-01" })).toThrow(
      expect.objectContaining({ code: "MCP.INVALID_PARAMS" }),
    );
  });
});

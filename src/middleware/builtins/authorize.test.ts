// Layers over what a server answers itself (initialize, ping, logging/setLevel, subscriptions, the
// stateless era's discover and listen), and `authorize` as one of them: the option's hook, put first,
// and the same hook as a layer of one method. Through a real MCPServer and our MCPClient in memory.
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import { MCPServer } from "../../server/mcp-server/mcp-server.js";
import { mount } from "../../server/compose/mount.js";
import type { AuthorizeRequest, MCPServerOptions } from "../../server/mcp-server/mcp-server.types.js";
import { authorize } from "./authorize.js";
import { clientAs, ERAS, type TestEra } from "./server-builtins.test-helpers.js";

function served(options: MCPServerOptions = {}): MCPServer {
  const server = new MCPServer({ name: "guarded", version: "1.0.0" }, { telemetry: null, ...options });
  server.tool("echo", {}, (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }] }));
  server.resource("readme", "file:///readme", { mimeType: "text/plain" }, () => ({ contents: [{ uri: "file:///readme", text: "hi" }] }));
  return server;
}

const ADA = { subject: "ada" };
const connected = (server: MCPServer, era: TestEra) => clientAs(server, era, ADA);

describe("layers over what a server answers itself", () => {
  it("sees a session's own requests, each by its method, with the session's context", async () => {
    const seen: string[] = [];
    const server = served();
    for (const method of ["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"] as const) {
      server.use(
        method,
        (next) => (request, context) => (
          seen.push(`${request.method} ${context.era} ${context.client.info?.name ?? "-"}`),
          next(request, context)
        ),
      );
    }
    const client = await connected(server, "session");
    await client.ping();
    await client.setLoggingLevel("info");
    await client.subscribeResource("file:///readme");
    await client.unsubscribeResource("file:///readme");
    expect(seen).toEqual([
      "initialize session -",
      "ping session builtins-client",
      "logging/setLevel session builtins-client",
      "resources/subscribe session builtins-client",
      "resources/unsubscribe session builtins-client",
    ]);
    await client.close();
  });

  it("sees the stateless era's discover and listen, and may answer them", async () => {
    const seen: string[] = [];
    const server = served()
      .use("server/discover", (next) => async (request, context) => {
        const result = await next(request, context);
        return { ...result, instructions: "from a layer" };
      })
      .use("subscriptions/listen", (next) => (request, context) => (seen.push(`${request.method} ${context.era}`), next(request, context)));
    const client = await connected(server, "stateless");
    expect(client.instructions).toBe("from a layer");
    await client.subscribeResource("file:///readme");
    expect(seen).toEqual(["subscriptions/listen stateless"]);
    await client.close();
  });

  it("makes what a layer in front of initialize throws the handshake's failure", async () => {
    const server = served().use("initialize", () => () => {
      throw new MCPError(MCP_CODES.UNAUTHORIZED, "not today");
    });
    await expect(connected(server, "session")).rejects.toMatchObject({ message: expect.stringContaining("not today") });
  });
});

describe.each(ERAS)("authorize, %s era", (era) => {
  it("asks the option's hook about every request, before any other layer", async () => {
    const asked: string[] = [];
    const ran: string[] = [];
    const hook = (request: AuthorizeRequest) => {
      asked.push(
        `${request.method} ${request.session === undefined ? "no session" : "session"} ${JSON.stringify(request.inbound?.authInfo)}`,
      );
      return request.method !== "resources/read";
    };
    const server = served({ authorize: hook }).use((next) => (request, context) => (ran.push(request.method), next(request, context)));
    const client = await connected(server, era);
    await client.callTool("echo", { x: 1 });
    await expect(client.readResource("file:///readme")).rejects.toMatchObject({
      code: MCP_CODES.UNAUTHORIZED,
      message: expect.stringContaining("Not authorized to call resources/read"),
    });
    const first = era === "session" ? "initialize" : "server/discover";
    const session = era === "session" ? "session" : "no session";
    const who = JSON.stringify(ADA);
    expect(asked.filter((line) => !line.startsWith("tools/list"))).toEqual([
      `${first} ${session} ${who}`,
      `tools/call ${session} ${who}`,
      `resources/read ${session} ${who}`,
    ]);
    // The refused read never reached the layer behind the hook.
    expect(ran.filter((method) => method !== "tools/list")).toEqual([first, "tools/call"]);
    await client.close();
  });

  it("is a layer of its own: one method's, waiting for an async hook", async () => {
    const server = served().use(
      "tools/call",
      authorize(async (request) => (request.params as { name: string }).name !== "echo"),
    );
    const client = await connected(server, era);
    await expect(client.callTool("echo", {})).rejects.toMatchObject({ code: MCP_CODES.UNAUTHORIZED });
    expect((await client.readResource("file:///readme")).contents).toEqual([{ uri: "file:///readme", text: "hi" }]);
    await client.close();
  });

  it("asks a mounted server's own hook about its tools, behind the parent's", async () => {
    const asked: string[] = [];
    const child = served({ authorize: (request) => (asked.push(`child ${request.method}`), request.method !== "tools/call") });
    const parent = new MCPServer(
      { name: "parent", version: "1.0.0" },
      { telemetry: null, authorize: (request) => (asked.push(`parent ${request.method}`), true) },
    );
    await mount(parent, "kid", child);
    const client = await connected(parent, era);
    const result = await client.callTool("kid_echo", {});
    // To the parent a mounted tool is a tool: the child's refusal is that tool's failure.
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: expect.stringContaining("Not authorized to call tools/call") }],
    });
    expect(asked.filter((line) => line.endsWith("tools/call"))).toEqual(["parent tools/call", "child tools/call"]);
    await client.close();
  });
});

// The server's middleware, through a real MCPServer and our MCPClient in memory, in both eras: the
// order of layers, a layer that changes the request, answers without the handler, changes the
// result, throws, or waits; per-method layers; what a layer sees of the request's context; layers
// added while sessions run; and the registrations refused.
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPError } from "../error-codes/mcp-error.js";
import { MCPServer } from "../server/mcp-server/mcp-server.js";
import { mount } from "../server/compose/mount.js";
import type { HandlerContext } from "../server/mcp-server/mcp-server.types.js";
import type { ServerMiddleware } from "./server-middleware.js";
import { tracing } from "./tracing.test-helpers.js";
import { ourClientOf } from "../server/mcp-server/our-client.test-helpers.js";

const ERAS = ["session", "stateless"] as const;

function echoServer(ran: string[] = []): MCPServer {
  const server = new MCPServer({ name: "mw", version: "1.0.0" }, { telemetry: null });
  server.tool("echo", { description: "Echoes its arguments" }, (args) => {
    ran.push(`echo ${JSON.stringify(args)}`);
    return { content: [{ type: "text", text: JSON.stringify(args) }] };
  });
  server.tool("secret", { description: "Hidden by a layer" }, () => ({ content: [{ type: "text", text: "s" }] }));
  server.prompt("greet", { arguments: { name: { required: true } } }, ({ name }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Hi ${String(name)}` } }],
  }));
  return server;
}

const connected = (server: MCPServer, era: "session" | "stateless") => ourClientOf(server, era, { name: "mw-client" });

const textOf = (result: { content: readonly unknown[] }) => (result.content[0] as { text: string }).text;

describe.each(ERAS)("server middleware, %s era", (era) => {
  it("runs the layers in the order they were added, around the handler", async () => {
    const log: string[] = [];
    const server = echoServer(log).use(tracing("a", log)).use(tracing("b", log));
    const client = await connected(server, era);
    await client.callTool("echo", { x: 1 });
    // The layers see what the server answers itself too: the era's first request (initialize, or the probe).
    // (The client lists the tools after a call, to learn their output schemas: those go through the same layers.)
    const first = era === "session" ? "initialize" : "server/discover";
    expect(log.filter((line) => !line.endsWith("tools/list"))).toEqual([
      `a > ${first}`,
      `b > ${first}`,
      `b < ${first}`,
      `a < ${first}`,
      "a > tools/call",
      "b > tools/call",
      'echo {"x":1}',
      "b < tools/call",
      "a < tools/call",
    ]);
    await client.close();
  });

  it("lets a layer change the params, answer without the handler, and change the result", async () => {
    const ran: string[] = [];
    const server = echoServer(ran)
      .use(
        "tools/call",
        (next) => (request, context) =>
          request.params.name === "echo"
            ? next({ ...request, params: { ...request.params, arguments: { ...request.params.arguments, added: true } } }, context)
            : next(request, context),
      )
      .use(
        "tools/call",
        (next) => (request, context) =>
          request.params.arguments?.["cached"] === true ? { content: [{ type: "text", text: "from the layer" }] } : next(request, context),
      )
      .use("tools/list", (next) => async (request, context) => {
        const listed = await next(request, context);
        return { ...listed, tools: listed.tools.filter((tool) => tool.name !== "secret") };
      });
    const client = await connected(server, era);
    expect(textOf(await client.callTool("echo", { x: 1 }))).toBe('{"x":1,"added":true}');
    expect(textOf(await client.callTool("echo", { cached: true }))).toBe("from the layer");
    expect(ran).toEqual(['echo {"x":1,"added":true}']);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["echo"]);
    await client.close();
  });

  it("answers what a layer throws as the request's error, and goes on serving", async () => {
    const server = echoServer().use("prompts/get", () => () => {
      throw new MCPError(MCP_CODES.UNAUTHORIZED, "no prompts for you");
    });
    const client = await connected(server, era);
    await expect(client.getPrompt("greet", { name: "Ada" })).rejects.toMatchObject({
      message: expect.stringContaining("no prompts for you"),
    });
    // A layer for one method leaves the others alone.
    expect(textOf(await client.callTool("echo", { y: 2 }))).toBe('{"y":2}');
    await client.close();
  });

  it("waits for an async layer, and shows it the request's context", async () => {
    const seen: (Pick<HandlerContext, "era" | "protocolVersion"> & { method: string })[] = [];
    const server = echoServer().use((next) => async (request, context) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(context.signal).toBeInstanceOf(AbortSignal);
      // In front of initialize, the client has not said who it is yet.
      expect(context.client.info?.name).toBe(request.method === "initialize" ? undefined : "mw-client");
      seen.push({ method: request.method, era: context.era, protocolVersion: context.protocolVersion });
      return next(request, context);
    });
    const client = await connected(server, era);
    await client.callTool("echo", {});
    expect(seen.filter((request) => request.method === "tools/call")).toEqual([
      { method: "tools/call", era, protocolVersion: era === "stateless" ? "2026-07-28" : "2025-11-25" },
    ]);
    await client.close();
  });

  it("keeps a mounted server's layers, inside the parent's", async () => {
    const log: string[] = [];
    const child = echoServer(log).use("tools/call", tracing("child", log));
    const parent = new MCPServer({ name: "parent", version: "1.0.0" }, { telemetry: null }).use("tools/call", tracing("parent", log));
    await mount(parent, "kid", child);
    const client = await connected(parent, era);
    expect(textOf(await client.callTool("kid_echo", { z: 3 }))).toBe('{"z":3}');
    expect(log).toEqual(["parent > tools/call", "child > tools/call", 'echo {"z":3}', "child < tools/call", "parent < tools/call"]);
    await client.close();
  });

  it("puts a layer added while a session runs in front of its next request", async () => {
    const log: string[] = [];
    const server = echoServer();
    const client = await connected(server, era);
    await client.callTool("echo", {});
    server.use("tools/call", tracing("late", log));
    await client.callTool("echo", {});
    expect(log).toEqual(["late > tools/call", "late < tools/call"]);
    await client.close();
  });
});

describe("server middleware registration", () => {
  it("refuses a method no layer sees, a non-function layer, and one giving no handler (the server goes on without it)", async () => {
    const server = echoServer();
    expect(() => server.use("notifications/initialized" as "tools/call", (next) => next)).toThrow(
      expect.objectContaining({
        code: MCP_CODES.INVALID_PARAMS,
        message:
          "No server middleware sees notifications/initialized: layers see " +
          [
            "tools/list",
            "tools/call",
            "resources/list",
            "resources/templates/list",
            "resources/read",
            "prompts/list",
            "prompts/get",
            "completion/complete",
            "initialize",
            "ping",
            "logging/setLevel",
            "resources/subscribe",
            "resources/unsubscribe",
            "server/discover",
            "subscriptions/listen",
          ].join(", "),
      }),
    );
    expect(() => server.use("ping", (() => undefined) as unknown as ServerMiddleware<"ping">)).toThrow(
      expect.objectContaining({
        code: MCP_CODES.INVALID_PARAMS,
        message: expect.stringContaining("A middleware for ping gave no handler"),
      }),
    );
    expect(() => server.use("not a function" as unknown as ServerMiddleware)).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS }),
    );
    expect(() => server.use("tools/list", (() => undefined) as unknown as ServerMiddleware<"tools/list">)).toThrow(
      expect.objectContaining({
        code: MCP_CODES.INVALID_PARAMS,
        message: expect.stringContaining("A middleware for tools/list gave no handler"),
      }),
    );
    const client = await connected(server, "session");
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["echo", "secret"]);
    await client.close();
  });

  it("keeps a method's own handler when no layer sees it (an empty chain adds no call)", () => {
    const server = echoServer();
    const own = (method: string) => server.featureHandlers().get(method)?.toString();
    const [call, get] = [own("tools/call"), own("prompts/get")];
    server.use("prompts/get", (next) => (request, context) => next(request, context));
    expect(own("tools/call")).toBe(call);
    expect(own("prompts/get")).not.toBe(get);
    // A layer that gives `next` back unchanged adds no call either.
    server.use("tools/call", (next) => next);
    expect(own("tools/call")).toBe(call);
  });
});

// The client's middleware, through our MCPClient and a real MCPServer in memory, in both eras: the
// order of layers, a layer that changes the params or the call's options, answers without the server,
// changes the result, or throws; per-method layers; layers added after connect; the registrations
// refused; and the chain module's own refusal of a layer that gives no handler.
import { describe, expect, it } from "vitest";
import { MCP_CODES } from "../error-codes/error-codes.js";
import { MCPError } from "../error-codes/mcp-error.js";
import { MCPServer } from "../server/mcp-server/mcp-server.js";
import { MiddlewareStack } from "./chain.js";
import type { ClientMiddleware, ClientRequestContext } from "./client-middleware.js";
import { tracing } from "./tracing.test-helpers.js";
import { ourClientOf } from "../server/mcp-server/our-client.test-helpers.js";

const ERAS = ["session", "stateless"] as const;

/** A server whose `echo` says what it got, `_meta` included, and counts its runs. */
function echoServer(ran: string[]): MCPServer {
  const server = new MCPServer({ name: "mw", version: "1.0.0" }, { telemetry: null });
  server.tool("echo", { description: "Echoes its arguments" }, (args, ctx) => {
    ran.push(JSON.stringify(args));
    return { content: [{ type: "text", text: JSON.stringify({ args, trace: ctx.meta?.["trace"] ?? null }) }] };
  });
  return server;
}

const connected = (server: MCPServer, era: "session" | "stateless") => ourClientOf(server, era, { name: "mw-client" });

const echoed = (result: { content: readonly unknown[] }) =>
  JSON.parse((result.content[0] as { text: string }).text) as { args: unknown; trace: unknown };

describe.each(ERAS)("client middleware, %s era", (era) => {
  it("runs the layers in the order they were added, each method's only for it, and sees the era", async () => {
    const log: string[] = [];
    const contexts: ClientRequestContext[] = [];
    const client = await connected(echoServer([]), era);
    client
      .use(tracing("a", log))
      .use("tools/call", tracing("b", log))
      .use((next) => (request, context) => (contexts.push(context), next(request, context)));
    await client.callTool("echo", { x: 1 });
    expect(log.filter((line) => line.endsWith("tools/call"))).toEqual([
      "a > tools/call",
      "b > tools/call",
      "b < tools/call",
      "a < tools/call",
    ]);
    // The client lists the tools after a call (their output schemas): the method's layers are not in that chain.
    expect(log.filter((line) => line.endsWith("tools/list"))).toEqual(["a > tools/list", "a < tools/list"]);
    expect(contexts[0]).toMatchObject({ era, protocolVersion: era === "stateless" ? "2026-07-28" : "2025-11-25" });
    await client.close();
  });

  it("lets a layer change the params and options, answer without the server, and change the result", async () => {
    const ran: string[] = [];
    const client = await connected(echoServer(ran), era);
    client
      .use(
        "tools/call",
        (next) => (request, context) =>
          next(
            { ...request, params: { ...request.params, arguments: { ...request.params.arguments, added: true } } },
            { ...context, options: { ...context.options, meta: { trace: "t-1" } } },
          ),
      )
      .use(
        "tools/call",
        (next) => (request, context) =>
          request.params.arguments?.["cached"] === true
            ? Promise.resolve({ content: [{ type: "text", text: '{"args":"from the layer","trace":null}' }] })
            : next(request, context),
      )
      .use("tools/list", (next) => async (request, context) => {
        const listed = await next(request, context);
        return { ...listed, tools: listed.tools.map((tool) => ({ ...tool, description: `[checked] ${tool.description ?? ""}` })) };
      });
    expect(echoed(await client.callTool("echo", { x: 1 }))).toEqual({ args: { x: 1, added: true }, trace: "t-1" });
    expect(echoed(await client.callTool("echo", { cached: true }))).toEqual({ args: "from the layer", trace: null });
    expect(ran).toEqual(['{"x":1,"added":true}']);
    expect((await client.listTools()).tools.map((tool) => tool.description)).toEqual(["[checked] Echoes its arguments"]);
    await client.close();
  });

  it("rejects the call with what a layer throws, and goes on", async () => {
    const client = await connected(echoServer([]), era);
    let refuse = true;
    client.use(
      "tools/call",
      (next) => (request, context) => (refuse ? Promise.reject(new MCPError(MCP_CODES.UNAUTHORIZED, "not now")) : next(request, context)),
    );
    await expect(client.callTool("echo", {})).rejects.toMatchObject({ code: MCP_CODES.UNAUTHORIZED, message: "not now" });
    refuse = false;
    expect(echoed(await client.callTool("echo", { y: 2 })).args).toEqual({ y: 2 });
    await client.close();
  });

  it("puts a layer added after a method's chain was composed in front of its next request", async () => {
    const log: string[] = [];
    const client = await connected(echoServer([]), era);
    client.use("tools/call", tracing("first", log));
    await client.callTool("echo", {});
    client.use("tools/call", tracing("second", log));
    await client.callTool("echo", {});
    expect(log).toEqual([
      "first > tools/call",
      "first < tools/call",
      "first > tools/call",
      "second > tools/call",
      "second < tools/call",
      "first < tools/call",
    ]);
    await client.close();
  });
});

const base = () => "base";

describe("client middleware registration", () => {
  it("refuses a method the client never sends and a non-function layer; a layer giving no handler fails its requests clearly", async () => {
    const client = await connected(echoServer([]), "session");
    expect(() => client.use("tools/cal" as "tools/call", (next) => next)).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: expect.stringContaining("No client middleware sees tools/cal") }),
    );
    expect(() => client.use(42 as unknown as ClientMiddleware)).toThrow(expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS }));
    client.use("prompts/get", (() => "no handler") as unknown as ClientMiddleware<"prompts/get">);
    await expect(client.getPrompt("any")).rejects.toMatchObject({
      code: MCP_CODES.INVALID_PARAMS,
      message: expect.stringContaining("A middleware for prompts/get gave no handler"),
    });
    // The other methods' chains are not touched by it.
    expect(echoed(await client.callTool("echo", { z: 3 })).args).toEqual({ z: 3 });
    await client.close();
  });

  it("composes a stack with no layer for a method into the method's own handler", () => {
    const stack = new MiddlewareStack<unknown>();
    expect(stack.compose("x", base)).toBe(base);
    stack.add("y", (next) => () => `y(${String(next(undefined as never, undefined))})`);
    expect(stack.compose("x", base)).toBe(base);
    expect(stack.compose("y", base)(undefined as never, undefined)).toBe("y(base)");
    expect(() => stack.add("y", undefined as never)).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS, message: "A middleware is a function from the next handler to a handler" }),
    );
  });

  it("accepts a layer for every method the client sends, and composes each method's chain once", async () => {
    const client = await connected(echoServer([]), "session");
    const methods = [
      "tools/list",
      "tools/call",
      "resources/list",
      "resources/templates/list",
      "resources/read",
      "resources/subscribe",
      "resources/unsubscribe",
      "prompts/list",
      "prompts/get",
      "completion/complete",
      "logging/setLevel",
      "ping",
      "server/discover",
      "subscriptions/listen",
      "tasks/get",
      "tasks/result",
      "tasks/list",
      "tasks/cancel",
      "tasks/update",
    ] as const;
    for (const method of methods) expect(() => client.use(method, (next) => next)).not.toThrow();
    expect(() => client.use("nope" as "ping", (next) => next)).toThrow(
      expect.objectContaining({ message: `No client middleware sees nope: the client sends ${methods.join(", ")}` }),
    );
    let composed = 0;
    client.use("tools/call", (next) => (composed++, next));
    await client.callTool("echo", {});
    await client.callTool("echo", {});
    expect(composed).toBe(1);
    await client.close();
  });
});

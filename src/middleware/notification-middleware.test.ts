// Notification layers on both sides, through a real MCPServer and our MCPClient: in memory in the
// session era and the stateless era (a connection, like stdio), and over Streamable HTTP in the
// stateless era (each request's own stream, and the listen stream). A layer watches, changes the
// params, or drops a notification, each way; what it throws is reported and the connection goes on.
import { describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../error-codes/error-codes.js";
import type { MCPError } from "../error-codes/mcp-error.js";
import { MCPClient } from "../client/mcp-client/mcp-client.js";
import type { MCPClientOptions } from "../client/mcp-client/mcp-client.types.js";
import { MCPServer } from "../server/mcp-server/mcp-server.js";
import type { MCPServerOptions } from "../server/mcp-server/mcp-server.types.js";
import { ourClientOf } from "../server/mcp-server/our-client.test-helpers.js";
import { StreamableHttpTransport } from "../transport/http-client/streamable-http.js";
import { streamableHttpHandler } from "../transport/http-server/streamable-handler.js";
import type { NotificationLayerContext, NotificationMiddleware } from "./notification-middleware.js";

type Way = "session" | "stateless" | "stateless over HTTP";
const WAYS: readonly Way[] = ["session", "stateless", "stateless over HTTP"];
const eraOf = (way: Way): NotificationLayerContext["era"] => (way === "session" ? "session" : "stateless");

/** A server whose `report` tool sends two progress updates and two log messages. */
function reporter(options: MCPServerOptions = {}): MCPServer {
  const server = new MCPServer({ name: "reporter", version: "1.0.0" }, { telemetry: null, ...options });
  server.tool("report", {}, async (_args, ctx) => {
    await ctx.progress(1, 2, "half");
    await ctx.log("debug", "detail");
    await ctx.log("info", "done");
    await ctx.progress(2, 2, "all");
    return { content: [{ type: "text", text: "reported" }] };
  });
  return server;
}

const servers: (() => Promise<void>)[] = [];

async function connected(server: MCPServer, way: Way, options: MCPClientOptions = {}): Promise<MCPClient> {
  if (way !== "stateless over HTTP") return ourClientOf(server, way, { name: "noted", roots: [], ...options });
  const client = new MCPClient({ name: "noted", version: "1.0.0" }, { era: "stateless", telemetry: null, roots: [], ...options });
  const handler = streamableHttpHandler(server);
  servers.push(() => handler.close());
  await client.connect(
    new StreamableHttpTransport("http://127.0.0.1/mcp", { fetchImpl: (url, init) => handler.fetch(new Request(url, init)) }),
  );
  return client;
}

async function done(client: MCPClient): Promise<void> {
  await client.close();
  for (const close of servers.splice(0)) await close();
}

/** Calls `report` with progress and log messages at debug: what the client heard of them. */
async function heard(client: MCPClient): Promise<string[]> {
  const got: string[] = [];
  client.on("log", ({ level, data }) => got.push(`log ${level} ${String(data)}`));
  await client.setLoggingLevel("debug");
  await client.callTool("report", {}, { onProgress: ({ progress, message }) => got.push(`progress ${progress} ${String(message)}`) });
  // Log messages of the session era come on their own, after the answer may have.
  await vi.waitFor(() => expect(got.filter((line) => line.startsWith("log")).length).toBeGreaterThan(0));
  return got;
}

const watching =
  (seen: string[]): NotificationMiddleware =>
  (next) =>
  (notification, context) => {
    seen.push(`${context.direction} ${notification.method} ${context.era}`);
    return next(notification, context);
  };

describe.each(WAYS)("notification middleware, %s", (way) => {
  it("lets the server's layers watch, change and drop what it sends, in the order they were added", async () => {
    const seen: string[] = [];
    const server = reporter()
      .useNotifications(watching(seen))
      .useNotifications(
        "notifications/message",
        (next) => (notification, context) => (notification.params.level === "debug" ? undefined : next(notification, context)),
      )
      .useNotifications("notifications/progress", (next) => async (notification, context) => {
        await next({ ...notification, params: { ...notification.params, message: `${String(notification.params.message)}!` } }, context);
      });
    const client = await connected(server, way);
    expect(await heard(client)).toEqual(["progress 1 half!", "log info done", "progress 2 all!"]);
    const sent = seen.filter((line) => line.startsWith("outgoing") && !line.includes("list_changed"));
    // The watcher runs first: it sees the debug message the next layer drops.
    expect(sent).toEqual(["progress", "message", "message", "progress"].map((method) => `outgoing notifications/${method} ${eraOf(way)}`));
    await done(client);
  });

  it("lets the client's layers watch, change and drop what it hears, before its listeners and callers do", async () => {
    const seen: string[] = [];
    const client = await connected(reporter(), way);
    client
      .useNotifications(watching(seen))
      .useNotifications(
        "notifications/progress",
        (next) => (notification, context) => (notification.params.progress === 1 ? undefined : next(notification, context)),
      )
      .useNotifications(
        "notifications/message",
        (next) => (notification, context) =>
          next({ ...notification, params: { ...notification.params, data: `[${String(notification.params.data)}]` } }, context),
      );
    expect(await heard(client)).toEqual(["log debug [detail]", "log info [done]", "progress 2 all"]);
    expect(seen.filter((line) => line.startsWith("incoming") && !line.includes("acknowledged"))).toEqual(
      ["progress", "message", "message", "progress"].map((method) => `incoming notifications/${method} ${eraOf(way)}`),
    );
    await done(client);
  });

  it("passes list changes through both sides' layers", async () => {
    const seen: string[] = [];
    const server = reporter().useNotifications("notifications/tools/list_changed", watching(seen));
    const client = await connected(server, way);
    client.useNotifications("notifications/tools/list_changed", watching(seen));
    const acknowledged = new Promise<void>((resolve) =>
      client.useNotifications(
        "notifications/subscriptions/acknowledged",
        (next) => (notification, context) => (resolve(), next(notification, context)),
      ),
    );
    const changed = new Promise<void>((resolve) => client.on("toolsListChanged", () => resolve()));
    // Stateless era: the change comes on the listen stream a listener opens, once the server acknowledged it (through the layers too).
    if (way !== "session") await acknowledged;
    server.tool("later", {}, () => ({ content: [] }));
    await changed;
    expect(seen).toEqual([
      `outgoing notifications/tools/list_changed ${eraOf(way)}`,
      `incoming notifications/tools/list_changed ${eraOf(way)}`,
    ]);
    await done(client);
  });

  it("reports what a client layer throws, drops that notification, and goes on", async () => {
    const errors: MCPError[] = [];
    const client = await connected(reporter(), way, { onError: (error) => errors.push(error) });
    let calls = 0;
    client.useNotifications("notifications/progress", (next) => (notification, context) => {
      if (++calls === 1) throw new Error("layer broke");
      return next(notification, context);
    });
    expect((await heard(client)).filter((line) => line.startsWith("progress"))).toEqual(["progress 2 all"]);
    expect(errors.map((error) => error.message)).toContain("layer broke");
    expect((await client.callTool("report")).content).toEqual([{ type: "text", text: "reported" }]);
    await done(client);
  });

  it("makes what a server layer throws the sender's failure: the tool's own error when its handler sent it", async () => {
    const server = reporter().useNotifications("notifications/message", () => () => Promise.reject(new Error("no logs today")));
    const client = await connected(server, way);
    await client.setLoggingLevel("info");
    const result = await client.callTool("report");
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: expect.stringContaining("no logs today") }]);
    await done(client);
  });
});

describe("notification middleware, session era only", () => {
  it("shows the server what its client sends, and the client's layers change it first", async () => {
    const seen: string[] = [];
    const rootsChanged = vi.fn();
    const server = reporter({ onRootsListChanged: rootsChanged }).useNotifications((next) => (notification, context) => {
      seen.push(`${context.direction} ${notification.method} ${JSON.stringify(notification.params ?? null)}`);
      return next(notification, context);
    });
    const client = await connected(server, "session");
    client.useNotifications(
      "notifications/roots/list_changed",
      (next) => (notification, context) => next({ ...notification, params: { reason: "moved" } }, context),
    );
    await client.setRoots([{ uri: "file:///elsewhere" }]);
    await vi.waitFor(() => expect(rootsChanged).toHaveBeenCalledTimes(1));
    expect(seen).toEqual(["incoming notifications/initialized null", 'incoming notifications/roots/list_changed {"reason":"moved"}']);
    await done(client);
  });

  it("lets a server layer keep a client's notification from the server", async () => {
    const rootsChanged = vi.fn();
    const server = reporter({ onRootsListChanged: rootsChanged }).useNotifications(
      "notifications/roots/list_changed",
      () => () => undefined,
    );
    const client = await connected(server, "session");
    await client.setRoots([{ uri: "file:///elsewhere" }]);
    await client.ping();
    expect(rootsChanged).not.toHaveBeenCalled();
    await done(client);
  });

  it("passes a cancellation through both sides: the client's layer gives the reason the server's sees", async () => {
    const reasons: unknown[] = [];
    const server = new MCPServer({ name: "slow", version: "1.0.0" }, { telemetry: null });
    server.tool(
      "wait",
      {},
      (_args, ctx) =>
        new Promise((resolve) =>
          ctx.signal.addEventListener("abort", () => resolve({ content: [{ type: "text", text: String(ctx.signal.reason) }] })),
        ),
    );
    server.useNotifications(
      "notifications/cancelled",
      (next) => (notification, context) => (reasons.push(notification.params.reason), next(notification, context)),
    );
    const client = await connected(server, "session");
    client.useNotifications(
      "notifications/cancelled",
      (next) => (notification, context) =>
        next({ ...notification, params: { ...notification.params, reason: "changed my mind" } }, context),
    );
    const controller = new AbortController();
    const call = client.callTool("wait", {}, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort(new Error("user left"));
    await expect(call).rejects.toMatchObject({ code: MCP_CODES.REQUEST_CANCELLED });
    await vi.waitFor(() => expect(reasons).toEqual(["changed my mind"]));
    await done(client);
  });
});

describe("notification middleware registration", () => {
  it("refuses a method that is no notification of MCP, naming those there are", () => {
    const server = reporter();
    expect(() => server.useNotifications("notifications/nope" as "notifications/message", (next) => next)).toThrow(
      expect.objectContaining({
        code: MCP_CODES.INVALID_PARAMS,
        message: expect.stringMatching(
          new RegExp(
            "^No notification middleware sees notifications/nope: notifications are notifications/initialized, " +
              "notifications/cancelled, .*notifications/subscriptions/acknowledged$",
          ),
        ),
      }),
    );
    const client = new MCPClient({ name: "c", version: "1" });
    expect(() => client.useNotifications("tools/call" as "notifications/message", (next) => next)).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS }),
    );
    expect(() => client.useNotifications("notifications/progress", (next) => next)).not.toThrow();
  });

  it("reports a layer that gives no handler when its first notification comes, and sends nothing of it", async () => {
    const errors: MCPError[] = [];
    const client = await connected(reporter(), "session", { onError: (error) => errors.push(error) });
    client.useNotifications("notifications/progress", (() => undefined) as unknown as NotificationMiddleware);
    expect((await heard(client)).filter((line) => line.startsWith("progress"))).toEqual([]);
    expect(errors.map((error) => error.code)).toContain(MCP_CODES.INVALID_PARAMS);
    await done(client);
  });
});

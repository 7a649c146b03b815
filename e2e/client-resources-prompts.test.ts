// MCPClient reading the SDK server's resources and prompts: lists, templates, reads, subscriptions
// with update notifications, prompts with arguments, completion with context, and logging.
import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ReadResourceRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { connectToSdk, until } from "../src/client/mcp-client/mcp-client.test-helpers.js";
import { MCP_CODES, type LoggingMessageNotificationParams, type ResourceUpdatedNotificationParams } from "../src/index.js";

function library(): McpServer {
  const server = new McpServer({ name: "library", version: "1.0.0" });
  server.registerResource("readme", "file:///readme.md", { mimeType: "text/markdown", description: "read me" }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/markdown", text: "# Hello" }],
  }));
  server.registerResource("logo", "file:///logo.png", { mimeType: "image/png" }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: "image/png", blob: "iVBORw0KGgo=" }],
  }));
  const books = new ResourceTemplate("books://{genre}/{title}", {
    list: undefined,
    complete: {
      genre: (value) => ["fantasy", "fiction", "history"].filter((genre) => genre.startsWith(value)),
      title: (value, context) =>
        (context?.arguments?.["genre"] === "fantasy" ? ["The Hobbit", "Earthsea"] : ["Dune"]).filter((title) => title.startsWith(value)),
    },
  });
  server.registerResource("book", books, { description: "a book" }, (uri, variables) => ({
    contents: [{ uri: uri.href, text: `${String(variables["title"])} (${String(variables["genre"])})` }],
  }));
  server.registerPrompt(
    "review",
    {
      description: "review code",
      argsSchema: {
        language: completable(z.string(), (value) => ["typescript", "python"].filter((language) => language.startsWith(value))),
        style: completable(z.string(), (value, context) =>
          (context?.arguments?.["language"] === "python" ? ["pep8", "black"] : ["prettier"]).filter((style) => style.startsWith(value)),
        ),
      },
    },
    ({ language, style }) => ({
      description: "a review",
      messages: [
        { role: "user", content: { type: "text", text: `Review this ${language} code in ${style} style` } },
        { role: "assistant", content: { type: "resource", resource: { uri: "file:///style.md", text: style } } },
      ],
    }),
  );
  return server;
}

describe("MCPClient resources and prompts against the SDK's McpServer", () => {
  it("lists resources and templates, and reads text and blob contents", async () => {
    const client = await connectToSdk(library());
    expect(await client.listAllResources()).toMatchObject([
      { uri: "file:///readme.md", name: "readme", mimeType: "text/markdown", description: "read me" },
      { uri: "file:///logo.png", name: "logo", mimeType: "image/png" },
    ]);
    expect(await client.listAllResourceTemplates()).toMatchObject([
      { uriTemplate: "books://{genre}/{title}", name: "book", description: "a book" },
    ]);
    expect(await client.readResource("file:///readme.md")).toEqual({
      contents: [{ uri: "file:///readme.md", mimeType: "text/markdown", text: "# Hello" }],
    });
    expect(await client.readResource("file:///logo.png")).toEqual({
      contents: [{ uri: "file:///logo.png", mimeType: "image/png", blob: "iVBORw0KGgo=" }],
    });
    expect(await client.readResource("books://fantasy/Earthsea")).toMatchObject({ contents: [{ text: "Earthsea (fantasy)" }] });
    // Interop: the SDK answers an unknown resource with -32602, not the -32002 of the 2025-11-25 spec.
    await expect(client.readResource("file:///missing")).rejects.toMatchObject({
      code: MCP_CODES.INVALID_PARAMS,
      wireCode: -32602,
      message: expect.stringContaining("file:///missing not found"),
    });
    await client.close();
  });

  it("lists prompts and gets one with arguments", async () => {
    const client = await connectToSdk(library());
    const prompts = await client.listAllPrompts();
    expect(prompts).toMatchObject([
      {
        name: "review",
        description: "review code",
        arguments: [
          { name: "language", required: true },
          { name: "style", required: true },
        ],
      },
    ]);
    const prompt = await client.getPrompt("review", { language: "python", style: "black" });
    expect(prompt).toEqual({
      description: "a review",
      messages: [
        { role: "user", content: { type: "text", text: "Review this python code in black style" } },
        { role: "assistant", content: { type: "resource", resource: { uri: "file:///style.md", text: "black" } } },
      ],
    });
    await expect(client.getPrompt("review")).rejects.toMatchObject({ code: MCP_CODES.INVALID_PARAMS });
    await client.close();
  });

  it("completes prompt and template arguments, using the context of arguments already given", async () => {
    const client = await connectToSdk(library());
    const prompt = { type: "ref/prompt" as const, name: "review" };
    expect((await client.complete(prompt, { name: "language", value: "ty" })).completion.values).toEqual(["typescript"]);
    expect((await client.complete(prompt, { name: "style", value: "" }, { arguments: { language: "python" } })).completion.values).toEqual([
      "pep8",
      "black",
    ]);
    expect(
      (await client.complete(prompt, { name: "style", value: "" }, { arguments: { language: "typescript" } })).completion.values,
    ).toEqual(["prettier"]);
    const template = { type: "ref/resource" as const, uri: "books://{genre}/{title}" };
    expect((await client.complete(template, { name: "genre", value: "f" })).completion).toMatchObject({ values: ["fantasy", "fiction"] });
    expect((await client.complete(template, { name: "title", value: "" }, { arguments: { genre: "fantasy" } })).completion.values).toEqual([
      "The Hobbit",
      "Earthsea",
    ]);
    await client.close();
  });

  it("sets the log level and hears the messages at or above it", async () => {
    const server = new McpServer({ name: "logger", version: "1.0.0" }, { capabilities: { logging: {} } });
    server.registerTool("work", {}, async () => {
      await server.sendLoggingMessage({ level: "info", logger: "work", data: "starting" });
      await server.sendLoggingMessage({ level: "error", logger: "work", data: { failed: "step 2" } });
      return { content: [] };
    });
    const client = await connectToSdk(server);
    const messages: LoggingMessageNotificationParams[] = [];
    client.on("log", (message) => messages.push(message));
    await client.setLoggingLevel("warning");
    await client.callTool("work");
    await until(() => messages.length === 1);
    expect(messages).toEqual([{ level: "error", logger: "work", data: { failed: "step 2" } }]);
    await client.setLoggingLevel("debug");
    await client.callTool("work");
    await until(() => messages.length === 3);
    expect(messages[1]).toEqual({ level: "info", logger: "work", data: "starting" });
    await client.close();
  });
});

describe("MCPClient resource subscriptions against the SDK's low-level Server", () => {
  it("subscribes, hears updates of subscribed resources, and unsubscribes", async () => {
    const server = new Server({ name: "feeds", version: "1.0.0" }, { capabilities: { resources: { subscribe: true } } });
    const subscribed = new Set<string>();
    server.setRequestHandler(SubscribeRequestSchema, (request) => {
      subscribed.add(request.params.uri);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      subscribed.delete(request.params.uri);
      return {};
    });
    server.setRequestHandler(ReadResourceRequestSchema, (request) => ({ contents: [{ uri: request.params.uri, text: "v2" }] }));
    const publish = async (uri: string): Promise<void> => {
      if (subscribed.has(uri)) await server.sendResourceUpdated({ uri });
    };
    const client = await connectToSdk(server);
    expect(client.serverCapabilities?.resources).toEqual({ subscribe: true });
    const updates: ResourceUpdatedNotificationParams[] = [];
    const stop = client.on("resourceUpdated", (update) => updates.push(update));
    await client.subscribeResource("feed://news");
    expect([...subscribed]).toEqual(["feed://news"]);
    await publish("feed://news");
    await publish("feed://weather");
    await until(() => updates.length === 1);
    expect(updates).toEqual([{ uri: "feed://news" }]);
    expect(await client.readResource("feed://news")).toEqual({ contents: [{ uri: "feed://news", text: "v2" }] });
    await client.unsubscribeResource("feed://news");
    expect(subscribed.size).toBe(0);
    stop();
    await server.sendResourceUpdated({ uri: "feed://news" });
    await client.ping();
    expect(updates).toHaveLength(1);
    await client.close();
  });
});

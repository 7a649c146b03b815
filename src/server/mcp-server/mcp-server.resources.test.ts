import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { DEFAULT_MAX_TEMPLATE_LENGTH, UriTemplate } from "../../uri-template/uri-template.js";
import { MCPServer } from "./mcp-server.js";
import { initializedRawClientOf, sdkClientOf, settle } from "./mcp-server.test-helpers.js";

const info = { name: "resources-server", version: "1.0.0" };

function library(): MCPServer {
  const server = new MCPServer(info, { pageSize: 50 });
  server.resource(
    "readme",
    "file:///README.md",
    { title: "Read me", mimeType: "text/markdown", size: 5, annotations: { audience: ["user"] } },
    (uri) => ({ contents: [{ uri, text: "# Hi", mimeType: "text/markdown" }] }),
  );
  server.resourceTemplate(
    "book",
    "library://books/{id}{?format}",
    {
      description: "A book by id",
      mimeType: "text/plain",
      list: () => [
        { uri: "library://books/1", name: "Dune" },
        { uri: "library://books/2", name: "Emma" },
      ],
      complete: { id: (value) => ["1", "2", "10"].filter((id) => id.startsWith(value)) },
    },
    (uri, variables) => ({ contents: [{ uri, text: `book ${String(variables["id"])} as ${String(variables["format"] ?? "text")}` }] }),
  );
  return server;
}

describe("MCPServer: resources", () => {
  it("lists static resources and what templates enumerate", async () => {
    const { client } = await sdkClientOf(library());
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      {
        uri: "file:///README.md",
        name: "readme",
        title: "Read me",
        mimeType: "text/markdown",
        size: 5,
        annotations: { audience: ["user"] },
      },
      { uri: "library://books/1", name: "Dune" },
      { uri: "library://books/2", name: "Emma" },
    ]);
  });

  it("lists templates", async () => {
    const { client } = await sdkClientOf(library());
    await expect(client.listResourceTemplates()).resolves.toEqual({
      resourceTemplates: [
        { name: "book", uriTemplate: "library://books/{id}{?format}", description: "A book by id", mimeType: "text/plain" },
      ],
    });
  });

  it("reads a static resource and a templated one with its variables", async () => {
    const { client } = await sdkClientOf(library());
    await expect(client.readResource({ uri: "file:///README.md" })).resolves.toEqual({
      contents: [{ uri: "file:///README.md", text: "# Hi", mimeType: "text/markdown" }],
    });
    await expect(client.readResource({ uri: "library://books/42?format=epub" })).resolves.toEqual({
      contents: [{ uri: "library://books/42?format=epub", text: "book 42 as epub" }],
    });
    await expect(client.readResource({ uri: "library://books/7" })).resolves.toMatchObject({ contents: [{ text: "book 7 as text" }] });
  });

  it("hands a {+path} handler an encoded slash as sent, distinct from a raw one", async () => {
    const server = new MCPServer(info);
    server.resourceTemplate("file", "files:///{+path}", {}, (uri, variables) => ({ contents: [{ uri, text: JSON.stringify(variables) }] }));
    const { client } = await sdkClientOf(server);
    const textOf = async (uri: string): Promise<unknown> => {
      const [content] = (await client.readResource({ uri })).contents;
      return content !== undefined && "text" in content ? content.text : content;
    };
    await expect(textOf("files:///docs/a%2Fb%20c.txt")).resolves.toBe('{"path":"docs/a%2Fb c.txt"}');
    await expect(textOf("files:///docs/a/b%20c.txt")).resolves.toBe('{"path":"docs/a/b c.txt"}');
  });

  it("answers an unknown URI with -32002 and the uri in data", async () => {
    const { client } = await sdkClientOf(library());
    await expect(client.readResource({ uri: "file:///nope" })).rejects.toMatchObject({
      code: -32002,
      message: expect.stringContaining("Resource not found: file:///nope"),
      data: { uri: "file:///nope" },
    });
  });

  it("raises MCP.NOT_FOUND for our own client", async () => {
    const { client } = await initializedRawClientOf(library(), "2025-06-18");
    await expect(client.request("resources/read", { uri: "file:///nope" })).rejects.toMatchObject({
      code: MCP_CODES.NOT_FOUND,
      wireCode: -32002,
    });
  });

  it("tells subscribed sessions of updates, and stops after unsubscribe", async () => {
    const server = library();
    const { client } = await sdkClientOf(server);
    const updated = vi.fn();
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => updated(notification.params.uri));
    await server.markResourceUpdated("file:///README.md");
    await client.subscribeResource({ uri: "file:///README.md" });
    await server.markResourceUpdated("file:///README.md");
    await server.markResourceUpdated("library://books/1");
    await settle();
    expect(updated.mock.calls).toEqual([["file:///README.md"]]);
    await client.unsubscribeResource({ uri: "file:///README.md" });
    await server.markResourceUpdated("file:///README.md");
    await settle();
    expect(updated).toHaveBeenCalledTimes(1);
  });

  it("completes template variables", async () => {
    const { client } = await sdkClientOf(library());
    await expect(
      client.complete({ ref: { type: "ref/resource", uri: "library://books/{id}{?format}" }, argument: { name: "id", value: "1" } }),
    ).resolves.toEqual({ completion: { values: ["1", "10"], total: 2, hasMore: false } });
    await expect(
      client.complete({ ref: { type: "ref/resource", uri: "library://books/{id}{?format}" }, argument: { name: "format", value: "" } }),
    ).resolves.toEqual({ completion: { values: [], total: 0, hasMore: false } });
    await expect(
      client.complete({ ref: { type: "ref/resource", uri: "nope://{x}" }, argument: { name: "x", value: "" } }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Unknown resource template: nope://{x}"),
    });
  });

  it("completes nothing for a template without completers", async () => {
    const server = new MCPServer(info);
    server.resourceTemplate("plain", "x://plain/{a}", {}, () => ({ contents: [] }));
    const { client } = await sdkClientOf(server);
    await expect(
      client.complete({ ref: { type: "ref/resource", uri: "x://plain/{a}" }, argument: { name: "a", value: "" } }),
    ).resolves.toEqual({ completion: { values: [], total: 0, hasMore: false } });
  });

  it("refuses a second resource at the same URI and a malformed template", () => {
    const server = library();
    expect(() => server.resource("again", "file:///README.md", {}, () => ({ contents: [] }))).toThrow(
      expect.objectContaining({ code: MCP_CODES.DUPLICATE_REGISTRATION }),
    );
    expect(() => server.resourceTemplate("broken", "x://{unclosed", {}, () => ({ contents: [] }))).toThrow(
      expect.objectContaining({ code: MCP_CODES.INVALID_PARAMS }),
    );
  });

  it("refuses a template over the default length, as UriTemplate.parse does", () => {
    const long = `x://${"a".repeat(DEFAULT_MAX_TEMPLATE_LENGTH)}/{id}`;
    const refused = expect.objectContaining({
      code: MCP_CODES.INVALID_PARAMS,
      message: `URI template is ${long.length} characters long, over the limit of ${DEFAULT_MAX_TEMPLATE_LENGTH}`,
    });
    expect(() => UriTemplate.parse(long)).toThrow(refused);
    expect(() => new MCPServer(info).resourceTemplate("long", long, {}, () => ({ contents: [] }))).toThrow(refused);
  });

  it("reads and lists by a UriTemplate given to update()", async () => {
    const server = new MCPServer(info);
    const registered = server.resourceTemplate("book", "library://books/{id}", {}, (uri, variables) => ({
      contents: [{ uri, text: JSON.stringify(variables) }],
    }));
    registered.update({ uriTemplate: UriTemplate.parse("library://shelves/{shelf}/{id}") });
    const { client } = await sdkClientOf(server);
    await expect(client.listResourceTemplates()).resolves.toEqual({
      resourceTemplates: [{ name: "book", uriTemplate: "library://shelves/{shelf}/{id}" }],
    });
    await expect(client.readResource({ uri: "library://shelves/s1/42" })).resolves.toEqual({
      contents: [{ uri: "library://shelves/s1/42", text: '{"shelf":"s1","id":"42"}' }],
    });
    await expect(client.readResource({ uri: "library://books/42" })).rejects.toMatchObject({ code: -32002 });
  });
});

function prompts(): MCPServer {
  const server = new MCPServer(info);
  server.prompt(
    "review",
    {
      title: "Code review",
      description: "Review a change",
      arguments: {
        language: {
          description: "Language",
          required: true,
          complete: (value) => ["go", "rust", "ruby", "python"].filter((l) => l.startsWith(value)),
        },
        framework: {
          complete: (value, context) =>
            (context.arguments["language"] === "ruby" ? ["rails", "sinatra"] : ["none"]).filter((f) => f.startsWith(value)),
        },
        many: { complete: () => Array.from({ length: 150 }, (_, i) => `v${i}`) },
      },
    },
    (args) => ({
      description: "A review",
      messages: [
        { role: "user", content: { type: "text", text: `Review this ${args["language"]} code` } },
        { role: "assistant", content: { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" } },
        { role: "user", content: { type: "audio", data: "UklGRg==", mimeType: "audio/wav" } },
        { role: "user", content: { type: "resource_link", uri: "file:///diff", name: "diff" } },
        { role: "user", content: { type: "resource", resource: { uri: "file:///a.go", text: "package a" } } },
      ],
    }),
  );
  return server;
}

describe("MCPServer: prompts and completion", () => {
  it("lists prompts with their arguments (completers not shown)", async () => {
    const { client } = await sdkClientOf(prompts());
    const { prompts: listed } = await client.listPrompts();
    expect(listed).toEqual([
      {
        name: "review",
        title: "Code review",
        description: "Review a change",
        arguments: [{ name: "language", description: "Language", required: true }, { name: "framework" }, { name: "many" }],
      },
    ]);
  });

  it("gets a prompt with every content type", async () => {
    const { client } = await sdkClientOf(prompts());
    const result = await client.getPrompt({ name: "review", arguments: { language: "go" } });
    expect(result.messages.map((message) => message.content.type)).toEqual(["text", "image", "audio", "resource_link", "resource"]);
    expect(result.messages[0]?.content).toEqual({ type: "text", text: "Review this go code" });
  });

  it("gets a prompt without arguments when none is required", async () => {
    const server = new MCPServer(info);
    server.prompt("hello", { arguments: { name: { description: "optional" } } }, (args) => ({
      messages: [{ role: "user", content: { type: "text", text: `hello ${args["name"] ?? "you"}` } }],
    }));
    server.prompt("plain", {}, () => ({ messages: [{ role: "assistant", content: { type: "text", text: "plain" } }] }));
    const { client } = await sdkClientOf(server);
    await expect(client.getPrompt({ name: "hello" })).resolves.toEqual({
      messages: [{ role: "user", content: { type: "text", text: "hello you" } }],
    });
    await expect(client.getPrompt({ name: "plain", arguments: { extra: "ignored" } })).resolves.toMatchObject({
      messages: [{ content: { text: "plain" } }],
    });
  });

  it("names every missing required argument", async () => {
    const server = new MCPServer(info);
    server.prompt("pair", { arguments: { a: { required: true }, b: { required: true } } }, () => ({ messages: [] }));
    const { client } = await sdkClientOf(server);
    await expect(client.getPrompt({ name: "pair", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Missing required arguments for prompt pair: a, b"),
    });
  });

  it("answers an unknown prompt and a missing required argument with -32602", async () => {
    const { client } = await sdkClientOf(prompts());
    await expect(client.getPrompt({ name: "nope" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Unknown prompt: nope"),
    });
    await expect(client.getPrompt({ name: "review", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/Missing required argument for prompt review: language$/),
    });
  });

  it("completes prompt arguments using the context of the others, capped at 100 values", async () => {
    const { client } = await sdkClientOf(prompts());
    await expect(
      client.complete({ ref: { type: "ref/prompt", name: "review" }, argument: { name: "language", value: "r" } }),
    ).resolves.toEqual({ completion: { values: ["rust", "ruby"], total: 2, hasMore: false } });
    await expect(
      client.complete({
        ref: { type: "ref/prompt", name: "review" },
        argument: { name: "framework", value: "" },
        context: { arguments: { language: "ruby" } },
      }),
    ).resolves.toEqual({ completion: { values: ["rails", "sinatra"], total: 2, hasMore: false } });
    await expect(
      client.complete({ ref: { type: "ref/prompt", name: "review" }, argument: { name: "framework", value: "" } }),
    ).resolves.toEqual({ completion: { values: ["none"], total: 1, hasMore: false } });
    const many = await client.complete({ ref: { type: "ref/prompt", name: "review" }, argument: { name: "many", value: "" } });
    expect(many.completion).toMatchObject({ total: 150, hasMore: true });
    expect(many.completion.values).toHaveLength(100);
    await expect(
      client.complete({ ref: { type: "ref/prompt", name: "missing" }, argument: { name: "x", value: "" } }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Unknown prompt: missing"),
    });
  });

  it("completes nothing for an argument the prompt does not have, or a prompt without arguments", async () => {
    const server = prompts();
    server.prompt("bare", {}, () => ({ messages: [] }));
    const { client } = await sdkClientOf(server);
    const nothing = { completion: { values: [], total: 0, hasMore: false } };
    await expect(
      client.complete({ ref: { type: "ref/prompt", name: "review" }, argument: { name: "unknown", value: "" } }),
    ).resolves.toEqual(nothing);
    await expect(client.complete({ ref: { type: "ref/prompt", name: "bare" }, argument: { name: "any", value: "" } })).resolves.toEqual(
      nothing,
    );
  });
});

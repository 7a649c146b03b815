// The fixture server's contents: exactly the tools, resources, prompts, completions and logging the
// server scenarios of @modelcontextprotocol/conformance ask for — 0.1.16 (2025 sessions) here, and
// 0.2.0-alpha.12 at 2026-07-28 (stateless era) from fixtures-2026.mjs, on the same MCPServer (see
// README.md, where each scenario names the fixture it needs). Names, texts and schemas follow the
// scenario descriptions in the suite's sources (src/scenarios/server/*.ts); no zod, plain JSON Schema.
import { MCPServer, serverTasks } from "@suaveplan/mcp";
import { addStatelessEraFixtures, JSON_SCHEMA_2020_12_INPUT } from "./fixtures-2026.mjs";

// A 1×1 red PNG and a minimal WAV (the same bytes as the suite's reference "everything" server).
export const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
export const WAV_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

const NO_ARGUMENTS = { type: "object", properties: {} };
const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
const text = (value) => ({ type: "text", text: value });
/** A completer offering the given values that start with what was typed. */
const completeFrom = (values) => (typed) => values.filter((value) => value.startsWith(typed));

/**
 * Registers the fixtures on a new MCPServer.
 * `hooks.closeRequestStream(ctx)`: asks the HTTP layer to end the SSE stream of the request `ctx`
 * belongs to, without ending the request (SEP-1699, for `test_reconnection`); returns whether it could.
 * `shared`: what several processes share (`changeFeed`, `requestState`, `taskStore`), for the cluster mode of server.mjs.
 */
export function createFixtureServer(hooks = {}, shared = {}) {
  const { taskStore, ...stores } = shared;
  const server = new MCPServer(
    { name: "suaveplan-conformance-fixture", version: "1.0.0" },
    {
      instructions: "Fixture server for the MCP conformance suite (@modelcontextprotocol/conformance 0.1.16 and 0.2.0-alpha.12).",
      // Stateless era: how long clients may keep discover, list and read results (the scenarios only check the hints are there and valid).
      cache: {
        discover: { ttlMs: 60_000, cacheScope: "public" },
        lists: { ttlMs: 60_000, cacheScope: "public" },
        read: { ttlMs: 60_000, cacheScope: "private" },
      },
      // The tasks-* scenarios (fixtures-tasks.mjs): they poll tasks/get every 200 ms.
      tasks: serverTasks({ pollIntervalMs: 200, ...(taskStore === undefined ? {} : { store: taskStore }) }),
      // Several processes (cluster mode of server.mjs): the change feed and request-state keys they share.
      ...stores,
    },
  );

  // ---- tools ------------------------------------------------------------------------------------

  // tools-call-simple-text
  server.tool("test_simple_text", { description: "Tests simple text content response", inputSchema: NO_ARGUMENTS }, () => ({
    content: [text("This is a simple text response for testing.")],
  }));

  // tools-call-image
  server.tool("test_image_content", { description: "Tests image content response", inputSchema: NO_ARGUMENTS }, () => ({
    content: [{ type: "image", data: PNG_BASE64, mimeType: "image/png" }],
  }));

  // tools-call-audio (the suite insists on audio/wav)
  server.tool("test_audio_content", { description: "Tests audio content response", inputSchema: NO_ARGUMENTS }, () => ({
    content: [{ type: "audio", data: WAV_BASE64, mimeType: "audio/wav" }],
  }));

  // tools-call-embedded-resource
  server.tool("test_embedded_resource", { description: "Tests embedded resource content response", inputSchema: NO_ARGUMENTS }, () => ({
    content: [
      {
        type: "resource",
        resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." },
      },
    ],
  }));

  // tools-call-mixed-content
  server.tool(
    "test_multiple_content_types",
    { description: "Tests response with multiple content types (text, image, resource)", inputSchema: NO_ARGUMENTS },
    () => ({
      content: [
        text("Multiple content types test:"),
        { type: "image", data: PNG_BASE64, mimeType: "image/png" },
        {
          type: "resource",
          resource: {
            uri: "test://mixed-content-resource",
            mimeType: "application/json",
            text: JSON.stringify({ test: "data", value: 123 }),
          },
        },
      ],
    }),
  );

  // tools-call-with-logging: three info messages, ~50 ms apart, while the call runs
  server.tool(
    "test_tool_with_logging",
    { description: "Tests tool that emits log messages during execution", inputSchema: NO_ARGUMENTS },
    async (_args, ctx) => {
      await ctx.log("info", "Tool execution started", "conformance-fixture");
      await sleep(50, ctx.signal);
      await ctx.log("info", "Tool processing data", "conformance-fixture");
      await sleep(50, ctx.signal);
      await ctx.log("info", "Tool execution completed", "conformance-fixture");
      return { content: [text("Tool with logging executed successfully")] };
    },
  );

  // tools-call-with-progress: 0/100, 50/100, 100/100 when the caller gave a progress token
  server.tool(
    "test_tool_with_progress",
    { description: "Tests tool that reports progress notifications", inputSchema: NO_ARGUMENTS },
    async (_args, ctx) => {
      await ctx.progress(0, 100, "Completed step 0 of 100");
      await sleep(50, ctx.signal);
      await ctx.progress(50, 100, "Completed step 50 of 100");
      await sleep(50, ctx.signal);
      await ctx.progress(100, 100, "Completed step 100 of 100");
      return { content: [text(`Progress reported for token ${JSON.stringify(ctx.meta?.progressToken ?? null)}`)] };
    },
  );

  // tools-call-error: the handler throws; MCPServer turns that into an isError result
  server.tool("test_error_handling", { description: "Tests error response handling", inputSchema: NO_ARGUMENTS }, () => {
    throw new Error("This tool intentionally returns an error for testing");
  });

  // server-sse-polling (pending, SEP-1699): ends the POST's SSE stream mid-call, answers after the client reconnects
  server.tool(
    "test_reconnection",
    {
      description:
        "Tests SSE stream disconnection and client reconnection (SEP-1699). The server closes the stream mid-call and sends the " +
        "result after the client reconnects.",
      inputSchema: NO_ARGUMENTS,
    },
    async (_args, ctx) => {
      const closed = hooks.closeRequestStream ? await hooks.closeRequestStream(ctx) : false;
      await sleep(100, ctx.signal);
      return {
        content: [
          text(
            closed
              ? "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure."
              : "Reconnection test completed (the HTTP layer offers no way to close the request's stream early).",
          ),
        ],
      };
    },
  );

  // tools-call-sampling
  server.tool(
    "test_sampling",
    {
      description: "Tests server-initiated sampling (LLM completion request)",
      inputSchema: {
        type: "object",
        properties: { prompt: { type: "string", description: "The prompt to send to the LLM" } },
        required: ["prompt"],
      },
    },
    async ({ prompt }, ctx) => {
      const result = await ctx.createMessage({ messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens: 100 });
      // 2025-11-25 allows an array of blocks (sampling with tools); earlier revisions one block.
      const blocks = Array.isArray(result.content) ? result.content : [result.content];
      const answer = blocks.find((block) => block?.type === "text")?.text;
      return { content: [text(`LLM response: ${typeof answer === "string" ? answer : "(no text)"}`)] };
    },
  );

  // tools-call-elicitation
  server.tool(
    "test_elicitation",
    {
      description: "Tests server-initiated elicitation (user input request)",
      inputSchema: {
        type: "object",
        properties: { message: { type: "string", description: "The message to show the user" } },
        required: ["message"],
      },
    },
    async ({ message }, ctx) => {
      const result = await ctx.elicitInput({
        message,
        requestedSchema: {
          type: "object",
          properties: {
            username: { type: "string", description: "User's response" },
            email: { type: "string", description: "User's email address" },
          },
          required: ["username", "email"],
        },
      });
      return { content: [text(`User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`)] };
    },
  );

  // elicitation-sep1034-defaults: a default for every primitive type
  server.tool(
    "test_elicitation_sep1034_defaults",
    { description: "Tests elicitation with default values per SEP-1034", inputSchema: NO_ARGUMENTS },
    async (_args, ctx) => {
      const result = await ctx.elicitInput({
        message: "Please review and update the form fields with defaults",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", description: "User name", default: "John Doe" },
            age: { type: "integer", description: "User age", default: 30 },
            score: { type: "number", description: "User score", default: 95.5 },
            status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
            verified: { type: "boolean", description: "Verification status", default: true },
          },
          required: [],
        },
      });
      return { content: [text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`)] };
    },
  );

  // elicitation-sep1330-enums: the five enum shapes
  server.tool(
    "test_elicitation_sep1330_enums",
    { description: "Tests elicitation with enum schema improvements per SEP-1330", inputSchema: NO_ARGUMENTS },
    async (_args, ctx) => {
      const result = await ctx.elicitInput({
        message: "Please select options from the enum fields",
        requestedSchema: {
          type: "object",
          properties: {
            untitledSingle: { type: "string", description: "Select one option", enum: ["option1", "option2", "option3"] },
            titledSingle: {
              type: "string",
              description: "Select one option with titles",
              oneOf: [
                { const: "value1", title: "First Option" },
                { const: "value2", title: "Second Option" },
                { const: "value3", title: "Third Option" },
              ],
            },
            legacyEnum: {
              type: "string",
              description: "Select one option (legacy)",
              enum: ["opt1", "opt2", "opt3"],
              enumNames: ["Option One", "Option Two", "Option Three"],
            },
            untitledMulti: {
              type: "array",
              description: "Select multiple options",
              minItems: 1,
              maxItems: 3,
              items: { type: "string", enum: ["option1", "option2", "option3"] },
            },
            titledMulti: {
              type: "array",
              description: "Select multiple options with titles",
              minItems: 1,
              maxItems: 3,
              items: {
                anyOf: [
                  { const: "value1", title: "First Choice" },
                  { const: "value2", title: "Second Choice" },
                  { const: "value3", title: "Third Choice" },
                ],
              },
            },
          },
          required: [],
        },
      });
      return { content: [text(`Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`)] };
    },
  );

  // json-schema-2020-12 (pending in both suites; SEP-1613, SEP-2106): $schema, $defs (with $anchor), additionalProperties,
  // allOf/anyOf and if/then/else must survive tools/list unchanged
  server.tool(
    "json_schema_2020_12_tool",
    { description: "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)", inputSchema: JSON_SCHEMA_2020_12_INPUT },
    (args) => ({ content: [text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`)] }),
  );

  // ---- resources --------------------------------------------------------------------------------

  // resources-read-text
  server.resource(
    "static-text",
    "test://static-text",
    { title: "Static Text Resource", description: "A static text resource for testing", mimeType: "text/plain" },
    (uri) => ({ contents: [{ uri, mimeType: "text/plain", text: "This is the content of the static text resource." }] }),
  );

  // resources-read-binary
  server.resource(
    "static-binary",
    "test://static-binary",
    { title: "Static Binary Resource", description: "A static binary resource (image) for testing", mimeType: "image/png" },
    (uri) => ({ contents: [{ uri, mimeType: "image/png", blob: PNG_BASE64 }] }),
  );

  // resources-subscribe, resources-unsubscribe
  server.resource(
    "watched-resource",
    "test://watched-resource",
    { title: "Watched Resource", description: "A resource clients subscribe to", mimeType: "text/plain" },
    (uri) => ({ contents: [{ uri, mimeType: "text/plain", text: "Watched resource content" }] }),
  );

  // resources-templates-read
  server.resourceTemplate(
    "template",
    "test://template/{id}/data",
    { title: "Resource Template", description: "A resource template with parameter substitution", mimeType: "application/json" },
    (uri, { id }) => ({
      contents: [
        { uri, mimeType: "application/json", text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }) },
      ],
    }),
  );

  // ---- prompts ----------------------------------------------------------------------------------

  // prompts-get-simple
  server.prompt("test_simple_prompt", { title: "Simple Test Prompt", description: "A simple prompt without arguments" }, () => ({
    messages: [{ role: "user", content: text("This is a simple prompt for testing.") }],
  }));

  // prompts-get-with-args; completion-complete completes its arg1
  server.prompt(
    "test_prompt_with_arguments",
    {
      title: "Prompt With Arguments",
      description: "A prompt with required arguments",
      arguments: {
        arg1: {
          description: "First test argument",
          required: true,
          complete: completeFrom(["test", "testValue1", "paris", "park", "party"]),
        },
        arg2: { description: "Second test argument", required: true, complete: completeFrom(["testValue2", "world"]) },
      },
    },
    ({ arg1, arg2 }) => ({ messages: [{ role: "user", content: text(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`) }] }),
  );

  // prompts-get-embedded-resource
  server.prompt(
    "test_prompt_with_embedded_resource",
    {
      title: "Prompt With Embedded Resource",
      description: "A prompt that includes an embedded resource",
      arguments: { resourceUri: { description: "URI of the resource to embed", required: true } },
    },
    ({ resourceUri }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "resource",
            resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." },
          },
        },
        { role: "user", content: text("Please process the embedded resource above.") },
      ],
    }),
  );

  // prompts-get-with-image
  server.prompt("test_prompt_with_image", { title: "Prompt With Image", description: "A prompt that includes image content" }, () => ({
    messages: [
      { role: "user", content: { type: "image", data: PNG_BASE64, mimeType: "image/png" } },
      { role: "user", content: text("Please analyze the image above.") },
    ],
  }));

  // logging-set-level and ping are answered by MCPServer itself; `logging` is always declared.

  // Last, so that test_simple_text stays the first tool listed and test://static-text the first resource.
  addStatelessEraFixtures(server);
  return server;
}

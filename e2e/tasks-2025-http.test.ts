// A 2025-11-25 task over real Streamable HTTP on 127.0.0.1: the SDK 1.x client's callToolStream
// against our server; the task's input request rides the tasks/result the client has open.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { MCPServer } from "../src/index.js";
import { serveHttp } from "../src/node/index.js";
import { serverTasks } from "../src/server/tasks/server-tasks.js";
import { streamableHttpHandler } from "../src/transport/http-server/index.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

describe("2025-11-25 tasks over Streamable HTTP", () => {
  it("runs a task whose input the client answers on its tasks/result stream", async () => {
    const server = new MCPServer({ name: "tasks-http", version: "1.0.0" }, { tasks: serverTasks({ pollIntervalMs: 20 }) });
    server.tool("greet", { execution: { taskSupport: "required" } }, async (_args, context) => {
      const answer = await context.elicitInput({
        message: "Your name?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      });
      return { content: [{ type: "text", text: `Hello, ${String(answer.content?.["name"])}!` }] };
    });
    const handler = streamableHttpHandler(server);
    const posted: string[] = [];
    const served = await serveHttp(
      async (request) => {
        // No standalone GET stream: the server's request can only ride the stream of a request the client has open.
        if (request.method === "GET") return new Response(null, { status: 405, headers: { allow: "POST, DELETE" } });
        const body = request.method === "POST" ? ((await request.clone().json()) as { method?: string }) : {};
        if (body.method !== undefined) posted.push(body.method);
        return handler.fetch(request);
      },
      { port: 0 },
    );
    cleanups.push(async () => {
      await handler.close();
      await served.close();
    });
    const client = new Client({ name: "sdk-tasks", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    const asked: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return { action: "accept", content: { name: "Ada" } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    cleanups.push(() => client.close());
    await client.listTools();
    const messages = [];
    for await (const message of client.experimental.tasks.callToolStream({ name: "greet", arguments: {} }, CallToolResultSchema))
      messages.push(message);
    const taskId = (messages[0] as { task: { taskId: string } }).task.taskId;
    expect(messages.at(-1)).toMatchObject({
      type: "result",
      result: { content: [{ type: "text", text: "Hello, Ada!" }], _meta: { "io.modelcontextprotocol/related-task": { taskId } } },
    });
    expect(asked).toEqual([
      expect.objectContaining({ message: "Your name?", _meta: { "io.modelcontextprotocol/related-task": { taskId } } }),
    ]);
    expect(posted).toContain("tasks/result");
  });
});

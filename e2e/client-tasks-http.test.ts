// Our client's tasks of revision 2025-11-25 over Streamable HTTP, against the official SDK 1.x
// server (registerToolTask) on a real HTTP server: the task's request for input rides the SSE stream
// of the tasks/result POST and is answered by the client's handler with a POST of its own.
import type { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { afterEach, describe, expect, it } from "vitest";
import { MCPClient } from "../src/index.js";
import { StreamableHttpTransport } from "../src/transport/http-client/index.js";
import { sdkTaskServer, text } from "../src/client/tasks/sdk-task-server.test-helpers.js";
import { startStreamableServer } from "./support/sdk-http-servers.js";

const stores: InMemoryTaskStore[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
  for (const store of stores.splice(0)) store.cleanup();
});

describe("our client's tasks over Streamable HTTP, against SDK 1.x", () => {
  it("answers a task's request for input that comes on the tasks/result stream, and follows a required tool", async () => {
    const running = await startStreamableServer({}, () => sdkTaskServer(stores));
    cleanups.push(() => running.close());
    const asked: string[] = [];
    const client = new MCPClient(
      { name: "http-tasks", version: "1.0.0" },
      {
        era: "session",
        telemetry: null,
        elicitation: { form: (params) => (asked.push(params.message), { action: "accept", content: { name: "Ada" } }) },
      },
    );
    await client.connect(new StreamableHttpTransport(running.url));
    cleanups.push(() => client.close());
    const task = await client.callTool("interview", {}, { task: true });
    await expect(task.result()).resolves.toMatchObject(text("hello Ada"));
    expect(asked).toEqual(["Your name?"]);
    await expect(client.callTool("required")).resolves.toMatchObject(text("required done"));
  });
});

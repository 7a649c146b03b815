// Tasks end to end, our client against our server, in each era (2025-11-25 sessions, 2026-07-28
// stateless requests) over stdio (a child process on the built package) and over Streamable HTTP on
// 127.0.0.1: a task goes working → input_required → working → completed with the host answering the
// input; another is cancelled while it runs; a task-only tool fails with its protocol error; over
// HTTP a second principal can neither read, answer, cancel nor list the first one's task.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  JsonRpcError,
  MCPClient,
  MCPServer,
  StreamableHttpTransport,
  serverTasks,
  streamableHttpHandler,
  type TaskInput,
  type TaskState,
  type Transport,
} from "../src/index.js";
import { serveHttp, spawnStdioServer } from "../src/node/index.js";
import { tasksServer } from "./fixtures/tasks-server.mjs";
import { until } from "./support/soak.js";

const serverScript = fileURLToPath(new URL("./fixtures/tasks-server.mjs", import.meta.url));

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

type Era = "session" | "stateless";

async function connected(era: Era, transport: Transport): Promise<MCPClient> {
  const client = new MCPClient(
    { name: "tasks-e2e", version: "1.0.0" },
    { era, telemetry: null, elicitation: { form: () => ({ action: "accept", content: { go: true } }) } },
  );
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

async function overStdio(era: Era): Promise<MCPClient> {
  return connected(era, await spawnStdioServer({ command: process.execPath, args: [serverScript] }));
}

/** Our server over HTTP; each client's bearer token is its principal. */
async function httpServer(): Promise<{ url: URL; server: MCPServer }> {
  const server = tasksServer(MCPServer, serverTasks, JsonRpcError);
  const handler = streamableHttpHandler(server, {
    authenticate: (request) => {
      const token = request.headers.get("authorization")?.replace(/^Bearer /, "");
      return token ? { authInfo: { issuer: "https://issuer.example", subject: token, clientId: "tasks-e2e" } } : { refuse: 401 };
    },
  });
  const http = await serveHttp(handler, { port: 0 });
  cleanups.push(async () => {
    await handler.close();
    await http.close();
    await server.close();
  });
  expect(new URL(http.url).hostname).toBe("127.0.0.1");
  return { url: new URL("/mcp", http.url), server };
}

function overHttp(era: Era, url: URL, principal = "ada"): Promise<MCPClient> {
  return connected(era, new StreamableHttpTransport(url, { headers: { authorization: `Bearer ${principal}` } }));
}

/** Drives `job` through every state of a task that asks for input, the host answering it. */
async function inputRound(client: MCPClient): Promise<void> {
  const inputs: TaskInput[] = [];
  const task = await client.callTool("job", {}, { task: { onInput: (input) => inputs.push(input) } });
  expect(task.taskId).toEqual(expect.any(String));
  const first: TaskState = await task.status();
  expect(["working", "input_required"]).toContain(first.status);
  // 2025-11-25 carries the task's input on the stream of tasks/result: the wait must be open for it to come.
  const result = task.result();
  await until(() => inputs.length === 1);
  expect(inputs[0]).toMatchObject({ method: "elicitation/create", params: expect.objectContaining({ message: "Go on?" }) });
  const waiting = await task.status();
  expect(waiting).toMatchObject({ taskId: task.taskId, status: "input_required" });
  await task.update({ [(inputs[0] as TaskInput).key]: { action: "accept", content: { go: true } } });
  expect(await result).toMatchObject({ content: [{ type: "text", text: "go: true" }] });
  expect(await task.status()).toMatchObject({ status: "completed", statusMessage: expect.any(String) });
}

/** A task cancelled while it runs ends cancelled, and waiting for it says so. */
async function cancelRound(client: MCPClient): Promise<void> {
  const task = await client.callTool("slow", {}, { task: true });
  expect((await task.status()).status).toBe("working");
  await task.cancel();
  expect((await task.status()).status).toBe("cancelled");
  await expect(task.result()).rejects.toMatchObject({ code: "MCP.REQUEST_CANCELLED" });
}

/** A task-only tool called plainly: the call waits for the task, which fails with the tool's protocol error. */
async function failRound(client: MCPClient): Promise<void> {
  await expect(client.callTool("broken", {})).rejects.toMatchObject({
    wireCode: -32000,
    message: expect.stringContaining("broken on purpose"),
  });
  // The automatic answer of the host's handler finishes a task too.
  expect(await client.callTool("job", {})).toMatchObject({ content: [{ text: "go: true" }] });
}

/** What else each era refuses a second principal: 2025-11-25 lists only the caller's own tasks; 2026-07-28 refuses its answers. */
const STRANGER_REFUSED: Record<Era, (owner: MCPClient, stranger: MCPClient, taskId: string) => Promise<void>> = {
  session: async (owner, stranger, taskId) => {
    expect((await stranger.listTasks()).tasks.map((listed) => listed.taskId)).not.toContain(taskId);
    expect((await owner.listTasks()).tasks.map((listed) => listed.taskId)).toContain(taskId);
  },
  stateless: async (_owner, stranger, taskId) => {
    await expect(stranger.task(taskId).update({ go: { action: "accept", content: { go: true } } })).rejects.toMatchObject({
      wireCode: -32602,
    });
  },
};

describe.each(["session", "stateless"] as const)("tasks in the %s era", (era) => {
  it("over stdio: input mid-run, cancellation, failure", async () => {
    const client = await overStdio(era);
    expect(client.era).toBe(era);
    await inputRound(client);
    await cancelRound(client);
    await failRound(client);
  }, 30_000);

  it("over Streamable HTTP: input mid-run, cancellation, failure", async () => {
    const { url } = await httpServer();
    const client = await overHttp(era, url);
    expect(client.era).toBe(era);
    await inputRound(client);
    await cancelRound(client);
    await failRound(client);
  }, 30_000);

  it("over Streamable HTTP: a second principal can neither see, answer, list nor cancel the first one's task", async () => {
    const { url } = await httpServer();
    const [ada, bob] = [await overHttp(era, url, "ada"), await overHttp(era, url, "bob")];
    const task = await ada.callTool("slow", {}, { task: true });
    const stranger = bob.task(task.taskId as string);
    await expect(stranger.status()).rejects.toMatchObject({ wireCode: -32602 });
    await expect(stranger.cancel()).rejects.toMatchObject({ wireCode: -32602 });
    await STRANGER_REFUSED[era](ada, bob, task.taskId as string);
    // Untouched: still running, still the owner's to cancel.
    expect((await task.status()).status).toBe("working");
    await task.cancel();
    expect((await task.status()).status).toBe("cancelled");
  }, 30_000);
});

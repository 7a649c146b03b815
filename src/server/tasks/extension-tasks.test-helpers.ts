// Test support for the tasks extension (2026-07-28): an MCPServer with serverTasks() and task tools
// whose progress the test controls, served over the stateless HTTP path, and a client that speaks to it.
import { expect, vi } from "vitest";
import * as z from "zod";

import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError } from "../../error-codes/mcp-error.js";
import { InMemoryChangeFeed } from "../../stores/change-feed.js";
import type { TaskStore } from "../../stores/task-store.js";
import { streamableHttpHandler } from "../../transport/http-server/streamable-handler.js";
import { MCPServer } from "../mcp-server/mcp-server.js";
import { answerOf, modernRequest, type ModernRequestParts } from "../stateless/stateless.test-helpers.js";
import { serverTasks } from "./server-tasks.js";

export const EXTENSION = "io.modelcontextprotocol/tasks";
/** Client capabilities that declare the extension (and can answer elicitations). */
export const WITH_EXTENSION = { elicitation: {}, extensions: { [EXTENSION]: {} } };

const NAME: { type: "object"; properties: Record<string, { type: "string" }>; required: string[] } = {
  type: "object",
  properties: { name: { type: "string" } },
  required: ["name"],
};

/** A promise the test settles, and whether the handler waiting on it was aborted (with what). */
export class Gate {
  release!: (text: string) => void;
  readonly opened: Promise<string>;
  abortedWith: unknown;

  constructor(readonly tool: string) {
    this.opened = new Promise((resolve) => (this.release = resolve));
  }

  /** Resolves with the released text, or rejects with the signal's reason when it fires first. */
  wait(signal: AbortSignal): Promise<string> {
    return new Promise((resolve, reject) => {
      signal.addEventListener("abort", () => {
        this.abortedWith = signal.reason;
        reject(signal.reason as Error);
      });
      void this.opened.then(resolve);
    });
  }
}

export interface TasksFixture {
  readonly server: MCPServer;
  readonly changes: InMemoryChangeFeed;
  readonly gates: Gate[];
  /** The gate the handler of `tool` waits at (the first one made). */
  gate(tool: string): Gate;
  /** Sends one request; `user` names the principal (none: anonymous). */
  request(method: string, params?: Record<string, unknown>, parts?: CallParts): Promise<Answer>;
  /** tasks/get's result (fails the test on an error). */
  get(taskId: string, parts?: CallParts): Promise<Record<string, unknown>>;
  /** Polls tasks/get until the task has this status. */
  until(taskId: string, status: string, parts?: CallParts): Promise<Record<string, unknown>>;
  /** Starts a task of `tool` and gives its id. */
  start(tool: string, args?: Record<string, unknown>, parts?: CallParts): Promise<string>;
  fetch(request: Request): Promise<Response>;
}

export interface CallParts extends ModernRequestParts {
  readonly user?: string;
}

export interface Answer {
  readonly status: number;
  readonly result?: Record<string, unknown> | undefined;
  readonly error?: { code: number; message: string; data?: unknown } | undefined;
}

/** The server of these tests: one tool of each kind, its tasks kept in `store` when given. */
export function tasksFixture(store?: TaskStore): TasksFixture {
  const changes = new InMemoryChangeFeed();
  const server = new MCPServer(
    { name: "tasks", version: "1" },
    { changeFeed: changes, tasks: serverTasks({ pollIntervalMs: 40, ...(store ? { store } : {}) }) },
  );
  const gates: Gate[] = [];
  const gate = (tool: string): Gate => {
    const made = new Gate(tool);
    gates.push(made);
    return made;
  };
  server.tool("echo", { description: "never a task", inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  server.tool(
    "wait",
    { description: "waits for the test", execution: { taskSupport: "optional" }, task: { ttlMs: 120_000, pollIntervalMs: 25 } },
    async (_args, ctx) => {
      await ctx.progress(1, 2);
      return { content: [{ type: "text", text: await gate("wait").wait(ctx.signal) }] };
    },
  );
  server.tool("must", { description: "a tool error, always as a task", execution: { taskSupport: "required" } }, () => ({
    content: [{ type: "text", text: "it broke" }],
    isError: true,
  }));
  server.tool("broken", { description: "a protocol error", execution: { taskSupport: "optional" } }, () => {
    throw new JsonRpcError(JSONRPC_ERROR_CODES.INTERNAL_ERROR, "broken on purpose", { why: "test" });
  });
  server.tool(
    "ask",
    { description: "one question, after the test lets it ask", execution: { taskSupport: "optional" } },
    async (_args, ctx) => {
      await gate("ask").wait(ctx.signal);
      const answer = await ctx.elicitInput({ message: "Name?", requestedSchema: NAME }, { key: "only" });
      return { content: [{ type: "text", text: `asked: ${String(answer.content?.["name"])}` }] };
    },
  );
  server.tool("ask2", { description: "two questions at once", execution: { taskSupport: "optional" } }, async (_args, ctx) => {
    const [a, b] = await Promise.all([
      ctx.elicitInput({ message: "A?", requestedSchema: NAME }, { key: "a" }),
      ctx.elicitInput({ message: "B?", requestedSchema: NAME }, { key: "b" }),
    ]);
    return { content: [{ type: "text", text: `${String(a.content?.["name"])} and ${String(b.content?.["name"])}` }] };
  });
  server.tool("sample", { description: "asks the model", execution: { taskSupport: "optional" } }, async (_args, ctx) => {
    await ctx.createMessage({ messages: [], maxTokens: 5 });
    return { content: [] };
  });
  server.tool(
    "roots",
    { description: "logs, reports progress, then asks for the roots", execution: { taskSupport: "optional" } },
    async (_args, ctx) => {
      await gate("roots").wait(ctx.signal);
      await ctx.log("info", "asking for the roots");
      await ctx.progress(3);
      const { roots } = await ctx.listRoots({ key: "roots" });
      return { content: [{ type: "text", text: `${roots.length} roots` }] };
    },
  );
  server.tool(
    "prepared",
    {
      description: "asks a name in the request, then runs as a task",
      execution: { taskSupport: "required" },
      task: {
        prepare: async (_args, ctx) =>
          (await ctx.elicitInput({ message: "Name?", requestedSchema: NAME }, { key: "user_name" })).content?.["name"],
      },
    },
    (_args, ctx) => ({ content: [{ type: "text", text: `Hello from the task, ${String(ctx.task?.prepared)}` }] }),
  );
  const handler = streamableHttpHandler(server, {
    authenticate: (request) => ({ authInfo: request.headers.get("x-user") === null ? undefined : { sub: request.headers.get("x-user") } }),
  });
  let id = 0;
  const request = async (method: string, params: Record<string, unknown> = {}, parts: CallParts = {}): Promise<Answer> => {
    const { user, capabilities = WITH_EXTENSION, headers, ...rest } = parts;
    const response = await handler.fetch(
      modernRequest(++id, method, params, {
        ...rest,
        capabilities,
        headers: { ...headers, ...(user === undefined ? {} : { "x-user": user }) },
      }),
    );
    const message = await answerOf(response);
    return { status: response.status, ...(message as { result?: Record<string, unknown>; error?: Answer["error"] }) };
  };
  const get = async (taskId: string, parts?: CallParts): Promise<Record<string, unknown>> => {
    const answer = await request("tasks/get", { taskId }, parts);
    expect(answer.error).toBeUndefined();
    return answer.result as Record<string, unknown>;
  };
  const until = async (taskId: string, status: string, parts?: CallParts): Promise<Record<string, unknown>> => {
    let task: Record<string, unknown> = {};
    await vi.waitFor(async () => {
      task = await get(taskId, parts);
      expect(task["status"]).toBe(status);
    });
    return task;
  };
  const start = async (tool: string, args: Record<string, unknown> = {}, parts?: CallParts): Promise<string> => {
    const answer = await request("tools/call", { name: tool, arguments: args }, parts);
    expect(answer.result?.["resultType"]).toBe("task");
    return answer.result?.["taskId"] as string;
  };
  const gateOf = (tool: string): Gate => {
    const found = gates.find((made) => made.tool === tool);
    if (!found) throw new Error(`No handler of ${tool} waits`);
    return found;
  };
  return { server, changes, gates, gate: gateOf, request, get, until, start, fetch: (made) => handler.fetch(made) };
}

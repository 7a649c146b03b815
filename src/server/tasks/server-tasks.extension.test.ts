import { afterEach, describe, expect, it, vi } from "vitest";

import { META_KEYS } from "../../constants/index.js";
import { InMemoryTaskStore } from "../../stores/in-memory-task-store.js";
import type { TaskPatch, TaskPrecondition, TaskUpdateOutcome } from "../../stores/task-store.js";
import type { InboundContext } from "../../transport/transport/transport.types.js";
import { MCPServer } from "../mcp-server/mcp-server.js";
import { WITH_EXTENSION } from "./extension-tasks.test-helpers.js";
import { serverTasks, type ServerTasksOptions } from "./server-tasks.js";

const servers: MCPServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A server with one task tool, served in memory on the stateless path; `as(inbound)` sends as that caller. */
function serverWith(options: ServerTasksOptions = {}) {
  const server = new MCPServer({ name: "owners", version: "1" }, { tasks: serverTasks({ pollIntervalMs: 20, ...options }) });
  servers.push(server);
  server.tool("job", { description: "reports progress, then finishes", execution: { taskSupport: "optional" } }, async (_args, ctx) => {
    await ctx.progress(1, 2, "half");
    return { content: [] };
  });
  let id = 0;
  const as = async (inbound: InboundContext | undefined, method: string, params: Record<string, unknown>) => {
    const meta = { [META_KEYS.protocolVersion]: "2026-07-28", [META_KEYS.clientCapabilities]: WITH_EXTENSION };
    const answer = await server.serveStateless(
      ++id,
      method,
      { ...params, _meta: meta },
      { signal: new AbortController().signal, inbound, notify: () => Promise.resolve() },
    );
    return answer as { result?: Record<string, unknown>; error?: { code: number } };
  };
  return { server, as };
}

const team = (name: string, who: string): InboundContext => ({ authInfo: { sub: who }, headers: { "x-team": name } });
const token = (subject: string, expiresAt: number) => ({
  authInfo: { issuer: "https://issuer.test", subject, clientId: "app", expiresAt },
});

describe("serverTasks() in the tasks extension's revision", () => {
  it("serves one server: a second server given the same tasks is refused", () => {
    const tasks = serverTasks();
    servers.push(new MCPServer({ name: "first", version: "1" }, { tasks }));
    expect(() => new MCPServer({ name: "second", version: "1" }, { tasks })).toThrow(/serves one server/);
  });

  it("binds a task to the token's issuer, subject and client: a refreshed token still reaches it, another subject does not", async () => {
    const { as } = serverWith();
    const taskId = (await as(token("alice", 1), "tools/call", { name: "job", arguments: {} })).result?.["taskId"] as string;
    expect((await as(token("alice", 2), "tasks/get", { taskId })).result?.["taskId"]).toBe(taskId);
    expect((await as(token("bob", 1), "tasks/get", { taskId })).error?.code).toBe(-32602);
    expect((await as(undefined, "tasks/get", { taskId })).error?.code).toBe(-32602);
  });

  it("binds a task to what ownerOf says, when given", async () => {
    const { as } = serverWith({ ownerOf: (inbound) => inbound?.headers?.["x-team"] });
    const taskId = (await as(team("red", "ann"), "tools/call", { name: "job", arguments: {} })).result?.["taskId"] as string;
    expect((await as(team("red", "bea"), "tasks/get", { taskId })).result?.["taskId"]).toBe(taskId);
    expect((await as(team("blue", "ann"), "tasks/get", { taskId })).error?.code).toBe(-32602);
  });

  it("reports a write that failed in the background to onError", async () => {
    const failure = new Error("store down");
    class FailingStatusStore extends InMemoryTaskStore {
      override update(owner: string, taskId: string, patch: TaskPatch, precondition?: TaskPrecondition): Promise<TaskUpdateOutcome> {
        return patch.statusMessage === undefined ? super.update(owner, taskId, patch, precondition) : Promise.reject(failure);
      }
    }
    const onError = vi.fn();
    const { as } = serverWith({ store: new FailingStatusStore(), onError, closeGraceMs: 100 });
    const taskId = (await as(undefined, "tools/call", { name: "job", arguments: {} })).result?.["taskId"] as string;
    await vi.waitFor(() => expect(onError).toHaveBeenCalledWith(failure));
    await vi.waitFor(async () => expect((await as(undefined, "tasks/get", { taskId })).result?.["status"]).toBe("completed"));
    expect((await as(undefined, "tasks/get", { taskId })).result).not.toHaveProperty("statusMessage");
  });
});

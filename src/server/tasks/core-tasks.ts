import { JSONRPC_ERROR_CODES, MCP_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError, MCPError } from "../../error-codes/mcp-error.js";
import type { RevisionProfile } from "../../protocol/profiles.js";
import type { CallToolResult, LoggingLevel, ServerCapabilities, TaskMetadata } from "../../schemas/schemas.js";
import { isFinalTaskStatus, type TaskInfo } from "../../stores/task-store.js";
import type { JsonObject, JsonValue } from "../../types/types.js";
import type { TaskCall } from "../core/task-support.js";
import type { HandlerContext, SessionHandle } from "../mcp-server/mcp-server.types.js";
import type { ServerSession } from "../mcp-server/session.js";
import { carryUntilTerminal } from "./core-task-carrier.js";
import { relatedTaskMeta, taskNotFound, taskView, terminalAnswer } from "./core-task-view.js";
import { TaskStatusWatch } from "./core-task-watch.js";
import type { TaskOutcome, TaskRun } from "./task-engine.js";
import { TaskHandlerContext, type TaskSideChannel } from "./task-context.js";
import type { TaskMethod, TaskSurface, TaskSurfaceHost } from "./task-surface.js";

/**
 * Tasks as clients of 2025-11-25 (the core protocol's tasks) see them: the client decides, by a
 * `task` in tools/call's params, within what the tool allows; `tasks/get`, `tasks/list`,
 * `tasks/cancel`, and `tasks/result`, which waits for the outcome and carries the task's input.
 */
export class CoreTasks implements TaskSurface {
  readonly methods: ReadonlyMap<string, TaskMethod>;
  readonly #watch: TaskStatusWatch;

  constructor(readonly host: TaskSurfaceHost) {
    this.#watch = new TaskStatusWatch(host);
    this.methods = new Map<string, TaskMethod>([
      ["tasks/get", (params, context) => this.#get(params as { taskId: string }, context)],
      ["tasks/result", (params, context) => this.#result(params as { taskId: string }, context)],
      ["tasks/list", (params, context) => this.#list(params, context)],
      ["tasks/cancel", (params, context) => this.#cancel(params as { taskId: string }, context)],
    ]);
  }

  /**
   * A task when the client asks for one (`params.task`) and the tool allows it; -32601 where the tool's level forbids the client's choice.
   */
  callTool(call: TaskCall, context: HandlerContext, profile: RevisionProfile): Promise<JsonObject> | undefined {
    const requested = call.params.task;
    if (requested === undefined) {
      if (call.support === "required")
        throw new JsonRpcError(JSONRPC_ERROR_CODES.METHOD_NOT_FOUND, `Tool ${call.name} must be called as a task`);
      return undefined;
    }
    if (call.support !== "forbidden") return this.#start(call, context, profile, requested);
    // A server that declares no tasks processes the request normally, ignoring `task` (the spec's MUST).
    if (!this.host.server.taskTools()) return undefined;
    throw new JsonRpcError(JSONRPC_ERROR_CODES.METHOD_NOT_FOUND, `Tool ${call.name} cannot be called as a task`);
  }

  /** The session's own tasks (no principal: owned by the session) end with it; a principal's keep running. */
  sessionClosed(session: SessionHandle): void {
    this.#watch.sessionClosed(session);
    void this.#cancelAll(`s:${session.id}`).catch((error: unknown) => this.host.engine.options.onError?.(error));
  }

  capabilities(declared: ServerCapabilities): ServerCapabilities {
    if (!this.host.server.taskTools()) return declared;
    return { ...declared, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
  }

  /** `prepare` in the request (its input asked as this request's own), then the task stored before the answer. */
  async #start(call: TaskCall, context: HandlerContext, profile: RevisionProfile, requested: TaskMetadata): Promise<JsonObject> {
    const { tool } = call;
    const prepared: unknown = await tool?.prepare?.(call.args as never, context);
    const owner = await this.host.ownerOf(context);
    // The client's ttl is a wish (the engine clamps it to the server's maximum); one the store could not keep is not granted.
    const ttl = isDuration(requested.ttl) ? requested.ttl : tool?.ttlMs;
    const record = await this.host.engine.start({
      owner,
      request: { method: "tools/call", params: { name: call.name, arguments: call.params.arguments ?? {} } },
      ...(ttl === undefined ? {} : { ttl }),
      ...(tool?.pollIntervalMs === undefined ? {} : { pollInterval: tool.pollIntervalMs }),
      work: (run) => this.#work(call, context, profile, run, prepared),
    });
    this.#watch.add(sessionOf(context), owner, record.taskId);
    return { task: taskView(record) };
  }

  /** The tool's handler, detached: its result (an isError one too) or the protocol error it threw. */
  async #work(call: TaskCall, creating: HandlerContext, profile: RevisionProfile, run: TaskRun, prepared: unknown): Promise<TaskOutcome> {
    const context = new TaskHandlerContext(creating, run, prepared, profile, refuse, sideChannel(creating, run.taskId));
    let result: CallToolResult;
    try {
      result = await call.run(context);
    } catch (error) {
      if (!(error instanceof JsonRpcError)) throw error;
      return {
        error: { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data as JsonValue }) },
      };
    }
    return { result: result as unknown as JsonObject };
  }

  async #get({ taskId }: { taskId: string }, context: HandlerContext): Promise<JsonObject> {
    const owner = await this.host.ownerOf(context);
    const task = await this.host.engine.get(owner, taskId);
    if (task === undefined) throw taskNotFound();
    if (!isFinalTaskStatus(task.status)) this.#watch.add(sessionOf(context), owner, taskId);
    return taskView(task);
  }

  /** Blocks until the task is terminal, carrying its input meanwhile; then what the tool call itself would have answered. */
  async #result({ taskId }: { taskId: string }, context: HandlerContext): Promise<JsonObject> {
    const owner = await this.host.ownerOf(context);
    const first = await this.host.engine.get(owner, taskId);
    if (first === undefined) throw taskNotFound();
    if (isFinalTaskStatus(first.status)) return terminalAnswer(first);
    this.#watch.add(sessionOf(context), owner, taskId);
    const task = await carryUntilTerminal(this.host, owner, taskId, context);
    if (task === undefined) throw taskNotFound();
    return terminalAnswer(task);
  }

  async #list(params: { cursor?: string } | undefined, context: HandlerContext): Promise<JsonObject> {
    const owner = await this.host.ownerOf(context);
    const { engine } = this.host;
    let page: Awaited<ReturnType<typeof engine.list>>;
    try {
      page = await engine.list(owner, { cursor: params?.cursor });
    } catch (error) {
      if (error instanceof MCPError && error.code === MCP_CODES.INVALID_PARAMS)
        throw new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, "Invalid cursor");
      throw error;
    }
    // A completed task may show `failed` (a tool's isError result): only its result says so.
    const tasks = await Promise.all(
      page.tasks.map(async (task: TaskInfo) =>
        taskView(task.status === "completed" ? ((await engine.get(owner, task.taskId)) ?? task) : task),
      ),
    );
    return page.nextCursor === undefined ? { tasks } : { tasks, nextCursor: page.nextCursor };
  }

  /** The task is `cancelled` when this answers (the spec's MUST); a terminal one cannot be. */
  async #cancel({ taskId }: { taskId: string }, context: HandlerContext): Promise<JsonObject> {
    const owner = await this.host.ownerOf(context);
    const task = await this.host.engine.get(owner, taskId);
    if (task === undefined) throw taskNotFound();
    if (isFinalTaskStatus(task.status)) throw alreadyTerminal();
    const outcome = await this.host.engine.cancel(owner, taskId, "Cancelled by the client");
    if (outcome.ok) return taskView(outcome.task);
    // It ended (or expired) between the read and the cancel.
    throw outcome.reason === "not-found" ? taskNotFound() : alreadyTerminal();
  }

  async #cancelAll(owner: string): Promise<void> {
    const { engine } = this.host;
    let cursor: string | undefined;
    do {
      const page = await engine.list(owner, { cursor });
      await Promise.all(
        page.tasks.filter((task) => !isFinalTaskStatus(task.status)).map((task) => engine.cancel(owner, task.taskId, "The session ended")),
      );
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  }
}

/**
 * A task's progress and log messages go to the session that created it while it is connected, on
 * its own channel (the creating request was answered long ago), tied to the task by `_meta`; the
 * progress keeps the creating request's token, which stays valid for the task's whole life.
 */
function sideChannel(creating: HandlerContext, taskId: string): TaskSideChannel {
  const session = sessionOf(creating);
  const token = creating.meta?.["progressToken"];
  const related = relatedTaskMeta(taskId);
  return {
    progress: async (progress: number, total: number | undefined, message: string | undefined) => {
      if (token === undefined) return;
      await session.notifyApart("notifications/progress", {
        progressToken: token,
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
        _meta: related,
      });
    },
    log: (level: LoggingLevel, data: unknown, logger: string | undefined) =>
      session.notifyApart("notifications/message", { level, ...(logger === undefined ? {} : { logger }), data, _meta: related }, level),
  };
}

/** The request's session: 2025-11-25 is a revision of the session era, so its requests always come through one. */
function sessionOf(context: HandlerContext): ServerSession {
  return context.session as ServerSession;
}

/** A task asks for input its creating client did not declare: refused as a session refuses it. */
function refuse(lacking: { readonly name: string }): MCPError {
  return new MCPError(MCP_CODES.METHOD_NOT_FOUND, `The client did not declare the ${lacking.name} capability`);
}

function alreadyTerminal(): JsonRpcError {
  return new JsonRpcError(-32602, "Task is already terminal: it cannot be cancelled");
}

function isDuration(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) > 0;
}

// The seam between MCPServer and tasks: what the server asks of a tasks implementation, and what it
// gives one. The server holds no task code of its own: a server without the `tasks` option bundles
// none (`serverTasks()` in src/server/tasks/ is the implementation a user passes).
import type { RevisionProfile } from "../../protocol/profiles.js";
import type { CallToolRequestParams, CallToolResult, ServerCapabilities } from "../../schemas/schemas.js";
import type { ChangeFeed } from "../../stores/change-feed.js";
import type { InboundContext } from "../../transport/transport/transport.types.js";
import type { JsonObject } from "../../types/types.js";
import type { HandlerContext, SessionHandle } from "../mcp-server/mcp-server.types.js";
import type { FeatureHandler } from "../mcp-server/server-host.js";

/** Whether a tool may (`optional`), must (`required`) or must not (`forbidden`, the default) run as a task. */
export type TaskSupportLevel = "forbidden" | "optional" | "required";

/** A task tool's own settings (`task` in its configuration; never on the wire). */
export interface ToolTaskConfig<A = never> {
  /**
   * How long its tasks are kept from creation, in milliseconds (default: the server's; a client's request is clamped to the server's
   * maximum).
   */
  readonly ttlMs?: number;
  /** How often its clients should poll, in milliseconds (default: the server's). */
  readonly pollIntervalMs?: number;
  /**
   * Runs in the request, before the task exists: what it asks the client for comes back as the
   * request's own input rounds (2026-07-28) or requests (2025-11-25). What it returns reaches the
   * task's handler as `context.task.prepared`.
   */
  readonly prepare?: (args: A, context: HandlerContext) => unknown;
}

/** What a handler running as a task sees of it (`context.task`). */
export interface TaskScope {
  readonly id: string;
  /** What the tool's `task.prepare` returned (undefined without one). */
  readonly prepared: unknown;
}

/** One tools/call of a tool that may run as a task, its arguments checked. */
export interface TaskCall {
  readonly name: string;
  readonly support: TaskSupportLevel;
  readonly tool: ToolTaskConfig | undefined;
  /** The params as the revision's codec has them (2025-11-25: with the `task` the client asked for). */
  readonly params: CallToolRequestParams;
  /** The checked arguments. */
  readonly args: unknown;
  /** Runs the tool's handler with `context` (a task's own), its result checked as any tools/call's; a protocol error rejects. */
  run(context: HandlerContext): Promise<CallToolResult>;
}

/** What a tasks implementation gets from the server it serves. */
export interface TaskHost {
  readonly changes: ChangeFeed;
  /** Fires when the server closes. */
  readonly closing: AbortSignal;
  /** The principal of a request (what tasks are bound to), or undefined when it has none. */
  principalOf(inbound: InboundContext | undefined): string | undefined;
  /** Whether an enabled tool may run as a task (the capabilities declare tasks only then). */
  taskTools(): boolean;
}

/** What a listen stream hears of the tasks it asked for (2026-07-28 `notifications.taskIds`). */
export interface TaskWatcher {
  /** The ids it will report on: those the caller may read. */
  readonly taskIds: readonly string[];
  /** A task changed: the `notifications/tasks` params to send, when it is one of the watched ones (dropped after its final one). */
  changed(taskId: string): Promise<JsonObject | undefined>;
}

/** What MCPServer asks of tasks (the `tasks` option). */
export interface TaskSupport {
  /** Called once, by the server given it. */
  attach(host: TaskHost): void;
  /**
   * A tools/call of a tool that may run as a task: the revision's answer when it becomes one, undefined to run it in the request; throws
   * the revision's refusal.
   */
  callTool(call: TaskCall, context: HandlerContext, profile: RevisionProfile): Promise<JsonObject> | undefined;
  /** The `tasks/*` methods, each answering as the request's revision has it (its codec admits only its own). */
  methods(): ReadonlyMap<string, FeatureHandler>;
  /** `declared` with what tasks add for a client of `profile`. */
  capabilities(profile: RevisionProfile, declared: ServerCapabilities): ServerCapabilities;
  /** A listen stream's `taskIds` (2026-07-28); rejects with the revision's refusal (-32021 without the tasks extension). */
  watch?(taskIds: readonly string[], context: HandlerContext): Promise<TaskWatcher>;
  /** A session ended: tasks only it could reach are cancelled. */
  sessionClosed(session: SessionHandle): void;
  /** Cancels and aborts every running task; resolves once they settled. */
  close(): Promise<void>;
}

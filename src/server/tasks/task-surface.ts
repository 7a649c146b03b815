import type { RevisionProfile } from "../../protocol/profiles.js";
import type { ServerCapabilities } from "../../schemas/schemas.js";
import type { JsonObject } from "../../types/types.js";
import type { TaskCall, TaskHost } from "../core/task-support.js";
import type { HandlerContext } from "../mcp-server/mcp-server.types.js";
import type { MissingCapability } from "../core/input-capabilities.js";
import type { TaskEngine } from "./task-engine.js";

/** One `tasks/*` method of a revision's surface. */
export type TaskMethod = (params: JsonObject, context: HandlerContext, profile: RevisionProfile) => unknown;

/**
 * How one revision's clients see tasks (2025-11-25: the core protocol's; 2026-07-28: the tasks
 * extension's): when a call becomes a task, what it is answered, the `tasks/*` methods, the
 * capabilities. Every surface runs its tasks on the one engine.
 */
export interface TaskSurface {
  /** The call's answer when it becomes a task; undefined to run it in the request; throws the revision's refusal. */
  callTool(call: TaskCall, context: HandlerContext, profile: RevisionProfile): Promise<JsonObject> | undefined;
  /** The revision's `tasks/*` methods. */
  readonly methods: ReadonlyMap<string, TaskMethod>;
  /** `declared`, with what this revision's clients are told of tasks (only while a tool may run as a task: `server.taskTools()`). */
  capabilities(declared: ServerCapabilities): ServerCapabilities;
}

/** The server-wide settings of tasks, resolved. */
export interface TaskSettings {
  readonly defaultTtlMs: number;
  readonly maxTtlMs: number | null;
  readonly pollIntervalMs: number;
}

/** What every surface shares: the engine, the server, the settings, and how a request's owner is found. */
export interface TaskSurfaceHost {
  readonly engine: TaskEngine;
  readonly server: TaskHost;
  readonly settings: TaskSettings;
  /** The owner key of a request's tasks (by its principal, else its session, else the anonymous owner). */
  ownerOf(context: HandlerContext): Promise<string>;
}

/** How a revision refuses a request for input the client cannot answer (2026-07-28: -32021; 2025-11-25: `MCP.METHOD_NOT_FOUND`). */
export type InputRefusal = (lacking: MissingCapability) => Error;

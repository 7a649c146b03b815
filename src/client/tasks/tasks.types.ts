import type { CallToolResult, TaskStatus } from "../../schemas/schemas.js";
import type { JsonObject } from "../../types/types.js";
import type { CallOptions } from "../mcp-client/mcp-client.types.js";

/**
 * A task as either era describes it, under one set of names (2025-11-25's `ttl` and `pollInterval` are `ttlMs` and `pollIntervalMs` here).
 */
export interface TaskState {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  /** How long the server keeps the task from its creation; `null`: for ever. */
  readonly ttlMs: number | null;
  /** How often the server would like to be asked. */
  readonly pollIntervalMs?: number;
}

/** One request for input of a task's: answer it with `task.update({ [key]: answer })`. */
export interface TaskInput {
  /** 2026-07-28: the server's key; 2025-11-25: the JSON-RPC id of the server's request, as a string. */
  readonly key: string;
  readonly method: string;
  readonly params: JsonObject | undefined;
}

/**
 * What a caller asks of a task: how long the server should keep it (2025-11-25; the 2026-07-28 server decides), and who answers its input.
 */
export interface ToolTaskRequest {
  readonly ttlMs?: number;
  /**
   * Takes over the task's requests for input (each new one once, while `result()` waits): the
   * client's handlers do not answer them; `update` does.
   */
  readonly onInput?: (input: TaskInput) => void;
}

/** `callTool`'s options when the caller wants the task itself (a `ToolTask`) rather than its result. */
export interface TaskCallOptions extends CallOptions {
  readonly task: true | ToolTaskRequest;
}

/** What ends a wait for a task's result early (the task goes on: `cancel()` stops it). */
export interface TaskWaitOptions {
  readonly signal?: AbortSignal;
  /** The longest wait, in ms. */
  readonly timeoutMs?: number | undefined;
}

/** A tool call the server runs as a task: follow it, answer its input, cancel it. */
export interface ToolTask {
  /** Undefined when the server answered at once, with the result (`result()` gives it). */
  readonly taskId: string | undefined;
  /** `tasks/get`. */
  status(options?: CallOptions): Promise<TaskState>;
  /**
   * Waits for the end: the tool's result (checked against its outputSchema, as any tool result),
   * or the task's error (`failed`: the server's JSON-RPC error; `cancelled`: `MCP.REQUEST_CANCELLED`).
   */
  result(options?: TaskWaitOptions): Promise<CallToolResult>;
  /** Answers requests for input by their keys (with `onInput`). */
  update(responses: Readonly<Record<string, unknown>>): Promise<void>;
  /** `tasks/cancel`. */
  cancel(options?: CallOptions): Promise<void>;
}

/** A page of `listTasks`. */
export interface TaskStatePage {
  readonly tasks: TaskState[];
  readonly nextCursor?: string;
}

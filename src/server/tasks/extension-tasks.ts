import { JSONRPC_ERROR_CODES } from "../../error-codes/error-codes.js";
import { JsonRpcError, toWireError } from "../../error-codes/mcp-error.js";
import type { RevisionProfile } from "../../protocol/profiles.js";
import type { ServerCapabilities } from "../../schemas/schemas.js";
import { isFinalTaskStatus, type TaskError } from "../../stores/task-store.js";
import type { JsonObject } from "../../types/types.js";
import { checkInputAnswer } from "../core/input-answers.js";
import type { TaskCall, TaskWatcher } from "../core/task-support.js";
import type { HandlerContext } from "../mcp-server/mcp-server.types.js";
import { missingCapabilityError } from "../stateless/input-rounds.js";
import type { TaskOutcome } from "./task-engine.js";
import { TaskHandlerContext } from "./task-context.js";
import type { TaskMethod, TaskSurface, TaskSurfaceHost } from "./task-surface.js";
import { createTaskResult, detailedTask } from "./extension-views.js";

const EXTENSION = "io.modelcontextprotocol/tasks";

/** The most task ids one listen stream reports on. */
export const MAX_WATCHED_TASKS = 100;

/** Whether the request declared the tasks extension in its own client capabilities (the legacy `tasks` capability does not count). */
function declaresExtension(context: HandlerContext): boolean {
  // The revision's codec admits only objects as an extension's settings: present is declared.
  return (context.client.capabilities as { extensions?: Record<string, unknown> }).extensions?.[EXTENSION] !== undefined;
}

/** -32021, naming the extension the request lacks. */
function extensionRequired(what: string): JsonRpcError {
  return new JsonRpcError(
    JSONRPC_ERROR_CODES.MISSING_REQUIRED_CLIENT_CAPABILITY,
    `${what} requires the ${EXTENSION} extension: declare it in the request's client capabilities`,
    {
      requiredCapabilities: { extensions: { [EXTENSION]: {} } },
    },
  );
}

/** The answer for an unknown id, an expired task and another owner's task alike: nothing tells them apart. */
function taskNotFound(): JsonRpcError {
  return new JsonRpcError(JSONRPC_ERROR_CODES.INVALID_PARAMS, "Task not found: unknown, expired, or not this caller's");
}

/**
 * Tasks as clients of 2026-07-28 see them (the `io.modelcontextprotocol/tasks` extension): the server
 * decides, call by call, whether a tool runs as a task, but only for a request that declared the
 * extension; the client follows it with `tasks/get`, answers its input with `tasks/update`, cancels
 * it with `tasks/cancel`, and may hear of it on a listen stream (`notifications/tasks`).
 */
export class ExtensionTasks implements TaskSurface {
  readonly methods: ReadonlyMap<string, TaskMethod>;

  constructor(readonly host: TaskSurfaceHost) {
    // Literal names: the codec already admitted the method (tasks/result and tasks/list are not in it).
    this.methods = new Map<string, TaskMethod>([
      ["tasks/get", (params, context) => this.#get(params, context)],
      ["tasks/update", (params, context) => this.#update(params, context)],
      ["tasks/cancel", (params, context) => this.#cancel(params, context)],
    ]);
  }

  /**
   * A tools/call: a task when the request declared the extension and the tool may run as one; in the
   * request otherwise. A tool that must run as a task refuses a request without the extension. A
   * `task` param means nothing in this revision (its codec drops it).
   */
  callTool(call: TaskCall, context: HandlerContext, profile: RevisionProfile): Promise<JsonObject> | undefined {
    if (!declaresExtension(context)) {
      if (call.support === "required") throw extensionRequired(`Tool ${JSON.stringify(call.name)}`);
      return undefined;
    }
    return call.support === "forbidden" ? undefined : this.#start(call, context, profile);
  }

  capabilities(declared: ServerCapabilities): ServerCapabilities {
    if (!this.host.server.taskTools()) return declared;
    const extensions = (declared as { extensions?: JsonObject }).extensions;
    return { ...declared, extensions: { ...extensions, [EXTENSION]: {} } };
  }

  /**
   * A listen stream's `taskIds`: the ids it will report on are those the caller may read (at most
   * MAX_WATCHED_TASKS); each later change of one becomes its DetailedTask, and an id is dropped
   * after its final one. A stream that did not declare the extension is refused (-32021).
   */
  async watch(taskIds: readonly string[], context: HandlerContext): Promise<TaskWatcher> {
    if (!declaresExtension(context)) throw extensionRequired("subscriptions/listen with taskIds");
    const { engine } = this.host;
    const owner = await this.host.ownerOf(context);
    // Bounded before any read: a stream never costs more than MAX_WATCHED_TASKS reads of the store.
    const asked = [...new Set(taskIds)].slice(0, MAX_WATCHED_TASKS);
    const found = await Promise.all(asked.map(async (taskId) => ((await engine.get(owner, taskId)) ? taskId : undefined)));
    const watched = new Set(found.filter((taskId) => taskId !== undefined));
    const taskIdsWatched = [...watched];
    // Reads one after the other: a slow read never lets an older state overtake a newer one.
    let chain: Promise<unknown> = Promise.resolve();
    const read = async (taskId: string): Promise<JsonObject | undefined> => {
      await chain;
      // Dropped while this read waited its turn (the one before it saw the final state).
      if (!watched.has(taskId)) return undefined;
      try {
        const record = await engine.get(owner, taskId);
        if (!record || isFinalTaskStatus(record.status)) watched.delete(taskId);
        return record && detailedTask(record);
      } catch {
        // The store failed this once: nothing is sent (the client can still poll), the stream goes on.
        return undefined;
      }
    };
    const changed = (taskId: string): Promise<JsonObject | undefined> => {
      if (!watched.has(taskId)) return Promise.resolve(undefined);
      const next = read(taskId);
      chain = next;
      return next;
    };
    return { taskIds: taskIdsWatched, changed };
  }

  /**
   * `prepare` runs in the request (its input asks are the request's own rounds); then the task is stored (awaited: a tasks/get right after
   * finds it) and its work starts.
   */
  async #start(call: TaskCall, context: HandlerContext, profile: RevisionProfile): Promise<JsonObject> {
    const prepared: unknown = await call.tool?.prepare?.(call.args as never, context);
    const owner = await this.host.ownerOf(context);
    const tool = call.tool;
    const record = await this.host.engine.start({
      owner,
      request: { method: "tools/call", params: { name: call.name, arguments: call.params.arguments ?? {} } },
      ...(tool?.ttlMs === undefined ? {} : { ttl: tool.ttlMs }),
      ...(tool?.pollIntervalMs === undefined ? {} : { pollInterval: tool.pollIntervalMs }),
      work: (run) => work(call, new TaskHandlerContext(context, run, prepared, profile, missingCapabilityError)),
    });
    return createTaskResult(record);
  }

  async #get(params: JsonObject, context: HandlerContext): Promise<JsonObject> {
    const owner = await this.#owner("tasks/get", context);
    const record = await this.host.engine.get(owner, params["taskId"] as string);
    if (!record) throw taskNotFound();
    return detailedTask(record);
  }

  /** Answers to outstanding keys are checked (a bad one: -32602, nothing applied); other keys are ignored whatever they hold. */
  async #update(params: JsonObject, context: HandlerContext): Promise<JsonObject> {
    const owner = await this.#owner("tasks/update", context);
    const record = await this.host.engine.answer(
      owner,
      params["taskId"] as string,
      params["inputResponses"] as Record<string, unknown>,
      checkAnswer,
    );
    if (!record) throw taskNotFound();
    return {};
  }

  /** Cooperative and idempotent: a task already final gets the same acknowledgement. */
  async #cancel(params: JsonObject, context: HandlerContext): Promise<JsonObject> {
    const owner = await this.#owner("tasks/cancel", context);
    const outcome = await this.host.engine.cancel(owner, params["taskId"] as string);
    if (!outcome.ok && outcome.reason === "not-found") throw taskNotFound();
    return {};
  }

  /** The gate every method passes first, then the caller's owner. */
  #owner(method: string, context: HandlerContext): Promise<string> {
    if (!declaresExtension(context)) return Promise.reject(extensionRequired(method));
    return this.host.ownerOf(context);
  }
}

/** An answer to an outstanding request for input, checked as a round's answers are (its shape, an accepted form against its schema). */
function checkAnswer(method: string, asked: JsonObject | undefined, answer: unknown): unknown {
  return checkInputAnswer(method, asked, answer);
}

/** The tool's handler as the task's work: its result (an `isError` one too), or the protocol error it failed with. */
async function work(call: TaskCall, context: TaskHandlerContext): Promise<TaskOutcome> {
  try {
    return { result: (await call.run(context)) as unknown as JsonObject };
  } catch (error) {
    if (error instanceof JsonRpcError) return { error: toWireError(error) as TaskError };
    // Anything else (the run's own cancellation) is the engine's to judge: dropped once the task is final.
    throw error;
  }
}

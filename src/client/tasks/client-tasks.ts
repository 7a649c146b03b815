// The client's side of tasks, one API for both eras: 2025-11-25 asks for a task with `task` and
// waits on `tasks/result`; 2026-07-28 (the tasks extension) lets the server decide and polls
// `tasks/get`, answering input with `tasks/update`.
import { EXTENSIONS, META_KEYS, METHODS, type AnyProtocolVersion } from "../../constants/index.js";
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type {
  CallToolResult,
  DetailedTask,
  InputRequests,
  ListTasksResult,
  ServerCapabilities,
  TaskMetadata,
} from "../../schemas/schemas.js";
import type { JsonObject } from "../../types/types.js";
import type { JsonRpcErrorObject } from "../../schemas/jsonrpc.js";
import type { StatelessCalls } from "../era/stateless-calls.js";
import { headerMismatch } from "../mcp-client/client-options.js";
import type { CallOptions } from "../mcp-client/mcp-client.types.js";
import type { InputResponder } from "../mcp-client/server-requests.js";
import { ToolOutputChecker, type OutputSchemaSettings } from "../mcp-client/tool-output.js";
import type { JsonRpcDispatcher } from "../../jsonrpc/dispatcher/dispatcher.js";
import { TaskWait } from "./task-wait.js";
import type { TaskInput, TaskStatePage, ToolTaskRequest, TaskState, TaskWaitOptions, ToolTask } from "./tasks.types.js";

/** The first wait between two polls when the server names none; each poll after it waits 1.5 times longer, up to the cap. */
const FIRST_POLL_MS = 500;
const MAX_POLL_MS = 5000;

/** What the tasks need of their client. */
export interface TaskSources {
  /** A request of the client's (through its layers; the stateless era's `_meta` added). */
  request<T>(method: string, params: JsonObject | undefined, options?: CallOptions): Promise<T>;
  /** The stateless era's calls; undefined in the session era. */
  calls(): StatelessCalls | undefined;
  /** What the server said of itself, once connected. */
  server(): { readonly capabilities: ServerCapabilities; readonly protocolVersion: string } | undefined;
  /** Every tool, as listed (the client's kept listing, when there is one). */
  listAll(): Promise<unknown>;
  /** Lists the tools again. */
  relist(): Promise<unknown>;
}

/** A task of the server's, as this client follows it. */
class TaskHandle implements ToolTask {
  /** 2025-11-25, with `onInput`: the server's requests for input, parked until `update` answers them, by key. */
  readonly parked = new Map<string, { resolve(answer: unknown): void; reject(error: unknown): void }>();

  readonly #tasks: ClientTasks;

  constructor(
    tasks: ClientTasks,
    readonly taskId: string | undefined,
    /** The tool called (its result is checked against the tool's outputSchema); unknown for a task re-attached by id. */
    readonly tool: string | undefined,
    /** How the server last described it (when it was made). */
    readonly state: TaskState | undefined,
    /** The result of a call the server answered at once. */
    private readonly immediate: CallToolResult | undefined,
    readonly onInput: ((input: TaskInput) => void) | undefined,
  ) {
    this.#tasks = tasks;
  }

  status(options?: CallOptions): Promise<TaskState> {
    return this.#tasks.status(this, options);
  }

  result(options?: TaskWaitOptions): Promise<CallToolResult> {
    return this.immediate ? Promise.resolve(this.immediate) : this.#tasks.wait(this, options, false);
  }

  update(responses: Readonly<Record<string, unknown>>): Promise<void> {
    return this.#tasks.update(this, responses);
  }

  cancel(options?: CallOptions): Promise<void> {
    return this.#tasks.cancel(this, options);
  }
}

/**
 * The tool calls of one client, and the tasks they become. A plain call whose answer is a task is
 * followed to its result; a call with `task` gives the task itself (a `ToolTask`).
 */
export class ClientTasks {
  /** Aborted when the client closes: every wait ends. */
  readonly #closed = new AbortController();
  /** 2025-11-25: the tasks whose input the host answers itself, by id, while their result is awaited. */
  readonly #manual = new Map<string, TaskHandle>();

  /** The tools as listed, and the check of a tool's result against its outputSchema. */
  readonly tools: ToolOutputChecker;

  readonly #sources: TaskSources;

  constructor(sources: TaskSources, dispatcher: JsonRpcDispatcher<AnyProtocolVersion>, outputSchemas: OutputSchemaSettings) {
    this.#sources = sources;
    this.tools = new ToolOutputChecker(() => sources.listAll(), outputSchemas);
    // The dispatcher checks each result as it comes: a call in flight holds no reaction of its own.
    dispatcher.setResultCheck(
      METHODS.toolsCall,
      (result, name) => this.tools.checked(name as string, result as CallToolResult),
      (params) => params?.["name"],
    );
  }

  /** `tools/call`: the result, or with `task` the task (one already ended when the server answered at once). */
  call(
    name: string,
    args: JsonObject | undefined,
    options: (CallOptions & { readonly task?: true | ToolTaskRequest }) | undefined,
  ): Promise<CallToolResult | ToolTask> {
    // 2026-07-28: the server decides (the request declared the extension); 2025-11-25: the client asks with `task`.
    const metadata = this.#sources.calls() ? undefined : this.#metadata(name, options?.task);
    // Sent at once when there is nothing to look up first: a call made just before the connection closes is one in flight.
    return metadata instanceof Promise
      ? metadata.then((found) => this.#call(name, args, options, found))
      : this.#call(name, args, options, metadata);
  }

  // Not async: a call in flight holds one reaction, not a suspended frame with its locals (a client may wait on thousands).
  #call(
    name: string,
    args: JsonObject | undefined,
    options: (CallOptions & { readonly task?: true | ToolTaskRequest }) | undefined,
    metadata: TaskMetadata | undefined,
  ): Promise<CallToolResult | ToolTask> {
    const params: JsonObject = { name, ...(args && { arguments: args }), ...(metadata && { task: metadata }) };
    return this.#send(params, options).then((answer) => this.#answered(name, answer, options, metadata));
  }

  #answered(
    name: string,
    answer: JsonObject,
    options: (CallOptions & { readonly task?: true | ToolTaskRequest }) | undefined,
    metadata: TaskMetadata | undefined,
  ): CallToolResult | ToolTask | Promise<CallToolResult> {
    const wanted = options?.task;
    if ("content" in answer)
      return wanted ? new TaskHandle(this, undefined, name, undefined, answer as CallToolResult, undefined) : (answer as CallToolResult);
    const calls = this.#sources.calls();
    if (calls ? !declaresTasks(calls) : !metadata)
      throw new MCPError(MCP_CODES.PROTOCOL_INVALID, `tools/call ${name} was answered with a task, which this client did not ask for`, {
        data: answer,
      });
    const state = stateOf((calls ? answer : answer["task"]) as JsonObject, calls !== undefined);
    const task = new TaskHandle(this, state.taskId, name, state, undefined, wanted === true ? undefined : wanted?.onInput);
    return wanted ? task : this.wait(task, options, true);
  }

  /** A task by its id (one kept from an earlier call); its result is not checked against an outputSchema (the tool is not known). */
  attach(taskId: string, onInput: ((input: TaskInput) => void) | undefined): ToolTask {
    return new TaskHandle(this, taskId, undefined, undefined, undefined, onInput);
  }

  /** `tasks/list` (2025-11-25 only: the tasks extension of 2026-07-28 has none). */
  async list(cursor: string | undefined, options: CallOptions | undefined): Promise<TaskStatePage> {
    const version = this.#sources.server()?.protocolVersion;
    if (version !== undefined && version !== "2025-11-25")
      throw new MCPError(
        MCP_CODES.METHOD_NOT_FOUND,
        `tasks/list is a method of revision 2025-11-25 only; this connection speaks ${version}`,
      );
    const page = await this.#sources.request<ListTasksResult>(METHODS.tasksList, cursor === undefined ? undefined : { cursor }, options);
    const tasks = page.tasks.map((task) => stateOf(task, false));
    return page.nextCursor === undefined ? { tasks } : { tasks, nextCursor: page.nextCursor };
  }

  async status(task: TaskHandle, options: CallOptions | undefined): Promise<TaskState> {
    return stateOf(await this.#byId<JsonObject>(task, METHODS.tasksGet, options), this.#sources.calls() !== undefined);
  }

  async cancel(task: TaskHandle, options: CallOptions | undefined): Promise<void> {
    // A call answered at once has no task left to stop.
    if (task.taskId !== undefined) await this.#byId(task, METHODS.tasksCancel, options);
  }

  /** 2026-07-28: `tasks/update`; 2025-11-25: the parked requests of the keys given are answered. */
  async update(task: TaskHandle, responses: Readonly<Record<string, unknown>>): Promise<void> {
    if (task.taskId === undefined) return;
    if (this.#sources.calls()) {
      await this.#sources.request(METHODS.tasksUpdate, { taskId: task.taskId, inputResponses: responses });
      return;
    }
    for (const [key, answer] of Object.entries(responses)) {
      task.parked.get(key)?.resolve(answer);
      task.parked.delete(key);
    }
  }

  /**
   * Waits for the task's end, then checks the result as any tool result. `cancelOnGiveUp` (a plain
   * call, whose caller never saw the task's id): when the caller's signal or timeout ends the wait,
   * the task is cancelled too.
   */
  async wait(task: TaskHandle, options: TaskWaitOptions | undefined, cancelOnGiveUp: boolean): Promise<CallToolResult> {
    const taskId = task.taskId as string;
    const wait = new TaskWait(`task ${taskId}`, options, this.#closed.signal);
    const calls = this.#sources.calls();
    if (!calls && task.onInput) this.#manual.set(taskId, task);
    try {
      const result = await (calls ? this.#poll(task, wait, calls) : this.#blockOn(task, wait));
      if (task.tool !== undefined) await this.tools.check(task.tool, result);
      return result;
    } catch (error) {
      const reason = wait.signal.reason as MCPError | undefined;
      if (cancelOnGiveUp && reason !== undefined && reason.code !== MCP_CODES.TRANSPORT_CLOSED)
        this.cancel(task, undefined).catch(() => undefined);
      throw error;
    } finally {
      wait.end();
      this.#manual.delete(taskId);
      for (const parked of task.parked.values())
        parked.reject(new MCPError(MCP_CODES.REQUEST_CANCELLED, `The wait for task ${taskId} ended before this input was answered`));
      task.parked.clear();
    }
  }

  /**
   * The responders of the server's requests, with the requests for input of a task whose host
   * answers them itself (2025-11-25: they carry the task's id in `_meta`) parked for it instead.
   */
  parking(responders: ReadonlyMap<string, InputResponder>): ReadonlyMap<string, InputResponder> {
    const parking = new Map<string, InputResponder>();
    for (const [method, respond] of responders) {
      parking.set(method, (params, context) => {
        const related = context.meta?.[META_KEYS.relatedTask] as { taskId?: unknown } | undefined;
        const task = this.#manual.get(related?.taskId as string);
        if (!task) return respond(params, context);
        const key = String(context.requestId);
        return new Promise((resolve, reject) => {
          task.parked.set(key, { resolve, reject });
          context.signal.addEventListener("abort", () => reject(context.signal.reason), { once: true });
          (task.onInput as (input: TaskInput) => void)({ key, method, params });
        });
      });
    }
    return parking;
  }

  /** The client closed: every wait ends with `MCP.TRANSPORT_CLOSED`. */
  close(): void {
    this.#closed.abort();
  }

  /** 2025-11-25: the `task` to ask for, or undefined for a plain call (a tool the listing marks `required` gets one anyway). */
  #metadata(name: string, wanted: true | ToolTaskRequest | undefined): Promise<TaskMetadata | undefined> | undefined {
    const server = this.#sources.server();
    const capable = server?.capabilities.tasks?.requests?.tools?.call !== undefined;
    // Not connected (the call is refused as any other), or a server that runs no tool as a task: a plain call lists nothing first.
    if (server === undefined || (!capable && wanted === undefined)) return undefined;
    return (capable ? this.tools.tool(name) : Promise.resolve(undefined)).then((tool) => {
      const support = tool?.execution?.taskSupport;
      if (wanted === undefined) return support === "required" ? {} : undefined;
      if (support !== "optional" && support !== "required") {
        throw new MCPError(
          MCP_CODES.METHOD_NOT_FOUND,
          capable
            ? `Tool ${name} does not run as a task (its execution.taskSupport is ${support ?? "absent, meaning forbidden"})`
            : `The server runs no tool as a task (its capabilities lack tasks.requests.tools.call)`,
        );
      }
      return wanted === true || wanted.ttlMs === undefined ? {} : { ttl: wanted.ttlMs };
    });
  }

  /** A result, or a task (2025-11-25: `{ task }`; 2026-07-28: the task itself, flat). */
  #send(params: JsonObject, options: CallOptions | undefined): Promise<JsonObject> {
    const sent = this.#sources.request<JsonObject>(METHODS.toolsCall, params, options);
    // Stateless era: a server that finds the headers disagree with the body (-32020) may have changed the tool: list it again, and call
    // once more.
    if (!this.#sources.calls()) return sent;
    return sent.catch((error: unknown) =>
      headerMismatch(error)
        ? this.#sources.relist().then(() => this.#sources.request<JsonObject>(METHODS.toolsCall, params, options))
        : Promise.reject(error),
    );
  }

  #byId<T>(task: TaskHandle, method: string, options: CallOptions | undefined): Promise<T> {
    if (task.taskId === undefined)
      return Promise.reject(
        new MCPError(MCP_CODES.NOT_FOUND, `tools/call ${task.tool as string} was answered at once: there is no task to ask about`),
      );
    return this.#sources.request(method, { taskId: task.taskId }, options);
  }

  /**
   * 2025-11-25: `tasks/result`, which the server answers once the task ended; its requests for input
   * come meanwhile (answered by the client's handlers, or parked for `onInput`). A stream that broke,
   * or a request that timed out, before the end is asked again after the task's poll interval.
   */
  async #blockOn(task: TaskHandle, wait: TaskWait): Promise<CallToolResult> {
    for (;;) {
      try {
        return await wait.race(this.#byId<CallToolResult>(task, METHODS.tasksResult, undefined));
      } catch (error) {
        const code = (error as MCPError).code;
        if (wait.signal.aborted) throw error;
        if (code !== MCP_CODES.TRANSPORT_ERROR && code !== MCP_CODES.TIMEOUT) throw await this.#endedWith(task, wait, error);
        await wait.sleep(task.state?.pollIntervalMs ?? FIRST_POLL_MS);
      }
    }
  }

  /**
   * 2025-11-25 gives a cancelled task's `tasks/result` no code of its own (servers answer -32603):
   * the task's status tells a cancellation from the tool's failure.
   */
  async #endedWith(task: TaskHandle, wait: TaskWait, error: unknown): Promise<unknown> {
    const state = await wait.race(this.#byId<JsonObject>(task, METHODS.tasksGet, undefined)).catch(() => undefined);
    return state?.["status"] === "cancelled" ? cancelledTask(state as { taskId: string; statusMessage?: string }) : error;
  }

  /**
   * 2026-07-28: `tasks/get` at the server's poll interval (none: 500 ms, then 1.5 times longer each
   * time, up to 5 s) until the task ends; its new requests for input answered in between.
   */
  async #poll(task: TaskHandle, wait: TaskWait, calls: StatelessCalls): Promise<CallToolResult> {
    const seen = new Set<string>();
    let backoff = FIRST_POLL_MS;
    let interval = task.state?.pollIntervalMs ?? backoff;
    for (;;) {
      await wait.sleep(interval);
      const detailed = await wait.race(this.#byId<Detailed>(task, METHODS.tasksGet, undefined));
      if (detailed.status === "completed") return detailed.result;
      if (detailed.status === "failed") throw MCPError.fromWire(detailed.error);
      if (detailed.status === "cancelled") throw cancelledTask(detailed);
      if (detailed.status === "input_required") await this.#answer(task, detailed.inputRequests, seen, wait, calls);
      backoff = Math.min(backoff * 1.5, MAX_POLL_MS);
      interval = detailed.pollIntervalMs ?? backoff;
    }
  }

  /**
   * 2026-07-28: the requests for input not seen in an earlier poll (the server lists every one still
   * outstanding), each told to `onInput`, or answered by the client's handlers and sent in one `tasks/update`.
   */
  async #answer(task: TaskHandle, requests: InputRequests, seen: Set<string>, wait: TaskWait, calls: StatelessCalls): Promise<void> {
    const fresh: InputRequests = {};
    for (const [key, request] of Object.entries(requests)) {
      if (seen.has(key)) continue;
      seen.add(key);
      if (task.onInput) task.onInput({ key, method: request.method, params: request.params });
      else fresh[key] = request;
    }
    if (task.onInput || Object.keys(fresh).length === 0) return;
    const inputResponses = await wait.race(calls.answerEach(fresh, wait.signal));
    await wait.race(this.#sources.request(METHODS.tasksUpdate, { taskId: task.taskId, inputResponses }));
  }
}

/** A task as `tasks/get` has it in 2026-07-28: with what its status brings. */
interface Detailed {
  readonly taskId: string;
  readonly status: DetailedTask["status"];
  readonly statusMessage?: string;
  readonly pollIntervalMs?: number;
  readonly inputRequests: InputRequests;
  readonly result: CallToolResult;
  readonly error: JsonRpcErrorObject;
}

/** Whether this client's stateless-era requests declare the tasks extension. */
function declaresTasks(calls: StatelessCalls): boolean {
  return (calls.capabilities as { extensions?: JsonObject }).extensions?.[EXTENSIONS.tasks] !== undefined;
}

/** A task of either era as a `TaskState` (2025-11-25's `ttl` and `pollInterval` renamed; nothing of a detailed task's outcome). */
/** What waiting for a cancelled task rejects with, in either era. */
function cancelledTask(task: { readonly taskId: string; readonly statusMessage?: string | undefined }): MCPError {
  return new MCPError(
    MCP_CODES.REQUEST_CANCELLED,
    `Task ${task.taskId} was cancelled${task.statusMessage === undefined ? "" : `: ${task.statusMessage}`}`,
    { data: task },
  );
}

export function stateOf(task: JsonObject, stateless: boolean): TaskState {
  const state: JsonObject = {
    taskId: task["taskId"],
    status: task["status"],
    createdAt: task["createdAt"],
    lastUpdatedAt: task["lastUpdatedAt"],
    ttlMs: task[stateless ? "ttlMs" : "ttl"],
  };
  if (task["statusMessage"] !== undefined) state["statusMessage"] = task["statusMessage"];
  const poll = task[stateless ? "pollIntervalMs" : "pollInterval"];
  if (poll !== undefined) state["pollIntervalMs"] = poll;
  return state as unknown as TaskState;
}

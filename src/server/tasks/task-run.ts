import { JSONRPC_ERROR_CODES, MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, describeThrown } from "../../error-codes/mcp-error.js";
import {
  isFinalTaskStatus,
  type TaskError,
  type TaskPatch,
  type TaskRecord,
  type TaskStatus,
  type TaskStore,
} from "../../stores/task-store.js";
import type { JsonObject } from "../../types/types.js";
import { CAS_ATTEMPTS, answersOf } from "./task-answers.js";

/** How a task's work ended: the request's result (even a tool's isError result), or the JSON-RPC error it failed with. */
export type TaskOutcome = { readonly result: JsonObject } | { readonly error: TaskError };

/** What the detached work is given. */
export interface TaskRun {
  readonly taskId: string;
  readonly owner: string;
  /**
   * Aborted when the task is cancelled (reason: MCPError MCP.REQUEST_CANCELLED), expires, or the engine closes. Never the creating
   * request's signal.
   */
  readonly signal: AbortSignal;
  /** The task's statusMessage; written at most once per pollInterval, the last value kept and flushed (and flushed before the outcome). */
  status(message: string): void;
  /**
   * Asks the requestor for input (method: elicitation/create, sampling/createMessage or roots/list; params as sent).
   * key: the given one, else `${method.split("/")[0]}-${n}` from a per-task counter. A key used before in this task →
   * MCPError MCP.INVALID_PARAMS (keys are never reused). The task becomes input_required with inputRequests[key] =
   * { method, params } next to every other outstanding one (two parallel asks = two keys, never one lost: CAS
   * read-modify-write with retries). Resolves with the answer `answer()` accepted; rejects with signal.reason when the run ends.
   */
  ask(method: string, params: JsonObject | undefined, key?: string): Promise<unknown>;
}

/** What a run needs of its engine. */
export interface RunHost {
  readonly store: TaskStore;
  readonly now: () => number;
  report(error: unknown): void;
  /** Tells the feed the task changed; never rejects. */
  publish(taskId: string): Promise<void>;
}

interface Waiter {
  resolve(answer: unknown): void;
  reject(reason: unknown): void;
}

/** An outcome or a status is written only while the task runs: a final task (cancelled first) keeps its state. */
const RUNNING: readonly TaskStatus[] = ["working", "input_required"];

export function cancelledError(message = "Task cancelled"): MCPError {
  return new MCPError(MCP_CODES.REQUEST_CANCELLED, message);
}

export function expiredError(): MCPError {
  return cancelledError("Task expired");
}

/**
 * One task's work in this process: its abort signal, its throttled status, its input waiters.
 * Its writes go one after the other (a promise chain), so a status never overtakes the outcome.
 */
export class Run implements TaskRun {
  readonly taskId: string;
  readonly owner: string;
  readonly signal: AbortSignal;
  readonly #host: RunHost;
  readonly #pollInterval: number;
  readonly #controller = new AbortController();
  readonly #waiters = new Map<string, Waiter>();
  /** Every input key this task used: keys are never reused. */
  readonly #keys = new Set<string>();
  #counter = 0;
  #chain: Promise<unknown> = Promise.resolve();
  /** The status message not written yet. */
  #message: string | undefined;
  #statusTimer: ReturnType<typeof setTimeout> | undefined;
  #statusWrittenAt = Number.NEGATIVE_INFINITY;
  /** The work settled or the run was ended: no status is written any more. */
  #done = false;
  /** Cancelled, expired or closed: the signal is aborted. */
  #ended = false;
  #refreshing = false;
  #refreshAgain = false;
  #startTimer: ReturnType<typeof setTimeout> | undefined;
  /** Resolves the wait for the work's turn, while it has not come. */
  #unstarted: (() => void) | undefined;

  constructor(host: RunHost, owner: string, task: TaskRecord, pollInterval: number) {
    this.#host = host;
    this.owner = owner;
    this.taskId = task.taskId;
    this.#pollInterval = pollInterval;
    this.signal = this.#controller.signal;
  }

  /**
   * Starts `work` on a later turn of the event loop (a timer of 0 ms), so that whoever started the
   * task answers with it before the work can change it; a run ended before then never starts its
   * work. Resolves once the outcome is written (or dropped). Never rejects.
   */
  start(work: (run: TaskRun) => Promise<TaskOutcome>): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#unstarted = resolve;
      this.#startTimer = setTimeout(resolve, 0);
    }).then(() => {
      this.#unstarted = undefined;
      if (this.#done) return undefined;
      return Promise.resolve()
        .then(() => work(this))
        .catch((error: unknown): TaskOutcome => ({ error: { code: JSONRPC_ERROR_CODES.INTERNAL_ERROR, message: describeThrown(error) } }))
        .then((outcome) => this.#finish(outcome));
    });
  }

  status(message: string): void {
    if (this.#done) return;
    this.#message = message;
    if (this.#statusTimer !== undefined) return;
    const wait = this.#statusWrittenAt + this.#pollInterval - this.#host.now();
    if (wait <= 0) this.#flushStatus();
    else
      this.#statusTimer = setTimeout(() => {
        this.#statusTimer = undefined;
        this.#flushStatus();
      }, wait);
  }

  ask(method: string, params: JsonObject | undefined, key?: string): Promise<unknown> {
    if (this.#done) return Promise.reject(this.#ended ? this.signal.reason : workEnded());
    const name = key ?? this.#nextKey(method);
    if (this.#keys.has(name))
      return Promise.reject(
        new MCPError(MCP_CODES.INVALID_PARAMS, `Input key ${JSON.stringify(name)} was used before in this task: keys are never reused`),
      );
    this.#keys.add(name);
    // The waiter is there before the request is written: an answer heard at any moment after finds it.
    const answered = new Promise<unknown>((resolve, reject) => this.#waiters.set(name, { resolve, reject }));
    const request = params === undefined ? { method } : { method, params };
    this.#enqueue(() => this.#addInputRequest(name, request)).catch((error: unknown) => this.#take(name)?.reject(error));
    return answered;
  }

  /** Answers accepted in this process (`TaskEngine.answer`): the asks waiting for them resolve at once. */
  answered(answers: ReadonlyMap<string, unknown>): void {
    for (const [key, answer] of answers) this.#take(key)?.resolve(answer);
  }

  /** The task changed somewhere (the feed said so): resolve the asks it has answers for, end when it was cancelled or is gone. */
  refresh(): void {
    if (this.#refreshing) {
      this.#refreshAgain = true;
      return;
    }
    this.#refreshing = true;
    void this.#refreshUntilQuiet();
  }

  /** Cancelled, expired or closed: aborts the signal with `reason` and rejects the asks with it; writes nothing. */
  end(reason: MCPError): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#stop();
    clearTimeout(this.#startTimer);
    this.#unstarted?.();
    this.#controller.abort(reason);
    this.#rejectWaiters(reason);
  }

  #nextKey(method: string): string {
    let key: string;
    do {
      this.#counter += 1;
      key = `${method.split("/")[0] as string}-${this.#counter}`;
    } while (this.#keys.has(key));
    return key;
  }

  #flushStatus(): void {
    const message = this.#message;
    if (message === undefined) return;
    this.#message = undefined;
    this.#statusWrittenAt = this.#host.now();
    this.#write({ statusMessage: message }).catch((error: unknown) => this.#host.report(error));
  }

  /** No more status timer: what is still waiting is written by the outcome's flush, or dropped when the run ended. */
  #stop(): void {
    this.#done = true;
    clearTimeout(this.#statusTimer);
    this.#statusTimer = undefined;
  }

  async #finish(outcome: TaskOutcome): Promise<void> {
    // Ended (cancelled, expired, closed): the task is final or gone, so the outcome has nowhere to go.
    if (this.#done) return;
    this.#stop();
    this.#flushStatus();
    try {
      await this.#writeOutcome(outcome);
    } catch (error) {
      this.#host.report(error);
    }
    this.#rejectWaiters(workEnded());
  }

  async #writeOutcome(outcome: TaskOutcome): Promise<void> {
    try {
      await this.#write(outcomePatch(outcome));
    } catch (error) {
      // A result the store refuses (not JSON) must still end the task: it fails instead of staying `working`.
      if (!(error instanceof MCPError && error.code === MCP_CODES.INVALID_PARAMS)) throw error;
      await this.#write(
        outcomePatch({
          error: { code: JSONRPC_ERROR_CODES.INTERNAL_ERROR, message: `The task's outcome could not be stored: ${error.message}` },
        }),
      );
    }
  }

  /** One write after the ones before it, applied only while the task runs; publishes what it changed. */
  #write(patch: TaskPatch): Promise<void> {
    return this.#enqueue(async () => {
      const outcome = await this.#host.store.update(this.owner, this.taskId, patch, { status: RUNNING });
      if (outcome.ok) await this.#host.publish(this.taskId);
    });
  }

  #enqueue<T>(write: () => Promise<T>): Promise<T> {
    const next = this.#chain.then(write);
    this.#chain = next.catch(() => undefined);
    return next;
  }

  /** Adds `inputRequests[key]` next to the outstanding ones: read, then write if the version is still the one read. */
  async #addInputRequest(key: string, request: JsonObject): Promise<void> {
    const { store } = this.#host;
    for (let attempt = 1; attempt <= CAS_ATTEMPTS; attempt += 1) {
      const task = await store.get(this.owner, this.taskId);
      if (task === undefined || isFinalTaskStatus(task.status)) return this.end(endedBy(task));
      const patch = { status: "input_required" as const, inputRequests: { ...task.inputRequests, [key]: request } };
      const outcome = await store.update(this.owner, this.taskId, patch, { version: task.version, status: RUNNING });
      if (outcome.ok) return this.#host.publish(this.taskId);
    }
    throw new MCPError(
      MCP_CODES.INTERNAL_ERROR,
      `Task ${this.taskId} kept changing: its input request ${JSON.stringify(key)} could not be written`,
    );
  }

  async #refreshUntilQuiet(): Promise<void> {
    do {
      this.#refreshAgain = false;
      try {
        await this.#refreshOnce();
      } catch (error) {
        this.#host.report(error);
      }
    } while (this.#refreshAgain);
    this.#refreshing = false;
  }

  async #refreshOnce(): Promise<void> {
    const task = await this.#host.store.get(this.owner, this.taskId);
    // Completed or failed is this run's own outcome; cancelled (or gone) is someone else's doing.
    if (task === undefined || task.status === "cancelled") return this.end(endedBy(task));
    const answers = answersOf(task);
    for (const key of this.#waiters.keys()) if (Object.hasOwn(answers, key)) this.#take(key)?.resolve(answers[key]);
  }

  /** The waiter of `key`, no longer waiting: each ask settles once. */
  #take(key: string): Waiter | undefined {
    const waiter = this.#waiters.get(key);
    this.#waiters.delete(key);
    return waiter;
  }

  #rejectWaiters(reason: unknown): void {
    for (const key of this.#waiters.keys()) this.#take(key)?.reject(reason);
  }
}

function outcomePatch(outcome: TaskOutcome): TaskPatch {
  if ("error" in outcome) return { status: "failed", error: outcome.error, statusMessage: outcome.error.message };
  return { status: "completed", result: outcome.result };
}

/** Why a run ends when its task is cancelled (the cancel's message is the reason's) or gone (expired). */
function endedBy(task: TaskRecord | undefined): MCPError {
  return task === undefined ? expiredError() : cancelledError(task.statusMessage);
}

function workEnded(): MCPError {
  return new MCPError(MCP_CODES.INTERNAL_ERROR, "The task's work ended before its input was answered");
}

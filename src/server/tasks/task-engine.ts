import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { ChangeFeed } from "../../stores/change-feed.js";
import {
  taskExpiresAt,
  type NewTask,
  type TaskPage,
  type TaskPageRequest,
  type TaskRecord,
  type TaskRequest,
  type TaskStore,
  type TaskUpdateOutcome,
} from "../../stores/task-store.js";
import type { JsonObject } from "../../types/types.js";
import { applyAnswers, type AnswerCheck } from "./task-answers.js";
import { TaskExpiry } from "./task-expiry.js";
import { Run, cancelledError, expiredError, type RunHost, type TaskOutcome, type TaskRun } from "./task-run.js";

export type { AnswerCheck } from "./task-answers.js";
export type { TaskOutcome, TaskRun } from "./task-run.js";

export interface TaskEngineOptions {
  readonly store: TaskStore;
  /** The engine publishes { kind: "task", taskId } after each write it makes, and listens to it (answers given through another process). */
  readonly feed: ChangeFeed;
  /** 3_600_000 when a start names none. */
  readonly defaultTtlMs?: number;
  /** 86_400_000; a requested ttl above is clamped; null ttl only when this is null. */
  readonly maxTtlMs?: number | null;
  /** 1_000: the task's pollInterval, and the status throttle. */
  readonly pollIntervalMs?: number;
  /** 5_000: how long close() waits for aborted runs to settle. */
  readonly closeGraceMs?: number;
  /** Date.now; what the expiry timer compares to (give the store the same clock). */
  readonly now?: () => number;
  /** A write the engine makes in the background failed (store down, a feed listener threw): reported, never thrown. */
  readonly onError?: (error: unknown) => void;
}

export interface StartTask {
  readonly owner: string;
  /** E.g. { method: "tools/call", params: { name, arguments } }. */
  readonly request: TaskRequest;
  /** Requested; clamped to maxTtlMs; null → maxTtlMs when that is not null. */
  readonly ttl?: number | null;
  /** Default pollIntervalMs. */
  readonly pollInterval?: number;
  /** The surface's own (era, progressToken, sessionId…); the key `answers` is the engine's. */
  readonly data?: JsonObject;
  /** The work, started detached after the task is stored. A throw becomes failed { code: -32603, message: describeThrown(error) }. */
  readonly work: (run: TaskRun) => Promise<TaskOutcome>;
}

interface LocalRun {
  readonly run: Run;
  /** Resolves once the work settled and its outcome was written or dropped. */
  readonly settled: Promise<void>;
}

/**
 * Runs tasks, whatever the era: stores each, runs its work detached with a signal of its own, writes
 * its status, input requests and outcome to the store (compare-and-set where writers may race), and
 * publishes every write on the change feed. It knows nothing of either era's wire.
 */
export class TaskEngine {
  readonly options: TaskEngineOptions;
  readonly pollIntervalMs: number;
  readonly #store: TaskStore;
  readonly #defaultTtl: number;
  readonly #maxTtl: number | null;
  readonly #closeGrace: number;
  readonly #feed: ChangeFeed;
  readonly #report: (error: unknown) => void;
  readonly #host: RunHost;
  readonly #runs = new Map<string, LocalRun>();
  readonly #expiry: TaskExpiry;
  readonly #unsubscribe: () => void;
  #closing: Promise<void> | undefined;
  /** The task this engine is publishing a change of, while a feed that tells its listeners at once does so. */
  #echo: string | undefined;

  constructor(options: TaskEngineOptions) {
    const {
      store,
      feed,
      defaultTtlMs = 3_600_000,
      maxTtlMs = 86_400_000,
      pollIntervalMs = 1_000,
      closeGraceMs = 5_000,
      now = Date.now,
    } = options;
    for (const [name, value] of Object.entries({ defaultTtlMs, maxTtlMs: maxTtlMs ?? 1, pollIntervalMs, closeGraceMs }))
      if (!Number.isSafeInteger(value) || value < 1)
        throw new MCPError(MCP_CODES.INVALID_PARAMS, `TaskEngine: ${name} must be a positive whole number of milliseconds`);
    this.options = options;
    this.pollIntervalMs = pollIntervalMs;
    this.#store = store;
    this.#defaultTtl = defaultTtlMs;
    this.#maxTtl = maxTtlMs;
    this.#closeGrace = closeGraceMs;
    this.#feed = feed;
    this.#report = (error) => options.onError?.(error);
    this.#host = { store, now, report: this.#report, publish: (taskId) => this.#publish(taskId) };
    this.#expiry = new TaskExpiry(store, now, (taskIds) => this.#expired(taskIds), this.#report);
    // A change to a task this process runs may be an answer or a cancel given through another process.
    this.#unsubscribe = feed.subscribe((change) => {
      if (change.kind === "task" && change.taskId !== this.#echo) this.#runs.get(change.taskId)?.run.refresh();
    });
  }

  /** Local runs in progress (tests, soak). */
  get running(): number {
    return this.#runs.size;
  }

  /**
   * Stores the task (awaited: a `tasks/get` right after resolves), then starts the work on a later turn. Rejects as the store does
   * (MCP.RATE_LIMITED at the owner's limit).
   */
  async start(task: StartTask): Promise<TaskRecord> {
    if (this.#closing !== undefined) throw closedError();
    const { answers: _engines, ...data } = task.data ?? {};
    const pollInterval = task.pollInterval ?? this.pollIntervalMs;
    const newTask: NewTask = { request: task.request, ttl: this.#ttlOf(task.ttl), pollInterval, data: { ...data, answers: {} } };
    const record = await this.#store.create(task.owner, newTask);
    if (this.#closing !== undefined) {
      // Closed while the task was being stored: it never runs, and ends cancelled like the others.
      await this.#store.cancel(task.owner, record.taskId, "Server closed");
      throw closedError();
    }
    if (record.ttl !== null) this.#expiry.add(record.taskId, taskExpiresAt(record));
    const run = new Run(this.#host, task.owner, record, pollInterval);
    const settled = run.start(task.work).then(() => void this.#runs.delete(record.taskId));
    this.#runs.set(record.taskId, { run, settled });
    await this.#publish(record.taskId);
    return record;
  }

  get(owner: string, taskId: string): Promise<TaskRecord | undefined> {
    return this.#store.get(owner, taskId);
  }

  list(owner: string, page?: TaskPageRequest): Promise<TaskPage> {
    return this.#store.list(owner, page);
  }

  /**
   * The store's cancel first (so the task is cancelled when this resolves), then the local run aborted and its asks rejected. Publishes.
   */
  async cancel(owner: string, taskId: string, statusMessage?: string): Promise<TaskUpdateOutcome> {
    const outcome = await this.#store.cancel(owner, taskId, statusMessage);
    if (!outcome.ok) return outcome;
    this.#runs.get(taskId)?.run.end(cancelledError(statusMessage));
    await this.#publish(taskId);
    return outcome;
  }

  /**
   * Input answers (2026 tasks/update; the 2025 surface calls it with what the client answered on tasks/result's stream).
   * Keys not outstanding are ignored. Each outstanding key's answer goes through `check(method, params, answer)`
   * (returns the checked answer; a throw → JsonRpcError -32602 `inputResponses["key"]: …`, and nothing is applied).
   * One CAS write (retried on a version clash) removes the answered keys from inputRequests, records each answer under
   * data.answers[key], and goes back to working when none is left; publishes; resolves the local run's asks at once.
   * A run in another process resolves its asks when it hears the change on the feed (it re-reads data.answers).
   * Resolves to the record after the write (or as it was when nothing applied); undefined when not found (other owner, expired).
   */
  async answer(
    owner: string,
    taskId: string,
    responses: Readonly<Record<string, unknown>>,
    check: AnswerCheck,
  ): Promise<TaskRecord | undefined> {
    const answered = await applyAnswers(this.#store, owner, taskId, responses, check);
    if (answered === undefined || answered.applied.size === 0) return answered?.task;
    this.#runs.get(taskId)?.run.answered(answered.applied);
    await this.#publish(taskId);
    return answered.task;
  }

  /**
   * Every local run: store cancel "Server closed", abort, asks rejected; waits up to closeGraceMs for the runs; clears every timer;
   * unsubscribes. Idempotent.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutDown();
    return this.#closing;
  }

  async #shutDown(): Promise<void> {
    const runs = [...this.#runs.values()];
    await Promise.all(runs.map(({ run }) => this.#closeRun(run)));
    let grace: ReturnType<typeof setTimeout> | undefined;
    // A work that ignores its signal is left behind after the grace: close() still ends.
    await Promise.race([
      Promise.all(runs.map(({ settled }) => settled)),
      new Promise<void>((resolve) => (grace = setTimeout(resolve, this.#closeGrace))),
    ]);
    clearTimeout(grace);
    this.#expiry.close();
    this.#unsubscribe();
    this.#runs.clear();
  }

  async #closeRun(run: Run): Promise<void> {
    try {
      const outcome = await this.#store.cancel(run.owner, run.taskId, "Server closed");
      if (outcome.ok) await this.#publish(run.taskId);
    } catch (error) {
      this.#report(error);
    }
    run.end(cancelledError("Server closed"));
  }

  /** Tells the feed the task changed; never rejects (a failure is reported). */
  async #publish(taskId: string): Promise<void> {
    // What this engine writes it knows already: its own listener skips the change while a feed that
    // tells listeners at once (in memory) delivers it, instead of reading the task back.
    this.#echo = taskId;
    const published = this.#tryPublish(taskId);
    this.#echo = undefined;
    await published;
  }

  async #tryPublish(taskId: string): Promise<void> {
    try {
      await this.#feed.publish({ kind: "task", taskId });
    } catch (error) {
      this.#report(error);
    }
  }

  #ttlOf(requested: number | null | undefined): number | null {
    const max = this.#maxTtl;
    const ttl = requested === undefined ? this.#defaultTtl : requested;
    if (max === null) return ttl;
    return ttl === null ? max : Math.min(ttl, max);
  }

  /** The expiry timer fired: the local runs of the tasks that ran out are aborted (their records are gone: nothing is written). */
  #expired(taskIds: readonly string[]): void {
    for (const taskId of taskIds) this.#runs.get(taskId)?.run.end(expiredError());
  }
}

function closedError(): MCPError {
  return new MCPError(MCP_CODES.TRANSPORT_CLOSED, "The task engine is closed: no task starts after close()");
}

// The task engine's test bench: a fake clock shared by the engine, its store and the timers; an
// in-memory store that a test can wrap to slow or change one call; engines sharing one store and
// one feed, as two processes of one deployment would.
import { vi } from "vitest";

import { InMemoryChangeFeed, type Change } from "../../stores/change-feed.js";
import { InMemoryTaskStore } from "../../stores/in-memory-task-store.js";
import type { TaskRecord, TaskStore } from "../../stores/task-store.js";
import { TaskEngine, type StartTask, type TaskEngineOptions, type TaskOutcome, type TaskRun } from "./task-engine.js";

export const T0 = Date.UTC(2026, 6, 28, 12);
export const CALL = { method: "tools/call", params: { name: "build", arguments: { target: "all" } } };
export const RESULT = { content: [{ type: "text", text: "built" }] };
export const OWNER = "p:alice";

// Captured before any test fakes the timers: a real turn of the event loop, after which every promise settled.
const realImmediate = setImmediate;

function realTurn(): Promise<void> {
  return new Promise((resolve) => realImmediate(resolve));
}

/** Lets every pending promise settle and the works due start (a 0 ms timer), without moving the clock. */
export async function flush(): Promise<void> {
  for (let turn = 0; turn < 3; turn += 1) {
    await realTurn();
    vi.advanceTimersByTime(0);
  }
  await realTurn();
}

export interface Deferred<T> {
  readonly promise: Promise<T>;
  readonly resolve: (value: T) => void;
  readonly reject: (reason: unknown) => void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** The store with some of its methods replaced; each replacement is given the real store. */
export type StoreOverrides = { [K in keyof TaskStore]?: (real: TaskStore, ...args: Parameters<TaskStore[K]>) => ReturnType<TaskStore[K]> };

export function hooked(real: TaskStore, overrides: StoreOverrides): TaskStore {
  const call = <K extends keyof TaskStore>(name: K, args: Parameters<TaskStore[K]>): ReturnType<TaskStore[K]> => {
    const override = overrides[name];
    if (override !== undefined) return override(real, ...args);
    return (real[name] as (...args: Parameters<TaskStore[K]>) => ReturnType<TaskStore[K]>).apply(real, args);
  };
  return {
    create: (...args) => call("create", args),
    get: (...args) => call("get", args),
    update: (...args) => call("update", args),
    cancel: (...args) => call("cancel", args),
    list: (...args) => call("list", args),
    expire: (...args) => call("expire", args),
  };
}

export interface Bench {
  readonly store: InMemoryTaskStore;
  readonly feed: InMemoryChangeFeed;
  readonly changes: Change[];
  readonly errors: unknown[];
  readonly engine: (options?: Partial<TaskEngineOptions> & { overrides?: StoreOverrides }) => TaskEngine;
}

/** Fake timers at T0, a store and a feed on that clock; engines made by `engine()` report into `errors`. */
export function bench(): Bench {
  vi.useFakeTimers({ now: T0 });
  const store = new InMemoryTaskStore({ now: () => Date.now() });
  const feed = new InMemoryChangeFeed();
  const changes: Change[] = [];
  feed.subscribe((change) => void changes.push(change));
  const errors: unknown[] = [];
  return {
    store,
    feed,
    changes,
    errors,
    engine: ({ overrides, ...options } = {}) =>
      new TaskEngine({
        store: overrides === undefined ? store : hooked(store, overrides),
        feed,
        now: () => Date.now(),
        onError: (error) => void errors.push(error),
        ...options,
      }),
  };
}

/** A work the test ends: `run` is the TaskRun it was given, `finish` settles it. */
export function heldWork(): {
  readonly work: StartTask["work"];
  readonly started: Promise<TaskRun>;
  finish(outcome: TaskOutcome): void;
  fail(error: unknown): void;
} {
  const started = deferred<TaskRun>();
  const outcome = deferred<TaskOutcome>();
  return {
    work: (run) => {
      started.resolve(run);
      return outcome.promise;
    },
    started: started.promise,
    finish: outcome.resolve,
    fail: outcome.reject,
  };
}

/** Starts a held work for OWNER; resolves to the record `start` gave and the run once the work began. */
export async function startHeld(
  engine: TaskEngine,
  task: Partial<StartTask> = {},
): Promise<{ record: TaskRecord; run: TaskRun; held: ReturnType<typeof heldWork> }> {
  const held = heldWork();
  const record = await engine.start({ owner: OWNER, request: CALL, work: held.work, ...task });
  await flush();
  return { record, run: await held.started, held };
}

export function completed(result = RESULT): TaskOutcome {
  return { result };
}

/** The check `answer()` is given when every answer is welcome. */
export const accept = (_method: string, _params: unknown, answer: unknown): unknown => answer;

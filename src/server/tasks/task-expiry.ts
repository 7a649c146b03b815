import type { TaskStore } from "../../stores/task-store.js";

/** The longest delay a timer takes (2^31 − 1 ms, about 24.8 days): a later expiry is reached in steps. */
const MAX_DELAY = 2_147_483_647;

interface Due {
  readonly at: number;
  readonly taskId: string;
}

/**
 * The expiry times of the tasks one engine created, and one timer armed at the earliest. When it
 * fires, the store deletes what ran out (`expire(now)`), the engine is told which of its tasks did,
 * and the timer is armed at the next one; none is left once the list is empty.
 */
export class TaskExpiry {
  readonly #store: TaskStore;
  readonly #now: () => number;
  readonly #onDue: (taskIds: readonly string[]) => void;
  readonly #report: (error: unknown) => void;
  /** Oldest expiry first. */
  readonly #due: Due[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #armedAt = Number.POSITIVE_INFINITY;

  constructor(store: TaskStore, now: () => number, onDue: (taskIds: readonly string[]) => void, report: (error: unknown) => void) {
    this.#store = store;
    this.#now = now;
    this.#onDue = onDue;
    this.#report = report;
  }

  /** How many expiry times are kept. */
  get size(): number {
    return this.#due.length;
  }

  /** Keeps `at` for `taskId`; arms the timer again when it is the earliest. */
  add(taskId: string, at: number): void {
    let index = this.#due.length;
    while (index > 0 && (this.#due[index - 1] as Due).at > at) index -= 1;
    this.#due.splice(index, 0, { at, taskId });
    if (at < this.#armedAt) this.#arm();
  }

  /** Clears the timer and forgets every time: a firing under way finds nothing to arm again. */
  close(): void {
    this.#due.length = 0;
    this.#disarm();
  }

  #arm(): void {
    this.#disarm();
    const first = this.#due[0];
    if (first === undefined) return;
    this.#armedAt = first.at;
    this.#timer = setTimeout(() => void this.#fire(), Math.min(Math.max(first.at - this.#now(), 0), MAX_DELAY));
    // A pending expiry must not keep a process alive (Node's timers have unref; others need none).
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
  }

  async #fire(): Promise<void> {
    this.#timer = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
    const now = this.#now();
    let count = 0;
    while (count < this.#due.length && (this.#due[count] as Due).at <= now) count += 1;
    const due = this.#due.splice(0, count).map((entry) => entry.taskId);
    try {
      await this.#store.expire(now);
    } catch (error) {
      // The tasks are invisible from their expiry on whether or not the store freed them.
      this.#report(error);
    }
    this.#onDue(due);
    this.#arm();
  }
}

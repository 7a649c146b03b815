import type { SessionDirectory } from "../../../stores/session-directory.js";

type Listener = () => void;

/**
 * Watches the leases of the instances this one relays with, while it does: every `intervalMs` it
 * asks the directory which are still alive, and tells the listeners of one that is not (once). No
 * timer runs while nothing is watched.
 */
export class InstanceWatch {
  readonly #watched = new Map<string, Set<Listener>>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(
    private readonly directory: SessionDirectory,
    private readonly intervalMs: number,
  ) {}

  /** Calls `onDead` when `instance` has no lease; returns what stops watching. */
  watch(instance: string, onDead: Listener): () => void {
    let listeners = this.#watched.get(instance);
    if (listeners === undefined) {
      listeners = new Set();
      this.#watched.set(instance, listeners);
    }
    const entry: Listener = () => onDead();
    listeners.add(entry);
    if (!this.#closed) this.#timer ??= setTimeout(() => void this.#check(), this.intervalMs);
    return () => this.#forget(instance, entry);
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#watched.clear();
  }

  async #check(): Promise<void> {
    // A snapshot: an instance watched during the check (after close(), say) waits for the next one.
    // oxlint-disable-next-line unicorn/no-useless-spread -- the map changes across the awaits below
    for (const instance of [...this.#watched.keys()]) {
      // A directory that cannot answer says nothing of the instance: it is asked again next time.
      const alive = await this.directory.alive(instance).catch(() => true);
      const listeners = this.#watched.get(instance);
      if (alive || listeners === undefined) continue;
      this.#watched.delete(instance);
      for (const listener of listeners) listener();
    }
    this.#timer = this.#watched.size === 0 || this.#closed ? undefined : setTimeout(() => void this.#check(), this.intervalMs);
  }

  #forget(instance: string, entry: Listener): void {
    const listeners = this.#watched.get(instance);
    listeners?.delete(entry);
    if (listeners?.size === 0) this.#watched.delete(instance);
  }
}

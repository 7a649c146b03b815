// The sync loop a mount and a proxy share: the entries a server should hold for what a source lists
// now, registered, kept in step (one re-listing queued behind the running one) and removed at stop.
import type { Wanted } from "./mount-entries.js";

/** A server's entries that follow a source's lists: `start()` once, `resync()` on each change, `stop()` at the end. */
export class EntrySync {
  readonly #entries = new Map<string, { readonly signature: string; readonly entry: { remove(): void } }>();
  #queue: Promise<void> = Promise.resolve();
  #pending = false;
  #stopped = false;

  constructor(
    private readonly wanted: () => Promise<ReadonlyMap<string, Wanted>>,
    private readonly report: (error: unknown) => void,
  ) {}

  /** The first sync: what it cannot register or list fails it, and stops (undoes) the sync. */
  async start(): Promise<void> {
    const first = this.wanted().then((wanted) => {
      const errors = this.#apply(wanted);
      if (errors.length > 0) throw errors[0];
    });
    this.#queue = first.catch(() => undefined);
    try {
      await first;
    } catch (error) {
      this.stop();
      throw error;
    }
  }

  /** Resolves when the syncs asked for so far (also by a change made in this tick) are done. */
  async synced(): Promise<void> {
    // A change made in this tick reaches the feed in a microtask: let it queue its sync first.
    await Promise.resolve();
    let queue: Promise<void>;
    do {
      queue = this.#queue;
      await queue;
    } while (queue !== this.#queue);
  }

  /** Removes every entry and registers nothing more (a sync running then registers nothing). */
  stop(): void {
    this.#stopped = true;
    for (const { entry } of this.#entries.values()) entry.remove();
    this.#entries.clear();
  }

  /** One sync queued after the running one, however many changes arrive meanwhile. */
  resync(): void {
    if (this.#pending) return;
    this.#pending = true;
    this.#queue = this.#queue.then(() => {
      this.#pending = false;
      return this.#sync();
    });
  }

  async #sync(): Promise<void> {
    if (this.#stopped) return;
    try {
      const wanted = await this.wanted();
      if (!this.#stopped) this.#apply(wanted).forEach(this.report);
    } catch (error) {
      this.report(error);
    }
  }

  /** Removes what changed or went, registers what is new; returns what could not be registered. */
  #apply(wanted: ReadonlyMap<string, Wanted>): unknown[] {
    for (const [id, { signature, entry }] of this.#entries) {
      if (wanted.get(id)?.signature === signature) continue;
      entry.remove();
      this.#entries.delete(id);
    }
    const errors: unknown[] = [];
    for (const [id, { signature, register }] of wanted) {
      if (this.#entries.has(id)) continue;
      try {
        this.#entries.set(id, { signature, entry: register() });
      } catch (error) {
        errors.push(error);
      }
    }
    return errors;
  }
}

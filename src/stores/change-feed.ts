import { NOTIFICATIONS } from "../constants/index.js";

/**
 * What changed on a server: one of its lists, one resource, or one task (its record in the task
 * store: whoever is told re-reads it as its owner, so the change carries no owner).
 */
export type Change =
  | { readonly kind: "list"; readonly list: ListKind }
  | { readonly kind: "resource"; readonly uri: string }
  | { readonly kind: "task"; readonly taskId: string };

/** The lists whose changes clients are told of. */
export type ListKind = "tools" | "resources" | "prompts";

/** The notification that tells a client a list changed. */
export const LIST_CHANGED: Readonly<Record<ListKind, string>> = /* @__PURE__ */ listChanged();

// Built by a pure call: bundlers keep a top-level object's reads of NOTIFICATIONS in apps that never use it.
function listChanged(): Record<ListKind, string> {
  return {
    tools: NOTIFICATIONS.toolsListChanged,
    resources: NOTIFICATIONS.resourcesListChanged,
    prompts: NOTIFICATIONS.promptsListChanged,
  };
}

export type ChangeListener = (change: Change) => void;

/**
 * Where a server's changes go and where those who tell clients about them listen: the session era's
 * list_changed and resources/updated notifications and the stateless era's listen streams read the
 * same feed. A deployment of several processes gives every process one shared feed.
 */
export interface ChangeFeed {
  /** Tells every listener (of every process sharing the feed). */
  publish(change: Change): Promise<void>;
  /** Listens until the returned function is called. */
  subscribe(listener: ChangeListener): () => void;
}

/** The feed of one process. A listener that throws does not keep the change from the others. */
export class InMemoryChangeFeed implements ChangeFeed {
  readonly #listeners = new Set<ChangeListener>();

  get listenerCount(): number {
    return this.#listeners.size;
  }

  publish(change: Change): Promise<void> {
    const failures: unknown[] = [];
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        failures.push(error);
      }
    }
    return failures.length === 0 ? Promise.resolve() : Promise.reject(new AggregateError(failures, "A change listener failed"));
  }

  subscribe(listener: ChangeListener): () => void {
    // A wrapper per subscription: the same function subscribed twice is two subscriptions.
    const entry: ChangeListener = (change) => listener(change);
    this.#listeners.add(entry);
    return () => void this.#listeners.delete(entry);
  }
}

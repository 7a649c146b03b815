/** Stops listening; resolves once no more messages will arrive. */
export type StopListening = () => Promise<void>;

/**
 * How the instances (server processes) of a deployment send each other messages: a request relayed
 * to the instance serving its session, and that instance's reply coming back. Delivery is at most
 * once, and in order between one sender and one receiver; a message to an instance nobody listens
 * for is lost (the relay notices: it watches the instance's lease).
 */
export interface InstanceBus {
  /** Hands `onMessage` every message sent to `instance` from now on, until the returned function is called. */
  listen(instance: string, onMessage: (message: string) => void): Promise<StopListening>;
  send(instance: string, message: string): Promise<void>;
}

/**
 * The bus of one process: instances in it (several endpoints) reach each other; a message is delivered on a later turn, never during
 * `send`.
 */
export class InMemoryInstanceBus implements InstanceBus {
  readonly #listeners = new Map<string, Set<(message: string) => void>>();

  listen(instance: string, onMessage: (message: string) => void): Promise<StopListening> {
    const entry = (message: string): void => onMessage(message);
    let listeners = this.#listeners.get(instance);
    if (listeners === undefined) {
      listeners = new Set();
      this.#listeners.set(instance, listeners);
    }
    listeners.add(entry);
    return Promise.resolve(() => {
      // Only the first call removes: a second one must not drop the set of listeners that came since.
      if (listeners.delete(entry) && listeners.size === 0) this.#listeners.delete(instance);
      return Promise.resolve();
    });
  }

  send(instance: string, message: string): Promise<void> {
    const listeners = [...(this.#listeners.get(instance) ?? [])];
    // Later, in order: a sender never runs its receiver's code inside its own call, as over a network.
    queueMicrotask(() => {
      for (const listener of listeners) {
        try {
          listener(message);
        } catch {
          // A listener that throws keeps the message from no other; the relay reports its own failures.
        }
      }
    });
    return Promise.resolve();
  }
}

import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { RegisteredEntry } from "./mcp-server.types.js";

/** One registered tool, resource, template or prompt: its configuration, handler and state. */
export interface Entry<C, H> {
  readonly key: string;
  config: C;
  handler: H;
  enabled: boolean;
}

/**
 * The named things of one kind a server offers, in registration order. Every change after
 * registration calls `onChange`, which the server turns into a (debounced) list_changed.
 */
export class Registry<C, H> {
  readonly #entries = new Map<string, Entry<C, H>>();

  readonly #kind: string;
  readonly #onChange: () => void;
  /** Checks a configuration before it is registered or an update applied (throws to refuse it). */
  readonly #check: (key: string, config: C) => void;

  constructor(kind: string, onChange: () => void, check: (key: string, config: C) => void = () => undefined) {
    this.#check = check;
    this.#kind = kind;
    this.#onChange = onChange;
  }

  get size(): number {
    return this.#entries.size;
  }

  add(key: string, config: C, handler: H): RegisteredEntry<C & { handler: H }> {
    if (this.#entries.has(key))
      throw new MCPError(MCP_CODES.DUPLICATE_REGISTRATION, `A ${this.#kind} named ${JSON.stringify(key)} is already registered`);
    this.#check(key, config);
    const entry: Entry<C, H> = { key, config, handler, enabled: true };
    this.#entries.set(key, entry);
    this.#onChange();
    return this.#handle(entry);
  }

  /** The enabled entry under `key`. */
  get(key: string): Entry<C, H> | undefined {
    const entry = this.#entries.get(key);
    return entry?.enabled ? entry : undefined;
  }

  /** Enabled entries, in registration order. */
  enabled(): Entry<C, H>[] {
    const list: Entry<C, H>[] = [];
    for (const entry of this.#entries.values()) if (entry.enabled) list.push(entry);
    return list;
  }

  #handle(entry: Entry<C, H>): RegisteredEntry<C & { handler: H }> {
    const setEnabled = (enabled: boolean): void => {
      if (entry.enabled === enabled || this.#entries.get(entry.key) !== entry) return;
      entry.enabled = enabled;
      this.#onChange();
    };
    return {
      name: entry.key,
      // oxlint-disable-next-line suave/no-object-accessor -- made once per registration, not per message
      get enabled() {
        return entry.enabled;
      },
      enable: () => setEnabled(true),
      disable: () => setEnabled(false),
      update: (changes) => {
        const { handler, ...config } = changes;
        const updated = { ...entry.config, ...config };
        this.#check(entry.key, updated);
        if (handler) entry.handler = handler;
        entry.config = updated;
        this.#onChange();
      },
      remove: () => {
        if (this.#entries.get(entry.key) === entry && this.#entries.delete(entry.key)) this.#onChange();
      },
    };
  }
}

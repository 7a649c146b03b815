// mount(parent, prefix, child): the child's tools, prompts, resources and resource templates appear
// in the parent under a prefix and follow the child's changes; calls go to the child's own handlers.
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, toMCPError } from "../../error-codes/mcp-error.js";
import type { Change } from "../../stores/change-feed.js";
import type { MCPServer } from "../mcp-server/mcp-server.js";
import { prefixUri, wantedEntries, type MountScope, type Wanted } from "./mount-entries.js";
import type { MountHandle, MountOptions } from "./mount.types.js";

const NAME_SEGMENT = /^[A-Za-z0-9_.-]{1,64}$/;
const SEPARATOR = /^[A-Za-z0-9_.-]{1,8}$/;

/**
 * Puts `child`'s tools, prompts, resources and resource templates in `parent`: a tool or prompt
 * `name` as `<prefix>_<name>`, a resource `scheme://rest` as `scheme://<prefix>/rest` (templates
 * alike), each answered by the child's own handlers with the parent's request context, in either
 * era. The parent follows the child's later changes (its sessions hear list_changed) until the
 * handle's `unmount()`. Refuses (`MCP.INVALID_PARAMS`) a prefix or separator that is no name
 * segment, and a child that is the parent or shares its change feed; a name the parent already
 * has is its `MCP.DUPLICATE_REGISTRATION` (nothing of the mount stays then).
 */
export async function mount(parent: MCPServer, prefix: string, child: MCPServer, options: MountOptions = {}): Promise<MountHandle> {
  const separator = options.separator ?? "_";
  if (!NAME_SEGMENT.test(prefix)) throw new MCPError(MCP_CODES.INVALID_PARAMS, `mount: the prefix ${JSON.stringify(prefix)} is not a name segment (1 to 64 letters, digits, "_", "-" or ".")`);
  if (!SEPARATOR.test(separator)) throw new MCPError(MCP_CODES.INVALID_PARAMS, `mount: the separator ${JSON.stringify(separator)} is not 1 to 8 letters, digits, "_", "-" or "."`);
  if (child.changes === parent.changes) throw new MCPError(MCP_CODES.INVALID_PARAMS, "mount: the child must be another server than the parent, with a change feed of its own");
  const onError = options.onError ?? ((error: MCPError) => parent.options.onProtocolError?.(error, undefined));
  const mounted = new Mounted({ parent, child, prefix, separator, tools: options.tools ?? {}, statics: new Set() }, (error) => onError(toMCPError(error, MCP_CODES.INTERNAL_ERROR)));
  await mounted.start();
  return { prefix, synced: () => mounted.synced(), unmount: () => mounted.unmount() };
}

/** One mount's entries in the parent, kept in step with the child's lists. */
class Mounted {
  readonly #entries = new Map<string, { readonly signature: string; readonly entry: { remove(): void } }>();
  #queue: Promise<void> = Promise.resolve();
  #pending = false;
  #stopped = false;
  #unsubscribe: (() => void) | undefined;

  constructor(
    private readonly scope: MountScope,
    private readonly report: (error: unknown) => void,
  ) {}

  /** The first sync: what it cannot register fails the mount, and undoes it. */
  async start(): Promise<void> {
    this.#unsubscribe = this.scope.child.changes.subscribe((change) => this.#heard(change));
    const first = wantedEntries(this.scope).then((wanted) => {
      const errors = this.#apply(wanted);
      if (errors.length > 0) throw errors[0];
    });
    this.#queue = first.catch(() => undefined);
    try {
      await first;
    } catch (error) {
      this.unmount();
      throw error;
    }
  }

  async synced(): Promise<void> {
    // A change made in this tick reaches the feed in a microtask: let it queue its sync first.
    await Promise.resolve();
    let queue: Promise<void>;
    do {
      queue = this.#queue;
      await queue;
    } while (queue !== this.#queue);
  }

  unmount(): void {
    this.#stopped = true;
    this.#unsubscribe?.();
    for (const { entry } of this.#entries.values()) entry.remove();
    this.#entries.clear();
  }

  #heard(change: Change): void {
    if (change.kind === "list") return this.#resync();
    const uri = prefixUri(change.uri, this.scope.prefix);
    if (uri !== undefined) this.scope.parent.markResourceUpdated(uri).catch(this.report);
  }

  /** One sync queued after the running one, however many changes arrive meanwhile. */
  #resync(): void {
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
      const wanted = await wantedEntries(this.scope);
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

// mount(parent, prefix, child): the child's tools, prompts, resources and resource templates appear
// in the parent under a prefix and follow the child's changes; calls go to the child's own handlers.
import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, toMCPError } from "../../error-codes/mcp-error.js";
import type { Change } from "../../stores/change-feed.js";
import type { MCPServer } from "../mcp-server/mcp-server.js";
import { EntrySync } from "./entry-sync.js";
import { prefixUri, wantedEntries, type MountScope } from "./mount-entries.js";
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
  if (!NAME_SEGMENT.test(prefix))
    throw new MCPError(
      MCP_CODES.INVALID_PARAMS,
      `mount: the prefix ${JSON.stringify(prefix)} is not a name segment (1 to 64 letters, digits, "_", "-" or ".")`,
    );
  if (!SEPARATOR.test(separator))
    throw new MCPError(
      MCP_CODES.INVALID_PARAMS,
      `mount: the separator ${JSON.stringify(separator)} is not 1 to 8 letters, digits, "_", "-" or "."`,
    );
  if (child.changes === parent.changes)
    throw new MCPError(MCP_CODES.INVALID_PARAMS, "mount: the child must be another server than the parent, with a change feed of its own");
  const onError = options.onError ?? ((error: MCPError) => parent.options.onProtocolError?.(error, undefined));
  const mounted = new Mounted({ parent, child, prefix, separator, tools: options.tools ?? {}, statics: new Set() }, (error) =>
    onError(toMCPError(error, MCP_CODES.INTERNAL_ERROR)),
  );
  await mounted.start();
  return { prefix, synced: () => mounted.synced(), unmount: () => mounted.unmount() };
}

/** One mount's entries in the parent, kept in step with the child's lists. */
class Mounted {
  readonly #sync: EntrySync;
  #unsubscribe: (() => void) | undefined;

  constructor(
    private readonly scope: MountScope,
    private readonly report: (error: unknown) => void,
  ) {
    this.#sync = new EntrySync(() => wantedEntries(scope), report);
  }

  /** The first sync: what it cannot register fails the mount, and undoes it. */
  async start(): Promise<void> {
    this.#unsubscribe = this.scope.child.changes.subscribe((change) => this.#heard(change));
    try {
      await this.#sync.start();
    } catch (error) {
      this.#unsubscribe();
      throw error;
    }
  }

  synced(): Promise<void> {
    return this.#sync.synced();
  }

  unmount(): void {
    this.#unsubscribe?.();
    this.#sync.stop();
  }

  #heard(change: Change): void {
    if (change.kind === "list") return this.#sync.resync();
    // A child's tasks are not the parent's: the parent's clients never see the child's task ids.
    if (change.kind === "task") return;
    const uri = prefixUri(change.uri, this.scope.prefix);
    if (uri !== undefined) this.scope.parent.markResourceUpdated(uri).catch(this.report);
  }
}

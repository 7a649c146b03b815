import { headerParamsOf, type HeaderParam } from "../../protocol/header-params.js";
import type { Tool } from "../../schemas/schemas.js";

/**
 * The `x-mcp-header` annotations of the tools the client listed, by tool name: what a tools/call's
 * `Mcp-Param-*` headers mirror in the stateless era over HTTP. A tool whose annotations are invalid
 * cannot be called there: it is dropped from the listing, and `onDropped` says why.
 */
export class ToolHeaders {
  readonly #params = new Map<string, readonly HeaderParam[]>();

  readonly #onDropped: (name: string, reason: string) => void;

  constructor(onDropped: (name: string, reason: string) => void) {
    this.#onDropped = onDropped;
  }

  /** The tools of a listed page that can be called, their annotations kept. */
  remember(tools: readonly Tool[]): Tool[] {
    const kept: Tool[] = [];
    for (const tool of tools) {
      const found = headerParamsOf(tool.inputSchema);
      if (!found.ok) {
        this.#params.delete(tool.name);
        this.#onDropped(tool.name, found.reason);
        continue;
      }
      this.#params.set(tool.name, found.params);
      kept.push(tool);
    }
    return kept;
  }

  /** The annotations of a tool as last listed (undefined for one not listed). */
  lookup(name: string): readonly HeaderParam[] | undefined {
    return this.#params.get(name);
  }
}

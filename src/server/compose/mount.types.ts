// The types of mount(): the options that name a child's entries in its parent and change its tools, and the handle a mount returns.
import type { MCPError } from "../../error-codes/mcp-error.js";
import type { CallToolResult } from "../../schemas/schemas.js";
import type { HandlerContext } from "../mcp-server/mcp-server.types.js";

/** Calls the child's tool with these arguments (as they go to the child: nothing more is filled in or forced). */
export type ToolCall = (args: Record<string, unknown>) => Promise<CallToolResult>;

/** How one of the child's tools appears in the parent; the child's own registration is left as it is. */
export interface ToolTransform {
  /** The name under the prefix (default: the child's name): `<prefix><separator><name>`. */
  readonly name?: string;
  /** Leaves the tool out of the parent (it is neither listed nor callable there). */
  readonly hidden?: boolean;
  /** Replaces the description the child gives. */
  readonly description?: string;
  /** Arguments always sent with these values; they are removed from the advertised input schema. */
  readonly fixed?: Readonly<Record<string, unknown>>;
  /** Arguments filled in when the caller leaves them out; advertised as optional, with their `default`. */
  readonly defaults?: Readonly<Record<string, unknown>>;
  /** Runs in place of the call: `call(args)` reaches the child; `args` already hold the defaults and fixed values. */
  readonly wrap?: (call: ToolCall, args: Record<string, unknown>, context: HandlerContext) => Promise<CallToolResult>;
}

export interface MountOptions {
  /** Between the prefix and a tool, prompt or template name (default "_"). */
  readonly separator?: string;
  /** Transforms of the child's tools, by the child's names. */
  readonly tools?: Readonly<Record<string, ToolTransform>>;
  /**
   * Told when a later sync cannot put an entry in the parent (a name the parent has taken since) or
   * cannot list the child. Default: the parent's `onProtocolError`.
   */
  readonly onError?: (error: MCPError) => void;
}

/** A mounted child: its entries are in the parent and follow the child's changes until `unmount()`. */
export interface MountHandle {
  readonly prefix: string;
  /** Resolves once the syncs the child's changes have asked for so far are done. */
  synced(): Promise<void>;
  /** Removes every entry this mount put in the parent and stops following the child. */
  unmount(): void;
}

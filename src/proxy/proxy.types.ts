// The types of proxy(): the options that shape the proxy's server and names, and the handle it returns.
import type { MCPError } from "../error-codes/mcp-error.js";
import type { Implementation } from "../schemas/schemas.js";
import type { MCPServer } from "../server/mcp-server/mcp-server.js";
import type { MCPServerOptions } from "../server/mcp-server/mcp-server.types.js";

export interface ProxyOptions {
  /** The server the upstream's entries go in (default: a new MCPServer named after the upstream). */
  readonly server?: MCPServer;
  /** The new server's info (default: the upstream's `serverInfo`); not used with `server`. */
  readonly serverInfo?: Implementation;
  /** The new server's options (default: the upstream's `instructions`); not used with `server`. */
  readonly serverOptions?: MCPServerOptions;
  /** Tool, prompt and template names become `<prefix><separator><name>` (default: no prefix). */
  readonly prefix?: string;
  /** Between the prefix and a name (default "_"). */
  readonly separator?: string;
  /** How errors name the upstream (default: its `serverInfo.name`). */
  readonly upstreamName?: string;
  /** Told when a later re-listing of the upstream fails or cannot register an entry. Default: the server's `onProtocolError`. */
  readonly onError?: (error: MCPError) => void;
}

/** A running proxy: the server holds the upstream's entries and follows its changes until `close()`. */
export interface ProxyHandle {
  readonly server: MCPServer;
  /** Resolves once the re-listings the upstream's list changes have asked for so far are done. */
  synced(): Promise<void>;
  /** Stops following the upstream, removes the entries, and closes the upstream client and the server created for the proxy. */
  close(): Promise<void>;
}

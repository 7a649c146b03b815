import type { MCPError } from "../../error-codes/mcp-error.js";
import type {
  Implementation,
  LoggingMessageNotificationParams,
  NotificationParams,
  ResourceUpdatedNotificationParams,
} from "../../schemas/schemas.js";
import type { FallbackHttpOptions } from "../../transport/http-client/http-fallback.js";
import type { Transport } from "../../transport/transport/transport.types.js";
import type { MCPClientOptions } from "../mcp-client/mcp-client.types.js";
import type { ServerEntry } from "./servers-config.js";

/**
 * The transport to reach one server of the group by: a `Transport`, or `undefined` for the group's
 * own (HTTP entries: Streamable HTTP with the HTTP+SSE fallback; a stdio entry has none).
 * `stdioTransportFor()` of `@suaveplan/mcp/node` starts stdio servers as child processes.
 */
export type TransportFor = (server: string, entry: ServerEntry) => Transport | undefined | Promise<Transport | undefined>;

export interface MCPClientGroupOptions {
  readonly clientInfo: Implementation;
  /** Given to each server's `MCPClient` (the era is `"auto"` unless they say otherwise). */
  readonly clientOptions?: MCPClientOptions;
  /** How to reach a server; see `TransportFor`. Without it, only HTTP entries connect. */
  readonly transportFor?: TransportFor;
  /** Options of the HTTP transports the group makes (`fetchImpl`, …); an entry's `headers` replace `headers`. */
  readonly http?: Omit<FallbackHttpOptions, "sseUrl">;
  /** Between a server's name and a tool's or prompt's in merged names (default `"__"`). */
  readonly separator?: string;
  /** How long one server may take to start and connect (default 30 000 ms). */
  readonly connectTimeoutMs?: number;
}

/** What `connect()` came to: the servers connected, and why each of the others did not. */
export interface GroupConnectResult {
  readonly connected: readonly string[];
  readonly failures: ReadonlyMap<string, MCPError>;
}

/** Where a merged tool or prompt came from, under `_meta["suaveplan/group"]`. */
export interface GroupOrigin {
  readonly server: string;
  /** The name the server gave (tools, prompts) or the resource's own name. */
  readonly name: string;
}

interface FromServer<P> {
  readonly server: string;
  readonly params: P;
}

/** What `group.on(event, listener)` can listen to. */
export interface MCPClientGroupEventMap {
  /** A server could not start or connect (also in `failures`). */
  serverFailed: { readonly server: string; readonly error: MCPError };
  /** A connected server's connection closed without `group.close()`: it left the merged lists. */
  serverClosed: { readonly server: string; readonly error: MCPError };
  /** A server failed to list while the others were merged (its items are left out of that list). */
  listFailed: { readonly server: string; readonly error: MCPError };
  toolsListChanged: FromServer<NotificationParams | undefined>;
  resourcesListChanged: FromServer<NotificationParams | undefined>;
  promptsListChanged: FromServer<NotificationParams | undefined>;
  resourceUpdated: FromServer<ResourceUpdatedNotificationParams>;
  log: FromServer<LoggingMessageNotificationParams>;
}

/** The group events that are a server's own, forwarded with its name. */
export type ForwardedEvent = "toolsListChanged" | "resourcesListChanged" | "promptsListChanged" | "resourceUpdated" | "log";

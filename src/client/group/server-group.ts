import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError, toMCPError } from "../../error-codes/mcp-error.js";
import { EventBus } from "../../events/events.js";
import type { CallToolResult, GetPromptResult, Prompt, ReadResourceResult, Resource, Tool } from "../../schemas/schemas.js";
import type { JsonObject } from "../../types/types.js";
import { withFields } from "../../types/objects.js";
import { MCPClient } from "../mcp-client/mcp-client.js";
import type { CallOptions } from "../mcp-client/mcp-client.types.js";
import type { ForwardedEvent, GroupConnectResult, GroupOrigin, MCPClientGroupEventMap, MCPClientGroupOptions } from "./group.types.js";
import { checkServerNames, mergedName, routeName } from "./names.js";
import { openServer } from "./open-server.js";
import { parseServersConfig, type ServerEntry } from "./servers-config.js";

/** Where a merged item's origin is kept: `item._meta["suaveplan/group"]`. */
export const GROUP_META_KEY = "suaveplan/group";

// Literals, not imported constants: nothing is read at load time by an app that never builds a group.
const FORWARDED: ReadonlySet<string> = /* @__PURE__ */ new Set([
  "toolsListChanged",
  "resourcesListChanged",
  "promptsListChanged",
  "resourceUpdated",
  "log",
]);

type Capability = "tools" | "prompts" | "resources";

/**
 * One client over the servers of an `mcpServers` configuration: each server gets its own
 * `MCPClient`; tools and prompts are merged under `<server><separator><name>` and routed back by
 * that prefix, resources are routed by the URI listed. A server that fails to connect, or whose
 * connection closes later, is left out (and said so) while the others go on.
 */
export class MCPClientGroup {
  readonly #entries: ReadonlyMap<string, ServerEntry>;
  readonly #options: MCPClientGroupOptions;
  readonly #separator: string;
  /** The connected servers' clients. */
  readonly #clients = new Map<string, MCPClient>();
  /** Clients still connecting (closed by `close()`). */
  readonly #starting = new Set<MCPClient>();
  readonly #failures = new Map<string, MCPError>();
  readonly #listeners = new EventBus<MCPClientGroupEventMap>();
  readonly #forwarded = new Set<ForwardedEvent>();
  /** The server of each URI the last `listResources()` gave (the first server to list it). */
  #resourceRoutes = new Map<string, string>();
  #connecting: Promise<GroupConnectResult> | undefined;
  #closing: Promise<void> | undefined;
  /** Set as `close()` starts, before it closes anything (a close event it causes is not a server lost). */
  #closed = false;

  /** Validates `config` (`parseServersConfig`) and the names; refuses what is wrong with `MCP.INVALID_PARAMS`. */
  constructor(config: unknown, options: MCPClientGroupOptions) {
    this.#entries = parseServersConfig(config);
    this.#separator = options.separator ?? "__";
    checkServerNames([...this.#entries.keys()], this.#separator);
    this.#options = options;
  }

  /** Every server of the configuration, in its order. */
  get servers(): string[] {
    return [...this.#entries.keys()];
  }

  /** The servers connected now, in the configuration's order. */
  get connected(): string[] {
    return this.servers.filter((server) => this.#clients.has(server));
  }

  /** Why each server that is not connected is not: it failed to connect, or its connection closed. */
  get failures(): ReadonlyMap<string, MCPError> {
    return this.#failures;
  }

  /** The validated entry of `server`. */
  entry(server: string): ServerEntry | undefined {
    return this.#entries.get(server);
  }

  /** The client of a connected server, for what the group does not merge (templates, completions, subscriptions…). */
  client(server: string): MCPClient | undefined {
    return this.#clients.get(server);
  }

  /** Connects every server at once; resolves when each has connected or failed (once; later calls give the same). */
  connect(): Promise<GroupConnectResult> {
    if (this.#closed) return Promise.reject(new MCPError(MCP_CODES.TRANSPORT_CLOSED, "This group of MCP servers is closed"));
    this.#connecting ??= this.#connectAll();
    return this.#connecting;
  }

  /** Every connected server's tools (all pages), named `<server><separator><tool>`. */
  async listTools(options?: CallOptions): Promise<Tool[]> {
    const lists = await this.#gather("tools", (client) => client.listAllTools(options));
    return lists.flatMap(([server, tools]) => tools.map((tool) => this.#merged(server, tool)));
  }

  /** Calls `<server><separator><tool>` on its server by the tool's own name. */
  async callTool(name: string, args?: JsonObject, options?: CallOptions): Promise<CallToolResult> {
    const route = this.#route("tool", name);
    return this.#call(route.server, (client) => client.callTool(route.name, args, options));
  }

  /** Every connected server's prompts (all pages), named `<server><separator><prompt>`. */
  async listPrompts(options?: CallOptions): Promise<Prompt[]> {
    const lists = await this.#gather("prompts", (client) => client.listAllPrompts(options));
    return lists.flatMap(([server, prompts]) => prompts.map((prompt) => this.#merged(server, prompt)));
  }

  async getPrompt(name: string, args?: Readonly<Record<string, string>>, options?: CallOptions): Promise<GetPromptResult> {
    const route = this.#route("prompt", name);
    return this.#call(route.server, (client) => client.getPrompt(route.name, args, options));
  }

  /**
   * Every connected server's resources (all pages), URIs as listed, each tagged with its server in
   * `_meta`. A URI listed by two servers is routed to the first in the configuration's order.
   */
  async listResources(options?: CallOptions): Promise<Resource[]> {
    const lists = await this.#gather("resources", (client) => client.listAllResources(options));
    const routes = new Map<string, string>();
    const merged: Resource[] = [];
    for (const [server, resources] of lists) {
      for (const resource of resources) {
        if (!routes.has(resource.uri)) routes.set(resource.uri, server);
        merged.push(
          withFields(resource, {
            _meta: withFields(resource["_meta"], { [GROUP_META_KEY]: { server, name: resource.name } satisfies GroupOrigin }),
          }),
        );
      }
    }
    this.#resourceRoutes = routes;
    return merged;
  }

  /** Reads `uri` from the server that listed it (the resources are listed first if no listing has it). */
  async readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    if (!this.#resourceRoutes.has(uri)) await this.listResources(options);
    const server = this.#resourceRoutes.get(uri);
    if (server === undefined)
      throw new MCPError(MCP_CODES.NOT_FOUND, `No MCP server of the group lists the resource "${uri}"`, { data: { uri } });
    return this.#call(server, (client) => client.readResource(uri, options));
  }

  /** Calls `listener` on each `event` until the returned function is called; a server's own events carry its name. */
  on<E extends keyof MCPClientGroupEventMap>(event: E, listener: (payload: MCPClientGroupEventMap[E]) => void): () => void {
    if (FORWARDED.has(event) && !this.#forwarded.has(event as ForwardedEvent)) {
      this.#forwarded.add(event as ForwardedEvent);
      for (const [server, client] of this.#clients) this.#forward(server, client, event as ForwardedEvent);
    }
    return this.#listeners.on(event, listener);
  }

  /** Closes every server's client (children stopped), those still connecting too; once. */
  close(): Promise<void> {
    this.#closed = true;
    this.#closing ??= this.#closeAll();
    return this.#closing;
  }

  // ---- Internals ----

  async #connectAll(): Promise<GroupConnectResult> {
    await Promise.all([...this.#entries].map(([server, entry]) => this.#connectOne(server, entry)));
    return { connected: this.connected, failures: new Map(this.#failures) };
  }

  async #connectOne(server: string, entry: ServerEntry): Promise<void> {
    const client = new MCPClient(this.#options.clientInfo, this.#options.clientOptions);
    this.#starting.add(client);
    try {
      await openServer(client, server, entry, this.#options);
    } catch (error) {
      this.#fail(server, error as MCPError);
      return;
    } finally {
      this.#starting.delete(client);
    }
    // Connected while the group was closing: close() closes it after the connections settle.
    this.#clients.set(server, client);
    client.on("close", ({ error }) => this.#lost(server, client, error));
    for (const event of this.#forwarded) this.#forward(server, client, event);
    // The connection may have closed before the listener was there.
    if (!client.connected) this.#lost(server, client, undefined);
  }

  #fail(server: string, error: MCPError): void {
    this.#failures.set(server, error);
    this.#listeners.emit("serverFailed", { server, error });
  }

  /** A connected server's connection closed without `close()`: it leaves the group. */
  #lost(server: string, client: MCPClient, cause: MCPError | undefined): void {
    if (this.#closed || this.#clients.get(server) !== client) return;
    this.#clients.delete(server);
    const error = new MCPError(
      MCP_CODES.TRANSPORT_CLOSED,
      `MCP server "${server}" closed its connection${cause ? `: ${cause.message}` : ""}`,
      { cause, data: { server } },
    );
    this.#failures.set(server, error);
    this.#listeners.emit("serverClosed", { server, error });
  }

  #forward(server: string, client: MCPClient, event: ForwardedEvent): void {
    client.on(event, (params: unknown) => this.#listeners.emit(event, { server, params } as never));
  }

  /**
   * The lists of the connected servers that declare `capability`, in the configuration's order; one that fails is left out and reported.
   */
  async #gather<T>(capability: Capability, list: (client: MCPClient) => Promise<T[]>): Promise<Array<[string, T[]]>> {
    const live = this.connected
      .map((server) => [server, this.#clients.get(server) as MCPClient] as const)
      .filter(([, client]) => client.serverCapabilities?.[capability] !== undefined);
    const settled = await Promise.allSettled(live.map(([, client]) => list(client)));
    const lists: Array<[string, T[]]> = [];
    settled.forEach((outcome, index) => {
      const [server, client] = live[index] as readonly [string, MCPClient];
      if (outcome.status === "fulfilled") lists.push([server, outcome.value]);
      else this.#listeners.emit("listFailed", { server, error: this.#named(server, client, outcome.reason) });
    });
    return lists;
  }

  #merged<T extends { readonly name: string; readonly _meta?: Record<string, unknown> | undefined }>(server: string, item: T): T {
    const origin: GroupOrigin = { server, name: item.name };
    return withFields(item, {
      name: mergedName(server, item.name, this.#separator),
      _meta: withFields(item["_meta"], { [GROUP_META_KEY]: origin }),
    }) as unknown as T;
  }

  #route(kind: "tool" | "prompt", merged: string): { server: string; name: string } {
    const route = routeName(merged, this.#entries.keys(), this.#separator);
    if (route !== undefined) return route;
    throw new MCPError(
      MCP_CODES.NOT_FOUND,
      `No MCP server of the group has the ${kind} "${merged}": ` +
        `merged names are <server>${this.#separator}<${kind}> with a server among ${this.servers.join(", ")}`,
      { data: { name: merged } },
    );
  }

  async #call<T>(server: string, run: (client: MCPClient) => Promise<T>): Promise<T> {
    const client = this.#clientOf(server);
    try {
      return await run(client);
    } catch (error) {
      throw this.#named(server, client, error);
    }
  }

  #clientOf(server: string): MCPClient {
    const client = this.#clients.get(server);
    if (client !== undefined) return client;
    const failure = this.#failures.get(server);
    const why = failure?.message ?? (this.#closed ? "the group is closed" : "call connect() first");
    throw new MCPError(MCP_CODES.TRANSPORT_CLOSED, `MCP server "${server}" is not connected: ${why}`, { cause: failure, data: { server } });
  }

  /** A failure because the server's connection is gone says so, naming the server; any other is the server's own. */
  #named(server: string, client: MCPClient, thrown: unknown): MCPError {
    const error = toMCPError(thrown, MCP_CODES.TRANSPORT_ERROR);
    if (client.connected && error.code !== MCP_CODES.TRANSPORT_CLOSED) return error;
    return new MCPError(MCP_CODES.TRANSPORT_CLOSED, `MCP server "${server}" is gone: ${error.message}`, { cause: error, data: { server } });
  }

  async #closeAll(): Promise<void> {
    await closeEach([...this.#clients.values(), ...this.#starting]);
    // A client closed while connecting fails, and its server stops what it started; one that made it in between is closed now.
    await this.#connecting;
    await closeEach([...this.#clients.values()]);
    this.#clients.clear();
  }
}

async function closeEach(clients: readonly MCPClient[]): Promise<void> {
  await Promise.allSettled(clients.map((client) => client.close()));
}

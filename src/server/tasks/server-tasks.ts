import { MCP_CODES } from "../../error-codes/error-codes.js";
import { MCPError } from "../../error-codes/mcp-error.js";
import type { RevisionProfile } from "../../protocol/profiles.js";
import type { ServerCapabilities } from "../../schemas/schemas.js";
import { InMemoryTaskStore } from "../../stores/in-memory-task-store.js";
import type { TaskStore } from "../../stores/task-store.js";
import type { InboundContext } from "../../transport/transport/transport.types.js";
import type { JsonObject } from "../../types/types.js";
import { tokenOwner } from "../../auth/server/token-owner.js";
import type { TaskCall, TaskHost, TaskSupport, TaskWatcher } from "../core/task-support.js";
import type { HandlerContext, SessionHandle } from "../mcp-server/mcp-server.types.js";
import type { FeatureHandler } from "../mcp-server/server-host.js";
import { CoreTasks } from "./core-tasks.js";
import { ExtensionTasks } from "./extension-tasks.js";
import { TaskEngine } from "./task-engine.js";
import { taskOwner } from "./task-owner.js";
import type { TaskMethod, TaskSettings, TaskSurface, TaskSurfaceHost } from "./task-surface.js";

export interface ServerTasksOptions {
  /** Where tasks live (default: this process's memory). Processes that serve one deployment share one, with one change feed. */
  readonly store?: TaskStore;
  /** How long a task is kept from creation when neither its client nor its tool says (default one hour). */
  readonly defaultTtlMs?: number;
  /**
   * The longest a task is kept (default one day): a longer request is shortened. `null`: no bound, and a client may ask to keep a task
   * until deleted.
   */
  readonly maxTtlMs?: number | null;
  /** How often clients should poll (default one second); also the most often a task's status message is written. */
  readonly pollIntervalMs?: number;
  /** How long `close()` waits for aborted tasks to settle (default five seconds). */
  readonly closeGraceMs?: number;
  /**
   * The principal a request's tasks belong to (default: the token's issuer, subject and client when
   * the transport authenticated one, else the server's `principalOf`). Without one, a session's
   * tasks belong to the session, and stateless requests share one anonymous owner.
   */
  readonly ownerOf?: (inbound: InboundContext | undefined) => string | undefined;
  /** A background write failed (the store, the feed): reported here, never thrown. */
  readonly onError?: (error: unknown) => void;
}

const METHODS_OF_TASKS = ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel", "tasks/update"] as const;

/**
 * Tasks for an MCPServer (`new MCPServer(info, { tasks: serverTasks() })`): tools that declare
 * `execution.taskSupport` may then run detached from the request that started them, in both eras.
 */
export function serverTasks(options: ServerTasksOptions = {}): TaskSupport {
  return new ServerTasks(options);
}

class ServerTasks implements TaskSupport {
  #engine: TaskEngine | undefined;
  #core: CoreTasks | undefined;
  #extension: ExtensionTasks | undefined;

  constructor(private readonly options: ServerTasksOptions) {}

  attach(host: TaskHost): void {
    if (this.#engine) throw new MCPError(MCP_CODES.INVALID_PARAMS, "serverTasks() serves one server: give each server its own");
    const {
      store = new InMemoryTaskStore(),
      defaultTtlMs = 3_600_000,
      maxTtlMs = 86_400_000,
      pollIntervalMs = 1_000,
      closeGraceMs,
      onError,
    } = this.options;
    const engine = new TaskEngine({
      store,
      feed: host.changes,
      defaultTtlMs,
      maxTtlMs,
      pollIntervalMs,
      ...(closeGraceMs === undefined ? {} : { closeGraceMs }),
      ...(onError ? { onError } : {}),
    });
    const settings: TaskSettings = { defaultTtlMs, maxTtlMs, pollIntervalMs };
    const shared: TaskSurfaceHost = { engine, server: host, settings, ownerOf: (context) => this.#ownerOf(host, context) };
    this.#engine = engine;
    this.#core = new CoreTasks(shared);
    this.#extension = new ExtensionTasks(shared);
  }

  callTool(call: TaskCall, context: HandlerContext, profile: RevisionProfile): Promise<JsonObject> | undefined {
    return this.#surface(profile)?.callTool(call, context, profile);
  }

  methods(): ReadonlyMap<string, FeatureHandler> {
    // The revision's codec admits only its own tasks methods (-32601 for the others, before any handler):
    // a request that gets here has a surface, and the surface has the method.
    const handler =
      (method: string): FeatureHandler =>
      (params, context, profile) =>
        ((this.#surface(profile) as TaskSurface).methods.get(method) as TaskMethod)(params, context, profile);
    return new Map(METHODS_OF_TASKS.map((method) => [method, handler(method)]));
  }

  capabilities(profile: RevisionProfile, declared: ServerCapabilities): ServerCapabilities {
    return this.#surface(profile)?.capabilities(declared) ?? declared;
  }

  watch(taskIds: readonly string[], context: HandlerContext): Promise<TaskWatcher> {
    // Only the stateless era listens, and only the tasks extension's revision has taskIds in its listen filter.
    return (this.#extension as ExtensionTasks).watch(taskIds, context);
  }

  sessionClosed(session: SessionHandle): void {
    this.#core?.sessionClosed(session);
  }

  async close(): Promise<void> {
    await this.#engine?.close();
  }

  #surface(profile: RevisionProfile): TaskSurface | undefined {
    return profile.tasks === "core" ? this.#core : profile.tasks === "extension" ? this.#extension : undefined;
  }

  /** The owner of a request's tasks: its principal, else its session, else the anonymous owner (hashed: nothing token-like is stored). */
  #ownerOf(host: TaskHost, context: HandlerContext): Promise<string> {
    const inbound = context.inbound;
    const own = this.options.ownerOf;
    // A token's issuer, subject and client stay the same when it is refreshed; the whole authInfo (with its expiry) does not.
    const principal = own ? own(inbound) : (tokenPrincipal(inbound?.authInfo) ?? host.principalOf(inbound));
    return taskOwner(principal, context.session?.id);
  }
}

function tokenPrincipal(authInfo: unknown): string | undefined {
  return typeof authInfo === "object" && authInfo !== null && typeof (authInfo as { subject?: unknown }).subject === "string"
    ? tokenOwner(authInfo)
    : undefined;
}

import type { RevisionProfile } from "../../protocol/profiles.js";
import type { ServerCapabilities } from "../../schemas/schemas.js";
import type { JsonObject } from "../../types/types.js";
import type { TaskCall } from "../core/task-support.js";
import type { HandlerContext, SessionHandle } from "../mcp-server/mcp-server.types.js";
import type { TaskMethod, TaskSurface, TaskSurfaceHost } from "./task-surface.js";

/** Tasks as clients of 2025-11-25 (the core protocol's tasks) see them. (Scaffold: being written.) */
export class CoreTasks implements TaskSurface {
  readonly methods: ReadonlyMap<string, TaskMethod> = new Map();

  constructor(readonly host: TaskSurfaceHost) {}

  callTool(_call: TaskCall, _context: HandlerContext, _profile: RevisionProfile): Promise<JsonObject> | undefined {
    return undefined;
  }

  /** The session's own tasks (no principal: owned by the session) end with it. */
  sessionClosed(_session: SessionHandle): void {}

  capabilities(declared: ServerCapabilities): ServerCapabilities {
    return declared;
  }
}

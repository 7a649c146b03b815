import type { RevisionProfile } from "../../protocol/profiles.js";
import type { ServerCapabilities } from "../../schemas/schemas.js";
import type { JsonObject } from "../../types/types.js";
import type { TaskCall } from "../core/task-support.js";
import type { HandlerContext } from "../mcp-server/mcp-server.types.js";
import type { TaskMethod, TaskSurface, TaskSurfaceHost } from "./task-surface.js";

/** Tasks as clients of 2026-07-28 (the tasks extension) see them. (Scaffold: being written.) */
export class ExtensionTasks implements TaskSurface {
  readonly methods: ReadonlyMap<string, TaskMethod> = new Map();

  constructor(readonly host: TaskSurfaceHost) {}

  callTool(_call: TaskCall, _context: HandlerContext, _profile: RevisionProfile): Promise<JsonObject> | undefined {
    return undefined;
  }

  capabilities(declared: ServerCapabilities): ServerCapabilities {
    return declared;
  }
}

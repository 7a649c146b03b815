import { isFinalTaskStatus } from "../../stores/task-store.js";
import type { JsonObject } from "../../types/types.js";
import type { SessionHandle } from "../mcp-server/mcp-server.types.js";
import type { ServerSession } from "../mcp-server/session.js";
import { taskView } from "./core-task-view.js";
import type { TaskSurfaceHost } from "./task-surface.js";

interface Watched {
  readonly owner: string;
  readonly sessions: Set<ServerSession>;
  /** The version last told: a change read twice (two changes close together) is told once. */
  version: number;
}

/**
 * 2025-11-25's optional `notifications/tasks/status`: the sessions that created or polled a task are
 * told of each change of it (its `Task`, without related-task `_meta`) until it is terminal. A watch
 * ends with the task or the session; the feed is listened to only while something is watched.
 */
export class TaskStatusWatch {
  readonly #watched = new Map<string, Watched>();
  #unsubscribe: (() => void) | undefined;

  constructor(private readonly host: TaskSurfaceHost) {}

  add(session: ServerSession, owner: string, taskId: string): void {
    let watched = this.#watched.get(taskId);
    if (watched === undefined) this.#watched.set(taskId, (watched = { owner, sessions: new Set(), version: 0 }));
    watched.sessions.add(session);
    this.#unsubscribe ??= this.host.server.changes.subscribe((change) => {
      if (change.kind === "task") this.#changed(change.taskId);
    });
  }

  sessionClosed(session: SessionHandle): void {
    for (const [taskId, { sessions }] of this.#watched)
      if (sessions.delete(session as ServerSession) && sessions.size === 0) this.#drop(taskId);
  }

  #changed(taskId: string): void {
    const watched = this.#watched.get(taskId);
    if (watched !== undefined) this.#tell(taskId, watched).catch((error: unknown) => this.host.engine.options.onError?.(error));
  }

  async #tell(taskId: string, watched: Watched): Promise<void> {
    const task = await this.host.engine.get(watched.owner, taskId);
    if (task === undefined || isFinalTaskStatus(task.status)) this.#drop(taskId);
    if (task === undefined || task.version <= watched.version) return;
    watched.version = task.version;
    const view = taskView(task) as unknown as JsonObject;
    await Promise.all([...watched.sessions].map((session) => session.notifyApart("notifications/tasks/status", view)));
  }

  #drop(taskId: string): void {
    this.#watched.delete(taskId);
    if (this.#watched.size > 0) return;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }
}

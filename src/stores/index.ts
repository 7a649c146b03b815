// The task store's seam; the change feed and the request-state keys are exported with MCPServer.
export { InMemoryTaskStore, type InMemoryTaskStoreOptions } from "./in-memory-task-store.js";
export type {
  NewTask,
  TaskError,
  TaskInfo,
  TaskPage,
  TaskPageRequest,
  TaskPatch,
  TaskPrecondition,
  TaskRecord,
  TaskRequest,
  TaskStore,
  TaskUpdateOutcome,
} from "./task-store.js";
export {
  InMemorySessionDirectory,
  type LeaseRenewal,
  type SessionDirectory,
  type SessionRecord,
  type SessionState,
} from "./session-directory.js";
export { InMemoryInstanceBus, type InstanceBus, type StopListening } from "./instance-bus.js";

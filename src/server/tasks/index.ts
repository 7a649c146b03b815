// Tasks for MCPServer (`serverTasks()`); apps that do not use them carry none of it.
export { serverTasks, type ServerTasksOptions } from "./server-tasks.js";
export type { TaskCall, TaskHost, TaskScope, TaskSupport, TaskSupportLevel, TaskWatcher, ToolTaskConfig } from "../core/task-support.js";
export { TaskEngine, type AnswerCheck, type StartTask, type TaskEngineOptions, type TaskOutcome, type TaskRun } from "./task-engine.js";

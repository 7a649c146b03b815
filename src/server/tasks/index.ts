// Tasks for MCPServer (`serverTasks()`); apps that do not use them carry none of it.
export type { TaskCall, TaskHost, TaskScope, TaskSupport, TaskSupportLevel, ToolTaskConfig } from "../core/task-support.js";
export { TaskEngine, type AnswerCheck, type StartTask, type TaskEngineOptions, type TaskOutcome, type TaskRun } from "./task-engine.js";

// Tasks for MCPServer (`new MCPServer(info, { tasks: serverTasks() })`); apps that do not use them carry none of it.
export { serverTasks, type ServerTasksOptions } from "./server-tasks.js";

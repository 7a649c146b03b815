// The feature methods both sides' layers see, with their params and results: what a client sends and
// a server serves of tools, resources, prompts, completion and tasks.
import type {
  CallToolRequestParams,
  CallToolResult,
  CancelTaskRequestParams,
  CancelTaskResult,
  ExtensionGetTaskResult,
  GetTaskPayloadRequestParams,
  GetTaskRequestParams,
  GetTaskResult,
  ListTasksResult,
  UpdateTaskRequestParams,
  CompleteRequestParams,
  CompleteResult,
  GetPromptRequestParams,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  PaginatedRequestParams,
  ReadResourceRequestParams,
  ReadResourceResult,
} from "../schemas/schemas.js";
import type { JsonObject } from "../types/types.js";

export interface FeatureMethods {
  "tools/list": { params: PaginatedRequestParams | undefined; result: ListToolsResult };
  "tools/call": { params: CallToolRequestParams; result: CallToolResult };
  "resources/list": { params: PaginatedRequestParams | undefined; result: ListResourcesResult };
  "resources/templates/list": { params: PaginatedRequestParams | undefined; result: ListResourceTemplatesResult };
  "resources/read": { params: ReadResourceRequestParams; result: ReadResourceResult };
  "prompts/list": { params: PaginatedRequestParams | undefined; result: ListPromptsResult };
  "prompts/get": { params: GetPromptRequestParams; result: GetPromptResult };
  "completion/complete": { params: CompleteRequestParams; result: CompleteResult };
  // Tasks: the core protocol's (2025-11-25) and the tasks extension's (2026-07-28), each where its revision has it.
  "tasks/get": { params: GetTaskRequestParams; result: GetTaskResult | ExtensionGetTaskResult };
  "tasks/result": { params: GetTaskPayloadRequestParams; result: JsonObject };
  "tasks/list": { params: PaginatedRequestParams | undefined; result: ListTasksResult };
  "tasks/cancel": { params: CancelTaskRequestParams; result: CancelTaskResult | JsonObject };
  "tasks/update": { params: UpdateTaskRequestParams; result: JsonObject };
}

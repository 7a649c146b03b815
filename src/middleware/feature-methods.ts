// The feature methods both sides' layers see, with their params and results: what a client sends and
// a server serves of tools, resources, prompts and completion.
import type {
  CallToolRequestParams,
  CallToolResult,
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

export interface FeatureMethods {
  "tools/list": { params: PaginatedRequestParams | undefined; result: ListToolsResult };
  "tools/call": { params: CallToolRequestParams; result: CallToolResult };
  "resources/list": { params: PaginatedRequestParams | undefined; result: ListResourcesResult };
  "resources/templates/list": { params: PaginatedRequestParams | undefined; result: ListResourceTemplatesResult };
  "resources/read": { params: ReadResourceRequestParams; result: ReadResourceResult };
  "prompts/list": { params: PaginatedRequestParams | undefined; result: ListPromptsResult };
  "prompts/get": { params: GetPromptRequestParams; result: GetPromptResult };
  "completion/complete": { params: CompleteRequestParams; result: CompleteResult };
}

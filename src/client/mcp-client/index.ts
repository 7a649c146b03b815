export { MCPClient } from "./mcp-client.js";
export { urlElicitationsRequired } from "./elicitation.js";
export type * from "./mcp-client.types.js";
export { ResponseCache, type ResponseCacheOptions } from "./response-cache.js";
export type * from "../tasks/tasks.types.js";

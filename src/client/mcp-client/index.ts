export { MCPClient } from "./mcp-client.js";
export { urlElicitationsRequired } from "./elicitation.js";
export type * from "./mcp-client.types.js";

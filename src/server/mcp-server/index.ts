export { MCPServer } from "./mcp-server.js";
export { ServerSession, type ClientCallOptions, type ListKind } from "./session.js";
export { SessionHandlerContext } from "./handler-context.js";
export { SERVER_REVISION_RULES, type ServerRevisionRules } from "./revision-rules.js";
export type * from "./mcp-server.types.js";
export { urlElicitationRequired } from "./url-elicitation.js";

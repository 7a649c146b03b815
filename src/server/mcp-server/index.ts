export { MCPServer } from "./mcp-server.js";
export { ServerSession, type ClientCallOptions, type ListKind } from "./session.js";
export { SessionHandlerContext } from "./handler-context.js";
export type * from "./mcp-server.types.js";
export { urlElicitationRequired } from "./url-elicitation.js";

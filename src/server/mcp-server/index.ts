export { MCPServer } from "./mcp-server.js";
export { ServerSession, type ClientCallOptions } from "./session.js";
export { InMemoryChangeFeed, type Change, type ChangeFeed, type ChangeListener, type ListKind } from "../../stores/change-feed.js";
export {
  InMemoryRequestStateKeys,
  staticRequestStateKeys,
  type RequestStateKey,
  type RequestStateKeys,
} from "../../stores/request-state-keys.js";
export type { RequestChannel } from "../stateless/stateless-context.js";
export type { StatelessAnswer } from "../stateless/stateless-requests.js";
export { SessionHandlerContext } from "./handler-context.js";
export type * from "./mcp-server.types.js";
export { urlElicitationRequired } from "./url-elicitation.js";

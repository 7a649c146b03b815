export { GROUP_META_KEY, MCPClientGroup } from "./server-group.js";
export { parseServersConfig, type HttpServerEntry, type ServerEntry, type ServersConfig, type StdioServerEntry } from "./servers-config.js";
export type * from "./group.types.js";

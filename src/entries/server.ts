// `@suaveplan/mcp/server`: `MCPServer` and what it serves over any transport (its features, tasks,
// mounting, middleware, the in-memory and stdio transports), none of the client's code and none of
// the HTTP handlers (`@suaveplan/mcp/http-server`). A process loads only this side: a stdio server
// starts faster than on the universal entry, which exports all of it too (the same objects).
export * from "./common.js";
export * from "../uri-template/index.js";
export * from "../json-schema/index.js";
export * from "../server/mcp-server/index.js";
export * from "../stores/index.js";
export * from "../server/tasks/index.js";
export * from "../middleware/index.js";
export * from "../server/compose/index.js";

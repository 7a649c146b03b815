// The universal entry: runs on Node, Bun, Deno, browsers and edge workers; imports no node:* module.
export * from "./constants/index.js";
export type * from "./types/types.js";
export * from "./error-codes/index.js";
// The protocol's types; the zod schemas themselves are `@suaveplan/mcp/schemas` (the library's own wire checks need no zod: src/wire/).
export type * from "./schemas/schemas.js";
export * from "./events/events.js";
// The OpenTelemetry glue (`Telemetry`) is `@suaveplan/mcp/telemetry`; a dispatcher loads it itself when OpenTelemetry is in use.
export type * from "./telemetry/telemetry.js";
export * from "./telemetry/names.js";
export * from "./jsonrpc/dispatcher/index.js";
export { PROFILES, profileOf, versionsOf, type Era, type RevisionProfile } from "./protocol/profiles.js";
export * from "./transport/transport/index.js";
export * from "./transport/in-memory/index.js";
export * from "./transport/stdio/index.js";
export * from "./transport/http-client/index.js";
export * from "./transport/http-server/index.js";
export * from "./uri-template/index.js";
export * from "./json-schema/index.js";
export * from "./server/mcp-server/index.js";
// Where tasks live (`TaskStore`, `InMemoryTaskStore`); apps that do not use it carry none of it.
export * from "./stores/index.js";
// Tasks for MCPServer (`serverTasks()`); apps that do not use them carry none of it.
export * from "./server/tasks/index.js";
// The resource-server side of OAuth for the HTTP handlers (`authorization`); apps that do not use it carry none of it.
export * from "./auth/server/index.js";
export * from "./client/mcp-client/index.js";
// Several servers of an `mcpServers` configuration behind one client; apps that do not use it carry none of it.
export * from "./client/group/index.js";
export * from "./auth/client/index.js";
export * from "./auth/jose/index.js";
export * from "./middleware/index.js";
export * from "./server/compose/index.js";
export * from "./proxy/index.js";

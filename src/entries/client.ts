// `@suaveplan/mcp/client`: `MCPClient` and what it connects with (in-memory, stdio, Streamable HTTP
// and HTTP+SSE transports, several servers in one group, the authorization client), none of the
// server's code. A process loads only this side; the universal entry exports all of it too (the
// same objects). The JSON Schema validator still comes when first needed (src/lazy/lazy.md).
export * from "./common.js";
export * from "../transport/http-client/index.js";
export * from "../uri-template/index.js";
export * from "../client/mcp-client/index.js";
export * from "../client/group/index.js";
export * from "../auth/client/index.js";
export * from "../auth/jose/index.js";
export * from "../middleware/index.js";

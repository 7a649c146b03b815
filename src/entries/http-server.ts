// `@suaveplan/mcp/http-server`: an `MCPServer` over HTTP (`@suaveplan/mcp/server`): the web-standard
// handlers for Streamable HTTP and HTTP+SSE, their event store, several processes behind one
// endpoint (`sessionCluster`), and the resource-server side of OAuth with the keys it checks tokens with.
export * from "../transport/http-server/index.js";
export * from "../auth/server/index.js";
export * from "../auth/jose/index.js";

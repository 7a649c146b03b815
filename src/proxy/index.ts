// The proxy: an MCPServer that serves an upstream MCP server through an MCPClient, in either era on each side.
export { proxy } from "./proxy.js";
export { proxyClient, type ProxyClientOptions } from "./input-router.js";
export type { ProxyHandle, ProxyOptions } from "./proxy.types.js";

// The universal entry: runs on Node, Bun, Deno, browsers and edge workers; imports no node:* module.
// Both sides (src/entries/entries.md), as the same objects, and the proxy, which needs both. The
// order is the client's, the server's, its HTTP handlers': a bundler keeps it, and gzip does better so.
export * from "./entries/client.js";
export * from "./entries/server.js";
export * from "./entries/http-server.js";
export * from "./proxy/index.js";

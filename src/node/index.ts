/**
 * `@suaveplan/mcp/node`: adapters that need Node.js (process stdio, child processes, the node:http
 * bridge). The universal entry never imports this one. It is filled by the stdio and HTTP work.
 */
export {};

/**
 * `@suaveplan/mcp/node`: adapters that need Node.js — serving a server on this process's stdio,
 * launching a server as a child process, Node stream adapters. The universal entry never imports it.
 */
export { serveStdio, type ServeStdioOptions } from "./serve-stdio.js";
export { ChildProcessTransport, spawnStdioServer, type ChildExit, type SpawnStdioOptions } from "./spawn-stdio.js";
export { sourceOf, writableOf } from "./node-streams.js";
export { toNodeHandler, type FetchHandler } from "./http-bridge.js";
export { serveHttp, type ServeHttpOptions, type ServedHttp } from "./http-serve.js";
export { nodeFetch, type NodeFetchOptions } from "./node-fetch.js";
export { loopbackInteraction, type LoopbackInteraction, type LoopbackOptions } from "./oauth-loopback.js";
export { stdioTransportFor, type StdioTransportForOptions } from "./server-group.js";

import type { Readable, Writable } from "node:stream";
import type { MCPServer } from "../server/mcp-server/mcp-server.js";
import type { ServerSession } from "../server/mcp-server/session.js";
import { StdioTransport } from "../transport/stdio/stdio.js";
import { sourceOf, writableOf } from "./node-streams.js";

export interface ServeStdioOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  readonly maxFrameBytes?: number;
  /**
   * Sends console.log/info/debug/warn to stderr, so stray logging cannot corrupt the protocol stream (default true when serving on
   * process.stdout).
   */
  readonly redirectConsole?: boolean;
}

/**
 * Serves `server` on this process's stdin/stdout, as desktop hosts launch MCP servers. Resolves
 * with the session; `session.finished` resolves when stdin ends, after which the process can exit.
 */
export async function serveStdio(server: MCPServer, options: ServeStdioOptions = {}): Promise<ServerSession> {
  const stdout = options.stdout ?? process.stdout;
  if (options.redirectConsole ?? stdout === process.stdout) redirectConsoleToStderr();
  const transport = new StdioTransport({
    readable: sourceOf(options.stdin ?? process.stdin),
    // process.stdout is never ended: other code of the process may still own it.
    writable: writableOf(stdout, { endOnClose: stdout !== process.stdout }),
    ...(options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes }),
  });
  return server.start(transport);
}

function redirectConsoleToStderr(): void {
  const toStderr = console.error.bind(console);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
}

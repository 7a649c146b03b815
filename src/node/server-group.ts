import type { TransportFor } from "../client/group/group.types.js";
import type { ServerEntry } from "../client/group/servers-config.js";
import { spawnStdioServer, type ChildProcessTransport, type SpawnStdioOptions } from "./spawn-stdio.js";

export interface StdioTransportForOptions {
  /**
   * What to do with each child's stderr besides keeping its tail: forward it, or hand it to a function with the server's name. Default:
   * keep only.
   */
  readonly stderr?: "keep" | "inherit" | ((text: string, server: string) => void);
  /** How long closing waits for a child after ending its stdin, and again after SIGTERM (default 2000 ms). */
  readonly closeTimeoutMs?: number;
  readonly maxFrameBytes?: number;
  /** Hears each child started, e.g. to keep its PID. */
  readonly onSpawn?: (server: string, transport: ChildProcessTransport) => void;
}

/**
 * The `transportFor` of an `MCPClientGroup` on Node: a stdio entry is started as a child process
 * (`spawnStdioServer`: its `env` added to a minimal safe environment, never the host's whole one,
 * in its `cwd`); an HTTP entry is left to the group (`undefined`).
 */
export function stdioTransportFor(options: StdioTransportForOptions = {}): TransportFor {
  return async (server: string, entry: ServerEntry) => {
    if (entry.type !== "stdio") return undefined;
    const transport = await spawnStdioServer({
      ...childOptions(server, options),
      command: entry.command,
      args: entry.args ?? [],
      env: entry.env ?? {},
      ...(entry.cwd === undefined ? {} : { cwd: entry.cwd }),
    });
    options.onSpawn?.(server, transport);
    return transport;
  };
}

function childOptions(server: string, options: StdioTransportForOptions): Omit<SpawnStdioOptions, "command"> {
  const stderr = options.stderr;
  return {
    stderr: typeof stderr === "function" ? (text: string) => stderr(text, server) : (stderr ?? "keep"),
    ...(options.closeTimeoutMs === undefined ? {} : { closeTimeoutMs: options.closeTimeoutMs }),
    ...(options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes }),
  };
}

import type { AddressInfo } from "node:net";
import { toNodeHandler, type FetchHandler } from "./http-bridge.js";

export interface ServeHttpOptions {
  /** The TCP port; 0 picks a free one. */
  readonly port: number;
  /** The address to listen on (default 127.0.0.1: reachable from this machine only). */
  readonly host?: string;
}

export interface ServedHttp {
  /** Where the server listens, e.g. "http://127.0.0.1:53117/". */
  readonly url: string;
  /** Stops listening and drops every open connection (close the handler first to end its sessions cleanly). */
  close(): Promise<void>;
}

/** Serves a web-standard handler (`streamableHttpHandler`, `sseHttpHandler`, any `fetch`) with `node:http`. */
export async function serveHttp(handler: FetchHandler, options: ServeHttpOptions): Promise<ServedHttp> {
  const host = options.host ?? "127.0.0.1";
  // Loaded here, not imported: a process that never serves HTTP (a stdio server child) never loads it.
  const server = process.getBuiltinModule("node:http").createServer(toNodeHandler(handler));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

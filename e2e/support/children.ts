// Test support: a Node script as a stdio server child, stopped by its PID after the test if closing
// the client did not end it.
import { spawnStdioServer, type ChildProcessTransport } from "../../src/node/index.js";

/**
 * Spawns `node <args>`; `defer` gets the cleanup that kills the child by PID (SIGKILL) unless it already exited, and waits for its exit.
 */
export async function spawnNodeChild(
  args: readonly string[],
  defer: (cleanup: () => Promise<void>) => void,
): Promise<ChildProcessTransport> {
  const transport = await spawnStdioServer({ command: process.execPath, args: [...args] });
  let exited = false;
  void transport.exited.then(() => (exited = true));
  const pid = transport.pid;
  defer(async () => {
    if (!exited && pid !== undefined) process.kill(pid, "SIGKILL");
    await transport.exited;
  });
  return transport;
}

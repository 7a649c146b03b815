// A TCP relay on 127.0.0.1 in front of a test server: the client keeps one address while the test
// drops every connection through it or points it at another server, so no test has to listen again
// on a port it just closed (which another process may have taken in between).
import { connect, createServer, type Socket } from "node:net";

export interface TcpProxy {
  /** `http://127.0.0.1:<port>`: the address clients use. */
  readonly url: string;
  /** Connections from now on go to this port. */
  retarget(port: number): void;
  /**
   * Ends every connection through the relay and resolves once each client has closed its end too,
   * so a client's next request cannot go out on a kept-alive connection it has not seen end.
   */
  dropAll(): Promise<void>;
  close(): Promise<void>;
}

export async function tcpProxy(targetPort: number): Promise<TcpProxy> {
  let target = targetPort;
  const clients = new Set<Socket>();
  const relay = createServer((inbound) => {
    const outbound = connect({ host: "127.0.0.1", port: target });
    clients.add(inbound);
    inbound.once("close", () => clients.delete(inbound));
    for (const socket of [inbound, outbound]) socket.on("error", () => socket.destroy());
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    inbound.once("close", () => outbound.destroy());
    outbound.once("close", () => inbound.end());
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const address = relay.address();
  if (address === null || typeof address === "string") throw new Error("the relay has no TCP address");
  // An end, not a destroy: the client answers it with its own end, and only then is the socket closed here.
  const dropAll = async (): Promise<void> => {
    await Promise.all([...clients].map((socket) => new Promise<void>((resolve) => socket.once("close", () => resolve()).end())));
  };
  return {
    url: `http://127.0.0.1:${address.port}`,
    retarget: (port) => void (target = port),
    dropAll,
    close: async () => {
      await dropAll();
      await new Promise<void>((resolve, reject) => relay.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

import {
  HttpSseTransport,
  InMemoryTransport,
  MCPClient,
  sseHttpHandler,
  StreamableHttpTransport,
  streamableHttpHandler,
} from "@suaveplan/mcp";
import { nodeFetch, serveHttp, spawnStdioServer } from "@suaveplan/mcp/node";
import { servedHandler } from "./http-util.mjs";
import { oursServer } from "./ours-server.mjs";

export { oursServer };

/** The rows of the session era measure our client in it: where the transport carries both eras, "auto" would speak the stateless one. */
export const SESSION_ERA = { era: "session" };

function wrap(client, extra = {}) {
  return {
    client,
    call: (args) => client.callTool("echo", args),
    ping: () => client.ping(),
    cpu: async () => Number((await client.callTool("cpu", {})).content[0].text),
    ...extra,
    close: async () => {
      await client.close();
      await extra.close?.();
    },
  };
}

export async function oursInProcess(server = oursServer()) {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  await server.start(serverEnd);
  const client = new MCPClient({ name: "bench", version: "1.0.0" }, SESSION_ERA);
  await client.connect(clientEnd);
  return wrap(client);
}

/** `options`: the client's (the session era by default; `{}` lets it find the era, the stateless one against our child). */
export async function oursStdio(script, options = SESSION_ERA) {
  const client = new MCPClient({ name: "bench", version: "1.0.0" }, options);
  await client.connect(await spawnStdioServer({ command: process.execPath, args: [script], stderr: "inherit" }));
  return wrap(client);
}

/**
 * mode: "sse" (Streamable HTTP, SSE answers), "json" (Streamable HTTP, JSON answers), "legacy" (HTTP+SSE).
 * The client is built without a `fetchImpl`, as a user's would be (on Node that is `nodeFetch()`), or,
 * with `platformFetch`, is given the platform fetch.
 */
export async function oursHttp(mode, { platformFetch = false } = {}) {
  const server = oursServer();
  const handler = mode === "legacy" ? sseHttpHandler(server, {}) : streamableHttpHandler(server, { enableJsonResponse: mode === "json" });
  const served = await serveHttp(handler, { port: 0 });
  const url = new URL("/mcp", served.url);
  const client = new MCPClient({ name: "bench", version: "1.0.0" }, SESSION_ERA);
  const options = platformFetch ? { fetchImpl: (target, init) => globalThis.fetch(target, init) } : {};
  await client.connect(mode === "legacy" ? new HttpSseTransport(url, options) : new StreamableHttpTransport(url, options));
  return wrap(client, {
    close: async () => {
      await handler.close();
      await served.close();
    },
  });
}

/**
 * Our client over Streamable HTTP to a server already listening at `url` (the rows of our client in
 * the 2026-07-28 era: `servers/ours-http.mjs`), over `nodeFetch()`; `options` as for `oursStdio`.
 * `fetchImpl`: another fetch (`profile`/request counting wrap `nodeFetch()`).
 */
export async function oursStreamableHttp(url, options = SESSION_ERA, fetchImpl = nodeFetch()) {
  const client = new MCPClient({ name: "bench", version: "1.0.0" }, options);
  await client.connect(new StreamableHttpTransport(url, { fetchImpl }));
  return wrap(client);
}

/** Our server for the 2026-07-28 rows: `streamableHttpHandler(server)` served by `serveHttp`; the client is the scenario's. */
export function oursStatelessHttp() {
  return servedHandler(streamableHttpHandler(oursServer()));
}

/** Our server in-process behind JSON lines, as a stdio child would see them (for `profile.mjs`): `{ write, onLine, close }`. */
export async function oursLines() {
  const [clientEnd, serverEnd] = InMemoryTransport.pair();
  let receive;
  await clientEnd.start({
    onMessage: (message) => receive(JSON.stringify(message)),
    onMalformed: () => undefined,
    onClose: () => undefined,
  });
  await oursServer().start(serverEnd);
  return {
    write: (text) => void clientEnd.send(JSON.parse(text)),
    onLine: (listener) => (receive = listener),
    close: () => clientEnd.close(),
  };
}

// The 2026-07-28 (stateless) era: tools/call with the revision's `_meta` (and, over HTTP, its headers),
// no initialize, no session. Every contender is called by the same raw client
// (`impls/stateless-client.mjs`), so only the server differs. HTTP on 127.0.0.1, server and client in
// this process: ours (`streamableHttpHandler` served by `serveHttp`), SDK 2.x (`createMcpHandler`
// through the same node:http bridge), and the limit's node:http server. Stdio: the server children,
// ours also called in the session era by the same line client (initialize, then plain tools/call).
import { fileURLToPath } from "node:url";
import { nodeFetch } from "@suaveplan/mcp/node";
import { limitHttpServer, spawnLineChild } from "../impls/limit.mjs";
import { oursStatelessHttp, oursStdio, oursStreamableHttp, SESSION_ERA } from "../impls/ours.mjs";
import { sdk2StatelessHttp, sdk2Stdio, sdk2StreamableHttp } from "../impls/sdk2.mjs";
import { sessionStdioClient, statelessHttpClient, statelessStdioClient } from "../impls/stateless-client.mjs";

const overHttp = (serve) => async () => {
  const served = await serve();
  return statelessHttpClient(served.url, served.close);
};

const limitServed = async () => {
  const served = await limitHttpServer();
  return { url: `${served.url}/mcp`, close: served.close };
};

export const HTTP_2026 = { ours: overHttp(oursStatelessHttp), sdk2: overHttp(sdk2StatelessHttp), limit: overHttp(limitServed) };

const script = (name) => fileURLToPath(new URL(`../servers/${name}-stdio.mjs`, import.meta.url));

/** `session`: our child in the session era, called by the same line client. */
export const STDIO_2026 = {
  ours: () => statelessStdioClient(script("ours")),
  sdk2: () => statelessStdioClient(script("sdk2-2026")),
  limit: () => statelessStdioClient(script("limit")),
  session: () => sessionStdioClient(script("ours")),
};

/**
 * Our client in the stateless era over stdio: every contender calls our child (dual-era), so only the
 * client differs, and only this process's CPU is counted. Ours finds the era by itself (a
 * server/discover probe, then 2026-07-28 requests); SDK 2.x is pinned to 2026-07-28; the limit is the
 * raw line client; `session` is our client pinned to the session era against the same child.
 */
export const STDIO_2026_CLIENT = {
  ours: () => oursStdio(script("ours"), {}),
  sdk2: () => sdk2Stdio(script("ours"), { pin: "2026-07-28" }),
  limit: () => statelessStdioClient(script("ours")),
  session: () => oursStdio(script("ours")),
};

/**
 * Our server as an HTTP child (`servers/ours-http.mjs`: one MCPServer, both eras, on 127.0.0.1 port
 * 0): `json`, the URL of its handler with `enableJsonResponse`, `sse`, that of its handler with the
 * default (SSE answers in the session era); `close` ends the child.
 */
export async function oursHttpChild() {
  const child = await spawnLineChild(fileURLToPath(new URL("../servers/ours-http.mjs", import.meta.url)));
  const urls = await new Promise((resolve) => child.onLine((line) => resolve(JSON.parse(line))));
  return { ...urls, close: child.close };
}

/**
 * Our client in the stateless era over Streamable HTTP: every contender calls the same server child
 * (`oursHttpChild`), so only the client differs, and only this process's CPU is counted. Ours finds
 * the era by itself (a server/discover probe, then 2026-07-28 requests); `session` is our client
 * pinned to the session era against the same handler (JSON answers, as the stateless era's);
 * `session-sse` the same against the handler's default (SSE answers); SDK 2.x's client is pinned to
 * 2026-07-28 (on the platform fetch, its default); the limit is the raw 2026 client over node:http.
 * Our client goes over `nodeFetch()`.
 */
export function httpClientContenders(child) {
  return {
    ours: () => oursStreamableHttp(child.json, {}),
    session: () => oursStreamableHttp(child.json, SESSION_ERA),
    "session-sse": () => oursStreamableHttp(child.sse, SESSION_ERA),
    sdk2: () => sdk2StreamableHttp(child.json, { pin: "2026-07-28" }),
    limit: () => statelessHttpClient(child.json, async () => undefined),
  };
}

/**
 * Our client's connect over Streamable HTTP, in the set-up form of `memory.mjs` (`setups[name]()`
 * makes a connect that returns its close): a new client with its own `nodeFetch()` (so its own TCP
 * connection) per connect; ours probes (server/discover), `session` runs the handshake.
 */
export function connectOverHttp(child) {
  const setup = (options) => () => async () => (await oursStreamableHttp(child.json, options)).close;
  return { ours: setup({}), session: setup(SESSION_ERA) };
}

/** The HTTP requests one connect (and its close) of our client makes, each as "METHOD jsonrpc-method": ours (auto) and `session`. */
export async function connectRequests(child) {
  const describe = async (options) => {
    const requests = [];
    const inner = nodeFetch();
    // Object.assign keeps nodeFetch's mark that it takes the transports' light cancel signals.
    const counting = Object.assign((url, init) => {
      requests.push(`${init.method}${typeof init.body === "string" ? ` ${JSON.parse(init.body).method ?? "(response)"}` : ""}`);
      return inner(url, init);
    }, inner);
    const connection = await oursStreamableHttp(child.json, options, counting);
    const connect = requests.splice(0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const after = requests.splice(0);
    await connection.close();
    return { connect, after, close: requests.splice(0) };
  };
  return { ours: await describe({}), session: await describe(SESSION_ERA) };
}
